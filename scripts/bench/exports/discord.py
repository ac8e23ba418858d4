"""DiscordChatExporter's JSON: one file per channel, `Bench - Text Channels - NAME [ID].json`,
4-space indented, with downloaded media in its `….json_Files/` folder (`--media`). Messages keep
DCE's fields: snowflake ids (made from the time), `type` `Default` or `Reply` (with `reference`),
`timestamp`/`timestampEdited` with their offset, `author` (`nickname` the full name),
`content` in Discord Markdown (the corpus's GFM: Discord reads the same marks), `attachments`,
link `embeds`, `reactions` with their `users`; system lines are DCE's `RecipientAdd`,
`RecipientRemove`, `ChannelNameChange`, `ChannelIconChange`, `ChannelPinnedMessage`."""

import hashlib
import os

from . import common

DISCORD_EPOCH_MS = 1420070400000
SYSTEM = {"joined": "RecipientAdd", "left": "RecipientRemove", "renamed": "ChannelNameChange",
          "photo": "ChannelIconChange", "pinned": "ChannelPinnedMessage"}


def stamp(date):
    return "%s.%s+00:00" % (date[:19], date[20:23] if date[19] == "." else "000")


def author(person):
    uid = str(int(hashlib.sha256(person["name"].encode()).hexdigest()[:15], 16))
    return {"id": uid, "name": person["id"], "discriminator": "0000", "nickname": person["name"],
            "color": person.get("color"), "isBot": False, "roles": [],
            "avatarUrl": "https://cdn.discordapp.com/embed/avatars/%d.png" % (int(uid) % 5)}


def write(corpus, out):
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        channel_id = str(1012224565567721552 + number)
        base = "Bench - Text Channels - %s [%s].json" % (log["id"], channel_id)
        files = base + "_Files"
        ids = {}
        messages = []
        for n, msg in enumerate(log["messages"]):
            ms = common.epoch_ms(msg["date"])
            mid = str(((ms - DISCORD_EPOCH_MS) << 22) + n % (1 << 22))
            ids[msg["id"]] = mid
            k = common.kind(msg)
            record = {"id": mid, "type": "Default", "timestamp": stamp(msg["date"]),
                      "timestampEdited": stamp(msg["edited"]) if "edited" in msg else None,
                      "callEndedTimestamp": None, "isPinned": False, "content": ""}
            if k == "system":
                what, who, _ = common.system_event(msg, people)
                record["type"] = SYSTEM.get(what, "ChannelIconChange")
                record["content"] = msg["text"]
                record["author"] = author(who or people[log["me"]])
            else:
                record["author"] = author(people[msg["sender"]])
                record["content"] = common.markdown_text(msg)
            attachments, embeds = [], []
            if k == "photo":
                media = msg["media"]
                name = "%s-%05X.png" % (os.path.splitext(os.path.basename(media["url"]))[0], n % 0x100000)
                common.copy_photo(corpus, media, os.path.join(out, files), name)
                attachments.append({"id": str(int(mid) + 1), "url": "%s/%s" % (files, name), "fileName": name,
                                    "fileSizeBytes": os.path.getsize(os.path.join(corpus, media["url"]))})
            elif k == "linkPreview":
                link = msg["link"]
                embeds.append({"title": link["title"], "url": link["url"], "timestamp": None,
                               "description": link["teaser"], "color": None, "author": {"name": link["siteName"]},
                               "thumbnail": None, "video": None, "images": [], "fields": []})
            record.update({"attachments": attachments, "embeds": embeds, "stickers": []})
            record["reactions"] = [{
                "emoji": {"id": "", "name": r["emoji"], "code": "", "isAnimated": False,
                          "imageUrl": "https://cdn.jsdelivr.net/gh/twitter/twemoji@latest/assets/svg/%s.svg"
                          % "-".join("%x" % ord(c) for c in r["emoji"] if c != "\ufe0f")},
                "count": len(r["senders"]), "users": [author(people[s]) for s in r["senders"]]}
                for r in msg.get("reactions", [])]
            record["mentions"] = []
            if msg.get("replyTo") in ids:
                record["type"] = "Reply"
                record["reference"] = {"messageId": ids[msg["replyTo"]], "channelId": channel_id, "guildId": "1"}
            messages.append(record)
        export = {"guild": {"id": "1", "name": "Bench", "iconUrl": "https://cdn.discordapp.com/embed/avatars/0.png"},
                  "channel": {"id": channel_id, "type": "GuildTextChat", "categoryId": "2", "category": "Text Channels",
                              "name": log["id"], "topic": log.get("description")},
                  "dateRange": {"after": None, "before": None}, "exportedAt": stamp(log["messages"][-1]["date"]),
                  "messages": messages, "messageCount": len(messages)}
        common.write_json(os.path.join(out, base), export, indent=4)
