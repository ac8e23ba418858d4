#!/usr/bin/env bash
# Builds the libFuzzer executable (Fuzz/README.md; declared in Package.swift only when
# SCROLLBACK_FUZZ is set, so plain `swift build` and `swift test` never see it) optimised and with
# AddressSanitizer, then runs each target from its committed seeds, one after the other.
#
# Usage: scripts/fuzz.sh [--seconds N] [--runs N] [TARGET...]
#   --seconds N   run each target for at most N seconds (default 600; `make fuzz-ci` uses less)
#   --runs N      stop each target after N executions instead (e.g. 1000000)
#   TARGET        names from `SCROLLBACK_FUZZ_TARGET=list .build-fuzz/release/ScrollbackFuzz`
#                 (default: all)
# The working corpus grows in .build-fuzz/corpus/<target> (not committed); crashes, hangs and
# leaks are written to .build-fuzz/crashes/<target>/ and fail the script. Each run's log is
# .build-fuzz/logs/<target>.log; the last lines printed are every target's final stats.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
seconds=600
runs=""
wanted=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) wanted+=("$1"); shift ;;
  esac
done
# SwiftPM's --sanitize=fuzzer links libFuzzer but adds no coverage instrumentation to the
# modules (Swift 6.3 on Linux): without it libFuzzer finds no "interesting" input. Hence -Xswiftc.
# Release: the fuzzers run about ten times as many inputs per second as a debug build.
SCROLLBACK_FUZZ=1 swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path .build-fuzz \
  --product ScrollbackFuzz -Xswiftc -sanitize-coverage=edge,pc-table,inline-8bit-counters,trace-cmp
fuzzer=.build-fuzz/release/ScrollbackFuzz
# One line per target, "name max_len", from the executable itself (Fuzz/ScrollbackFuzz/FuzzTargets.swift).
targets=$(SCROLLBACK_FUZZ_TARGET=list "$fuzzer")
for name in "${wanted[@]}"; do
  grep -q "^$name " <<<"$targets" || { echo "unknown fuzz target $name; targets:"$'\n'"$targets" >&2; exit 2; }
done
mkdir -p .build-fuzz/logs
status=0
summary=""
while read -r name max_len; do
  if [ ${#wanted[@]} -gt 0 ] && ! printf '%s\n' "${wanted[@]}" | grep -qx "$name"; then continue; fi
  corpus=.build-fuzz/corpus/$name
  crashes=.build-fuzz/crashes/$name
  log=.build-fuzz/logs/$name.log
  mkdir -p "$corpus" "$crashes"
  limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  echo "== $name (${limit[*]}, -max_len=$max_len)"
  # -timeout: one input may take at most 10 s (the targets check a tighter bound per byte in CPU
  # time themselves); -rss_limit_mb: a memory blow-up is a failure too.
  # SWIFT_BACKTRACE: Swift's own crash handler would run after AddressSanitizer's report and trip it.
  # LSAN_OPTIONS: leaks of dependencies, not Scrollback's (Fuzz/lsan-suppressions.txt says which).
  if ! SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt" \
      SCROLLBACK_FUZZ_TARGET=$name "$fuzzer" "$corpus" "Fuzz/Seeds/$name" "${limit[@]}" -max_len="$max_len" \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz target $name failed; reproducer in $crashes/ (replay: SCROLLBACK_FUZZ_TARGET=$name $fuzzer <file>)" >&2
    status=1
  fi
  # A run stopped by a finding skips its clean-up: SiteBuild's folder in /dev/shm (memory) goes
  # now, with any other such folder whose process is gone (the reproducer rebuilds it).
  for folder in /dev/shm/scrollback-fuzz-site-*; do
    if [ -d "$folder" ] && ! kill -0 "${folder##*-}" 2>/dev/null; then rm -rf -- "$folder"; fi
  done
  summary+="$name: $(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" |
    sed 's/^stat:://' | tr -s ' ' | paste -sd ' ')"$'\n'
done <<<"$targets"
printf '%s' "$summary"
exit $status
