#!/usr/bin/env python3
"""Writes the long fixture: one conversation of N messages (default 2,500), so the default page
size of 1,000 gives three pages, with groups, several days, replies that cross pages and a few
very long messages.

Deterministic: the same arguments always write the same bytes.

Usage: generate.py OUTPUT_DIR [--messages N]
Writes OUTPUT_DIR/input/long.json and OUTPUT_DIR/expectations.json.
"""
import argparse
import datetime
import json
import pathlib

PARTICIPANTS = [
    {"id": "ada", "name": "Ada Lovelace"},
    {"id": "brian", "name": "Brian Kernighan"},
    {"id": "grace", "name": "Grace Hopper"},
]
WORDS = ("the quick brown fox jumps over a lazy dog while the compiler reports a warning about "
         "unused variables and the test suite keeps running green on every commit").split()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=pathlib.Path)
    parser.add_argument("--messages", type=int, default=2500)
    args = parser.parse_args()

    start = datetime.datetime(2024, 1, 1, 8, 0, tzinfo=datetime.timezone.utc)
    when = start
    messages = []
    for index in range(args.messages):
        # Bursts of 1–4 messages by one sender one minute apart, then a longer pause; every
        # 400 messages the date jumps to the next day.
        sender = PARTICIPANTS[(index // 3 + index // 7) % len(PARTICIPANTS)]["id"]
        if index and index % 400 == 0:
            when = when.replace(hour=8, minute=0) + datetime.timedelta(days=1)
        elif index and messages[-1]["sender"] != sender:
            when += datetime.timedelta(minutes=7)
        else:
            when += datetime.timedelta(minutes=1)
        length = 3 + (index * 7) % 17
        text = " ".join(WORDS[(index + k) % len(WORDS)] for k in range(length))
        if index % 250 == 5:
            text = "A long message that must wrap at the bubble's maximum width. " + " ".join(WORDS) * 3
        if index % 500 == 17:
            text = "Unbroken: " + "x" * 400  # must wrap rather than scroll sideways
        message = {"id": f"msg-{index:05d}", "sender": sender,
                   "date": when.isoformat().replace("+00:00", "Z"), "text": f"#{index} {text}"}
        if index % 97 == 50 and index > 1100:
            message["replyTo"] = f"msg-{index - 1000:05d}"  # usually on an earlier page
        if index % 61 == 0:
            message["reactions"] = [{"emoji": "👍", "senders": ["ada", "grace"]}]
        messages.append(message)

    log = {"version": 1, "id": "long", "title": "A long conversation",
           "description": f"{args.messages} messages across several pages", "me": "ada", "timezone": "UTC",
           "participants": PARTICIPANTS, "messages": messages}
    input_dir = args.output / "input"
    input_dir.mkdir(parents=True, exist_ok=True)
    (input_dir / "long.json").write_text(json.dumps(log, ensure_ascii=False, indent=1), encoding="utf-8")
    expectations = {"conversation": "long", "timezone": "UTC", "participants": PARTICIPANTS,
                    "messages": [{"id": m["id"], "sender": m["sender"], "date": m["date"], "text": m["text"]}
                                 for m in messages]}
    (args.output / "expectations.json").write_text(json.dumps(expectations, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
