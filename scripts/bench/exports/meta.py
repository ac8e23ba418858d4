"""Meta's "Download your information" JSON for Messenger: `messages/inbox/<title>_<n>/`, one
folder per thread, holding `message_1.json`, `message_2.json`, … (10,000 messages each, newest
first, as Meta splits them) and the thread's `photos/`. Text is written as Meta writes it: each
UTF-8 byte as one `\\u00XX` escape (the mojibake the importer undoes). Messages have
`sender_name`, `timestamp_ms`, `content`, `photos` (`uri` from the download's root), `share`
links, `reactions` with their `actor`; Markdown stays as typed (Messenger shows no markup).
System lines are Meta's own sentences in `content`. No replies or edits in this download."""

import os

from . import common

PART = 10000
SYSTEM = {"joined": "{who} joined the group.", "left": "{who} left the group.",
          "renamed": "{who} named the group {rest}.", "photo": "{who} changed the group photo.",
          "pinned": "{who} pinned a message."}


def mojibake(text):
    return text.encode("utf-8").decode("latin-1")


def write(corpus, out):
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        thread = "%s_%d" % (log["id"].replace("-", ""), 10000000 + number)
        folder = os.path.join(out, "messages", "inbox", thread)
        records = []
        for n, msg in enumerate(log["messages"]):
            k = common.kind(msg)
            if k == "system":
                what, who, rest = common.system_event(msg, people)
                sender = who or people[log["me"]]
                text = SYSTEM[what].format(who=sender["name"], rest=rest.split("“")[-1].rstrip("”")) \
                    if who and what in SYSTEM else msg["text"]
            else:
                sender = people[msg["sender"]]
                text = common.plain_text(msg)
            record = {"sender_name": mojibake(sender["name"]), "timestamp_ms": common.epoch_ms(msg["date"])}
            if k == "photo":
                name = "%d_%d.png" % (record["timestamp_ms"], n)
                common.copy_photo(corpus, msg["media"], os.path.join(folder, "photos"), name)
                record["photos"] = [{"uri": "messages/inbox/%s/photos/%s" % (thread, name),
                                     "creation_timestamp": record["timestamp_ms"] // 1000}]
            if text:
                record["content"] = mojibake(text)
            if k == "linkPreview":
                record["share"] = {"link": msg["link"]["url"], "share_text": mojibake(msg["link"]["title"])}
            if "reactions" in msg:
                record["reactions"] = [{"reaction": mojibake(r["emoji"]), "actor": mojibake(people[s]["name"])}
                                       for r in msg["reactions"] for s in r["senders"]]
            record["is_geoblocked_for_viewer"] = False
            records.append(record)
        records.reverse()
        header = {"participants": [{"name": mojibake(p["name"])} for p in log["participants"]]}
        for part in range(max(1, (len(records) + PART - 1) // PART)):
            common.write_json(os.path.join(folder, "message_%d.json" % (part + 1)), dict(
                header, messages=records[part * PART:(part + 1) * PART], title=mojibake(log["title"]),
                is_still_participant=True, thread_path="inbox/" + thread, magic_words=[]), indent=2, ascii_only=True)
