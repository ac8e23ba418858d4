#!/usr/bin/env python3
"""Writes the hostile-input fixture: logs whose every field carries attack strings.

The strings are the Big List of Naughty Strings, read from `$REPO/../shared` (never copied
into the repo), plus classic XSS / CSS-injection / path-escape payloads of our own. Each
payload that could run script sets `window.__pwned`, so the browser suite can tell whether
anything ran.

Usage: generate.py OUTPUT_DIR [--blns PATH]
Writes OUTPUT_DIR/input/ (the site input folder) and OUTPUT_DIR/outside-secret.png (a file
just outside the input folder that must never be copied into the site) and
OUTPUT_DIR/expectations.json (what the browser suite checks).
"""
import argparse
import json
import os
import pathlib
import struct
import sys
import zlib

REPO = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "Tests" / "Fixtures"))
from shared_folder import shared_folder  # noqa: E402

DEFAULT_BLNS = shared_folder() / "samples" / "security" / "blns" / "blns.json"

# Marker text of the file outside the input folder; it must never appear in the site.
SECRET_MARKER = "SCROLLBACK-OUTSIDE-SECRET-7f3a"

# Our own payloads. Every one that could execute sets window.__pwned.
XSS_PAYLOADS = [
    "<script>alert(1)</script>",
    "<script>window.__pwned='script'</script>",
    "<img src=x onerror=alert(1)>",
    "<img src=x onerror=\"window.__pwned='img'\">",
    "\" onmouseover=\"window.__pwned='attr'\" x=\"",
    "' onmouseover='window.__pwned=1' x='",
    "</style><script>window.__pwned='style'</script>",
    "</title><script>window.__pwned='title'</script>",
    "</textarea><script>window.__pwned='ta'</script>",
    "<svg onload=\"window.__pwned='svg'\">",
    "<svg><script>window.__pwned='svgscript'</script></svg>",
    "<iframe src=\"javascript:window.__pwned='iframe'\"></iframe>",
    "<a href=\"javascript:window.__pwned='a'\">click</a>",
    "<body onload=\"window.__pwned='body'\">",
    "<math><mtext><table><mglyph><style><img src=x onerror=\"window.__pwned='mxss'\">",
    "{{#x}}{{{raw}}}{{/x}} {{& raw}} ${window.__pwned='tpl'}",
    "--><script>window.__pwned='comment'</script><!--",
    "]]><script>window.__pwned='cdata'</script>",
    "<base href=\"https://evil.example/\">",
    "<meta http-equiv=\"refresh\" content=\"0;url=javascript:window.__pwned='meta'\">",
    "<link rel=stylesheet href=\"https://evil.example/x.css\">",
    "<style>body{background:url(https://evil.example/bg.png)}</style>",
]

EVIL_URLS = [
    "javascript:alert(1)",
    "javascript:window.__pwned='url'",
    " JaVaScRiPt:window.__pwned='url2'",
    "java\tscript:window.__pwned='url3'",
    "vbscript:msgbox(1)",
    "data:text/html,<script>window.__pwned='data'</script>",
    "file:///etc/passwd",
    "../../../../../../../../../../etc/passwd",
    "/etc/passwd",
    "../outside-secret.png",
    "media/escape-link.png",  # a symlink inside the input folder pointing outside it
    "//evil.example/x.png",
    "\" onerror=\"window.__pwned='src'",
]

EVIL_COLORS = [
    "red;background:url(//evil.example/c.png)",
    "red}</style><script>window.__pwned='color'</script>",
    "expression(window.__pwned='ie')",
    "#fff\" onmouseover=\"window.__pwned='colorattr'",
    "url(https://evil.example/x.png)",
]

EVIL_HTML = [
    "<p>ok</p><iframe src=\"https://evil.example/\"></iframe>",
    "<iframe srcdoc=\"<script>parent.__pwned='srcdoc'</script>\"></iframe>",
    "<p onclick=\"window.__pwned='p'\" style=\"background:url(https://evil.example/s.png)\">styled</p>",
    "<a href=\"javascript:window.__pwned='ahtml'\">link</a> <a href=\"https://example.com\" target=_blank>ok</a>",
    "<img src=\"https://evil.example/track.png\" onerror=\"window.__pwned='imghtml'\">",
    "<object data=\"https://evil.example/x.swf\"></object><embed src=\"https://evil.example/e\">",
    "<form action=\"javascript:window.__pwned='form'\"><button>go</button></form>",
    "<svg><a xlink:href=\"javascript:window.__pwned='xlink'\"><text>x</text></a></svg>",
    "<math href=\"javascript:window.__pwned='math'\">m</math>",
    "<details open ontoggle=\"window.__pwned='toggle'\">d</details>",
    "<table><tr><td background=\"https://evil.example/bg\">cell</td></tr></table>",
    "<style>@import 'https://evil.example/i.css';</style><b>bold</b>",
    "<scr<script>ipt>window.__pwned='nested'</scr</script>ipt>",
    "<noscript><p title=\"</noscript><img src=x onerror=window.__pwned='noscript'>\"></noscript>",
]

EVIL_MARKDOWN = [
    "[click](javascript:window.__pwned='md')",
    "![img](javascript:window.__pwned='mdimg')",
    "<script>window.__pwned='mdraw'</script> raw html",
    "[x](https://evil.example/ \"title\" onmouseover=alert(1))",
    "<https://evil.example/autolink>",
    "| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | ~~s~~ |",
    "- [ ] task <svg onload=alert(1)>",
    "![remote](https://evil.example/remote.png)",
]


def tiny_png(width, height, rgb):
    """A valid solid-colour PNG."""
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def usable(text):
    """Whether a string can be written as UTF-8 JSON (no lone surrogates)."""
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def iso(index):
    """A deterministic date: one message a minute from 2024-03-01, crossing a day boundary."""
    minutes = 23 * 60 + index  # starts at 23:00 so the day changes after 60 messages
    day, minute = divmod(minutes, 24 * 60)
    return f"2024-03-{1 + day:02d}T{minute // 60:02d}:{minute % 60:02d}:00Z"


def build_json_log(strings):
    """One JSON conversation using every string in every log field, rotating through them."""
    def pick(i):
        return strings[i % len(strings)]

    participants = [
        {"id": "me", "name": "<script>window.__pwned='name'</script>Me", "color": EVIL_COLORS[0],
         "avatar": "javascript:window.__pwned='avatar'"},
        {"id": "mallory", "name": "Mallory \" onmouseover=\"window.__pwned='n'\" <b>", "color": EVIL_COLORS[1],
         "avatar": "../../../../../../../../../../etc/passwd"},
        {"id": "eve", "name": "</style><script>window.__pwned='eve'</script>", "color": EVIL_COLORS[3],
         "avatar": "/etc/passwd"},
        {"id": "trent", "name": "Trent 👨‍👩‍👧 ‮RTL", "color": EVIL_COLORS[2], "avatar": "../outside-secret.png"},
    ]
    # Participants named by each naughty string, so names are covered too.
    name_count = 40
    for n in range(name_count):
        participants.append({"id": f"p{n}", "name": pick(n * 7 + 1) or "(empty)",
                             "color": EVIL_COLORS[n % len(EVIL_COLORS)],
                             "avatar": EVIL_URLS[n % len(EVIL_URLS)]})
    senders = [p["id"] for p in participants]

    messages = []
    text_expectations = []

    def add(message):
        index = len(messages)
        message.setdefault("id", f"m{index}")
        message.setdefault("date", iso(index))
        if message.get("kind") != "system":
            message.setdefault("sender", senders[index % len(senders)])
        messages.append(message)
        return message

    # Every string as a text message (its text must stay visible), with reactions and edits.
    for i, text in enumerate(strings):
        message = add({"kind": "text", "text": text,
                       "reactions": [{"emoji": pick(i + 3), "senders": [senders[(i + 1) % len(senders)]]}],
                       "status": ["sent", "delivered", "read"][i % 3]})
        if i % 5 == 0:
            message["edited"] = iso(len(messages) + 1)
        if i % 9 == 0 and len(messages) > 2:
            message["replyTo"] = messages[-2]["id"]
        text_expectations.append({"id": message["id"], "text": text})
    # Every string in the other fields.
    for i, text in enumerate(strings):
        kind = i % 8
        if kind == 0:
            add({"kind": "photo", "media": {"url": EVIL_URLS[i % len(EVIL_URLS)], "alt": text,
                                            "caption": pick(i + 1), "width": 40, "height": 30}})
        elif kind == 1:
            add({"kind": "linkPreview", "text": pick(i + 1),
                 "link": {"url": EVIL_URLS[i % len(EVIL_URLS)], "title": text, "teaser": pick(i + 2),
                          "thumbnail": EVIL_URLS[(i + 1) % len(EVIL_URLS)], "siteName": pick(i + 3)}})
        elif kind == 2:
            add({"kind": "custom", "custom": {"id": "poll", "data": {"question": text, "options": [pick(i + 1), pick(i + 2)],
                                                                     "html": XSS_PAYLOADS[i % len(XSS_PAYLOADS)]}}})
        elif kind == 3:
            add({"kind": "custom", "custom": {"id": text or "empty-id", "data": [text, {"k": pick(i + 1)}]}})
        elif kind == 4:
            add({"kind": "attributedText", "markdown": text + "\n\n" + EVIL_MARKDOWN[i % len(EVIL_MARKDOWN)]})
        elif kind == 5:
            add({"kind": "attributedText", "html": EVIL_HTML[i % len(EVIL_HTML)] + "<p>" + text + "</p>"})
        elif kind == 6:
            add({"kind": "system", "text": text})
        else:
            add({"kind": ["video", "audio", "location", "contact"][(i // 8) % 4],
                 "media": {"url": EVIL_URLS[i % len(EVIL_URLS)], "poster": EVIL_URLS[(i + 2) % len(EVIL_URLS)],
                           "title": text, "duration": 12, "width": 32, "height": 18},
                 "location": {"latitude": 52.5, "longitude": 13.4, "name": text, "address": pick(i + 1)},
                 "contact": {"name": text or "x", "phones": [pick(i + 1), "javascript:alert(1)"],
                             "emails": [pick(i + 2), "\"><script>window.__pwned='mail'</script>@x"]}})
    # Path escapes: each must be refused with a placeholder and a warning.
    escapes = []
    for url in ["../../../../../../../../../../etc/passwd", "/etc/passwd", "../outside-secret.png",
                "media/escape-link.png", "file:///etc/passwd"]:
        message = add({"kind": "photo", "media": {"url": url, "alt": "escape " + url}})
        escapes.append({"id": message["id"], "url": url})
    emojis = add({"kind": "emoji", "text": "😀🔥"})  # a harmless one, so every kind is present
    del emojis
    log = {
        "version": 1,
        "id": "hostile",
        "title": "Hostile <script>window.__pwned='title'</script> & \"quotes\" </title><script>window.__pwned='t2'</script>",
        "description": "<img src=x onerror=\"window.__pwned='desc'\"> </style><script>window.__pwned='d'</script> "
                       + " | ".join(strings[:20]),
        "me": "me",
        "timezone": "UTC",
        "participants": participants,
        "messages": messages,
    }
    return log, text_expectations, escapes


def build_markdown_log():
    """A Markdown log whose front matter and bodies carry payloads (through cmark-gfm + sanitizer)."""
    title = json.dumps("MD <script>window.__pwned='mdtitle'</script> title", ensure_ascii=False)
    lines = [
        "---",
        f"title: {title}",
        "me: alice",
        "timezone: UTC",
        "participants:",
        f"  alice: {json.dumps('Alice <img src=x onerror=alert(1)>', ensure_ascii=False)}",
        "  bob:",
        f"    name: {json.dumps('Bob </style><script>window.__pwned=1</script>', ensure_ascii=False)}",
        "    avatar: \"javascript:window.__pwned='mdavatar'\"",
        f"    color: {json.dumps(EVIL_COLORS[0])}",
        "---",
        "",
        "# 2024-05-03",
        "",
    ]
    for i, body in enumerate(EVIL_MARKDOWN + EVIL_HTML):
        sender = "alice" if i % 2 == 0 else "bob"
        lines += [f"**{sender}** 09:{i:02d}", body, ""]
    lines += ["_10:00_ System <script>window.__pwned='mdsys'</script>", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=pathlib.Path)
    parser.add_argument("--blns", type=pathlib.Path, default=DEFAULT_BLNS)
    args = parser.parse_args()

    naughty = [s for s in json.loads(args.blns.read_text(encoding="utf-8")) if usable(s)]
    strings = naughty + XSS_PAYLOADS + EVIL_URLS + EVIL_COLORS

    root = args.output
    input_dir = root / "input"
    (input_dir / "media").mkdir(parents=True, exist_ok=True)
    (root / "outside-secret.png").write_bytes(tiny_png(2, 2, (255, 0, 0)) + SECRET_MARKER.encode())
    link = input_dir / "media" / "escape-link.png"
    if link.is_symlink() or link.exists():
        link.unlink()
    os.symlink("/etc/passwd", link)

    log, text_expectations, escapes = build_json_log(strings)
    (input_dir / "hostile.json").write_text(json.dumps(log, ensure_ascii=False, indent=1), encoding="utf-8")
    (input_dir / "hostile-markdown.md").write_text(build_markdown_log(), encoding="utf-8")
    # Remote media off: then nothing at all may load from another host.
    (input_dir / "scrollback.yml").write_text("title: \"Hostile <script>window.__pwned='site'</script>\"\nremoteMedia: false\n",
                                              encoding="utf-8")
    expectations = {
        "conversation": "hostile",
        "texts": text_expectations,
        "escapes": escapes,
        "secretMarker": SECRET_MARKER,
        "visiblePayloads": ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>"],
    }
    (root / "expectations.json").write_text(json.dumps(expectations, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
