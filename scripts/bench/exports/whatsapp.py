"""WhatsApp's "Export chat" text: one folder per chat with `WhatsApp Chat with TITLE.txt` and the
attached files beside it. Odd conversations in the Android layout (`12/25/23, 14:03 - Name: text`,
`IMG-….png (file attached)`), even ones in the iOS layout (`[12/25/23, 14:03:22] Name: text`,
`<attached: 00000001-PHOTO-….png>`). Markdown becomes WhatsApp's `*bold*` / `_italic_` / `~strike~`;
an edited message ends with `<This message was edited>`; system lines are WhatsApp's sentences.
WhatsApp exports carry no replies, reactions or link cards (the URL stays in the text)."""

import os

from . import common

SYSTEM = {"joined": "{who} joined using this group's invite link", "left": "{who} left",
          "renamed": "{who} changed the group name to \"{rest}\"", "photo": "{who} changed this group's icon",
          "pinned": "{who} pinned a message"}


def stamp(date, ios):
    """An English (US) phone's timestamp: month/day/year, 24-hour clock."""
    day = "%d/%d/%s" % (int(date[5:7]), int(date[8:10]), date[2:4])
    return "[%s, %s]" % (day, date[11:19]) if ios else "%s, %s -" % (day, date[11:16])


def write(corpus, out):
    for number, log in common.conversations(corpus):
        ios = number % 2 == 0
        people = {p["id"]: p for p in log["participants"]}
        folder = os.path.join(out, log["id"])
        os.makedirs(folder)
        lines = []
        for n, msg in enumerate(log["messages"]):
            head = stamp(msg["date"], ios)
            k = common.kind(msg)
            if k == "system":
                what, who, rest = common.system_event(msg, people)
                text = SYSTEM[what].format(who=who["name"], rest=rest.split("“")[-1].rstrip("”")) \
                    if who and what in SYSTEM else msg["text"]
                lines.append("%s %s" % (head, text))
                continue
            if k == "photo":
                date = msg["date"]
                if ios:
                    name = "%08d-PHOTO-%s-%s-%s-%s-%s-%s.png" % (n + 1, date[0:4], date[5:7], date[8:10],
                                                               date[11:13], date[14:16], date[17:19])
                    attached = "\u200e<attached: %s>" % name
                else:
                    name = "IMG-%s%s%s-WA%04d.png" % (date[0:4], date[5:7], date[8:10], n % 10000)
                    attached = "%s (file attached)" % name
                common.copy_photo(corpus, msg["media"], folder, name)
                caption = msg["media"].get("caption")
                text = attached + ("\n" + caption if caption else "")
            elif k == "attributedText":
                text = common.chat_markup(msg["markdown"])
            else:
                text = common.plain_text(msg)
            if "edited" in msg:
                text += " <This message was edited>"
            lines.append("%s %s: %s" % (head, people[msg["sender"]]["name"], text))
        with open(os.path.join(folder, "WhatsApp Chat with %s.txt" % log["title"]), "w", encoding="utf-8",
                  newline="\n") as f:
            f.write("\n".join(lines) + "\n")
