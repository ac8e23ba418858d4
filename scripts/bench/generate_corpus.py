#!/usr/bin/env python3
"""Deterministic benchmark corpus for Scrollback (spec §1 JSON conversation logs).

Writes N messages spread over C conversations (Zipf-like sizes) into OUT/conv-NNN.json,
plus a few small PNGs in OUT/media/ that photo messages and avatars reference.
The same arguments (seed included) always give byte-identical files: every choice
comes from one seeded `random.Random`, dates are integer arithmetic, JSON is written
with fixed separators and key order.

Mix of message kinds (approximate shares of all messages):
  60% text (some with URLs, e-mail addresses, @mentions, line breaks)
  15% attributedText with GFM Markdown (emphasis, code, lists, links, tables, tasks)
   5% emoji only
   6% photo (local PNG with width/height, some alt/caption)
   4% linkPreview (title/teaser/siteName)
   4% system, 3% location, 3% custom "poll"
On top: ~5% of messages answer an earlier one (replyTo), ~8% carry reactions,
~2% are edited, right-aligned messages of `me` carry a delivery status.
"""

import argparse
import bisect
import json
import os
import random
import struct
import sys
import zlib

# --- word material -------------------------------------------------------------------
# Common English words, most frequent first: picked with Zipf weights so short function
# words dominate and the average word length is realistic (~4-5 letters).
WORDS = """
the to and a I you it of is that in for on this be we was have so just but not
with do are at my can like if what all it's get me no go yes will your know out
up about think one time now there good see they okay then how would make from
when really right well need want today tomorrow going back here also still more
some work thanks sure great maybe people thing day week could should over last
much after new way let because into first next pretty something look call year
home meeting later again morning tonight dinner lunch coffee office project team
review build release deploy test branch merge issue ticket bug fix feature plan
weekend trip flight hotel train station airport booking ticket price budget
photo picture video link article paper draft version update change schedule
message email phone number address street city country music movie book game
actually probably definitely basically literally honestly totally absolutely
amazing awesome terrible interesting important different possible available
remember forget understand explain discuss decide prepare organize finish start
tuesday wednesday thursday friday saturday sunday monday january february march
kitchen garden window birthday present party wedding holiday summer winter
database server client browser compiler function variable pipeline benchmark
performance template stylesheet markdown renderer layout message conversation
""".split()

FIRST_NAMES = """Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia
Peggy Rupert Sybil Trent Victor Walter Yusuf Zoe Amara Bjorn Chen Dmitri Elif Farah
Goran Hana Ines Jun Kofi Lena Mateo Noor Oskar Priya Quentin Rosa Sven Tariq Uma
Valentina Wei Ximena Yara Zeynep""".split()

LAST_NAMES = """Nguyen Stone Smith Müller García Rossi Kowalski Tanaka Okafor Silva Johansson
Dubois Novak Haddad Kim Singh Ivanova Costa Murphy Schmidt Yilmaz Andersen""".split()

EMOJI = ["👍", "😂", "❤️", "🎉", "🙏", "😅", "🔥", "👀", "😮", "😢", "🚀", "✅", "🤔", "🙌", "😍", "🍕", "☕", "🌧️"]
REACTION_EMOJI = ["👍", "❤️", "😂", "😮", "😢", "🙏", "🎉"]
TIMEZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney", "America/Sao_Paulo"]
SITES = [("example.com", "Example News"), ("example.org", "The Example Journal"),
         ("docs.example.net", "Example Docs"), ("video.example.com", "ExampleTube"),
         ("blog.example.io", "Example Engineering Blog")]
PLACES = [("Brandenburg Gate", "Pariser Platz, 10117 Berlin", 52.516275, 13.377704),
          ("Café Central", "Herrengasse 14, 1010 Wien", 48.210313, 16.365539),
          ("Shibuya Crossing", "Shibuya City, Tokyo", 35.659484, 139.700562),
          ("Central Station", "Stationsplein, Amsterdam", 52.378901, 4.900272),
          ("Golden Gate Park", "San Francisco, CA", 37.769421, -122.486214)]
LANGUAGES = ["swift", "python", "json", "bash", "c", ""]

# Small local images: (file name, width, height, RGB). Photos use the first six, avatars the rest.
IMAGES = [("photo-1.png", 160, 120, (70, 130, 180)), ("photo-2.png", 120, 160, (200, 120, 60)),
          ("photo-3.png", 128, 128, (90, 160, 90)), ("photo-4.png", 192, 108, (150, 90, 170)),
          ("photo-5.png", 108, 192, (220, 180, 40)), ("photo-6.png", 200, 150, (40, 40, 60)),
          ("avatar-1.png", 64, 64, (230, 100, 100)), ("avatar-2.png", 64, 64, (100, 200, 230)),
          ("avatar-3.png", 64, 64, (120, 220, 120))]

BASE_EPOCH = 1672531200  # 2023-01-01T00:00:00Z


def write_png(path, width, height, rgb):
    """A valid RGB PNG with a vertical gradient (deterministic bytes, zlib level 9)."""
    rows = bytearray()
    for y in range(height):
        shade = y * 60 // max(1, height - 1)
        pixel = bytes(max(0, min(255, c - 30 + shade)) for c in rgb)
        rows += b"\x00" + pixel * width

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def iso_date(epoch, millis=None):
    """ISO 8601 in UTC with `Z`, optionally with milliseconds (integer arithmetic only)."""
    days, secs = divmod(epoch, 86400)
    # civil_from_days (Howard Hinnant), proleptic Gregorian.
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    if m <= 2:
        y += 1
    hh, rem = divmod(secs, 3600)
    mm, ss = divmod(rem, 60)
    frac = "" if millis is None else ".%03d" % millis
    return "%04d-%02d-%02dT%02d:%02d:%02d%sZ" % (y, m, d, hh, mm, ss, frac)


class CorpusWriter:
    """Makes conversations from one seeded random stream."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        weights = [1.0 / (rank + 1.2) for rank in range(len(WORDS))]
        total = 0.0
        self.word_cum = []
        for w in weights:
            total += w
            self.word_cum.append(total)
        self.word_total = total

    # -- text pieces --
    def word(self):
        return WORDS[bisect.bisect_left(self.word_cum, self.rng.random() * self.word_total)]

    def words(self, count):
        return " ".join(self.word() for _ in range(count))

    def sentence_length(self):
        r = self.rng.random()
        if r < 0.30:
            return self.rng.randint(1, 3)
        if r < 0.75:
            return self.rng.randint(4, 12)
        if r < 0.95:
            return self.rng.randint(13, 40)
        return self.rng.randint(41, 120)

    def sentence(self, count=None):
        text = self.words(count or self.sentence_length())
        return text[:1].upper() + text[1:] + self.rng.choice([".", ".", "!", "?", "", "..."])

    def url(self):
        host, _ = self.rng.choice(SITES)
        return "https://%s/%s/%s-%d" % (host, self.word(), self.word(), self.rng.randint(1, 9999))

    def plain_text(self, participants):
        rng = self.rng
        parts = [self.sentence()]
        r = rng.random()
        if r < 0.06:
            parts.append("@" + rng.choice(participants)["id"])
        elif r < 0.10:
            parts.append(self.url())
        elif r < 0.11:
            parts.append("%s@example.com" % rng.choice(participants)["id"])
        if rng.random() < 0.08:
            parts.append("\n" + self.sentence())
        if rng.random() < 0.05:
            parts.insert(rng.randint(0, len(parts)), rng.choice(EMOJI))
        return " ".join(parts)

    def markdown_text(self):
        rng = self.rng
        style = rng.randrange(9)
        w = self.word
        if style == 0:
            return "This is *%s* and **%s**, see `%s()` for %s." % (w(), self.words(2), w(), self.words(rng.randint(2, 8)))
        if style == 1:
            lang = rng.choice(LANGUAGES)
            lines = ["let %s = %s(%d)" % (w(), w(), rng.randint(0, 99)) for _ in range(rng.randint(1, 6))]
            return "%s:\n\n```%s\n%s\n```" % (self.sentence(rng.randint(2, 8)), lang, "\n".join(lines))
        if style == 2:
            items = ["- %s" % self.words(rng.randint(1, 6)) for _ in range(rng.randint(2, 6))]
            return "%s\n\n%s" % (self.sentence(rng.randint(2, 6)), "\n".join(items))
        if style == 3:
            items = ["%d. %s" % (i + 1, self.words(rng.randint(1, 6))) for i in range(rng.randint(2, 5))]
            return "\n".join(items)
        if style == 4:
            return "Have a look at [%s](%s) and ~~%s~~ %s." % (self.words(2), self.url(), self.words(2), self.words(3))
        if style == 5:
            cols = rng.randint(2, 4)
            head = "| " + " | ".join(w().capitalize() for _ in range(cols)) + " |"
            sep = "|" + "|".join("---" for _ in range(cols)) + "|"
            rows = ["| " + " | ".join(self.words(rng.randint(1, 2)) for _ in range(cols)) + " |"
                    for _ in range(rng.randint(1, 5))]
            return "\n".join([head, sep] + rows)
        if style == 6:
            items = ["- [%s] %s" % (rng.choice(["x", " "]), self.words(rng.randint(1, 5))) for _ in range(rng.randint(2, 5))]
            return "%s\n\n%s" % (self.sentence(rng.randint(1, 4)), "\n".join(items))
        if style == 7:
            return "> %s\n\n%s" % (self.sentence(), self.sentence())
        return "## %s\n\n%s _%s_ %s" % (self.words(3), self.sentence(), self.words(2), self.url())

    # -- conversations --
    def participants(self, conv_index):
        rng = self.rng
        count = rng.randint(3, 30)
        people = []
        used = set()
        for i in range(count):
            first = rng.choice(FIRST_NAMES)
            last = rng.choice(LAST_NAMES)
            base = first.lower()
            pid = base if base not in used else "%s%d" % (base, i)
            used.add(pid)
            person = {"id": pid, "name": "%s %s" % (first, last)}
            r = rng.random()
            if r < 0.25:
                person["avatar"] = "media/" + rng.choice(IMAGES[6:])[0]
            if rng.random() < 0.3:
                person["color"] = "#%06x" % rng.randrange(0x1000000)
            people.append(person)
        return people

    def conversation(self, conv_index, size, out_file):
        rng = self.rng
        people = self.participants(conv_index)
        me = people[0]["id"]
        # Zipf weights over participants: a few people talk most.
        sender_cum = []
        total = 0.0
        for rank in range(len(people)):
            total += 1.0 / (rank + 1)
            sender_cum.append(total)

        header = {
            "version": 1,
            "id": "conv-%03d" % (conv_index + 1),
            "title": "%s %s" % (self.word().capitalize(), rng.choice(["chat", "group", "team", "crew", "planning", "family"])),
            "description": self.sentence(rng.randint(4, 12)),
            "me": me,
            "timezone": rng.choice(TIMEZONES),
            "participants": people,
        }
        head_json = json.dumps(header, ensure_ascii=False, separators=(",", ":"))
        out_file.write(head_json[:-1] + ',"messages":[\n')

        epoch = BASE_EPOCH + conv_index * 3600 * 7 + rng.randrange(86400)
        sender = people[0]["id"]
        for n in range(size):
            r = rng.random()
            if r < 0.55:
                epoch += rng.randint(3, 120)
            elif r < 0.93:
                epoch += rng.randint(120, 3600)
            else:
                epoch += rng.randint(3600, 86400 * 2)
            millis = rng.randrange(1000) if rng.random() < 0.05 else None
            if rng.random() > 0.4:  # sometimes the same sender keeps talking
                sender = people[bisect.bisect_left(sender_cum, rng.random() * total)]["id"]
            msg = {"id": "m%d" % (n + 1), "sender": sender, "date": iso_date(epoch, millis)}
            k = rng.random()
            if k < 0.60:
                msg["text"] = self.plain_text(people)
            elif k < 0.75:
                msg["kind"] = "attributedText"
                msg["markdown"] = self.markdown_text()
            elif k < 0.80:
                msg["kind"] = "emoji"
                msg["text"] = "".join(rng.choice(EMOJI) for _ in range(rng.randint(1, 3)))
            elif k < 0.86:
                name, width, height, _ = rng.choice(IMAGES[:6])
                media = {"url": "media/" + name, "width": width, "height": height}
                if rng.random() < 0.5:
                    media["alt"] = self.words(rng.randint(2, 6))
                if rng.random() < 0.3:
                    media["caption"] = self.sentence(rng.randint(2, 10))
                msg["kind"] = "photo"
                msg["media"] = media
            elif k < 0.90:
                host, site = rng.choice(SITES)
                url = "https://%s/%s-%d" % (host, self.word(), rng.randint(1, 99999))
                msg["kind"] = "linkPreview"
                msg["text"] = "%s %s" % (self.sentence(rng.randint(1, 10)), url)
                msg["link"] = {"url": url, "title": self.sentence(rng.randint(3, 9)),
                               "teaser": self.sentence(rng.randint(10, 30)), "siteName": site}
            elif k < 0.94:
                msg = {"id": msg["id"], "kind": "system", "date": msg["date"]}
                who = rng.choice(people)["name"]
                msg["text"] = rng.choice([
                    "%s joined the conversation" % who,
                    "%s left the conversation" % who,
                    "%s renamed the group to “%s”" % (who, self.words(2)),
                    "%s changed the group photo" % who,
                    "%s pinned a message" % who])
            elif k < 0.97:
                name, address, lat, lon = rng.choice(PLACES)
                loc = {"latitude": round(lat + rng.uniform(-0.01, 0.01), 6),
                       "longitude": round(lon + rng.uniform(-0.01, 0.01), 6)}
                if rng.random() < 0.7:
                    loc["name"] = name
                    loc["address"] = address
                msg["kind"] = "location"
                msg["location"] = loc
            else:
                options = [self.words(rng.randint(1, 3)) for _ in range(rng.randint(2, 5))]
                msg["kind"] = "custom"
                msg["custom"] = {"id": "poll", "data": {
                    "question": self.sentence(rng.randint(3, 10))[:-1] + "?",
                    "options": options,
                    "votes": [rng.randint(0, len(people)) for _ in options]}}
            if msg.get("kind") != "system":
                if n > 0 and rng.random() < 0.05:
                    msg["replyTo"] = "m%d" % rng.randint(max(1, n - 50), n)
                if rng.random() < 0.08:
                    reactions = []
                    for emoji in rng.sample(REACTION_EMOJI, rng.randint(1, 3)):
                        senders = rng.sample(people, rng.randint(1, min(4, len(people))))
                        reactions.append({"emoji": emoji, "senders": [p["id"] for p in senders]})
                    msg["reactions"] = reactions
                if rng.random() < 0.02:
                    msg["edited"] = iso_date(epoch + rng.randint(5, 600))
                if msg["sender"] == me:
                    msg["status"] = rng.choice(["read", "read", "read", "delivered", "sent"])
            out_file.write(json.dumps(msg, ensure_ascii=False, separators=(",", ":")))
            out_file.write(",\n" if n + 1 < size else "\n")
        out_file.write("]}\n")


def conversation_sizes(messages, conversations, exponent=0.9):
    """Zipf-like sizes summing exactly to `messages`; every conversation gets at least one."""
    weights = [1.0 / (i + 1) ** exponent for i in range(conversations)]
    total = sum(weights)
    sizes = [max(1, int(messages * w / total)) for w in weights]
    sizes[0] += messages - sum(sizes)
    if sizes[0] < 1:
        raise SystemExit("too few messages for %d conversations" % conversations)
    return sizes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--conversations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=20240503)
    parser.add_argument("--out", required=True, help="output folder (created; existing conv-*.json replaced)")
    args = parser.parse_args(argv)
    if args.messages < args.conversations:
        parser.error("--messages must be at least --conversations")

    os.makedirs(os.path.join(args.out, "media"), exist_ok=True)
    for name, width, height, rgb in IMAGES:
        write_png(os.path.join(args.out, "media", name), width, height, rgb)

    writer = CorpusWriter(args.seed)
    for index, size in enumerate(conversation_sizes(args.messages, args.conversations)):
        path = os.path.join(args.out, "conv-%03d.json" % (index + 1))
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            writer.conversation(index, size, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
