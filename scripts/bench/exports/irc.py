"""WeeChat's IRC logs: `irc.bench.#NAME.weechatlog` per channel, one line a message
(`YYYY-MM-DD HH:MM:SS<TAB>nick<TAB>text`; UTC wall clock here). IRC has one line a message: a
message of several lines is joined with spaces, a photo is its URL (IRC shares links, not files),
Markdown stays as typed. Joins and parts are WeeChat's `-->` / `<--` lines, other system lines
`--` notices. No replies, reactions or edits."""

import os

from . import common


def write(corpus, out):
    for number, log in common.conversations(corpus):
        people = {p["id"]: p for p in log["participants"]}
        lines = []
        for msg in log["messages"]:
            stamp = "%s %s" % (msg["date"][:10], msg["date"][11:19])
            k = common.kind(msg)
            if k == "system":
                what, who, rest = common.system_event(msg, people)
                nick = who["id"] if who else "ChanServ"
                if what == "joined":
                    lines.append("%s\t-->\t%s (~%s@example.org) has joined #%s" % (stamp, nick, nick, log["id"]))
                elif what == "left":
                    lines.append("%s\t<--\t%s (~%s@example.org) has left #%s" % (stamp, nick, nick, log["id"]))
                elif what == "renamed":
                    lines.append('%s\t--\t%s has changed topic for #%s to "%s"' % (
                        stamp, nick, log["id"], rest.split("“")[-1].rstrip("”")))
                else:
                    lines.append("%s\t--\t%s %s" % (stamp, nick, rest))
                continue
            text = common.plain_text(msg)
            if k == "photo":
                url = "https://files.example.com/%d/%s" % (number, os.path.basename(msg["media"]["url"]))
                text = ("%s %s" % (text, url)).strip()
            lines.append("%s\t%s\t%s" % (stamp, people[msg["sender"]]["id"], " ".join(text.split("\n"))))
        with open(os.path.join(out, "irc.bench.#%s.weechatlog" % log["id"]), "w", encoding="utf-8",
                  newline="\n") as f:
            f.write("\n".join(lines) + "\n")
