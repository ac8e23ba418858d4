#!/usr/bin/env python3
"""Writes the paged-imports fixture: real sample exports (read from `$REPO/../shared/samples`,
never copied into the repo) turned into v1.1 logs by `scrollback import`, with a config that
puts what only shows across pages into reach of the browser suite: a small page size, so
replies point into earlier pages, and a thread limit of one reply, so a Slack thread gets
its own page.

(Building the samples themselves, as a user does, needs no fixture: scripts/test-browser.sh
builds `$SHARED/samples/<format>` straight into the `import-<format>` sites. `import` then
`build` gives the same site as building the export directly, so these logs are the samples.)

Usage: fixture_imports.py SCROLLBACK_BINARY OUTPUT_DIR
Writes OUTPUT_DIR/input/ and OUTPUT_DIR/expectations.json.
"""
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Fixtures"))
from shared_folder import shared_folder  # noqa: E402

# The exports imported, by format: each names a sample folder or file under samples/.
EXPORTS = [
    ("slack", "slack/rusq-slackdump-source_export_dir"),
    ("telegram", "telegram/tsu2000-tele_dashboard/sample.json"),
]
PAGE_SIZE = 50
THREAD_INLINE_LIMIT = 1


def main():
    binary, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    samples = shared_folder() / "samples"
    input_folder = output / "input"
    input_folder.mkdir(parents=True, exist_ok=True)
    for format_name, relative in EXPORTS:
        # (Its warnings are the build's too, and the build log keeps those; only a failure is shown.)
        result = subprocess.run([str(binary), "import", format_name, str(samples / relative),
                                 "-o", str(input_folder / format_name)], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"scrollback import {format_name} {relative} failed:\n{result.stderr}")
    (input_folder / "scrollback.yml").write_text(
        f"pageSize: {PAGE_SIZE}\nlayout:\n  threadInlineLimit: {THREAD_INLINE_LIMIT}\n", encoding="utf-8")
    expectations = {"samples": str(samples), "exports": dict(EXPORTS), "pageSize": PAGE_SIZE,
                    "threadInlineLimit": THREAD_INLINE_LIMIT}
    (output / "expectations.json").write_text(json.dumps(expectations, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
