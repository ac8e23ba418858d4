"""Mattermost's bulk export (`mmctl export create`): `import.jsonl`, one JSON object a line —
`version`, the `team`, a `channel` per conversation, the `user`s, then a `post` per root message
with its `replies` and `reactions` inline (a reply belongs to its target's thread, as Slack's),
`create_at` in milliseconds, `message` in Markdown (Mattermost's own), `edit_at` for an edit,
photos as `attachments` under `data/` (made `--attachments`). System lines are
`system_join_channel`-style posts."""

import json
import os

from . import common
from generate_slack_export import REACTION_NAMES  # the names Slack and Mattermost share

TEAM = "bench"
SYSTEM = {"joined": "system_join_channel", "left": "system_leave_channel", "renamed": "system_displayname_change",
          "photo": "system_header_change", "pinned": "system_generic"}


def write(corpus, out):
    lines = [{"type": "version", "version": 1},
             {"type": "team", "team": {"name": TEAM, "display_name": "Bench", "type": "O", "description": "",
                                       "allow_open_invite": True}}]
    users, posts = {}, []
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        channel = log["id"]
        lines.append({"type": "channel", "channel": {"team": TEAM, "name": channel, "display_name": log["title"],
                                                     "type": "O", "header": "", "purpose": log.get("description", "")}})

        def username(person):
            name = "%s.%s" % (person["name"].split()[0].lower(), person["name"].split()[-1].lower())
            users.setdefault(name, person["name"])
            return name

        roots = {}  # corpus id → the root post of its thread
        for n, msg in enumerate(log["messages"]):
            k = common.kind(msg)
            post = {"team": TEAM, "channel": channel, "create_at": common.epoch_ms(msg["date"])}
            if k == "system":
                what, who, _ = common.system_event(msg, people)
                post.update({"user": username(who or people[log["me"]]), "type": SYSTEM.get(what, "system_generic"),
                             "message": msg["text"]})
            else:
                post.update({"user": username(people[msg["sender"]]), "message": common.markdown_text(msg)})
            if "edited" in msg:
                post["edit_at"] = common.epoch_ms(msg["edited"])
            if k == "photo":
                name = "%d-%s" % (n, os.path.basename(msg["media"]["url"]))
                common.copy_photo(corpus, msg["media"], os.path.join(out, "data", channel), name)
                post["attachments"] = [{"path": "%s/%s" % (channel, name)}]
            if "reactions" in msg:
                post["reactions"] = [{"user": username(people[s]), "emoji_name": REACTION_NAMES[r["emoji"]],
                                      "create_at": post["create_at"] + 1}
                                     for r in msg["reactions"] for s in r["senders"]]
            root = roots.get(msg.get("replyTo"))
            if root is not None and k != "system":
                root.setdefault("replies", []).append(
                    {key: value for key, value in post.items() if key not in ("team", "channel")})
                roots[msg["id"]] = root
                continue
            roots[msg["id"]] = post
            posts.append({"type": "post", "post": post})
    for name, full in sorted(users.items()):
        lines.append({"type": "user", "user": {"username": name, "email": "%s@example.com" % name, "auth_service": "",
                                               "nickname": "", "first_name": full.split()[0],
                                               "last_name": full.split()[-1], "roles": "system_user",
                                               "teams": [{"name": TEAM, "roles": "team_user"}]}})
    with open(os.path.join(out, "import.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for line in lines + posts:
            f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
