"""A Microsoft Teams tenant export as Graph exporters write it (PascalCase keys): one team,
`teams/teamsList.json`, `teams/<team>/channels_<team>.json` with one channel per conversation and
`messages_<team>.json` holding every channel's messages (each naming its `ChannelIdentity`),
and `users/usersList.json`. Messages: `Id` (creation in milliseconds), `Body` HTML (Markdown
rendered by cmark-gfm, as Teams' editor writes rich text), `CreatedDateTime`,
`LastEditedDateTime`, `From.User`, `ReplyToId` (a channel reply belongs to its root's thread, as
Slack's), `Reactions` (`ReactionType` the emoji, with its `User`), photos as `reference`
attachments (Graph exports link files, not their bytes); system lines `systemEventMessage`s with
an `EventDetail`."""

import hashlib
import html
import os

from . import common

TEAM = "7c050abd-3cbb-448b-a9de-4000be4c0001"
TENANT = "af4acab6-6476-4c2f-bef2-4000be4c0002"
EVENTS = {"joined": "MembersJoined", "left": "MembersLeft", "renamed": "ChannelRenamed", "pinned": "MessagePinned",
          "photo": "ChannelDescriptionUpdated"}


def user_id(person):
    digest = hashlib.sha256(person["name"].encode()).hexdigest()
    return "%s-%s-4%s-8%s-%s" % (digest[0:8], digest[8:12], digest[13:16], digest[17:20], digest[20:32])


def stamp(date):
    return "%s.%s+00:00" % (date[:19], date[20:23] if date[19] == "." else "000")


def identity(person):
    return {"Application": None, "Device": None, "User": {
        "Id": user_id(person), "DisplayName": person["name"], "UserIdentityType": "aadUser", "TenantId": TENANT}}


def write(corpus, out):
    channels, messages, users = [], [], {}
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        for person in log["participants"]:
            users.setdefault(user_id(person), person["name"])
        channel = "19:bench%06d@thread.tacv2" % number
        channels.append({"Id": channel, "CreatedDateTime": stamp(log["messages"][0]["date"]),
                         "DisplayName": log["title"],
                         "Description": log.get("description"), "MembershipType": "standard", "TenantId": TENANT,
                         "IsArchived": False})
        bodies = iter(common.html_of_markdown([common.markdown_text(m) for m in log["messages"]]))
        ids, roots = {}, {}
        for msg in log["messages"]:
            body = next(bodies)
            mid = str(common.epoch_ms(msg["date"]))
            ids[msg["id"]] = mid
            k = common.kind(msg)
            record = {"Id": mid, "Body": {"ContentType": "html", "Content": body},
                      "CreatedDateTime": stamp(msg["date"]),
                      "LastModifiedDateTime": stamp(msg.get("edited", msg["date"])),
                      "LastEditedDateTime": stamp(msg["edited"]) if "edited" in msg else None, "DeletedDateTime": None,
                      "Subject": "", "Summary": None, "Importance": "normal", "Locale": "en-us",
                      "PolicyViolation": None, "ReplyToId": None, "WebUrl": None, "From": None, "Attachments": [],
                      "Mentions": [], "Reactions": [], "MessageHistory": None, "MessageType": "message",
                      "ChannelIdentity": {"ChannelId": channel, "TeamId": TEAM}, "ChatId": None, "EventDetail": None}
            if k == "system":
                what, who, rest = common.system_event(msg, people)
                actor = who or people[log["me"]]
                fields = {"Initiator": identity(actor)}
                if what in ("joined", "left"):
                    fields["Members"] = [{"Id": user_id(actor), "DisplayName": actor["name"]}]
                elif what == "renamed":
                    fields["ChannelDisplayName"] = rest.split("“")[-1].rstrip("”")
                record.update({"MessageType": "systemEventMessage",
                               "Body": {"ContentType": "html", "Content": "<systemEventMessage/>"},
                               "EventDetail": {EVENTS.get(what, "ChannelDescriptionUpdated"): fields}})
                messages.append(record)
                continue
            record["From"] = identity(people[msg["sender"]])
            if k == "photo":
                name = os.path.basename(msg["media"]["url"])
                record["Body"]["Content"] = "<p>%s</p>" % html.escape(msg["media"].get("caption", ""))
                record["Attachments"] = [{"Id": "%s-%s" % (mid, name), "ContentType": "reference",
                                          "ContentUrl": "https://bench.sharepoint.com/sites/Bench/Shared Documents/%s"
                                          % name, "Content": None, "Name": name, "ThumbnailUrl": None}]
            target = ids.get(msg.get("replyTo"))
            if target:
                record["ReplyToId"] = roots.get(target, target)
                roots[mid] = record["ReplyToId"]
            record["Reactions"] = [{"ReactionType": r["emoji"], "DisplayName": None, "ReactionContentUrl": None,
                                    "CreatedDateTime": stamp(msg["date"]), "User": identity(people[s])}
                                   for r in msg.get("reactions", []) for s in r["senders"]]
            messages.append(record)
    common.write_json(os.path.join(out, "teams", "teamsList.json"), [{
        "Name": "Bench", "Privacy": "Private", "Description": "benchmark team", "Classification": None,
        "GroupsId": TEAM, "ExpirationDate": None}], indent=2)
    common.write_json(os.path.join(out, "teams", TEAM, "channels_%s.json" % TEAM), channels, indent=2)
    common.write_json(os.path.join(out, "teams", TEAM, "messages_%s.json" % TEAM), messages, indent=2)
    common.write_json(os.path.join(out, "users", "usersList.json"), [
        {"Id": uid, "DisplayName": name, "Mail": None, "UserPrincipalName": None}
        for uid, name in sorted(users.items())], indent=2)
