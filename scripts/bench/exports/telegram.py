"""Telegram Desktop's "Export chat history" in JSON: one `ChatExport_<id>/result.json` per chat
(`name`, `type` `private_group`, `id`, `messages`, one-space indented as Telegram writes it) with
the photos in its `photos/`. Each message has `date` (the exporter's wall clock: UTC here) and
`date_unixtime`, `from`/`from_id`, `text` and `text_entities` (Markdown's bold, italic, strike,
code, code blocks and links become Telegram's entities; URLs, e-mail addresses and @mentions
theirs), `reply_to_message_id`, `edited`, `reactions` (with `recent` senders), `photo` with its
size, `location_information`, `poll`; system lines are `service` messages with Telegram's actions."""

import hashlib
import os
import re

from . import common

INLINE = re.compile(r"```([^\n]*)\n(.*?)\n```|\*\*([^*\n]+)\*\*|(?<![*\w])[*_]([^*_\n]+)[*_](?![*\w])|~~([^~\n]+)~~"
                    r"|`([^`\n]+)`|\[([^\]]+)\]\((https?://[^)]+)\)|(https?://[^\s<>|)]+)"
                    r"|\b([a-z0-9]+@example\.com)\b|(@[a-z]+[0-9]*)\b", re.S)
ACTIONS = {"joined": "join_group_by_link", "left": "remove_members", "renamed": "edit_group_title",
           "photo": "edit_group_photo", "pinned": "pin_message"}


def entities(text, markdown):
    """Telegram's `text_entities` of `text` (Markdown's marks read when `markdown`)."""
    out = []
    position = 0

    def plain(upto):
        if upto > position:
            out.append({"type": "plain", "text": text[position:upto]})

    for m in INLINE.finditer(text):
        if not markdown and m.lastindex < 9:
            continue
        plain(m.start())
        if m.group(2) is not None:
            out.append({"type": "pre", "text": m.group(2), "language": m.group(1)})
        elif m.group(3) is not None:
            out.append({"type": "bold", "text": m.group(3)})
        elif m.group(4) is not None:
            out.append({"type": "italic", "text": m.group(4)})
        elif m.group(5) is not None:
            out.append({"type": "strikethrough", "text": m.group(5)})
        elif m.group(6) is not None:
            out.append({"type": "code", "text": m.group(6)})
        elif m.group(7) is not None:
            out.append({"type": "text_link", "text": m.group(7), "href": m.group(8)})
        elif m.group(9) is not None:
            out.append({"type": "link", "text": m.group(9)})
        elif m.group(10) is not None:
            out.append({"type": "email", "text": m.group(10)})
        else:
            out.append({"type": "mention", "text": m.group(11)})
        position = m.end()
    plain(len(text))
    return out


def text_field(parts):
    """`text` as Telegram writes it: a string when all of it is plain, else the parts."""
    if all(p["type"] == "plain" for p in parts):
        return "".join(p["text"] for p in parts)
    return [p["text"] if p["type"] == "plain" else p for p in parts]


def user_id(person):
    return "user%d" % (int(hashlib.sha256(person["name"].encode()).hexdigest()[:8], 16))


def dates(date):
    seconds = common.epoch_ms(date) // 1000
    return date[:19], str(seconds)


def write(corpus, out):
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        folder = os.path.join(out, "ChatExport_%s" % log["id"])
        number_of = {msg["id"]: n + 1 for n, msg in enumerate(log["messages"])}
        messages = []
        for n, msg in enumerate(log["messages"]):
            date, unix = dates(msg["date"])
            k = common.kind(msg)
            if k == "system":
                what, who, rest = common.system_event(msg, people)
                actor = who or people[log["me"]]
                record = {"id": n + 1, "type": "service", "date": date, "date_unixtime": unix,
                          "actor": actor["name"], "actor_id": user_id(actor),
                          "action": ACTIONS.get(what, "edit_group_photo")}
                if what == "renamed":
                    record["title"] = rest.split("“")[-1].rstrip("”")
                elif what == "left":
                    record["members"] = [actor["name"]]
                elif what == "pinned":
                    record["message_id"] = max(1, n)
                record.update({"text": "", "text_entities": []})
                messages.append(record)
                continue
            sender = people[msg["sender"]]
            record = {"id": n + 1, "type": "message", "date": date, "date_unixtime": unix}
            if "edited" in msg:
                record["edited"], record["edited_unixtime"] = dates(msg["edited"])
            record.update({"from": sender["name"], "from_id": user_id(sender)})
            if msg.get("replyTo") in number_of:
                record["reply_to_message_id"] = number_of[msg["replyTo"]]
            parts = []
            if k == "photo":
                media = msg["media"]
                name = "photo_%d@%s-%s-%s_%s-%s-%s.png" % (n + 1, date[8:10], date[5:7], date[0:4], date[11:13],
                                                          date[14:16], date[17:19])
                common.copy_photo(corpus, media, os.path.join(folder, "photos"), name)
                record.update({"photo": "photos/" + name,
                               "photo_file_size": os.path.getsize(os.path.join(corpus, media["url"])),
                               "width": media["width"], "height": media["height"]})
                if media.get("caption"):
                    parts = entities(media["caption"], False)
            elif k == "location":
                loc = msg["location"]
                if "name" in loc:
                    record.update({"place_name": loc["name"], "address": loc.get("address", "")})
                record["location_information"] = {"latitude": loc["latitude"], "longitude": loc["longitude"]}
            elif k == "custom":
                data = msg["custom"]["data"]
                record["poll"] = {"question": data["question"], "closed": False, "total_voters": sum(data["votes"]),
                                  "answers": [{"text": o, "voters": v, "chosen": False}
                                              for o, v in zip(data["options"], data["votes"])]}
            elif k == "attributedText":
                parts = entities(msg["markdown"], True)
            else:
                parts = entities(msg["text"], False)
            record["text"] = text_field(parts)
            record["text_entities"] = parts
            if "reactions" in msg:
                record["reactions"] = [{
                    "type": "emoji", "count": len(r["senders"]), "emoji": r["emoji"],
                    "recent": [{"from": people[s]["name"], "from_id": user_id(people[s]), "date": date}
                               for s in r["senders"]]} for r in msg["reactions"]]
            messages.append(record)
        chat = {"name": log["title"], "type": "private_group", "id": 4000000000 + number, "messages": messages}
        common.write_json(os.path.join(folder, "result.json"), chat, indent=1)
