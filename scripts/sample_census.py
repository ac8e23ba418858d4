#!/usr/bin/env python3
"""Counts every message of every real export in ../shared/samples three ways (issue 41).

For each sample folder (`<format>/<source>/`) it builds the folder with `scrollback build`,
and again through `scrollback import` + `build`, and compares:

- **source**: the records the export holds, counted here from the files themselves, with no
  code shared with the importers (JSON arrays, WhatsApp lines that start with a timestamp);
- **ledger**: what the build's summary says each source held (`N records → M messages, K left out`);
- **site**: `data-message-id` attributes on the built conversation pages (each id once).

Every record must be on the site or left out with a reason: source == ledger in,
ledger out + left out == ledger in, site == ledger out. Prints a Markdown table; exits 1 when a
row does not add up.

    python3 scripts/sample_census.py --binary .build/release/scrollback [--samples ../shared/samples]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# Formats Scrollback imports today, and how to count a source file's records independently.
IMPORTED = ["telegram", "whatsapp", "slack", "discord", "chatgpt", "messenger", "instagram", "claude", "teams", "signal", "mattermost"]

# A WhatsApp message starts a line with a date and a time, in any of the apps' layouts:
# optional marks, an optional bracket, digits and separators, then a time with a colon or dot.
WHATSAPP_START = re.compile(
    r"^[\u200e\u200f\u061c\ufeff\s]*\[?[\u200e\u200f\ufeff]?[0-9\u0660-\u0669\u06f0-\u06f9]{1,4}[./\-][0-9\u0660-\u0669\u06f0-\u06f9]{1,2}"
    r"[./\-][0-9\u0660-\u0669\u06f0-\u06f9]{2,4}"
)
# The build's summary line per source: `  <format> <file> (<id>): N records → M messages, K left out`.
LEDGER_LINE = re.compile(r"^\s+(?P<source>\S.*?): (?P<in>\d+) records → (?P<out>\d+) messages, (?P<left>\d+) left out")


def load_json(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return json.loads(data.decode("utf-8"))


def count_telegram(path):
    root = load_json(path)
    if isinstance(root, dict) and isinstance(root.get("messages"), list):
        return len(root["messages"])
    if isinstance(root, dict) and isinstance(root.get("chats"), dict):
        return sum(len(chat.get("messages", [])) for chat in root["chats"].get("list", []))
    return 0


def count_discord(path):
    root = load_json(path)
    return len(root.get("messages", [])) if isinstance(root, dict) else 0


def count_meta(path):
    """Entries of a Messenger or Instagram thread file's `messages` (DYI or end-to-end encrypted)."""
    root = load_json(path)
    return len(root.get("messages", [])) if isinstance(root, dict) else 0


def count_chatgpt(path):
    """Nodes with a message on the path from `current_node` to the root, per conversation."""
    root = load_json(path)
    conversations = root if isinstance(root, list) else [root]
    total = 0
    for conversation in conversations:
        mapping = conversation.get("mapping", {})
        node = conversation.get("current_node")
        seen = set()
        while node and node in mapping and node not in seen:
            seen.add(node)
            if mapping[node].get("message"):
                total += 1
            node = mapping[node].get("parent")
    return total


def count_claude(path):
    """Every entry of every conversation's `chat_messages`: each branch's messages are records too."""
    root = load_json(path)
    conversations = root if isinstance(root, list) else [root]
    return sum(
        len(conversation.get("chat_messages", []))
        for conversation in conversations
        if isinstance(conversation, dict) and isinstance(conversation.get("chat_messages"), list)
    )


def count_teams(path):
    """Elements of a Microsoft Teams `messages_<id>.json` (a team's channels or a user's chats)."""
    root = load_json(path)
    return len(root) if isinstance(root, list) else 0


def count_whatsapp(path):
    with open(path, "rb") as handle:
        data = handle.read()
    for bom, codec in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            text = data[2:].decode(codec)
            break
    else:
        text = data.decode("utf-8", errors="replace")
    return sum(1 for line in text.splitlines() if WHATSAPP_START.match(line))


# A Signal text message starts a line with `[YYYY-MM-DD, HH:MM] ` (seconds and comma optional).
SIGNAL_START = re.compile(r"^\ufeff?\[\d{4}-\d{2}-\d{2},? \d{2}:\d{2}(:\d{2})?\] ")


def count_signal(path):
    """signal-export's `data.json`: one record a line; the text layout: stamped lines."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    if path.endswith(".json"):
        return sum(1 for line in lines if line.strip())
    return sum(1 for line in lines if SIGNAL_START.match(line))


def count_slack(folder):
    """Records in the day files of every channel folder the export lists."""
    names = []
    for listing in ("channels.json", "groups.json", "dms.json", "mpims.json"):
        path = os.path.join(folder, listing)
        if os.path.exists(path):
            for entry in load_json(path) or []:
                names.append(entry.get("name") or entry.get("id"))
    total = 0
    for name in names:
        channel = os.path.join(folder, str(name))
        if not os.path.isdir(channel):
            continue
        for day in sorted(os.listdir(channel)):
            if day.endswith(".json"):
                records = load_json(os.path.join(channel, day))
                total += len(records) if isinstance(records, list) else 0
    return total


def count_mattermost(path):
    """Posts and their replies in a Mattermost bulk export (one JSON object a line)."""
    total = 0
    with open(path, encoding="utf-8-sig") as handle:
        for line in handle:
            if not line.strip():
                continue
            record = json.loads(line)
            kind = record.get("type")
            if kind in ("post", "direct_post") and isinstance(record.get(kind), dict):
                total += 1 + len(record[kind].get("replies") or [])
    return total


def source_count(fmt, folder):
    total = 0
    if fmt == "slack":
        return count_slack(folder)
    for base, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(base, name)
            if fmt == "telegram" and name.endswith(".json"):
                total += count_telegram(path)
            elif fmt == "discord" and name.endswith(".json"):
                total += count_discord(path)
            elif fmt == "chatgpt" and name.endswith(".json"):
                total += count_chatgpt(path)
            elif fmt in ("messenger", "instagram") and name.endswith(".json"):
                total += count_meta(path)
            elif fmt == "claude" and name.endswith(".json"):
                total += count_claude(path)
            elif fmt == "teams" and name.startswith("messages_") and name.endswith(".json"):
                total += count_teams(path)
            elif fmt == "signal" and (name.endswith(".txt") or name == "data.json"):
                total += count_signal(path)
            elif fmt == "mattermost" and (name.endswith(".json") or name.endswith(".jsonl")):
                total += count_mattermost(path)
            elif fmt == "whatsapp" and name.endswith(".txt"):
                total += count_whatsapp(path)
    return total


def site_count(site):
    """`data-message-id` values on conversation pages, each once per conversation."""
    ids = set()
    for base, _, files in os.walk(site):
        if "/." in base or base.endswith("/search"):
            continue
        relative = os.path.relpath(base, site)
        for name in files:
            if name.endswith(".html") and relative != ".":
                with open(os.path.join(base, name), encoding="utf-8") as handle:
                    for value in re.findall(r'data-message-id="([^"]*)"', handle.read()):
                        ids.add((relative.split(os.sep)[0], value))
    return len(ids)


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def ledger(output):
    read = built = left = 0
    for line in output.splitlines():
        match = LEDGER_LINE.match(line)
        if match:
            read += int(match["in"])
            built += int(match["out"])
            left += int(match["left"] or 0)
    return read, built, left


def census(binary, samples):
    rows = []
    for fmt in IMPORTED:
        root = os.path.join(samples, fmt)
        if not os.path.isdir(root):
            continue
        for source in sorted(os.listdir(root)):
            folder = os.path.join(root, source)
            with tempfile.TemporaryDirectory() as work:
                site = os.path.join(work, "site")
                status, output = run([binary, "build", folder, "-o", site])
                read, built, left = ledger(output)
                on_site = site_count(site) if os.path.isdir(site) else 0
                logs = os.path.join(work, "logs")
                import_status, _ = run([binary, "import", fmt, folder, "-o", logs])
                site2 = os.path.join(work, "site2")
                status2, _ = run([binary, "build", logs, "-o", site2]) if import_status == 0 else (import_status, "")
                on_site2 = site_count(site2) if os.path.isdir(site2) else 0
            counted = source_count(fmt, folder)
            ok = counted == read and built + left == read and on_site == built and on_site2 == on_site
            rows.append((fmt, source, counted, read, built, left, on_site, status, on_site2, status2, ok))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/release/scrollback")
    default_samples = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "samples")
    parser.add_argument("--samples", default=default_samples)
    arguments = parser.parse_args()
    rows = census(os.path.abspath(arguments.binary), os.path.abspath(arguments.samples))
    print("| format | sample | source | ledger in | built | left out | on site | exit | import+build on site | exit | adds up |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(str(value) if not isinstance(value, bool) else ("yes" if value else "**no**") for value in row) + " |")
    return 0 if all(row[-1] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
