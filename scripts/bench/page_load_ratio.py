#!/usr/bin/env python3
"""The same 1,000-message page built by a baseline binary and by the current one, loaded in turns.

Issue 42, acceptance 3: "A 1,000-message page still loads within 1.25x its load time before this
change, measured side by side in one run." Builds CORPUS (one conversation of 1,000 messages,
`generate_corpus.py --messages 1000 --conversations 1`) with each binary into its own empty site,
then measures the two pages with `measure_page.py` (load event from file://, median of 5 fresh
loads) taking turns, ROUNDS (5) times each, the first to go alternating: both sides see the
machine at the same moments. Prints, and writes as JSON, each side's loads and median and the
ratio current / baseline (the median of the rounds' ratios) against the target (<= 1.25).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure_page  # noqa: E402  (one way to load and time a page)

TARGET = 1.25


def build(binary, corpus, site, log):
    """Builds CORPUS into an empty SITE with BINARY; its output goes to LOG."""
    shutil.rmtree(site, ignore_errors=True)
    with open(log, "w") as out:
        status = subprocess.run([binary, "build", corpus, "-o", site], stdout=out, stderr=subprocess.STDOUT).returncode
    if status != 0:
        raise RuntimeError("%s build failed (exit %d), see %s" % (binary, status, log))


def summary(baseline_loads, current_loads):
    """Each side's median of its rounds' load times (ms), and the ratio current / baseline: the
    median of the rounds' own ratios, each taken between two measurements made one after the
    other (on a shared machine the load moves between rounds, a side's median can be of a busy
    moment and the other's of a quiet one)."""
    baseline = statistics.median(baseline_loads)
    current = statistics.median(current_loads)
    pairs = [c / b for b, c in zip(baseline_loads, current_loads) if b > 0]
    ratio = statistics.median(pairs) if pairs else None
    return {
        "baseline_load_ms_rounds": baseline_loads,
        "current_load_ms_rounds": current_loads,
        "baseline_load_ms": round(baseline, 1),
        "current_load_ms": round(current, 1),
        "round_ratios": [round(pair, 3) for pair in pairs],
        "ratio": None if ratio is None else round(ratio, 3),
        "target": TARGET,
        "ok": ratio is not None and ratio <= TARGET,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the baseline scrollback binary")
    parser.add_argument("--current", required=True, help="the scrollback binary under test")
    parser.add_argument("--corpus", required=True, help="a corpus of one 1,000-message conversation")
    parser.add_argument("--work", required=True, help="folder for the two sites and their build logs")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", required=True, help="JSON result file")
    args = parser.parse_args(argv)
    os.makedirs(args.work, exist_ok=True)
    sides = {"baseline": args.baseline, "current": args.current}
    sites = {}
    for name, binary in sides.items():
        sites[name] = os.path.join(args.work, "site-" + name)
        build(binary, args.corpus, sites[name], os.path.join(args.work, name + "-build.log"))
    loads = {name: [] for name in sides}
    pages = {}
    for round_number in range(args.rounds):
        order = ["baseline", "current"] if round_number % 2 == 0 else ["current", "baseline"]
        for name in order:
            result = measure_page.measure(sites[name], args.corpus, args.chromium)
            if "error" in result:
                raise RuntimeError("%s page: %s" % (name, result["error"]))
            loads[name].append(result["load_ms"])
            pages[name] = {key: result[key] for key in ("page", "messages", "html_bytes", "css_bytes", "js_bytes")}
    result = summary(loads["baseline"], loads["current"])
    result["pages"] = pages
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(
        "page load (%d messages, medians of %d rounds of 5 loads): baseline %.1f ms, current %.1f ms, "
        "ratio %s (median of the rounds' ratios; target <= %.2f: %s)"
        % (pages["current"]["messages"], args.rounds, result["baseline_load_ms"], result["current_load_ms"],
           result["ratio"], TARGET, "ok" if result["ok"] else "MISS"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
