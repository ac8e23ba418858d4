"""Google Chat from Google Takeout: `Google Chat/Groups/Space <id>/` per conversation with
`messages.json` and `group_info.json` (`name`, `members`), the attachments beside them, and
`Users/User <id>/user_info.json` naming the account (the corpus's `me` of the first conversation;
Takeout is one person's). Messages: `creator` (name, e-mail, `user_type`), `created_date` as
Takeout writes it (`Tuesday, March 14, 2023 at 10:05:11 AM UTC`, U+202F before AM/PM),
`text` in Google Chat's markup (`*bold*`, `_italic_`, `~strike~`), `topic_id` and `message_id`,
`updated_date` for an edit, `attached_files`, `reactions` with `reactor_emails`, a reply's
`quoted_message_metadata`. System lines are the text Google Chat shows for them."""

import datetime
import os

from . import common


def member(person):
    return {"name": person["name"], "email": "%s@example.com" % person["id"], "user_type": "Human"}


def takeout_date(date):
    moment = datetime.datetime.fromtimestamp(common.epoch_ms(date) // 1000, datetime.timezone.utc)
    return moment.strftime("%A, %B ") + "%d, %d at %d:%s\u202f%s UTC" % (
        moment.day, moment.year, (moment.hour + 11) % 12 + 1, moment.strftime("%M:%S"),
        "AM" if moment.hour < 12 else "PM")


def write(corpus, out):
    chat = os.path.join(out, "Google Chat")
    owner = None
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        owner = owner or people[log["me"]]
        space = "AAAA%06d" % number
        folder = os.path.join(chat, "Groups", "Space " + space)
        texts = {}
        messages = []
        for n, msg in enumerate(log["messages"]):
            k = common.kind(msg)
            sender = people[msg["sender"]] if "sender" in msg else (common.system_event(msg, people)[1] or owner)
            topic = "T%07d" % n
            record = {"creator": member(sender), "created_date": takeout_date(msg["date"])}
            text = common.chat_markup(msg["markdown"]) if k == "attributedText" else common.plain_text(msg)
            if text:
                record["text"] = text
            if "edited" in msg:
                record["updated_date"] = takeout_date(msg["edited"])
            if k == "photo":
                name = "File-%d-%s" % (n, os.path.basename(msg["media"]["url"]))
                common.copy_photo(corpus, msg["media"], folder, name)
                record["attached_files"] = [{"original_name": os.path.basename(msg["media"]["url"]),
                                             "export_name": name}]
            if "reactions" in msg:
                record["reactions"] = [{"emoji": {"unicode": r["emoji"]},
                                        "reactor_emails": [member(people[s])["email"] for s in r["senders"]]}
                                       for r in msg["reactions"]]
            target = texts.get(msg.get("replyTo"))
            if target:
                record["quoted_message_metadata"] = {"creator": target[0], "text": target[1]}
            record.update({"topic_id": topic, "message_id": "%s/%s/%s" % (space, topic, topic)})
            texts[msg["id"]] = (record["creator"], text)
            messages.append(record)
        common.write_json(os.path.join(folder, "messages.json"), {"messages": messages}, indent=2)
        common.write_json(os.path.join(folder, "group_info.json"),
                          {"name": log["title"], "members": [member(p) for p in log["participants"]]}, indent=2)
    common.write_json(os.path.join(chat, "Users", "User 1", "user_info.json"),
                      {"user": member(owner), "membership_info": []}, indent=2)
