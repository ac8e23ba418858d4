"""signal-export's (`sigexport`) output: a folder per chat (named after the chat) holding
`data.json`, one JSON object a line as its writer dumps its `Message` (`date` the exporter's wall
clock, microseconds when there are any; `sender` with `Me` for the exporter; `body` ending in two
spaces; `quote`, `sticker`, `reactions` as `[sender, emoji]` pairs, `attachments` in `media/`,
`deleted`, `call`, `missed`). Signal has no markup in its text: Markdown stays as typed. A reply
quotes its target's text (`> …`); system lines are the records with no body that sigexport writes
for group changes. No link cards, polls or locations: their text."""

import json
import os

from . import common


def date(text):
    return text[:19] + (".%s000" % text[20:23] if text[19] == "." else "")


def write(corpus, out):
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}

        def name(pid):
            return "Me" if pid == log["me"] else people[pid]["name"]

        folder = os.path.join(out, "%s (%d)" % (log["title"], number))
        bodies = {}
        lines = []
        for n, msg in enumerate(log["messages"]):
            k = common.kind(msg)
            attachments = []
            quote = ""
            if k == "system":
                _, who, _ = common.system_event(msg, people)
                sender, body = name(who["id"]) if who else "No-Sender", ""
            else:
                sender, body = name(msg["sender"]), common.plain_text(msg)
                if k == "photo":
                    file_name = "%d-%s" % (n, os.path.basename(msg["media"]["url"]))
                    common.copy_photo(corpus, msg["media"], os.path.join(folder, "media"), file_name)
                    attachments = [{"name": file_name, "path": "media/" + file_name, "missing_kind": None}]
                target = bodies.get(msg.get("replyTo"))
                if target:
                    quote = "\n\n" + "\n".join("> " + line for line in target.split("\n")) + "\n\n"
                bodies[msg["id"]] = body
            lines.append(json.dumps({
                "date": date(msg["date"]), "sender": sender, "body": body + "  " if body else "  ", "quote": quote,
                "sticker": None, "reactions": [[name(s), r["emoji"]] for r in msg.get("reactions", [])
                                                for s in r["senders"]],
                "attachments": attachments, "deleted": False, "call": False, "missed": False}, ensure_ascii=False))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "data.json"), "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(lines) + "\n")
