#!/usr/bin/env python3
"""The benchmark corpus's messages as a Slack workspace export (spec §6, issue 10 "Speed").

Reads a corpus written by `generate_corpus.py` and writes the same messages, one Slack
message per corpus message, as a Slack export folder: `users.json`, `channels.json` and one
folder of per-day JSON files (UTC days, pretty-printed with 4 spaces as Slack writes them)
per conversation. Same senders, same order, same dates, same kind mix:

  text            → mrkdwn text (`@id` → `<@U…>`, URLs → `<url>`, e-mail → `<mailto:…|…>`)
  attributedText  → mrkdwn (`**b**` → `*b*`, `*i*`/`_i_` → `_i_`, `~~s~~` → `~s~`,
                    `[t](u)` → `<u|t>`, `- ` → `• `, `## h` → `*h*`; code blocks kept)
  emoji           → `:shortcode:` where Slack has one, else the character
  photo           → a message with one entry in `files` (image/png, size, width/height), its
                    caption as text; the PNG is in the export where slackdump puts downloaded
                    files (`<channel>/attachments/<file id>-<name>`)
  linkPreview     → text with the URL plus a legacy `attachments` unfurl
  system          → `channel_join` / `channel_leave` / `channel_name` / `channel_purpose` /
                    `pinned_item` subtypes
  location        → text with a map link; poll → a `bot_message` of a poll app
  replyTo         → a thread reply (`thread_ts` of the target's thread; every 10th reply also
                    sent to the channel, `thread_broadcast`); roots get `reply_count`,
                    `reply_users`, `replies`, `latest_reply`
  reactions       → `reactions` with Slack names and user ids; edited → `edited.ts`

Every message also carries the fields a real export repeats on each message (`type`,
`client_msg_id`, `team`, `user_team`, `source_team`, `user_profile`). Output is
byte-deterministic: everything derives from the corpus, nothing is random.
"""

import argparse
import calendar
import hashlib
import json
import os
import re
import shutil
import sys

TEAM = "T0BENCH01"
POLL_BOT = "B0POLLAPP"
REACTION_NAMES = {"👍": "+1", "❤️": "heart", "😂": "joy", "😮": "open_mouth", "😢": "cry", "🙏": "pray",
                  "🎉": "tada"}
EMOJI_NAMES = {"👍": "+1", "😂": "joy", "❤️": "heart", "🎉": "tada", "🙏": "pray", "😅": "sweat_smile",
               "🔥": "fire", "👀": "eyes", "😮": "open_mouth", "😢": "cry", "🚀": "rocket",
               "✅": "white_check_mark", "🤔": "thinking_face", "🙌": "raised_hands", "😍": "heart_eyes",
               "🍕": "pizza", "☕": "coffee"}
SYSTEM_SUBTYPES = [(" joined the conversation", "channel_join"), (" left the conversation", "channel_leave"),
                   (" renamed the group to ", "channel_name"), (" changed the group photo", "channel_purpose"),
                   (" pinned a message", "pinned_item")]


def epoch_of(date):
    """(seconds, microseconds) of the corpus's `YYYY-MM-DDTHH:MM:SS[.mmm]Z`."""
    seconds = calendar.timegm((int(date[0:4]), int(date[5:7]), int(date[8:10]), int(date[11:13]),
                               int(date[14:16]), int(date[17:19]), 0, 0, 0))
    micros = int(date[20:23]) * 1000 if date[19] == "." else 0
    return seconds, micros


def ts_of(date):
    seconds, micros = epoch_of(date)
    return "%d.%06d" % (seconds, micros)


def escape(text):
    """Slack escapes these three in message text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


URL = re.compile(r"https?://[^\s<>|)]+")
EMAIL = re.compile(r"\b([a-z0-9]+@example\.com)\b")


def links(text):
    """Bare URLs and e-mail addresses as Slack writes them (after escaping)."""
    text = URL.sub(lambda m: "<%s>" % m.group(0), text)
    return EMAIL.sub(lambda m: "<mailto:%s|%s>" % (m.group(1), m.group(1)), text)


def mentions(text, user_of):
    return re.sub(r"@([a-z]+[0-9]*)\b", lambda m: "<@%s>" % user_of[m.group(1)] if m.group(1) in user_of
                  else m.group(0), text)


def mrkdwn_of_markdown(markdown):
    """The corpus's GFM as mrkdwn (outside code blocks)."""
    out = []
    for index, part in enumerate(re.split(r"(```[^\n]*\n.*?\n```)", markdown, flags=re.S)):
        if index % 2 == 1:
            body = part.split("\n", 1)[1]  # Slack code blocks name no language
            out.append("```" + escape(body))
            continue
        part = escape(part)
        part = re.sub(r"\[([^\]]+)\]\((https?://[^)]+)\)", r"<\2|\1>", part)
        part = URL.sub(lambda m: m.group(0) if m.start() > 0 and part[m.start() - 1] in "<|" else "<%s>" % m.group(0),
                       part)
        part = re.sub(r"(?<!\*)\*([^*\n]+)\*(?!\*)", r"_\1_", part)
        part = re.sub(r"\*\*([^*\n]+)\*\*", r"*\1*", part)
        part = re.sub(r"~~([^~\n]+)~~", r"~\1~", part)
        part = re.sub(r"(?m)^- \[[x ]\] ", "• ", part)
        part = re.sub(r"(?m)^- ", "• ", part)
        part = re.sub(r"(?m)^#+ (.*)$", r"*\1*", part)
        out.append(part)
    return "".join(out)


class ExportWriter:
    def __init__(self, corpus, out):
        self.corpus = corpus
        self.out = out
        self.users = {}  # full name → user record

    def user_id(self, person):
        name = person["name"]
        if name not in self.users:
            uid = "U%08X" % (int(hashlib.sha256(name.encode()).hexdigest()[:8], 16))
            self.users[name] = {
                "id": uid, "team_id": TEAM, "name": person["id"], "deleted": False, "real_name": name,
                "tz": "Europe/Berlin", "is_bot": False,
                "profile": {"real_name": name, "display_name": name.split()[0], "first_name": name.split()[0],
                            "last_name": name.split()[-1], "avatar_hash": uid.lower()[-8:], "team": TEAM}}
        return self.users[name]["id"]

    def profile(self, uid, person):
        first = person["name"].split()[0]
        return {"avatar_hash": uid.lower()[-8:], "image_72": "https://avatars.example.com/%s_72.png" % uid,
                "first_name": first, "real_name": person["name"], "display_name": first, "team": TEAM,
                "name": person["id"], "is_restricted": False, "is_ultra_restricted": False}

    def conversation(self, path, number):
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        people = {p["id"]: p for p in log["participants"]}
        user_of = {pid: self.user_id(p) for pid, p in people.items()}
        channel_id = "C%08d" % number
        name = log["id"]
        folder = os.path.join(self.out, name)
        os.makedirs(os.path.join(folder, "attachments"), exist_ok=True)
        by_id = {}
        slack = []
        for n, msg in enumerate(log["messages"]):
            ts = ts_of(msg["date"])
            out = self.message(msg, ts, people, user_of, folder, n)
            by_id[msg["id"]] = out
            target = by_id.get(msg.get("replyTo"))
            if (target is not None and "user" in out and "user" in target
                    and target.get("subtype") in (None, "thread_broadcast")):
                root_ts = target.get("thread_ts", target["ts"])
                root = target if root_ts == target["ts"] else by_id[target["root_id"]]
                out["thread_ts"] = root_ts
                out["parent_user_id"] = root["user"]
                out["root_id"] = root["corpus_id"]
                root["thread_ts"] = root_ts
                root["reply_count"] = root.get("reply_count", 0) + 1
                if out["user"] not in root.setdefault("reply_users", []):
                    root["reply_users"].append(out["user"])
                root.setdefault("replies", []).append({"user": out["user"], "ts": ts})
                root["latest_reply"] = ts
                if n % 10 == 0:
                    out["subtype"] = "thread_broadcast"
                    out["root"] = {"ts": root_ts, "user": root["user"], "text": root.get("text", "")}
            out["corpus_id"] = msg["id"]
            slack.append(out)
        day = None
        batch = []
        for out in slack:
            out.pop("corpus_id")
            out.pop("root_id", None)
            this_day = out.pop("day")
            if this_day != day and batch:
                self.write_day(folder, day, batch)
                batch = []
            day = this_day
            batch.append(out)
        if batch:
            self.write_day(folder, day, batch)
        return {"id": channel_id, "name": name, "created": int(slack[0]["ts"].split(".")[0]) if slack else 0,
                "creator": user_of[log["me"]], "is_archived": False, "is_general": number == 1,
                "members": [user_of[pid] for pid in people],
                "topic": {"value": log.get("title", ""), "creator": user_of[log["me"]], "last_set": 0},
                "purpose": {"value": log.get("description", ""), "creator": user_of[log["me"]], "last_set": 0}}

    @staticmethod
    def write_day(folder, day, batch):
        with open(os.path.join(folder, day + ".json"), "w", encoding="utf-8", newline="\n") as f:
            json.dump(batch, f, ensure_ascii=False, indent=4)

    def message(self, msg, ts, people, user_of, folder, n):
        kind = msg.get("kind", "text")
        out = {"day": msg["date"][:10]}
        if kind == "system":
            text = msg["text"]
            subtype = next((s for marker, s in SYSTEM_SUBTYPES if marker in text), "channel_purpose")
            who = next((p for p in people.values() if text.startswith(p["name"])), None)
            uid = user_of[who["id"]] if who else None
            body = "<@%s> %s" % (uid, escape(text[len(who["name"]) + 1:])) if who else escape(text)
            out.update({"type": "message", "subtype": subtype, "ts": ts, "text": body})
            if uid:
                out["user"] = uid
            return out
        sender = people[msg["sender"]]
        uid = user_of[msg["sender"]]
        out.update({"client_msg_id": "%08x-0000-4000-8000-%012x" % (n, int(ts.replace(".", "")) % 16 ** 12),
                    "type": "message", "user": uid, "ts": ts, "text": ""})
        if kind == "text":
            out["text"] = links(mentions(escape(msg["text"]), user_of))
        elif kind == "attributedText":
            out["text"] = mrkdwn_of_markdown(msg["markdown"])
        elif kind == "emoji":
            out["text"] = "".join(":%s:" % EMOJI_NAMES[c] if c in EMOJI_NAMES else c
                                  for c in re.findall(r".\ufe0f?", msg["text"]))
        elif kind == "photo":
            media = msg["media"]
            file_name = os.path.basename(media["url"])
            file_id = "F0" + file_name.replace("-", "").replace(".png", "").upper()
            stored = os.path.join(folder, "attachments", "%s-%s" % (file_id, file_name))
            if not os.path.exists(stored):
                shutil.copyfile(os.path.join(self.corpus, media["url"]), stored)
            out["text"] = escape(media.get("caption", ""))
            out["upload"] = True
            out["files"] = [{
                "id": file_id, "created": int(ts.split(".")[0]), "timestamp": int(ts.split(".")[0]),
                "name": file_name, "title": media.get("alt", file_name), "mimetype": "image/png", "filetype": "png",
                "pretty_type": "PNG", "user": uid, "mode": "hosted", "size": os.path.getsize(stored),
                "url_private": "https://files.slack.com/files-pri/%s-%s/%s" % (TEAM, file_id, file_name),
                "url_private_download": "https://files.slack.com/files-pri/%s-%s/download/%s" % (
                    TEAM, file_id, file_name),
                "original_w": media["width"], "original_h": media["height"],
                "permalink": "https://bench.slack.com/files/%s/%s/%s" % (uid, file_id, file_name)}]
        elif kind == "linkPreview":
            link = msg["link"]
            out["text"] = links(escape(msg["text"]))
            out["attachments"] = [{"from_url": link["url"], "original_url": link["url"], "title": link["title"],
                                   "title_link": link["url"], "text": link["teaser"],
                                   "service_name": link["siteName"], "fallback": link["title"], "id": 1}]
        elif kind == "location":
            loc = msg["location"]
            label = escape(loc.get("name", "Location"))
            out["text"] = "📍 <https://maps.example.com/?q=%s,%s|%s>%s" % (
                loc["latitude"], loc["longitude"], label, (", " + escape(loc["address"])) if "address" in loc else "")
        elif kind == "custom":
            data = msg["custom"]["data"]
            lines = ["*%s*" % escape(data["question"])]
            lines += ["%d. %s `%d`" % (i + 1, escape(option), votes)
                      for i, (option, votes) in enumerate(zip(data["options"], data["votes"]))]
            out = {"day": out["day"], "type": "message", "subtype": "bot_message", "ts": ts, "text": "\n".join(lines),
                   "bot_id": POLL_BOT, "username": "Polly",
                   "bot_profile": {"id": POLL_BOT, "name": "Polly", "app_id": "A0POLLAPP", "team_id": TEAM}}
        if "reactions" in msg:
            out["reactions"] = [{"name": REACTION_NAMES[r["emoji"]], "users": [user_of[s] for s in r["senders"]],
                                 "count": len(r["senders"])} for r in msg["reactions"]]
        if "edited" in msg:
            out["edited"] = {"user": uid, "ts": ts_of(msg["edited"])}
        if "bot_id" not in out:
            out.update({"team": TEAM, "user_team": TEAM, "source_team": TEAM,
                        "user_profile": self.profile(uid, sender)})
        return out


def write_twice(export, out):
    """`export` with every channel twice: hard links of its files, the copies as channels of their own
    (`again-<name>`: in name order the copies come before every original, none next to its own;
    the build reads one conversation ahead, and a copy next to its original would put the two
    largest conversations in memory at once, which the export alone never does)."""
    # (Not channels.json: a link to the export's own would be written through.)
    shutil.copytree(export, out, copy_function=os.link, ignore=shutil.ignore_patterns("channels.json"))
    with open(os.path.join(export, "channels.json"), encoding="utf-8") as f:
        channels = json.load(f)
    copies = []
    for channel in channels:
        copy = dict(channel, id=channel["id"] + "2", name="again-" + channel["name"])
        shutil.copytree(os.path.join(export, channel["name"]), os.path.join(out, copy["name"]),
                        copy_function=os.link)
        copies.append(copy)
    with open(os.path.join(out, "channels.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(channels + copies, f, ensure_ascii=False, indent=4)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", help="a folder written by generate_corpus.py")
    parser.add_argument("--twice", metavar="EXPORT",
                        help="instead: write EXPORT (written by this script) with every channel twice")
    parser.add_argument("--out", required=True, help="the export folder (replaced)")
    args = parser.parse_args(argv)
    if not args.corpus and not args.twice:
        parser.error("give --corpus or --twice")
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    if args.twice:
        write_twice(args.twice, args.out)
        return 0
    os.makedirs(args.out)
    writer = ExportWriter(args.corpus, args.out)
    logs = sorted(name for name in os.listdir(args.corpus) if re.fullmatch(r"conv-\d+\.json", name))
    channels = [writer.conversation(os.path.join(args.corpus, name), number + 1) for number, name in enumerate(logs)]
    with open(os.path.join(args.out, "channels.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(channels, f, ensure_ascii=False, indent=4)
    with open(os.path.join(args.out, "users.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(sorted(writer.users.values(), key=lambda u: u["id"]), f, ensure_ascii=False, indent=4)
    return 0


if __name__ == "__main__":
    sys.exit(main())
