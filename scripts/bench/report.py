#!/usr/bin/env python3
"""Collects the benchmark measurements into a table and a JSON file.

Reads the `/usr/bin/time -v` reports (`NAME.time`), load averages (`NAME.load`) and
page metrics (`page-*.json`) that run.sh leaves in a results folder, adds the machine
(nproc, CPU model, memory), prints a table with the targets next to every figure, and
writes everything as JSON. Targets are shown, never asserted: the table marks each
figure ok / MISS, and the exit status does not depend on them.
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import zlib

MB = 1024 * 1024


def parse_time_report(path):
    """Wall, user, sys seconds, peak RSS bytes and exit status from a `time -v` report."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()

    def field(label):
        m = re.search(r"^\s*" + re.escape(label) + r".*?:\s*(\S+)\s*$", text, re.M)
        return m.group(1) if m else None

    wall = field("Elapsed (wall clock) time")
    seconds = None
    if wall:
        total = 0.0
        for part in wall.split(":"):
            total = total * 60 + float(part)
        seconds = total
    user, system = field("User time (seconds)"), field("System time (seconds)")
    rss = field("Maximum resident set size (kbytes)")
    status = field("Exit status")
    signal = re.search(r"Command terminated by signal (\d+)", text)
    return {
        "wall_s": seconds,
        "user_s": float(user) if user else None,
        "sys_s": float(system) if system else None,
        "cpu_s": round(float(user) + float(system), 2) if user and system else None,
        "peak_rss_bytes": int(rss) * 1024 if rss else None,
        "exit_status": int(status) if status is not None else (128 + int(signal.group(1)) if signal else None),
    }


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return None


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def machine():
    cpu = None
    for line in (read_text("/proc/cpuinfo") or "").splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem_kb = None
    for line in (read_text("/proc/meminfo") or "").splitlines():
        if line.startswith("MemTotal:"):
            mem_kb = int(line.split()[1])
    return {"nproc": os.cpu_count(), "cpu": cpu, "memory_bytes": mem_kb * 1024 if mem_kb else None,
            "kernel": platform.release(), "loadavg_at_report": read_text("/proc/loadavg")}


def git_revision(repo):
    try:
        return subprocess.run(["git", "-C", repo, "describe", "--always", "--dirty"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def count_pages(site):
    """(HTML files, files holding data-message-id) under the built site."""
    html_files = with_messages = 0
    if not os.path.isdir(site):
        return 0, 0
    for root, _, files in os.walk(site):
        for name in files:
            if name.endswith(".html"):
                html_files += 1
                with open(os.path.join(root, name), "rb") as f:
                    if b"data-message-id=" in f.read():
                        with_messages += 1
    return html_files, with_messages


def built_pages(log_path):
    """The page count a build printed ("built … N pages"), or None."""
    text = read_text(log_path) or ""
    match = re.search(r"([0-9]+) pages?;", text)
    return int(match.group(1)) if match else None


def timed_run(results, name):
    """One `time -v` report with the load average before it, or None."""
    report = parse_time_report(os.path.join(results, name + ".time"))
    if report is not None:
        report["loadavg_before"] = read_text(os.path.join(results, name + ".load"))
    return report


def repeated_run(results, name):
    """`NAME` run once (`NAME.time`) or several times (`NAME.1.time`, `NAME.2.time`, ...).

    Several runs give the median by wall time, with every run listed under "repeats".
    """
    single = timed_run(results, name)
    if single is not None:
        return single
    repeats = []
    number = 1
    while True:
        report = timed_run(results, "%s.%d" % (name, number))
        if report is None:
            break
        repeats.append(report)
        number += 1
    if not repeats:
        return None
    ordered = sorted(repeats, key=lambda run: run["wall_s"] if run["wall_s"] is not None else float("inf"))
    median = dict(ordered[(len(ordered) - 1) // 2])
    median["repeats"] = repeats
    median["exit_status"] = max((run["exit_status"] or 0) for run in repeats)
    return median


def importer_results(results, formats):
    """Per format of (i): the export's clean builds, the imported logs' (median by wall of each),
    whether their sites are the same, pages with messages, and the ratios export / logs (wall, CPU,
    peak RSS), which count only when the export built message pages and the sites are the same."""
    out = {}
    for name in formats:
        export = repeated_run(results, "import-%s-export" % name) or {}
        logs = repeated_run(results, "import-%s-logs" % name) or {}
        same = read_text(os.path.join(results, "import-%s-identical.txt" % name))
        pages = read_text(os.path.join(results, "import-%s-pages.txt" % name))
        ok = bool(pages and pages.isdigit() and int(pages) > 0) and same == "identical"
        out[name] = {"export": export, "logs": logs, "same_site": same,
                     "pages_with_messages": int(pages) if pages and pages.isdigit() else None,
                     "over_logs": ratio(export.get("wall_s"), logs.get("wall_s")) if ok else None,
                     "over_logs_cpu": ratio(export.get("cpu_s"), logs.get("cpu_s")) if ok else None,
                     "over_logs_rss": ratio(export.get("peak_rss_bytes"), logs.get("peak_rss_bytes")) if ok else None}
    return out


def highest_peak(run):
    """The highest peak RSS among a `repeated_run`'s runs (`None` without one)."""
    if not run:
        return None
    peaks = [r["peak_rss_bytes"] for r in run.get("repeats", [run]) if r.get("peak_rss_bytes") is not None]
    return max(peaks) if peaks else None


def folder_json_bytes(folder):
    """Bytes of every .json file under `folder` (0 when it is missing)."""
    total = 0
    for root, _, files in os.walk(folder or ""):
        total += sum(os.path.getsize(os.path.join(root, name)) for name in files if name.endswith(".json"))
    return total


def chunk_rows(data):
    """The rows of an inflated document chunk (SearchIndex.appendRowIdentity, appendRowRest):
    [conversation, sender or -1, date, file, anchor, flags, text], the strings as UTF-8 bytes."""
    rows, position = [], 0

    def varint():
        nonlocal position
        value = shift = 0
        while True:
            byte = data[position]
            position += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7

    def string():
        nonlocal position
        count = varint()
        position += count
        return data[position - count:position]

    while position < len(data):
        conversation, sender, zigzag = varint(), varint() - 1, varint()
        date = -(zigzag + 1) // 2 if zigzag & 1 else zigzag // 2
        rows.append([conversation, sender, date, string(), string(), varint(), string()])
    return rows


def search_index_size(site):
    """Bytes of the site's search/ folder and of the message text its documents hold (issue 13)."""
    folder = os.path.join(site, "search")
    if not os.path.isdir(folder):
        return None
    index_bytes = files = 0
    for root, _, names in os.walk(folder):
        for name in names:
            index_bytes += os.path.getsize(os.path.join(root, name))
            files += 1
    text_bytes = 0
    chunks = os.path.join(folder, "d")
    for name in sorted(os.listdir(chunks)) if os.path.isdir(chunks) else []:
        with open(os.path.join(chunks, name), "rb") as f:
            # The document chunks are raw deflate (SearchIndex.deflate): zlib with negative window bits.
            data = zlib.decompress(f.read(), -15)
        text_bytes += sum(len(row[6]) for row in chunk_rows(data))
    return {"index_bytes": index_bytes, "files": files, "text_bytes": text_bytes,
            "ratio": round(index_bytes / text_bytes, 2) if text_bytes else None}


def ratio(a, b):
    return round(a / b, 2) if a is not None and b else None


def messages_per_second(messages, run):
    """Messages built per second of wall time by `run` (None when it did not run or failed)."""
    wall = (run or {}).get("wall_s")
    return round(messages / wall) if wall and messages else None


def shown_rows(rows, only_measured):
    """The table's rows; with `only_measured` (a run of clean builds only, e.g. the 10M one),
    those without a figure (value "—", "—, —", "n/a") are left out."""
    if not only_measured:
        return rows
    return [row for row in rows if re.search(r"\d", row[1])]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--site", required=True)
    parser.add_argument("--messages", type=int, required=True)
    parser.add_argument("--conversations", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--slack", help="the same messages as a Slack export (generate_slack_export.py)")
    parser.add_argument("--slack-site", help="the site built from --slack")
    parser.add_argument("--single-site", help="the site built from the same messages in one conversation")
    parser.add_argument("--reference-messages", type=int,
                        help="messages of the reference corpus built in the same run (the 10M run's 1M)")
    parser.add_argument("--reference-conversations", type=int)
    parser.add_argument("--reference-site", help="the site built from the reference corpus")
    parser.add_argument("--only-measured", action="store_true", help="leave out the rows without a figure")
    parser.add_argument("--importers", default="",
                        help="formats of (i), comma-separated: their exports built against the imported logs")
    args = parser.parse_args(argv)
    r = args.results
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    runs = {}
    for name in ("scrollback-clean", "scrollback-overridden", "scrollback-nosearch", "scrollback-baseline",
                 "rebuild-unchanged",
                 "rebuild-append-smallest", "rebuild-append-largest", "hugo", "cmark-gfm", "slack-clean",
                 "slack-logs-clean", "slack-once-nosearch", "slack-twice-nosearch",
                 "scrollback-single", "scrollback-reference", "rebuild-single-append-first",
                 "rebuild-single-append"):
        report = repeated_run(r, name)
        if report is not None:
            runs[name] = report
    html_files, pages_with_messages = count_pages(args.site)
    corpus_bytes = sum(os.path.getsize(os.path.join(args.corpus, f)) for f in os.listdir(args.corpus)
                       if f.endswith(".json"))
    sb = runs.get("scrollback-clean") or {}
    slack = runs.get("slack-clean") or {}
    slack_pages = count_pages(args.slack_site)[1] if args.slack_site else 0
    slack_ok = slack_pages > 0
    slack_bytes = folder_json_bytes(args.slack) if args.slack else None
    # The export's messages as the native logs `scrollback import` wrote (same site, byte for byte).
    slack_logs = runs.get("slack-logs-clean") or {}
    slack_logs_site = read_text(os.path.join(r, "slack-logs-identical.txt"))
    slack_logs_ok = slack_ok and slack_logs_site == "identical"
    slack_once = runs.get("slack-once-nosearch") or {}
    slack_twice = runs.get("slack-twice-nosearch") or {}
    # Figures count when the build wrote message pages; a non-zero exit is flagged in the table header.
    sb_ok = pages_with_messages > 0
    scale = args.messages / 1_000_000
    # The same messages as one conversation (issue 15), and the reference corpus of the 10M run.
    single = runs.get("scrollback-single") or {}
    single_ok = bool(args.single_site) and count_pages(args.single_site)[1] > 0
    reference = runs.get("scrollback-reference") or {}
    reference_ok = bool(args.reference_site) and count_pages(args.reference_site)[1] > 0
    results = {
        "messages": args.messages, "conversations": args.conversations, "seed": args.seed,
        "corpus_json_bytes": corpus_bytes,
        "scrollback_revision": git_revision(repo),
        "scrollback_output": {"html_files": html_files, "pages_with_messages": pages_with_messages,
                              "valid": sb_ok},
        "machine": machine(),
        "runs": runs,
        "page_scrollback": read_json(os.path.join(r, "page-scrollback.json")),
        "page_hugo": read_json(os.path.join(r, "page-hugo.json")),
        "page_load_ratio": read_json(os.path.join(r, "page-load-ratio.json")),
        "slack_export_json_bytes": slack_bytes,
        "slack_output": {"pages_with_messages": slack_pages, "valid": slack_ok},
        "slack_logs_site": slack_logs_site,
        "single_output": {"valid": single_ok},
        "reference": None if not args.reference_messages else {
            "messages": args.reference_messages, "conversations": args.reference_conversations,
            "valid": reference_ok},
    }
    hugo = runs.get("hugo") or {}
    cmark = runs.get("cmark-gfm") or {}
    sb_wall = sb.get("wall_s") if sb_ok else None
    overridden = runs.get("scrollback-overridden") or {}
    baseline = runs.get("scrollback-baseline") or {}
    nosearch = runs.get("scrollback-nosearch") or {}
    results["search_index"] = search_index_size(args.site)
    # (i) Each importer's export of the same messages against the native logs it imports to (issue 43).
    results["importers"] = importer_results(r, [f for f in args.importers.split(",") if f])
    results["derived"] = {
        # What the search index adds to the clean build (issue 13: ≤ 25% of the wall time).
        "search_adds": None if ratio(sb_wall, nosearch.get("wall_s")) is None
        else round(ratio(sb_wall, nosearch.get("wall_s")) - 1, 3),
        "search_adds_cpu": None if ratio(sb.get("cpu_s") if sb_ok else None, nosearch.get("cpu_s")) is None
        else round(ratio(sb.get("cpu_s"), nosearch.get("cpu_s")) - 1, 3),
        "nosearch_over_baseline": ratio(nosearch.get("wall_s"), baseline.get("wall_s")),
        "nosearch_over_baseline_cpu": ratio(nosearch.get("cpu_s"), baseline.get("cpu_s")),
        "overridden_over_shipped": ratio(overridden.get("wall_s") if sb_ok else None, sb_wall),
        "overridden_over_shipped_cpu": ratio(overridden.get("cpu_s") if sb_ok else None, sb.get("cpu_s")),
        "scrollback_over_baseline": ratio(sb_wall, baseline.get("wall_s")),
        "scrollback_over_baseline_cpu": ratio(sb.get("cpu_s") if sb_ok else None, baseline.get("cpu_s")),
        "scrollback_messages_per_s": messages_per_second(args.messages, sb) if sb_ok else None,
        "nosearch_messages_per_s": messages_per_second(args.messages, nosearch),
        "baseline_messages_per_s": messages_per_second(args.messages, baseline),
        "slack_messages_per_s": messages_per_second(args.messages, slack) if slack_ok else None,
        # One conversation holding every message (issue 15: ≤ 4 s and ≤ 300 MB per 1M).
        "single_messages_per_s": messages_per_second(args.messages, single) if single_ok else None,
        "single_over_clean": ratio(single.get("wall_s") if single_ok else None, sb_wall),
        # The 10M run against the 1M reference built in the same run (issue 15: ≤ 11×).
        "reference_messages_per_s": messages_per_second(args.reference_messages, reference) if reference_ok
        else None,
        "scrollback_over_reference": ratio(sb_wall, reference.get("wall_s") if reference_ok else None),
        "scrollback_over_hugo": ratio(sb_wall, hugo.get("wall_s")),
        "scrollback_over_cmark_gfm": ratio(sb_wall, cmark.get("wall_s")),
        # Under load (2 cores shared) wall times swing; CPU-time ratios are steadier.
        "scrollback_over_hugo_cpu": ratio(sb.get("cpu_s") if sb_ok else None, hugo.get("cpu_s")),
        "scrollback_over_cmark_gfm_cpu": ratio(sb.get("cpu_s") if sb_ok else None, cmark.get("cpu_s")),
        # The same messages read from a Slack export instead of native logs (issue 10).
        "slack_over_native": ratio(slack.get("wall_s") if slack_ok else None, sb_wall),
        "slack_over_native_cpu": ratio(slack.get("cpu_s") if slack_ok else None, sb.get("cpu_s") if sb_ok else None),
        "slack_over_native_rss": ratio(slack.get("peak_rss_bytes") if slack_ok else None,
                                       sb.get("peak_rss_bytes") if sb_ok else None),
        # …and over the export's own messages as native logs (threads and all), taking turns with it.
        "slack_over_logs": ratio(slack.get("wall_s") if slack_logs_ok else None, slack_logs.get("wall_s")),
        "slack_over_logs_cpu": ratio(slack.get("cpu_s") if slack_logs_ok else None, slack_logs.get("cpu_s")),
        "slack_over_logs_rss": ratio(slack.get("peak_rss_bytes") if slack_logs_ok else None,
                                     slack_logs.get("peak_rss_bytes")),
        # Every conversation twice over once (search: false), the highest peak of each: memory
        # follows one conversation when twice the conversations take about the same (following the
        # export, it would be 2×; the margin is for the allocator's timing).
        "slack_twice_over_once_rss": ratio(highest_peak(slack_twice), highest_peak(slack_once)),
    }

    # --- the table: (label, value, unit-formatted, target text, ok?) ---
    def seconds(v):
        return "—" if v is None else "%.2f s" % v

    def cpu(record, ok=True):
        # User and system apart: the system time of a clean build depends on the file system's
        # state (see fresh_output in run.sh), the user time on the build alone.
        if not ok or record.get("cpu_s") is None:
            return "—"
        return "%.2f s (user %.2f + system %.2f)" % (record["cpu_s"], record["user_s"], record["sys_s"])

    def megabytes(v):
        return "—" if v is None else "%.0f MB" % (v / MB)

    def check(value, limit):
        if value is None:
            return "n/a"
        return "ok" if value <= limit else "MISS"

    def times(v):
        return "—" if v is None else "%.2f×" % v

    def rate(v):
        return "—" if not v else "{:,}".format(v)

    def asset_check(page_result, kind, limit):
        # A linked file that is not in the site counts as a defect, not as "0 bytes, ok".
        if any(u in page_result.get("assets_not_found", []) for u in page_result.get(kind + "_files", [])):
            return "MISSING FILE"
        return check(page_result.get(kind + "_bytes"), limit)

    def check_at_least(value, floor):
        if value is None:
            return "n/a"
        return "ok" if value >= floor else "MISS"

    page = results["page_scrollback"] or {}
    hpage = results["page_hugo"] or {}
    rebuild = runs.get("rebuild-append-largest") or {}
    derived = results["derived"]
    single_wall = single.get("wall_s") if single_ok else None
    single_append_first = runs.get("rebuild-single-append-first") or {}
    single_append = runs.get("rebuild-single-append") or {}
    single_identical = read_text(os.path.join(r, "single-append-identical.txt"))
    single_append_first_pages = None
    before_pages = built_pages(os.path.join(r, "scrollback-single.3.log"))
    after_pages = built_pages(os.path.join(r, "rebuild-single-append-first.log"))
    if before_pages is not None and after_pages is not None:
        single_append_first_pages = ("{:,}".format(before_pages), "{:,}".format(after_pages))
    single_rows = [
        ("One conversation of %s messages, wall" % "{:,}".format(args.messages), seconds(single_wall),
         "≤ %.2f s (4 s per 1M)" % (4 * scale), check(single_wall, 4 * scale)),
        ("  (every run, wall)", ", ".join(seconds(run["wall_s"]) for run in single.get("repeats", [])) or "—",
         "median above", ""),
        ("  CPU user+sys", cpu(single, single_ok), "", ""),
        ("  peak RSS", megabytes(single.get("peak_rss_bytes") if single_ok else None), "≤ 300 MB",
         check(single.get("peak_rss_bytes") if single_ok else None, 300 * MB)),
        ("  messages / s", rate(derived["single_messages_per_s"]), "", ""),
        ("  (one conversation / %d conversations: wall)" % args.conversations, times(derived["single_over_clean"]),
         "", ""),
        ("  rebuild, 1 msg appended that opens a new page%s" % (
            "" if not single_append_first_pages else " (%s → %s pages)" % single_append_first_pages),
         seconds(single_append_first.get("wall_s")), "(every page's page links change)", ""),
        ("  rebuild, 1 more msg appended (same page)", seconds(single_append.get("wall_s")), "≤ 0.5 s",
         check(single_append.get("wall_s"), 0.5)),
        ("  (after the appends) a clean build gives the same site", single_identical or "—", "identical",
         "n/a" if not single_identical else ("ok" if single_identical == "identical" else "MISS")),
    ]
    reference_rows = []
    if args.reference_messages:
        # The 10M target is 11× the 1M wall: 1.1× the ratio of the message counts.
        limit = 1.1 * args.messages / args.reference_messages
        reference_rows = [
            ("Reference: %s messages in %s conversations, wall (same run)" % (
                "{:,}".format(args.reference_messages), args.reference_conversations),
             seconds(reference.get("wall_s") if reference_ok else None), "", ""),
            ("  CPU user+sys / peak RSS", "—" if not reference_ok else "%s / %s" % (
                seconds(reference.get("cpu_s")), megabytes(reference.get("peak_rss_bytes"))), "", ""),
            ("  messages / s", rate(derived["reference_messages_per_s"]), "", ""),
            ("This build / reference, wall", times(derived["scrollback_over_reference"]), "≤ %.1f×" % limit,
             check(derived["scrollback_over_reference"], limit)),
        ]
    rows = [
        ("Scrollback clean build, wall", seconds(sb_wall), "≤ %.2f s (3 s per 1M)" % (3 * scale),
         check(sb_wall, 3 * scale)),
        ("  (every run, wall)", ", ".join(seconds(run["wall_s"]) for run in sb.get("repeats", [])) or "—", "median above", ""),
        ("Scrollback CPU user+sys", cpu(sb, sb_ok), "", ""),
        ("Scrollback messages / s", "—" if not results["derived"]["scrollback_messages_per_s"]
         else "{:,}".format(results["derived"]["scrollback_messages_per_s"]), "≥ 200,000 (1M in 5 s)",
         check_at_least(results["derived"]["scrollback_messages_per_s"], 200_000)),
        ("Scrollback peak RSS", megabytes(sb.get("peak_rss_bytes") if sb_ok else None), "≤ 500 MB",
         check(sb.get("peak_rss_bytes") if sb_ok else None, 500 * MB)),
    ] + single_rows + reference_rows + [
        ("Site templates/ overriding row + page templates, wall", seconds(overridden.get("wall_s")),
         "≤ 1.5× shipped", check(results["derived"]["overridden_over_shipped"], 1.5)),
        ("  (overridden / shipped: wall, CPU)", "%s, %s" % (times(results["derived"]["overridden_over_shipped"]),
                                                           times(results["derived"]["overridden_over_shipped_cpu"])),
         "", ""),
        ("Clean build with search: false: wall / CPU / RSS / msg/s", "—" if not nosearch else "%s / %s / %s / %s" % (
            seconds(nosearch.get("wall_s")), cpu(nosearch),
            megabytes(nosearch.get("peak_rss_bytes")), rate(derived["nosearch_messages_per_s"])), "", ""),
        ("  (search adds: wall, CPU)", "—" if results["derived"]["search_adds"] is None else "%+.0f%%, %+.0f%%" % (
            100 * results["derived"]["search_adds"], 100 * (results["derived"]["search_adds_cpu"] or 0)),
         "≤ +25% wall", "n/a" if results["derived"]["search_adds"] is None
         else check(results["derived"]["search_adds"], 0.25)),
        ("Search index on disk / message text it holds", "—" if not results["search_index"] else "%.0f MB / %.0f MB = %.2f×" % (
            results["search_index"]["index_bytes"] / MB, results["search_index"]["text_bytes"] / MB,
            results["search_index"]["ratio"]), "≤ 1.5×",
         check(results["search_index"]["ratio"] if results["search_index"] else None, 1.5)),
        ("Baseline binary clean build: wall / CPU / msg/s", "—" if not baseline else "%s / %s / %s" % (
            seconds(baseline.get("wall_s")), cpu(baseline), rate(derived["baseline_messages_per_s"])),
         "(--baseline-binary)", ""),
        ("  (this / baseline: wall, CPU)", "%s, %s" % (times(results["derived"]["scrollback_over_baseline"]),
                                                      times(results["derived"]["scrollback_over_baseline_cpu"])),
         "≤ 1× (no slower)", check(results["derived"]["scrollback_over_baseline_cpu"], 1.0)),
        ("  (search: false / baseline: wall, CPU)", "%s, %s" % (
            times(results["derived"]["nosearch_over_baseline"]), times(results["derived"]["nosearch_over_baseline_cpu"])),
         "", ""),
        ("Slack export build, wall", seconds(slack.get("wall_s") if slack_ok else None), "", ""),
        ("  (every run, wall)", ", ".join(seconds(run["wall_s"]) for run in slack.get("repeats", [])) or "—",
         "median above", ""),
        ("Slack export build CPU user+sys", seconds(slack.get("cpu_s") if slack_ok else None), "", ""),
        ("Slack export messages / s", rate(derived["slack_messages_per_s"]), "", ""),
        ("Slack export build peak RSS", megabytes(slack.get("peak_rss_bytes") if slack_ok else None), "", ""),
        ("Imported logs (same site: %s) build, wall" % (slack_logs_site or "—"),
         seconds(slack_logs.get("wall_s") if slack_logs_ok else None), "", ""),
        ("  (every run, wall)", ", ".join(seconds(run["wall_s"]) for run in slack_logs.get("repeats", [])) or "—",
         "median above", ""),
        ("Slack / imported logs: wall, CPU, peak RSS", "%s, %s, %s" % (
            times(results["derived"]["slack_over_logs"]), times(results["derived"]["slack_over_logs_cpu"]),
            times(results["derived"]["slack_over_logs_rss"])), "≤ 1.5× (wall)",
         check(results["derived"]["slack_over_logs"], 1.5)),
        ("Slack / corpus logs (replies, no threads): wall, CPU, RSS", "%s, %s, %s" % (
            times(results["derived"]["slack_over_native"]), times(results["derived"]["slack_over_native_cpu"]),
            times(results["derived"]["slack_over_native_rss"])), "", ""),
        ("Slack highest peak RSS, search: false: export, every conversation twice", "%s, %s" % (
            megabytes(highest_peak(slack_once)), megabytes(highest_peak(slack_twice))),
         "twice ≤ 1.25× once", check(results["derived"]["slack_twice_over_once_rss"], 1.25)),
        ("Hugo wall (hugo --quiet)", seconds(hugo.get("wall_s")), "", ""),
        ("Hugo CPU user+sys", seconds(hugo.get("cpu_s")), "", ""),
        ("Hugo peak RSS", megabytes(hugo.get("peak_rss_bytes")), "", ""),
        ("cmark-gfm CLI wall", seconds(cmark.get("wall_s")), "", ""),
        ("cmark-gfm CPU user+sys", seconds(cmark.get("cpu_s")), "", ""),
        ("cmark-gfm peak RSS", megabytes(cmark.get("peak_rss_bytes")), "", ""),
        ("Scrollback / Hugo time", "—" if results["derived"]["scrollback_over_hugo"] is None
         else "%.2f×" % results["derived"]["scrollback_over_hugo"], "≤ 0.2×",
         check(results["derived"]["scrollback_over_hugo"], 0.2)),
        ("Scrollback / cmark-gfm time", "—" if results["derived"]["scrollback_over_cmark_gfm"] is None
         else "%.2f×" % results["derived"]["scrollback_over_cmark_gfm"], "≤ 2×",
         check(results["derived"]["scrollback_over_cmark_gfm"], 2)),
        ("Scrollback / Hugo CPU time", times(results["derived"]["scrollback_over_hugo_cpu"]), "", ""),
        ("Scrollback / cmark-gfm CPU time", times(results["derived"]["scrollback_over_cmark_gfm_cpu"]), "", ""),
        ("Rebuild, nothing changed", seconds((runs.get("rebuild-unchanged") or {}).get("wall_s") if sb_ok else None), "", ""),
        ("Rebuild, 1 msg appended (smallest conv)",
         seconds((runs.get("rebuild-append-smallest") or {}).get("wall_s") if sb_ok else None), "≤ 0.5 s",
         check((runs.get("rebuild-append-smallest") or {}).get("wall_s") if sb_ok else None, 0.5)),
        ("Rebuild, 1 msg appended (largest conv)", seconds(rebuild.get("wall_s") if sb_ok else None), "≤ 0.5 s",
         check(rebuild.get("wall_s") if sb_ok else None, 0.5)),
        ("Page load to load event (median of 5)", "—" if page.get("load_ms") is None else "%.0f ms" % page["load_ms"],
         "≤ 1000 ms", check(page.get("load_ms"), 1000)),
        ("  (messages on that page)", str(page.get("messages", "—")), "~1000", ""),
        ("HTML bytes / message, excl. text", "—" if page.get("html_bytes_per_message") is None
         else "%.0f B" % page["html_bytes_per_message"], "≤ 300 B", check(page.get("html_bytes_per_message"), 300)),
        ("CSS bytes per page", "—" if page.get("css_bytes") is None else "{:,} B".format(page["css_bytes"]),
         "≤ 20 KB", asset_check(page, "css", 20 * 1024)),
        ("JS bytes per page", "—" if page.get("js_bytes") is None else "{:,} B".format(page["js_bytes"]),
         "≤ 10 KB", asset_check(page, "js", 10 * 1024)),
        ("1,000-msg page load / baseline binary's (in turns)", times((results["page_load_ratio"] or {}).get("ratio")),
         "≤ 1.25×", check((results["page_load_ratio"] or {}).get("ratio"), 1.25)),
        ("Hugo page load / HTML B per msg", "—" if hpage.get("load_ms") is None
         else "%.0f ms / %.0f B" % (hpage["load_ms"], hpage.get("html_bytes_per_message") or 0), "(baseline)", ""),
    ]
    for name, item in results["importers"].items():
        export, logs = item["export"], item["logs"]
        rows += [
            ("%s export / imported logs (same site: %s): wall, CPU, RSS" % (name, item["same_site"] or "—"),
             "%s, %s, %s" % (times(item["over_logs"]), times(item["over_logs_cpu"]), times(item["over_logs_rss"])),
             "≤ 1.5× (wall)", check(item["over_logs"], 1.5)),
            ("  %s export build: wall / CPU / peak RSS" % name, "—" if not export.get("wall_s") else "%s / %s / %s" % (
                seconds(export["wall_s"]), seconds(export.get("cpu_s")), megabytes(export.get("peak_rss_bytes"))),
             "", ""),
            ("  %s imported logs build: wall / CPU / peak RSS" % name, "—" if not logs.get("wall_s") else
             "%s / %s / %s" % (seconds(logs["wall_s"]), seconds(logs.get("cpu_s")),
                               megabytes(logs.get("peak_rss_bytes"))), "", ""),
        ]
    rows = shown_rows(rows, args.only_measured)
    results["table"] = [{"metric": a, "value": b, "target": c, "status": d} for a, b, c, d in rows]

    m = results["machine"]
    out = sys.stdout
    out.write("\nScrollback benchmark: %s messages in %d conversations (seed %d, %.0f MB of JSON), revision %s\n" % (
        "{:,}".format(args.messages), args.conversations, args.seed, corpus_bytes / MB, results["scrollback_revision"]))
    if slack_bytes:
        out.write("Slack export of the same messages: %.0f MB of JSON\n" % (slack_bytes / MB))
    out.write("Machine: %s cores, %s, %.1f GiB RAM; load average %s\n" % (
        m["nproc"], m["cpu"], (m["memory_bytes"] or 0) / 1024 ** 3, " ".join((sb.get("loadavg_before") or m["loadavg_at_report"] or "").split()[:3])))
    for name, run in sorted(runs.items()):
        if run.get("exit_status") not in (0, None):
            out.write("WARNING: %s exited with status %s (see %s.log)\n" % (name, run["exit_status"], name))
    if not sb_ok and sb:  # (not measured at all with --only-importers: no note)
        out.write("NOTE: the Scrollback build produced no message pages (exit status %s); its figures are blank.\n"
                  % sb.get("exit_status"))
    width = max(len(row[0]) for row in rows)
    out.write("\n%-*s  %16s  %-24s %s\n" % (width, "metric", "value", "target", "status"))
    out.write("-" * (width + 52) + "\n")
    for label, value, target, status in rows:
        out.write("%-*s  %16s  %-24s %s\n" % (width, label, value, target, status))
    out.write("\nJSON: %s\n" % args.json)

    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
