"""LINE's "Export chat history" text: `[LINE] Chat in TITLE.txt` per chat, a header
(`[LINE] Chat history in TITLE`, `Saved on: …`), then day lines (`2023/01/15(Sun)`) each followed
by rows `HH:MM<TAB>Name<TAB>text`; a message of several lines in double quotes over its lines;
a photo the `[Photo]` marker alone (the export holds no media, and a caption on a row of its own
would be a second message); system lines two-column rows. LINE writes no replies,
reactions, edits or markup: Markdown stays as typed, times are minutes (UTC wall clock here)."""

import datetime
import os

from . import common


def row_text(text):
    return '"%s"' % text if "\n" in text else text


def write(corpus, out):
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        last = log["messages"][-1]["date"]
        lines = ["[LINE] Chat history in %s" % log["title"], "Saved on: %s/%s/%s %s" % (
            last[0:4], last[5:7], last[8:10], last[11:16]), ""]
        day = None
        for msg in log["messages"]:
            date = msg["date"]
            if date[:10] != day:
                if day is not None:
                    lines.append("")
                day = date[:10]
                weekday = datetime.date(int(date[0:4]), int(date[5:7]), int(date[8:10])).strftime("%a")
                lines.append("%s/%s/%s(%s)" % (date[0:4], date[5:7], date[8:10], weekday))
            k = common.kind(msg)
            if k == "system":
                lines.append("%s\t%s" % (date[11:16], msg["text"]))
                continue
            text = "[Photo]" if k == "photo" else common.plain_text(msg)
            lines.append("%s\t%s\t%s" % (date[11:16], people[msg["sender"]]["name"], row_text(text)))
        with open(os.path.join(out, "[LINE] Chat in %s %d.txt" % (log["title"], number)), "w", encoding="utf-8",
                  newline="\n") as f:
            f.write("\n".join(lines) + "\n")
