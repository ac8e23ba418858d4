"""Tests for the benchmark tools in scripts/bench (no timing assertions).

Run: python3 -m unittest discover -s Tests/Bench -v
"""

import collections
import datetime
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts", "bench"))

import append_message  # noqa: E402
import generate_corpus  # noqa: E402
import generate_export  # noqa: E402
import generate_slack_export  # noqa: E402
import page_load_ratio  # noqa: E402
import prepare_baselines  # noqa: E402
import report  # noqa: E402

KINDS = {"text", "attributedText", "emoji", "photo", "video", "audio", "location", "contact", "linkPreview",
         "system", "custom"}


def folder_digest(folder):
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            digest.update(os.path.relpath(path, folder).encode())
            with open(path, "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()


def parse_date(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


class GeneratedCorpus(unittest.TestCase):
    """One 6,000-message corpus shared by the structure tests."""

    messages = 6000
    conversations = 12

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.corpus = os.path.join(cls.tmp.name, "corpus")
        generate_corpus.main(["--messages", str(cls.messages), "--conversations", str(cls.conversations),
                              "--seed", "7", "--out", cls.corpus])
        cls.logs = []
        for name in sorted(os.listdir(cls.corpus)):
            if name.endswith(".json"):
                with open(os.path.join(cls.corpus, name), encoding="utf-8") as f:
                    cls.logs.append(json.load(f))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def all_messages(self):
        return [m for log in self.logs for m in log["messages"]]

    def test_same_seed_gives_identical_bytes_and_another_seed_does_not(self):
        again = os.path.join(self.tmp.name, "again")
        other = os.path.join(self.tmp.name, "other")
        generate_corpus.main(["--messages", str(self.messages), "--conversations", str(self.conversations),
                              "--seed", "7", "--out", again])
        generate_corpus.main(["--messages", str(self.messages), "--conversations", str(self.conversations),
                              "--seed", "8", "--out", other])
        self.assertEqual(folder_digest(self.corpus), folder_digest(again))
        self.assertNotEqual(folder_digest(self.corpus), folder_digest(other))

    def test_exact_message_and_conversation_counts_with_varied_sizes(self):
        self.assertEqual(len(self.logs), self.conversations)
        sizes = [len(log["messages"]) for log in self.logs]
        self.assertEqual(sum(sizes), self.messages)
        self.assertGreater(max(sizes), 3 * min(sizes), "sizes should be Zipf-like, not uniform")

    def test_logs_follow_the_spec_fields(self):
        for log in self.logs:
            self.assertEqual(log["version"], 1)
            participant_ids = [p["id"] for p in log["participants"]]
            self.assertEqual(len(participant_ids), len(set(participant_ids)))
            self.assertTrue(3 <= len(participant_ids) <= 30)
            self.assertIn(log["me"], participant_ids)
            seen = set()
            previous = None
            for message in log["messages"]:
                self.assertNotIn(message["id"], seen, "duplicate id")
                kind = message.get("kind", "text")
                self.assertIn(kind, KINDS)
                if kind != "system":
                    self.assertIn(message["sender"], participant_ids)
                if "replyTo" in message:
                    self.assertIn(message["replyTo"], seen, "replyTo must name an earlier message")
                for reaction in message.get("reactions", []):
                    self.assertTrue(set(reaction["senders"]) <= set(participant_ids))
                date = parse_date(message["date"])
                self.assertIsNotNone(date.tzinfo)
                if previous is not None:
                    self.assertGreaterEqual(date, previous)
                previous = date
                seen.add(message["id"])

    def test_kind_mix_is_close_to_the_intended_shares(self):
        counts = collections.Counter(m.get("kind", "text") for m in self.all_messages())
        share = {k: v / self.messages for k, v in counts.items()}
        for kind, expected in {"text": 0.60, "attributedText": 0.15, "emoji": 0.05, "photo": 0.06,
                               "linkPreview": 0.04, "system": 0.04, "location": 0.03, "custom": 0.03}.items():
            self.assertAlmostEqual(share.get(kind, 0), expected, delta=0.02, msg=kind)
        self.assertTrue(any("replyTo" in m for m in self.all_messages()))
        self.assertTrue(any("reactions" in m for m in self.all_messages()))

    def test_markdown_messages_use_the_gfm_features(self):
        bodies = "\n".join(m["markdown"] for m in self.all_messages() if m.get("kind") == "attributedText")
        for feature in ("**", "```", "\n- ", "](https://", "|---|", "~~", "- [x]"):
            self.assertIn(feature, bodies)

    def test_photos_reference_existing_pngs_with_their_real_size(self):
        for message in self.all_messages():
            if message.get("kind") != "photo":
                continue
            media = message["media"]
            with open(os.path.join(self.corpus, media["url"]), "rb") as f:
                head = f.read(24)
            self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
            self.assertEqual(struct.unpack(">II", head[16:24]), (media["width"], media["height"]))

    def test_appending_keeps_the_log_valid_and_adds_one_latest_message(self):
        path = os.path.join(self.tmp.name, "append.json")
        with open(os.path.join(self.corpus, "conv-003.json"), "rb") as src, open(path, "wb") as dst:
            dst.write(src.read())
        with open(path, encoding="utf-8") as f:
            before = json.load(f)
        new_id = append_message.append_message(path, "hello")
        with open(path, encoding="utf-8") as f:
            after = json.load(f)
        self.assertEqual(len(after["messages"]), len(before["messages"]) + 1)
        self.assertEqual(after["messages"][:-1], before["messages"])
        self.assertEqual(after["messages"][-1]["id"], new_id)
        self.assertEqual(after["messages"][-1]["text"], "hello")
        self.assertGreater(parse_date(after["messages"][-1]["date"]), parse_date(before["messages"][-1]["date"]))

    def test_slack_export_holds_the_same_messages_with_threads_and_files(self):
        out = os.path.join(self.tmp.name, "slack")
        generate_slack_export.main(["--corpus", self.corpus, "--out", out])
        again = os.path.join(self.tmp.name, "slack-again")
        generate_slack_export.main(["--corpus", self.corpus, "--out", again])
        self.assertEqual(folder_digest(out), folder_digest(again))
        with open(os.path.join(out, "users.json"), encoding="utf-8") as f:
            names = {user["id"]: user["real_name"] for user in json.load(f)}
        with open(os.path.join(out, "channels.json"), encoding="utf-8") as f:
            channels = json.load(f)
        self.assertEqual([c["name"] for c in channels], [log["id"] for log in self.logs])
        replies = broadcasts = files = 0
        for channel, log in zip(channels, self.logs):
            folder = os.path.join(out, channel["name"])
            messages = []
            for day in sorted(os.listdir(folder)):
                if not day.endswith(".json"):
                    continue
                with open(os.path.join(folder, day), encoding="utf-8") as f:
                    for message in json.load(f):
                        seconds = float(message["ts"])
                        self.assertEqual(datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
                                         .strftime("%Y-%m-%d.json"), day)
                        messages.append(message)
            # One Slack message per corpus message, same order, dates and senders.
            self.assertEqual(len(messages), len(log["messages"]))
            people = {p["id"]: p["name"] for p in log["participants"]}
            self.assertEqual({names[m] for m in channel["members"]}, set(people.values()))
            by_ts = {m["ts"]: m for m in messages}
            self.assertEqual(len(by_ts), len(messages), "ts must be unique in a channel")
            for source, message in zip(log["messages"], messages):
                self.assertAlmostEqual(float(message["ts"]), parse_date(source["date"]).timestamp(), places=3)
                if source.get("kind", "text") not in ("system", "custom"):
                    self.assertEqual(names[message["user"]], people[source["sender"]])
                if source.get("kind") == "photo":
                    files += 1
                    (item,) = message["files"]
                    stored = os.path.join(folder, "attachments", "%s-%s" % (item["id"], item["name"]))
                    self.assertEqual(os.path.getsize(stored), item["size"])
                    self.assertEqual((item["original_w"], item["original_h"]),
                                     (source["media"]["width"], source["media"]["height"]))
                if "thread_ts" in message and message["thread_ts"] != message["ts"]:
                    replies += 1
                    root = by_ts[message["thread_ts"]]
                    self.assertIn({"user": message["user"], "ts": message["ts"]}, root["replies"])
                    self.assertLess(float(root["ts"]), float(message["ts"]))
                    broadcasts += message.get("subtype") == "thread_broadcast"
            for root in messages:
                if "replies" in root:
                    self.assertEqual(root["reply_count"], len(root["replies"]))
                    self.assertEqual(root["thread_ts"], root["ts"])
        self.assertGreater(replies, self.messages * 0.03)
        self.assertGreater(broadcasts, 0)
        self.assertEqual(files, sum(1 for m in self.all_messages() if m.get("kind") == "photo"))

    def test_twice_holds_every_channel_twice_as_hard_links(self):
        out = os.path.join(self.tmp.name, "slack")
        generate_slack_export.main(["--corpus", self.corpus, "--out", out])
        twice = os.path.join(self.tmp.name, "slack-twice")
        generate_slack_export.main(["--twice", out, "--out", twice])
        with open(os.path.join(out, "channels.json"), encoding="utf-8") as f:
            channels = json.load(f)
        with open(os.path.join(twice, "channels.json"), encoding="utf-8") as f:
            doubled = json.load(f)
        self.assertEqual(doubled[:len(channels)], channels)
        copies = doubled[len(channels):]
        self.assertEqual([c["name"] for c in copies], ["again-" + c["name"] for c in channels])
        self.assertEqual(len({c["id"] for c in doubled}), 2 * len(channels))
        for channel in channels:
            folder = os.path.join(out, channel["name"])
            for copy in (channel["name"], "again-" + channel["name"]):
                self.assertEqual(sorted(os.listdir(os.path.join(twice, copy))), sorted(os.listdir(folder)))
            day = sorted(d for d in os.listdir(folder) if d.endswith(".json"))[0]
            self.assertTrue(os.path.samefile(os.path.join(folder, day),
                                             os.path.join(twice, "again-" + channel["name"], day)))
        # The export itself is untouched (its channels.json was a link before it was written anew).
        with open(os.path.join(out, "channels.json"), encoding="utf-8") as f:
            self.assertEqual(json.load(f), channels)

    def test_baselines_render_every_message(self):
        out = os.path.join(self.tmp.name, "baselines")
        prepare_baselines.main(["--corpus", self.corpus, "--hugo", os.path.join(out, "hugo"),
                                "--cmark", os.path.join(out, "cmark")])
        blocks = 0
        for root, _, files in os.walk(os.path.join(out, "hugo", "content")):
            for name in files:
                if name.startswith("page-"):
                    with open(os.path.join(root, name), encoding="utf-8") as f:
                        blocks += f.read().count("data-message-id=")
        self.assertEqual(blocks, self.messages)
        separators = 0
        for name in os.listdir(os.path.join(out, "cmark")):
            with open(os.path.join(out, "cmark", name), encoding="utf-8") as f:
                separators += f.read().count("\n\n* * *\n\n")
        self.assertEqual(separators, self.messages - self.conversations)


class ExportWriters(unittest.TestCase):
    """Each writer of generate_export.py: a 30-message corpus in 3 conversations (seed 9 has every
    kind, replies, reactions and edits) written as that export and built by the debug binary
    shows every corpus message once, so a writer whose shape the importer does not read fails."""

    binary = os.environ.get("SCROLLBACK_DEBUG_BINARY", os.path.join(REPO, ".build", "debug", "scrollback"))

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.corpus = os.path.join(cls.tmp.name, "corpus")
        generate_corpus.main(["--messages", "30", "--conversations", "3", "--seed", "9", "--out", cls.corpus])
        cls.kinds = collections.Counter()
        for name in sorted(os.listdir(cls.corpus)):
            if name.endswith(".json"):
                with open(os.path.join(cls.corpus, name), encoding="utf-8") as f:
                    for message in json.load(f)["messages"]:
                        cls.kinds[message.get("kind", "text")] += 1
                        cls.kinds.update(key for key in ("replyTo", "reactions", "edited") if key in message)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def messages_on_site(self, site):
        """`data-message-id` elements on the conversation pages (the index and assets aside)."""
        count = 0
        for root, dirs, files in os.walk(site):
            dirs[:] = [d for d in dirs if not d.startswith(".") and not (root == site and d in ("assets", "search"))]
            if root == site:
                continue
            for name in files:
                if name.endswith(".html"):
                    with open(os.path.join(root, name), encoding="utf-8") as f:
                        count += len(re.findall(r'data-message-id="', f.read()))
        return count

    def check_format(self, name):
        self.assertTrue(os.access(self.binary, os.X_OK), "build the debug binary first (swift build)")
        self.assertEqual(set(self.kinds), {"text", "attributedText", "emoji", "photo", "linkPreview", "system",
                                           "location", "custom", "replyTo", "reactions", "edited"})
        export = os.path.join(self.tmp.name, name)
        generate_export.main(["--format", name, "--corpus", self.corpus, "--out", export])
        again = os.path.join(self.tmp.name, name + "-again")
        generate_export.main(["--format", name, "--corpus", self.corpus, "--out", again])
        self.assertEqual(folder_digest(export), folder_digest(again), "byte-deterministic")
        site = os.path.join(self.tmp.name, name + "-site")
        build = subprocess.run([self.binary, "build", export, "-o", site], capture_output=True, text=True,
                               env=dict(os.environ, XDG_CACHE_HOME=os.path.join(self.tmp.name, "cache")))
        self.assertEqual(build.returncode, 0, build.stdout + build.stderr)
        self.assertEqual(self.messages_on_site(site), 30, build.stdout + build.stderr)


for _format in generate_export.FORMATS:
    setattr(ExportWriters, "test_%s_export_builds_every_corpus_message" % _format,
            lambda self, name=_format: self.check_format(name))


class TimeReportParsing(unittest.TestCase):
    def test_reads_wall_cpu_rss_and_status(self):
        sample = ("\tCommand being timed: \"x\"\n\tUser time (seconds): 3.25\n\tSystem time (seconds): 0.50\n"
                  "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02.50\n"
                  "\tMaximum resident set size (kbytes): 2048\n\tExit status: 3\n")
        with tempfile.NamedTemporaryFile("w", suffix=".time", delete=False) as f:
            f.write(sample)
        try:
            parsed = report.parse_time_report(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(parsed["wall_s"], 62.5)
        self.assertEqual(parsed["cpu_s"], 3.75)
        self.assertEqual(parsed["peak_rss_bytes"], 2048 * 1024)
        self.assertEqual(parsed["exit_status"], 3)

    def test_repeated_runs_report_the_median_by_wall_time_and_list_every_run(self):
        def write(folder, name, wall, status=0):
            with open(os.path.join(folder, name + ".time"), "w") as f:
                f.write("\tUser time (seconds): 1.00\n\tSystem time (seconds): 0.50\n"
                        "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:%05.2f\n"
                        "\tMaximum resident set size (kbytes): 10\n\tExit status: %d\n" % (wall, status))
        with tempfile.TemporaryDirectory() as folder:
            write(folder, "build.1", 7.5)
            write(folder, "build.2", 5.25, status=1)
            write(folder, "build.3", 6.0)
            run = report.repeated_run(folder, "build")
            self.assertEqual(run["wall_s"], 6.0)
            self.assertEqual([r["wall_s"] for r in run["repeats"]], [7.5, 5.25, 6.0])
            self.assertEqual(run["exit_status"], 1)  # any failed run marks the figure
            write(folder, "single", 2.0)
            self.assertEqual(report.repeated_run(folder, "single")["wall_s"], 2.0)
            self.assertIsNone(report.repeated_run(folder, "absent"))


class ReportTable(unittest.TestCase):
    """report.py on made-up `time -v` reports: the one-conversation rows, messages per second and
    the 10M run's ratio to its reference (figures and ok/MISS, never asserted by the report)."""

    @staticmethod
    def write_run(folder, name, wall, rss_mb, cpu=1.0):
        with open(os.path.join(folder, name + ".time"), "w") as f:
            f.write("\tUser time (seconds): %.2f\n\tSystem time (seconds): 0.00\n"
                    "\tElapsed (wall clock) time (h:mm:ss or m:ss): %d:%05.2f\n"
                    "\tMaximum resident set size (kbytes): %d\n\tExit status: 0\n"
                    % (cpu, wall // 60, wall % 60, rss_mb * 1024))

    @staticmethod
    def results_folder(root):
        """The empty folder of `time -v` reports that `run_report` reads."""
        results = os.path.join(root, "results")
        os.makedirs(results)
        return results

    @staticmethod
    def site(root, name):
        folder = os.path.join(root, name, "c")
        os.makedirs(folder)
        with open(os.path.join(folder, "index.html"), "w") as f:
            f.write('<div data-message-id="m1"></div>')
        return os.path.dirname(folder)

    def run_report(self, root, *extra):
        results = os.path.join(root, "results")
        corpus = os.path.join(root, "corpus")
        os.makedirs(corpus, exist_ok=True)
        out = os.path.join(root, "results.json")
        with open(os.devnull, "w") as devnull:
            stdout, sys.stdout = sys.stdout, devnull
            try:
                report.main(["--results", results, "--corpus", corpus, "--site", self.site(root, "site"),
                             "--messages", "1000000", "--conversations", "50", "--seed", "1", "--json", out]
                            + list(extra))
            finally:
                sys.stdout = stdout
        with open(out, encoding="utf-8") as f:
            return json.load(f)

    def test_one_conversation_rows_give_wall_rss_rate_and_the_targets(self):
        with tempfile.TemporaryDirectory() as root:
            results = self.results_folder(root)
            self.write_run(results, "scrollback-clean.1", 4.0, 200)
            self.write_run(results, "scrollback-single.1", 5.0, 250, cpu=6.5)
            self.write_run(results, "scrollback-single.2", 8.0, 260)
            self.write_run(results, "scrollback-single.3", 3.0, 400)
            parsed = self.run_report(root, "--single-site", self.site(root, "single"))
            derived = parsed["derived"]
            self.assertEqual(derived["scrollback_messages_per_s"], 250000)
            self.assertEqual(derived["single_messages_per_s"], 200000)  # median run: 5 s
            self.assertEqual(derived["single_over_clean"], 1.25)
            rows = {row["metric"]: row for row in parsed["table"]}
            wall = rows["One conversation of 1,000,000 messages, wall"]
            self.assertEqual((wall["value"], wall["status"]), ("5.00 s", "MISS"))  # target ≤ 4 s
            self.assertEqual(rows["  peak RSS"]["status"], "ok")  # the median run's 250 MB ≤ 300 MB
            self.assertEqual(rows["  messages / s"]["value"], "200,000")
            self.assertEqual(rows["  CPU user+sys"]["value"], "6.50 s (user 6.50 + system 0.00)")
            self.assertEqual(rows["Scrollback CPU user+sys"]["value"], "1.00 s (user 1.00 + system 0.00)")

    def test_one_conversation_appends_give_the_page_counts_time_and_identity(self):
        with tempfile.TemporaryDirectory() as root:
            results = self.results_folder(root)
            self.write_run(results, "scrollback-clean.1", 4.0, 200)
            self.write_run(results, "scrollback-single.3", 5.0, 250)
            with open(os.path.join(results, "scrollback-single.3.log"), "w") as f:
                f.write("built 1 conversation, 1000000 messages, 1000 pages; 0 warnings, 0 errors in 5.00 s\n")
            self.write_run(results, "rebuild-single-append-first", 19.0, 900)
            with open(os.path.join(results, "rebuild-single-append-first.log"), "w") as f:
                f.write("built 1 conversation, 1000001 messages, 1001 pages; 0 warnings, 0 errors in 19.00 s\n")
            self.write_run(results, "rebuild-single-append", 0.75, 300)
            with open(os.path.join(results, "single-append-identical.txt"), "w") as f:
                f.write("different\n")
            rows = {row["metric"]: row for row in
                    self.run_report(root, "--single-site", self.site(root, "single"))["table"]}
            first = rows["  rebuild, 1 msg appended that opens a new page (1,000 → 1,001 pages)"]
            self.assertEqual(first["value"], "19.00 s")
            same_page = rows["  rebuild, 1 more msg appended (same page)"]
            self.assertEqual((same_page["value"], same_page["status"]), ("0.75 s", "MISS"))  # target ≤ 0.5 s
            identity = rows["  (after the appends) a clean build gives the same site"]
            self.assertEqual((identity["value"], identity["status"]), ("different", "MISS"))

    def test_slack_rows_compare_with_the_imported_logs_only_when_their_site_is_the_same(self):
        for identity, expected in (("identical", 1.25), ("different", None)):
            with tempfile.TemporaryDirectory() as root:
                results = self.results_folder(root)
                self.write_run(results, "scrollback-clean.1", 4.0, 200, cpu=7.0)
                self.write_run(results, "slack-clean.1", 10.0, 700, cpu=18.0)
                self.write_run(results, "slack-logs-clean.1", 8.0, 560, cpu=16.0)
                self.write_run(results, "slack-once-nosearch.1", 8.0, 420)
                self.write_run(results, "slack-twice-nosearch.1", 15.0, 640)
                self.write_run(results, "slack-once-nosearch.2", 8.0, 500)  # the highest peaks count
                self.write_run(results, "slack-twice-nosearch.2", 15.0, 600)
                with open(os.path.join(results, "slack-logs-identical.txt"), "w") as f:
                    f.write(identity + "\n")
                parsed = self.run_report(root, "--slack-site", self.site(root, "slack"))
                derived = parsed["derived"]
                self.assertEqual(derived["slack_over_native"], 2.5)  # over the corpus's logs, always
                self.assertEqual(derived["slack_over_logs"], expected)
                rows = {row["metric"]: row for row in parsed["table"]}
                logs = rows["Slack / imported logs: wall, CPU, peak RSS"]
                memory = rows["Slack highest peak RSS, search: false: export, every conversation twice"]
                self.assertEqual((memory["value"], memory["status"]), ("500 MB, 640 MB", "MISS"))  # 1.28×
                if expected:
                    self.assertEqual((logs["value"], logs["status"]), ("1.25×, 1.12×, 1.25×", "ok"))
                else:
                    self.assertEqual(logs["status"], "n/a")

    def test_importer_rows_give_the_median_ratios_only_when_the_export_built_the_same_site(self):
        with tempfile.TemporaryDirectory() as root:
            results = self.results_folder(root)
            for run, (export_wall, logs_wall) in enumerate(((9.0, 4.0), (6.0, 4.0), (5.0, 5.0)), 1):
                self.write_run(results, "import-telegram-export.%d" % run, export_wall, 300, cpu=export_wall)
                self.write_run(results, "import-telegram-logs.%d" % run, logs_wall, 200, cpu=3.0)
                self.write_run(results, "import-irc-export.%d" % run, 2.0, 100)
                self.write_run(results, "import-irc-logs.%d" % run, 1.0, 100)
            for name, identity, pages in (("telegram", "identical", "12"), ("irc", "different", "12"),
                                          ("line", "identical", "0")):
                with open(os.path.join(results, "import-%s-identical.txt" % name), "w") as f:
                    f.write(identity + "\n")
                with open(os.path.join(results, "import-%s-pages.txt" % name), "w") as f:
                    f.write(pages + "\n")
            parsed = self.run_report(root, "--importers", "telegram,irc,line", "--only-measured")
            telegram = parsed["importers"]["telegram"]
            # Medians by wall: 6 s of the export's three runs, 4 s of the logs'.
            self.assertEqual((telegram["over_logs"], telegram["over_logs_cpu"], telegram["over_logs_rss"]),
                             (1.5, 2.0, 1.5))
            self.assertIsNone(parsed["importers"]["irc"]["over_logs"])  # different sites: no ratio
            self.assertIsNone(parsed["importers"]["line"]["over_logs"])  # no message pages: no ratio
            rows = {row["metric"]: row for row in parsed["table"]}
            row = rows["telegram export / imported logs (same site: identical): wall, CPU, RSS"]
            self.assertEqual((row["value"], row["status"]), ("1.50×, 2.00×, 1.50×", "ok"))
            self.assertNotIn("irc export / imported logs (same site: different): wall, CPU, RSS", rows)
            self.assertEqual(rows["  irc export build: wall / CPU / peak RSS"]["value"], "2.00 s / 1.00 s / 100 MB")

    def test_without_a_single_site_the_rows_stay_blank(self):
        with tempfile.TemporaryDirectory() as root:
            results = self.results_folder(root)
            self.write_run(results, "scrollback-clean.1", 4.0, 200)
            self.write_run(results, "scrollback-single.1", 5.0, 250)
            parsed = self.run_report(root)  # no pages to show that the build worked
            rows = {row["metric"]: row for row in parsed["table"]}
            self.assertEqual(rows["One conversation of 1,000,000 messages, wall"]["value"], "—")
            self.assertIsNone(parsed["derived"]["single_messages_per_s"])

    def test_search_index_text_is_read_from_deflated_chunks(self):
        import zlib
        with tempfile.TemporaryDirectory() as root:
            chunks = os.path.join(root, "search", "d")
            os.makedirs(chunks)
            # Two rows as SearchIndex writes them: varints (sender + 1, the date zig-zag), then
            # strings as their length and UTF-8; the second row's date (2**31) takes five bytes.
            def string(text):
                return bytes([len(text.encode())]) + text.encode()
            rows = (bytes([0, 0, 3]) + string("c/") + string("m1") + bytes([0]) + string("héllo")
                    + bytes([2, 1]) + bytes([0x80, 0x80, 0x80, 0x80, 0x10]) + string("c/") + string("m2")
                    + bytes([1]) + string("world"))
            packer = zlib.compressobj(9, zlib.DEFLATED, -15)
            with open(os.path.join(chunks, "0.bin.deflate"), "wb") as f:
                f.write(packer.compress(rows) + packer.flush())
            size = report.search_index_size(root)
            self.assertEqual(size["text_bytes"], len("héllo".encode()) + len("world"))
            self.assertEqual(size["files"], 1)
            self.assertEqual(report.chunk_rows(rows), [
                [0, -1, -2, b"c/", b"m1", 0, "héllo".encode()],
                [2, 0, 2**31, b"c/", b"m2", 1, b"world"],
            ])

    def test_ten_million_run_gives_the_ratio_to_its_reference_and_only_measured_rows(self):
        with tempfile.TemporaryDirectory() as root:
            results = self.results_folder(root)
            self.write_run(results, "scrollback-clean.1", 50.0, 450)
            self.write_run(results, "scrollback-reference.1", 4.0, 200)
            parsed = self.run_report(root, "--reference-messages", "100000", "--reference-conversations", "5",
                                     "--reference-site", self.site(root, "reference"), "--only-measured")
            self.assertEqual(parsed["derived"]["scrollback_over_reference"], 12.5)
            self.assertEqual(parsed["derived"]["reference_messages_per_s"], 25000)
            rows = {row["metric"]: row for row in parsed["table"]}
            ratio = rows["This build / reference, wall"]
            self.assertEqual((ratio["value"], ratio["target"], ratio["status"]), ("12.50×", "≤ 11.0×", "MISS"))
            self.assertIn("Reference: 100,000 messages in 5 conversations, wall (same run)", rows)
            self.assertEqual(rows["Scrollback peak RSS"]["status"], "ok")
            self.assertNotIn("Hugo wall (hugo --quiet)", rows)  # not measured: left out
            self.assertTrue(all(any(c.isdigit() for c in row["value"]) for row in parsed["table"]))

    def test_the_page_load_ratio_to_the_baseline_binary_has_its_row(self):
        with tempfile.TemporaryDirectory() as root:
            results = self.results_folder(root)
            self.write_run(results, "scrollback-clean.1", 4.0, 200)
            with open(os.path.join(results, "page-load-ratio.json"), "w") as f:
                json.dump(page_load_ratio.summary([100.0, 120.0, 110.0], [150.0, 160.0, 150.0]), f)
            rows = {row["metric"]: row for row in self.run_report(root)["table"]}
            ratio = rows["1,000-msg page load / baseline binary's (in turns)"]
            self.assertEqual((ratio["value"], ratio["target"], ratio["status"]), ("1.36×", "≤ 1.25×", "MISS"))

    def test_without_a_baseline_binary_the_page_load_ratio_has_no_figure(self):
        with tempfile.TemporaryDirectory() as root:
            self.write_run(self.results_folder(root), "scrollback-clean.1", 4.0, 200)
            rows = {row["metric"]: row for row in self.run_report(root)["table"]}
            self.assertEqual(rows["1,000-msg page load / baseline binary's (in turns)"]["status"], "n/a")


class PageLoadRatio(unittest.TestCase):
    """page_load_ratio.py's figures: each side's median of its rounds, and their ratio."""

    def test_medians_of_the_rounds_and_the_median_of_their_ratios(self):
        # A busy round slows both sides: its ratio is what counts, not the two medians.
        result = page_load_ratio.summary([100.0, 300.0, 110.0], [110.0, 330.0, 500.0])
        self.assertEqual((result["baseline_load_ms"], result["current_load_ms"]), (110.0, 330.0))
        self.assertEqual(result["round_ratios"], [1.1, 1.1, 4.545])
        self.assertEqual(result["ratio"], 1.1)
        self.assertTrue(result["ok"])
        self.assertFalse(page_load_ratio.summary([100.0], [126.0])["ok"])


if __name__ == "__main__":
    unittest.main()
