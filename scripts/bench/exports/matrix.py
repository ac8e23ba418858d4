"""Element's "Export chat" in JSON with "Include attachments": one unpacked zip per room
(`matrix - ROOM - Chat Export - N/`) holding `export.json`, with Element's header (`room_name`,
`room_creator`, `topic`, `export_date`, `exported_by`) and `messages`, the room's events:
`m.room.message` (`m.text` with `body` in Markdown and `formatted_body` its HTML, by cmark-gfm;
`m.image` with `info`, the file in the room's `images/` named as Element names it; `m.location`;
replies as `m.in_reply_to`), `m.reaction` and `m.replace` events for reactions and edits (after
their target, folded into it by the importer), `m.room.member` / `m.room.name` / `m.room.avatar`
/ `m.room.pinned_events` state events for system lines."""

import hashlib
import os

from . import common

SERVER = "example.org"


def user(person):
    return "@%s:%s" % (person["id"], SERVER)


def event_id(number, n, suffix=""):
    digest = hashlib.sha256(("%d/%d%s" % (number, n, suffix)).encode()).hexdigest()[:43]
    return "$" + digest


def write(corpus, out):
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        room = "!bench%d:%s" % (number, SERVER)
        room_folder = os.path.join(out, "matrix - %s - Chat Export - %d" % (log["title"], number))
        markdown = [common.kind(m) == "attributedText" for m in log["messages"]]
        html = iter(common.html_of_markdown([m["markdown"] for m, md in zip(log["messages"], markdown) if md]))
        ids = {}
        events = []

        def event(kind, sender, ms, eid, content, **extra):
            record = {"type": kind, "room_id": room, "sender": sender, "content": content, "origin_server_ts": ms,
                      "unsigned": {"age": 1000}, "event_id": eid, "user_id": sender}
            record.update(extra)
            events.append(record)

        for n, msg in enumerate(log["messages"]):
            ms = common.epoch_ms(msg["date"])
            eid = event_id(number, n)
            ids[msg["id"]] = eid
            k = common.kind(msg)
            if k == "system":
                what, who, rest = common.system_event(msg, people)
                sender = user(who or people[log["me"]])
                if what in ("joined", "left"):
                    event("m.room.member", sender, ms, eid, {"membership": "join" if what == "joined" else "leave",
                          "displayname": (who or people[log["me"]])["name"]}, state_key=sender)
                elif what == "renamed":
                    event("m.room.name", sender, ms, eid, {"name": rest.split("“")[-1].rstrip("”")}, state_key="")
                elif what == "pinned":
                    event("m.room.pinned_events", sender, ms, eid, {"pinned": [event_id(number, max(0, n - 1))]},
                          state_key="")
                else:
                    event("m.room.avatar", sender, ms, eid, {"url": "mxc://%s/avatar%d" % (SERVER, n)}, state_key="")
                continue
            sender = user(people[msg["sender"]])
            if k == "photo":
                # Element names the file `<body's name>-<the browser's date and time>.<ext>`.
                media = msg["media"]
                body = "%d-%s" % (n, os.path.basename(media["url"]))
                d = msg["date"]
                hour = int(d[11:13])
                stamp = "%d-%d-%s at %d-%s-%s %s" % (int(d[8:10]), int(d[5:7]), d[0:4], (hour + 11) % 12 + 1, d[14:16],
                                                    d[17:19], "AM" if hour < 12 else "PM")
                common.copy_photo(corpus, media, os.path.join(room_folder, "images"),
                                  "%s-%s.png" % (body[:-4], stamp))
                content = {"msgtype": "m.image", "body": body, "url": "mxc://%s/photo%d" % (SERVER, n),
                           "info": {"w": media["width"], "h": media["height"], "mimetype": "image/png",
                                    "size": os.path.getsize(os.path.join(corpus, media["url"]))}}
            elif k == "location":
                loc = msg["location"]
                content = {"msgtype": "m.location", "body": loc.get("name", "Location"),
                           "geo_uri": "geo:%s,%s" % (loc["latitude"], loc["longitude"])}
            else:
                content = {"msgtype": "m.text", "body": common.markdown_text(msg)}
                if k == "attributedText":
                    content.update({"format": "org.matrix.custom.html", "formatted_body": next(html)})
            target = ids.get(msg.get("replyTo"))
            if target:
                content["m.relates_to"] = {"m.in_reply_to": {"event_id": target}}
            event("m.room.message", sender, ms, eid, content)
            if "edited" in msg:
                edit = dict(content, body=" * " + content["body"], **{"m.new_content": {
                    key: value for key, value in content.items() if key != "m.relates_to"}})
                edit["m.relates_to"] = {"rel_type": "m.replace", "event_id": eid}
                event("m.room.message", sender, common.epoch_ms(msg["edited"]), event_id(number, n, "edit"), edit)
            for r_index, reaction in enumerate(msg.get("reactions", [])):
                for s_index, pid in enumerate(reaction["senders"]):
                    event("m.reaction", user(people[pid]), ms + 1, event_id(number, n, "r%d.%d" % (r_index, s_index)),
                          {"m.relates_to": {"rel_type": "m.annotation", "event_id": eid, "key": reaction["emoji"]}})
        export = {"room_name": log["title"], "room_creator": user(people[log["me"]]),
                  "topic": log.get("description", ""),
                  "export_date": log["messages"][-1]["date"][:10].replace("-", "/"),
                  "exported_by": people[log["me"]]["name"], "messages": events}
        common.write_json(os.path.join(room_folder, "export.json"), export, indent=4)
