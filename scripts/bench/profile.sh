#!/usr/bin/env bash
# Where does a Scrollback build spend its time? Samples one clean build with `perf`.
#
#   scripts/bench/profile.sh [--messages N] [--conversations C] [--seed S] [--slack]
#
# --slack profiles the build of the same messages as a Slack export (run.sh writes it).
#
# Uses the corpus run.sh made (or makes it), builds the release binary, runs
# `perf record` (with frame-pointer call graphs) over `scrollback build --clean`, and
# writes to bench-work/profile-N/: the top symbols by self time (flat.txt), by
# shared object (dso.txt), with callees included (children.txt) and with call chains
# (callers.txt), demangled.
set -euo pipefail

messages=100000
conversations=50
seed=20240503
slack=0
while [ $# -gt 0 ]; do
  case "$1" in
    --messages) messages="$2"; shift 2 ;;
    --conversations) conversations="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --slack) slack=1; shift ;;
    *) echo "profile.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$repo/bench-work"
cd "$repo"
if ! command -v perf >/dev/null; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq -o DPkg::Lock::Timeout=300 linux-perf
fi

bash "$repo/scripts/build-release.sh"
scrollback="$repo/.build/release/scrollback"
corpus="$work/corpus-$messages-c$conversations-s$seed"
if [ ! -f "$corpus/.complete" ]; then
  rm -rf "$corpus"
  python3 "$repo/scripts/bench/generate_corpus.py" --messages "$messages" --conversations "$conversations" \
    --seed "$seed" --out "$corpus"
  sha256sum < "$repo/scripts/bench/generate_corpus.py" | cut -c1-16 > "$corpus/.complete"
fi

out="$work/profile-$messages"
if [ "$slack" = 1 ]; then
  corpus="$work/slack-$messages-c$conversations-s$seed"
  [ -f "$corpus/.complete" ] || python3 "$repo/scripts/bench/generate_slack_export.py" \
    --corpus "$work/corpus-$messages-c$conversations-s$seed" --out "$corpus"
  out="$work/profile-slack-$messages"
fi
rm -rf "$out" "$work/profile-site"
mkdir -p "$out"
perf record -q -F 999 -g -o "$out/perf.data" -- "$scrollback" build "$corpus" -o "$work/profile-site" \
  > "$out/build.log" 2>&1 || echo "profile.sh: the build failed (see $out/build.log)" >&2

demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
# (|| true: `head` closing a pipe early is not a failure here.)
perf report -i "$out/perf.data" --stdio --no-children --sort symbol -g none --percent-limit 0.5 2>/dev/null \
  | grep -v '^$' | demangle > "$out/flat.txt" || true
perf report -i "$out/perf.data" --stdio --no-children --sort symbol -g caller --percent-limit 2 2>/dev/null \
  | grep -v '^$' | demangle > "$out/callers.txt" || true
perf report -i "$out/perf.data" --stdio --no-children --sort dso -g none 2>/dev/null | grep -v '^#' | grep -v '^$' \
  | head -20 > "$out/dso.txt" || true
perf report -i "$out/perf.data" --stdio --children --sort symbol -g none --percent-limit 2 2>/dev/null \
  | grep -v '^$' | demangle > "$out/children.txt" || true
echo "== shared objects"; cat "$out/dso.txt"
echo "== top symbols by self time"; grep -E '^ +[0-9.]+%' "$out/flat.txt" | head -30 || true
echo "== top symbols including callees"; grep -E '^ +[0-9.]+%' "$out/children.txt" | head -40 || true
echo "(full reports in $out/)"
