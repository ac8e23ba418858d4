#!/usr/bin/env python3
"""Writes the layout-options fixture: a site whose config sets every spec §3 option away from
its default, and a conversation with groups, both alignments, system messages, day changes
and local photos (one without declared dimensions) for the layout-shift check.

Usage: fixture_options.py OUTPUT_DIR
Writes OUTPUT_DIR/input/ and OUTPUT_DIR/expectations.json.
"""
import datetime
import json
import pathlib
import struct
import sys
import zlib

# The non-default options; the suite reads these back from expectations.json.
LAYOUT = {
    "grouping": True,
    "groupGap": "10m",
    "collapseProfilePicture": False,
    "collapseEnclosingViews": False,
    "collapseTimestamps": "top",
    "messageMaxWidth": "60%",
    "messageCornerRadius": "18px",
}
PARTICIPANTS = [
    {"id": "me", "name": "Morgan Lee", "color": "#7c3aed"},
    {"id": "sam", "name": "Sam Okafor", "avatar": "media/sam.png"},
    {"id": "kim", "name": "Kim Tanaka", "color": "#0f766e"},
]


def png(width, height, rgb):
    """A valid solid-colour PNG of the given size."""
    row = b"\x00" + bytes(rgb) * width
    raw = row * height

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    output = pathlib.Path(sys.argv[1])
    input_dir = output / "input"
    (input_dir / "media").mkdir(parents=True, exist_ok=True)
    (input_dir / "media" / "sam.png").write_bytes(png(64, 64, (230, 120, 40)))
    (input_dir / "media" / "wide.png").write_bytes(png(800, 400, (40, 120, 230)))
    (input_dir / "media" / "tall.png").write_bytes(png(300, 600, (40, 200, 120)))
    (input_dir / "media" / "square.png").write_bytes(png(500, 500, (200, 40, 90)))

    config_lines = ["title: Layout options", "description: Every layout option away from its default",
                    "pageSize: 1000", "remoteMedia: false", "layout:"]
    config_lines += [f"  {key}: {json.dumps(value) if isinstance(value, str) else str(value).lower()}"
                     for key, value in LAYOUT.items()]
    (input_dir / "scrollback.yml").write_text("\n".join(config_lines) + "\n", encoding="utf-8")

    when = datetime.datetime(2024, 6, 1, 9, 0, tzinfo=datetime.timezone.utc)
    messages = []

    def add(minutes_later, **fields):
        nonlocal when
        when += datetime.timedelta(minutes=minutes_later)
        fields.setdefault("kind", "text")
        fields["id"] = f"o{len(messages) + 1}"
        fields["date"] = when.isoformat().replace("+00:00", "Z")
        messages.append(fields)

    # Photos first, so they are in the first viewport when the layout-shift check runs.
    add(0, sender="sam", kind="photo", media={"url": "media/wide.png", "alt": "A wide blue rectangle",
                                              "caption": "Declared size", "width": 800, "height": 400})
    add(1, sender="sam", kind="photo", media={"url": "media/tall.png", "alt": "A tall green rectangle"})
    add(1, sender="sam", text="Those two photos load slowly in the test; nothing may move.")
    add(2, sender="me", kind="photo", media={"url": "media/square.png", "alt": "A pink square", "width": 500, "height": 500})
    add(1, sender="me", text="Nice. " + "This message is long enough to reach the maximum bubble width of the layout. " * 4)
    add(8, sender="me", text="Still the same group: ten-minute gap allowed.")
    add(1, kind="system", text="Kim joined the conversation")
    add(2, sender="kim", text="Hi both 👋")
    add(11, sender="kim", text="Eleven minutes later: a new group.")
    add(1, sender="sam", text="A reply", replyTo="o2")
    add(60 * 20, sender="sam", text="Next day, same sender: a new group because the day changed.")
    add(1, sender="sam", kind="emoji", text="🎉")
    add(1, sender="kim", kind="attributedText", markdown="**Bold**, _italic_, ~~struck~~ and a [link](https://example.com).\n\n| a | b |\n|---|---|\n| 1 | 2 |")
    add(1, sender="me", text="Last one " + "with a long unbreakable token " + "y" * 200)
    add(60 * 24, sender="kim", text="A third day.")

    log = {"version": 1, "id": "options", "title": "Layout options", "me": "me", "timezone": "UTC",
           "description": "Groups, alignments, photos and days with non-default options",
           "participants": PARTICIPANTS, "messages": messages}
    (input_dir / "options.json").write_text(json.dumps(log, ensure_ascii=False, indent=1), encoding="utf-8")
    expectations = {"conversation": "options", "layout": LAYOUT, "timezone": "UTC", "participants": PARTICIPANTS,
                    "messages": [{"id": m["id"], "sender": m.get("sender"), "date": m["date"], "kind": m["kind"],
                                  "text": m.get("text")} for m in messages]}
    (output / "expectations.json").write_text(json.dumps(expectations, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
