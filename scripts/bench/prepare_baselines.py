#!/usr/bin/env python3
"""Turns a benchmark corpus (spec §1 JSON logs) into the inputs of the two baselines.

- A Hugo site (`--hugo DIR`): a minimal theme written here, one content page per
  1000 messages of a conversation, each message a small block with sender, time and
  its body as Markdown (raw HTML allowed for the wrapper only, as a theme would do).
- cmark-gfm input (`--cmark DIR`): one file per conversation, all message bodies
  separated by thematic breaks.

Both use the same Markdown body per message (`body_markdown`), so the three tools
render the same text. Output is deterministic (sorted inputs, fixed formatting).
"""

import argparse
import glob
import json
import os
import shutil
import sys

MESSAGES_PER_PAGE = 1000


def body_markdown(msg):
    """The message's visible content as Markdown, for every kind the corpus uses."""
    kind = msg.get("kind", "text")
    if kind in ("text", "emoji", "system"):
        return msg.get("text", "")
    if kind == "attributedText":
        return msg.get("markdown") or msg.get("html", "")
    if kind == "photo":
        media = msg["media"]
        text = "![%s](/%s)" % (media.get("alt", ""), media["url"])
        if "caption" in media:
            text += "\n\n" + media["caption"]
        return text
    if kind == "linkPreview":
        link = msg["link"]
        return "%s\n\n> **[%s](%s)**  \n> %s  \n> %s" % (
            msg.get("text", ""), link.get("title", link["url"]), link["url"],
            link.get("teaser", ""), link.get("siteName", ""))
    if kind == "location":
        loc = msg["location"]
        url = "https://www.openstreetmap.org/?mlat=%s&mlon=%s" % (loc["latitude"], loc["longitude"])
        return "📍 [%s](%s) %s" % (loc.get("name", "Location"), url, loc.get("address", ""))
    if kind == "custom":
        data = msg["custom"].get("data", {})
        options = "\n".join("- %s" % o for o in data.get("options", []))
        return "**%s**\n\n%s" % (data.get("question", ""), options)
    return msg.get("text", "")


def text_bytes(msg):
    """UTF-8 bytes of the user-visible strings of a message (what any renderer must emit)."""
    kind = msg.get("kind", "text")
    parts = []
    if "text" in msg:
        parts.append(msg["text"])
    if kind == "attributedText":
        parts.append(msg.get("markdown") or msg.get("html", ""))
    if "media" in msg:
        parts += [msg["media"].get("alt", ""), msg["media"].get("caption", "")]
    if "link" in msg:
        parts += [msg["link"].get(k, "") for k in ("title", "teaser", "siteName")]
    if "location" in msg:
        parts += [msg["location"].get("name", ""), msg["location"].get("address", "")]
    if "custom" in msg:
        data = msg["custom"].get("data", {})
        parts.append(data.get("question", ""))
        parts += data.get("options", [])
    return sum(len(p.encode("utf-8")) for p in parts)


def load_corpus(corpus):
    """Yields (conversation dict) for every conv-*.json, in sorted order."""
    for path in sorted(glob.glob(os.path.join(corpus, "*.json"))):
        with open(path, encoding="utf-8") as f:
            yield json.load(f)


HUGO_CONFIG = """baseURL = "http://127.0.0.1/"
title = "Scrollback benchmark (Hugo baseline)"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
relativeURLs = true

[markup.goldmark.renderer]
unsafe = true

[markup.goldmark.extensions]
table = true
strikethrough = true
linkify = true
taskList = true
"""

HUGO_LAYOUTS = {
    "baseof.html": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{ .Title }}</title><link rel="stylesheet" href="/style.css"></head>
<body>{{ block "main" . }}{{ end }}</body></html>
""",
    "single.html": """{{ define "main" }}<h1>{{ .Title }}</h1>
<main class="messages">{{ .Content }}</main>
{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">previous</a>{{ end }}
{{ with .NextInSection }}<a href="{{ .RelPermalink }}">next</a>{{ end }}{{ end }}
""",
    "list.html": """{{ define "main" }}<h1>{{ .Title }}</h1>
<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>{{ end }}
""",
    "home.html": """{{ define "main" }}<h1>{{ .Site.Title }}</h1>
<ul>{{ range .Sections }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> ({{ len .Pages }} pages)</li>{{ end }}</ul>{{ end }}
""",
}

HUGO_CSS = """body{font:15px/1.4 system-ui,sans-serif;max-width:48rem;margin:auto}
.msg{margin:.25rem 0;padding:.25rem .5rem;border-radius:8px;background:#f1f1f4}
.msg b{font-size:.85em}.msg time{color:#777;font-size:.75em}.msg img{max-width:100%;height:auto}
"""


def write_hugo_site(conversations, out):
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "layouts"))
    os.makedirs(os.path.join(out, "static"))
    with open(os.path.join(out, "hugo.toml"), "w") as f:
        f.write(HUGO_CONFIG)
    for name, text in HUGO_LAYOUTS.items():
        with open(os.path.join(out, "layouts", name), "w") as f:
            f.write(text)
    with open(os.path.join(out, "static", "style.css"), "w") as f:
        f.write(HUGO_CSS)
    for conv in conversations:
        names = {p["id"]: p["name"] for p in conv["participants"]}
        section = os.path.join(out, "content", conv["id"])
        os.makedirs(section)
        with open(os.path.join(section, "_index.md"), "w", encoding="utf-8") as f:
            f.write("---\ntitle: %s\n---\n" % json.dumps(conv.get("title", conv["id"]), ensure_ascii=False))
        messages = conv["messages"]
        for start in range(0, len(messages), MESSAGES_PER_PAGE):
            page_no = start // MESSAGES_PER_PAGE + 1
            chunks = ["---\ntitle: %s\nweight: %d\n---\n" % (
                json.dumps("%s (page %d)" % (conv.get("title", conv["id"]), page_no), ensure_ascii=False), page_no)]
            for msg in messages[start:start + MESSAGES_PER_PAGE]:
                sender = names.get(msg.get("sender"), "")
                chunks.append('\n<div class="msg %s" id="m-%s" data-message-id="%s"><b>%s</b> <time datetime="%s">%s</time>\n\n%s\n\n</div>\n' % (
                    msg.get("kind", "text"), msg["id"], msg["id"], sender, msg["date"], msg["date"][11:16], body_markdown(msg)))
            with open(os.path.join(section, "page-%04d.md" % page_no), "w", encoding="utf-8") as f:
                f.write("".join(chunks))


def write_cmark_inputs(conversations, out):
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    for conv in conversations:
        with open(os.path.join(out, conv["id"] + ".md"), "w", encoding="utf-8") as f:
            f.write("\n\n* * *\n\n".join(body_markdown(m) for m in conv["messages"]))
            f.write("\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--hugo", help="Hugo site folder to (re)create")
    parser.add_argument("--cmark", help="cmark-gfm input folder to (re)create")
    args = parser.parse_args(argv)
    conversations = list(load_corpus(args.corpus))
    if args.hugo:
        write_hugo_site(conversations, args.hugo)
        shutil.copytree(os.path.join(args.corpus, "media"), os.path.join(args.hugo, "static", "media"))
    if args.cmark:
        write_cmark_inputs(conversations, args.cmark)
    return 0


if __name__ == "__main__":
    sys.exit(main())
