#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/, declared in Package.swift only when SCROLLBACK_FUZZ is set,
# so plain `swift build` and `swift test` never see them) with AddressSanitizer, then runs each
# for a bounded time from its committed seed corpus.
#
# Usage: scripts/fuzz.sh [--seconds N] [--runs N] [TARGET...]
#   --seconds N   run each target for at most N seconds (default 600; `make test` uses 60)
#   --runs N      stop each target after N executions instead (e.g. 1000000)
# The working corpus grows in .build-fuzz/corpus/<target> (not committed); crashes are written to
# .build-fuzz/crashes/<target>/ and fail the script.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
seconds=600
runs=""
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
# Every target: a folder Fuzz/Fuzz<Name>/ with one file holding LLVMFuzzerTestOneInput and a
# Seeds/ folder. (Importers get one each, named FuzzImporter<Name>: see Fuzz/README.md.)
if [ ${#targets[@]} -eq 0 ]; then
  for folder in Fuzz/Fuzz*/; do
    name=$(basename "$folder")
    [ "$name" = FuzzSupport ] || targets+=("$name")
  done
fi
for target in "${targets[@]}"; do
  # SwiftPM's --sanitize=fuzzer links libFuzzer but adds no coverage instrumentation to the
  # modules (Swift 6.3 on Linux): without it libFuzzer finds no "interesting" input. Hence -Xswiftc.
  SCROLLBACK_FUZZ=1 swift build --sanitize=fuzzer --sanitize=address -c debug --scratch-path .build-fuzz \
    --product "$target" -Xswiftc -sanitize-coverage=edge,pc-table,inline-8bit-counters,trace-cmp
done
status=0
for target in "${targets[@]}"; do
  corpus=.build-fuzz/corpus/$target
  crashes=.build-fuzz/crashes/$target
  mkdir -p "$corpus" "$crashes"
  limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  echo "== $target (${limit[*]})"
  # -timeout: one input may take at most 10 s (the targets check a tighter bound per byte
  # themselves); -rss_limit_mb: a memory blow-up is a failure too.
  if ! ".build-fuzz/debug/$target" "$corpus" "Fuzz/$target/Seeds" "${limit[@]}" -timeout=10 \
      -rss_limit_mb=3072 -max_len=65536 -artifact_prefix="$crashes/" -print_final_stats=1; then
    echo "fuzz target $target failed; reproducer in $crashes/" >&2
    status=1
  fi
done
exit $status
