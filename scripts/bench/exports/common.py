"""What the export writers share: reading the corpus, times, text of the corpus's kinds, media.

Every writer gets the corpus's conversations one at a time (`conversations`) and writes each
corpus message as exactly one record of its format, so that a build of the export shows as many
messages as the corpus holds. Output is byte-deterministic: everything derives from the corpus.
"""

import calendar
import json
import os
import re
import shutil
import subprocess

SYSTEM_MARKERS = [(" joined the conversation", "joined"), (" left the conversation", "left"),
                  (" renamed the group to ", "renamed"), (" changed the group photo", "photo"),
                  (" pinned a message", "pinned")]


def conversations(corpus):
    """The corpus's logs in name order, each parsed: (number from 1, log)."""
    names = sorted(name for name in os.listdir(corpus) if re.fullmatch(r"conv-\d+\.json", name))
    for number, name in enumerate(names, 1):
        with open(os.path.join(corpus, name), encoding="utf-8") as f:
            yield number, json.load(f)


def epoch_ms(date):
    """Milliseconds since 1970 of the corpus's `YYYY-MM-DDTHH:MM:SS[.mmm]Z`."""
    seconds = calendar.timegm((int(date[0:4]), int(date[5:7]), int(date[8:10]), int(date[11:13]),
                               int(date[14:16]), int(date[17:19]), 0, 0, 0))
    return seconds * 1000 + (int(date[20:23]) if date[19] == "." else 0)


def kind(msg):
    return msg.get("kind", "text")


def system_event(msg, people):
    """(what, who, rest) of a corpus system line: what from SYSTEM_MARKERS, who the participant
    (or None) the line starts with, rest the text after the name."""
    text = msg["text"]
    what = next((w for marker, w in SYSTEM_MARKERS if marker in text), "other")
    who = next((p for p in people.values() if text.startswith(p["name"] + " ")), None)
    return what, who, text[len(who["name"]) + 1:] if who else text


def location_text(loc):
    """A shared location as a chat app without a location kind shows it: a line with a map link."""
    label = loc.get("name", "Location")
    address = (", " + loc["address"]) if "address" in loc else ""
    return "📍 %s%s https://maps.example.com/?q=%s,%s" % (label, address, loc["latitude"], loc["longitude"])


def poll_lines(data):
    """A poll as text lines: the question, then each option with its votes."""
    return ["📊 " + data["question"]] + ["%d. %s (%d)" % (i + 1, option, votes)
                                          for i, (option, votes) in enumerate(zip(data["options"], data["votes"]))]


def plain_text(msg):
    """The message as plain text, for formats with no markup and no kind of their own."""
    k = kind(msg)
    if k in ("text", "emoji", "linkPreview", "system"):
        return msg["text"]
    if k == "attributedText":
        return msg["markdown"]
    if k == "photo":
        return msg["media"].get("caption", "")
    if k == "location":
        return location_text(msg["location"])
    if k == "custom":
        return "\n".join(poll_lines(msg["custom"]["data"]))
    return msg.get("text", "")


def markdown_text(msg):
    """The message as Markdown (for formats whose text is Markdown: Discord, Mattermost, AI chats)."""
    if kind(msg) == "attributedText":
        return msg["markdown"]
    if kind(msg) == "custom":
        return "\n\n".join(poll_lines(msg["custom"]["data"]))
    return plain_text(msg)


def chat_markup(markdown):
    """The corpus's GFM in the single-character markup of WhatsApp and Google Chat (`*bold*`,
    `_italic_`, `~strike~`, ```` ``` ```` blocks): what people type in those apps."""
    out = []
    for index, part in enumerate(re.split(r"(```[^\n]*\n.*?\n```)", markdown, flags=re.S)):
        if index % 2 == 1:
            out.append("```" + part.split("\n", 1)[1])
            continue
        part = re.sub(r"\[([^\]]+)\]\((https?://[^)]+)\)", r"\1 (\2)", part)
        part = re.sub(r"(?<!\*)\*([^*\n]+)\*(?!\*)", r"_\1_", part)
        part = re.sub(r"\*\*([^*\n]+)\*\*", r"*\1*", part)
        part = re.sub(r"~~([^~\n]+)~~", r"~\1~", part)
        part = re.sub(r"(?m)^#+ (.*)$", r"*\1*", part)
        out.append(part)
    return "".join(out)


SPLIT = "XBENCHSPLITX"


def html_of_markdown(bodies):
    """Each Markdown body as HTML by cmark-gfm (Debian's, the renderer the project wraps), in one
    process for all of them: the bodies are joined by a paragraph of their own and split after."""
    if not bodies:
        return []
    joined = ("\n\n%s\n\n" % SPLIT).join(bodies) + "\n"
    html = subprocess.run(["cmark-gfm", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tasklist"],
                          input=joined.encode(), capture_output=True, check=True).stdout.decode()
    parts = html.split("<p>%s</p>\n" % SPLIT)
    if len(parts) != len(bodies):
        raise SystemExit("cmark-gfm split %d bodies into %d parts" % (len(bodies), len(parts)))
    return [part.strip() for part in parts]


def copy_photo(corpus, media, folder, name=None):
    """Puts a photo message's PNG into `folder` (once) as `name` (default: its own), a hard link
    where it can (one file a photo message, as exports have, without the disk space); the name."""
    name = name or os.path.basename(media["url"])
    os.makedirs(folder, exist_ok=True)
    stored = os.path.join(folder, name)
    if not os.path.exists(stored):
        try:
            os.link(os.path.join(corpus, media["url"]), stored)
        except OSError:
            shutil.copyfile(os.path.join(corpus, media["url"]), stored)
    return name


def write_json(path, value, indent=None, ascii_only=False):
    """`value` as JSON at `path` (its folders made), UTF-8 unless `ascii_only` escapes it all."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(value, f, ensure_ascii=ascii_only, indent=indent)
