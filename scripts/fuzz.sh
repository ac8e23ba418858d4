#!/usr/bin/env bash
# Builds the libFuzzer executable (Fuzz/README.md; declared in Package.swift only when
# SCROLLBACK_FUZZ is set, so plain `swift build` and `swift test` never see it) and runs targets.
#
# Usage: scripts/fuzz.sh [--seconds N | --runs N] [--parallel N] [TARGET...]
#        scripts/fuzz.sh --campaign [--runs N] [--fork N] [--rss-limit-mb N] [TARGET...]
#        scripts/fuzz.sh --replay TARGET FILE...
#   --seconds N   run each target for at most N seconds (default 600; `make fuzz-ci` uses less)
#   --runs N      stop each target after N executions instead (campaign default: 1000000)
#   --parallel N  run N targets at a time (default 1; `make fuzz-ci` runs two)
#   --campaign    the long run (`make fuzz-campaign`): a coverage build without AddressSanitizer in
#                 .build-fuzz-campaign, libFuzzer's -fork=N (default 2) going on past findings, the
#                 corpus in $XDG_CACHE_HOME/scrollback-fuzz/<target>; every finding is replayed
#                 under the AddressSanitizer build
#   --replay      runs files through the AddressSanitizer build (a finding's reproducer)
#   TARGET        names from `SCROLLBACK_FUZZ_TARGET=list .build-fuzz/release/ScrollbackFuzz`
#                 (default: all)
# Without --campaign: the optimised AddressSanitizer build in .build-fuzz (kept between runs: a
# second build only relinks what changed); each target runs from its committed seeds plus the
# corpus grown in .build-fuzz/corpus/<target> (not committed); crashes, hangs and leaks are written
# to .build-fuzz/crashes/<target>/ and fail the script. Each run's log is .build-fuzz/logs/<target>.log;
# the last lines printed are every target's final stats.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
seconds=600
runs=""
parallel=1
campaign=0
replay=0
fork=2
rss_limit_mb=2048
wanted=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    --campaign) campaign=1; shift ;;
    --fork) fork="$2"; shift 2 ;;
    --rss-limit-mb) rss_limit_mb="$2"; shift 2 ;;
    --replay) replay=1; shift ;;
    *) wanted+=("$1"); shift ;;
  esac
done

# SwiftPM's --sanitize=fuzzer links libFuzzer but adds no coverage instrumentation to the
# modules (Swift 6.3 on Linux): without it libFuzzer finds no "interesting" input. Hence -Xswiftc.
# Release: the fuzzers run about ten times as many inputs per second as a debug build. Each build
# has its own stable scratch folder, so switching between them never rebuilds the other.
coverage=(-Xswiftc -sanitize-coverage=edge,pc-table,inline-8bit-counters,trace-cmp)
asan_fuzzer=.build-fuzz/release/ScrollbackFuzz
build_asan() {
  SCROLLBACK_FUZZ=1 swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path .build-fuzz \
    --product ScrollbackFuzz "${coverage[@]}"
}
# Without AddressSanitizer: the build's C libraries are Debian's, not instrumented, so ASan guards
# only the Swift code, at a cost of a third to a half of each input (leak scans, allocation
# bookkeeping); the campaign trades that for executions and replays what it finds under ASan.
campaign_fuzzer=.build-fuzz-campaign/release/ScrollbackFuzz
build_campaign() {
  SCROLLBACK_FUZZ=1 swift build -c release --sanitize=fuzzer --scratch-path .build-fuzz-campaign \
    --product ScrollbackFuzz "${coverage[@]}"
}

# One line per target, "name max_len", from the executable itself (Fuzz/ScrollbackFuzz/FuzzTargets.swift).
check_targets() {
  targets=$(SCROLLBACK_FUZZ_TARGET=list "$1")
  for name in "${wanted[@]}"; do
    grep -q "^$name " <<<"$targets" || { echo "unknown fuzz target $name; targets:"$'\n'"$targets" >&2; exit 2; }
  done
}
is_wanted() { [ ${#wanted[@]} -eq 0 ] || printf '%s\n' "${wanted[@]}" | grep -qx "$1"; }

# A run stopped by a finding skips its clean-up: SiteBuild's folder in /dev/shm (memory) goes
# now, with any other such folder whose process is gone (the reproducer rebuilds it).
clean_dead_worlds() {
  for folder in /dev/shm/scrollback-fuzz-site-* /tmp/scrollback-fuzz-site-*; do
    if [ -d "$folder" ] && ! kill -0 "${folder##*-}" 2>/dev/null; then rm -rf -- "$folder"; fi
  done
}

# The environment of every run. SWIFT_BACKTRACE: Swift's own crash handler would run after
# AddressSanitizer's report and trip it. LSAN_OPTIONS: leaks of dependencies, not Scrollback's
# (Fuzz/lsan-suppressions.txt says which).
fuzz_env=(SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt")

# Runs each file under the ASan build; prints whether it still fails there. Status 1 if any does.
replay_files() {
  local name=$1 status=0 file
  shift
  for file in "$@"; do
    if env "${fuzz_env[@]}" SCROLLBACK_FUZZ_TARGET="$name" "$asan_fuzzer" -timeout=10 \
        -rss_limit_mb="$rss_limit_mb" "$file" >"$file.asan.log" 2>&1; then
      echo "replayed under ASan, no failure: $file (log $file.asan.log)"
    else
      echo "replayed under ASan, FAILS: $file (log $file.asan.log)"
      grep -m 3 -E 'ERROR: AddressSanitizer|property failed|Fatal error|SUMMARY' "$file.asan.log" || true
      status=1
    fi
  done
  clean_dead_worlds
  return $status
}

if [ $replay = 1 ]; then
  [ ${#wanted[@]} -ge 2 ] || { echo "usage: scripts/fuzz.sh --replay TARGET FILE..." >&2; exit 2; }
  build_asan
  replay_files "${wanted[@]}"
  exit $?
fi

if [ $campaign = 1 ]; then
  runs=${runs:-1000000}
  build_campaign
  check_targets "$campaign_fuzzer"
  cache=${SCROLLBACK_FUZZ_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/scrollback-fuzz}
  ledger=$cache/campaigns.tsv
  mkdir -p "$cache"
  [ -f "$ledger" ] || printf 'finished\ttarget\texecutions\tseconds\texec_per_s\tfindings\tfork\tcommit\n' >"$ledger"
  status=0
  while read -r name max_len; do
    is_wanted "$name" || continue
    corpus=$cache/$name/corpus
    crashes=$cache/$name/crashes
    log=$cache/$name/campaign-$(date -u +%Y%m%dT%H%M%SZ).log
    mkdir -p "$corpus" "$crashes"
    stamp=$(mktemp)
    echo "== $name campaign: -runs=$runs -fork=$fork -rss_limit_mb=$rss_limit_mb; log $log"
    start=$(date +%s)
    # -fork: children run the inputs and the parent merges what they find into $corpus (the first
    # folder), so a crash, hang or memory blow-up is saved and the campaign goes on (-ignore_*).
    # -rss_limit_mb is the memory bound of each child (SiteBuild checks its own 1 GiB too).
    # -timeout is wall time: at nice 10 on a loaded machine (load 25 on two cores) one SiteBuild
    # input of 0.8 s of CPU took over 10 s; the work bound that counts is FuzzBound's, in CPU time.
    # SCROLLBACK_FUZZ_ZIP_CACHE: SiteBuild keeps the zips it made (Fuzz/ScrollbackFuzz/SiteBuild.swift,
    # ZipMaker); only here, where no LeakSanitizer reads a cache it cannot see through.
    env "${fuzz_env[@]}" SCROLLBACK_FUZZ_ZIP_CACHE=1 SCROLLBACK_FUZZ_TARGET="$name" "$campaign_fuzzer" "$corpus" "Fuzz/Seeds/$name" \
      -fork="$fork" -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 -runs="$runs" -max_len="$max_len" \
      -timeout=60 -rss_limit_mb="$rss_limit_mb" -artifact_prefix="$crashes/" >"$log" 2>&1 || true
    elapsed=$(($(date +%s) - start))
    clean_dead_worlds
    # The parent's last progress line: "#<executions>: cov: … oom/timeout/crash: a/b/c time: …".
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1 || true)
    executions=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
    executions=${executions:-0}
    # A `slow-unit-*` file is an input that took over 10 s of wall time, which a forked child at
    # nice 19 on a loaded machine reaches with a first input paying a one-time table build: it is
    # no finding (`-timeout` is the bound that fails), but it is replayed and its time printed.
    mapfile -t found < <(find "$crashes" -maxdepth 1 -type f -newer "$stamp" ! -name '*.asan.log' \
      ! -name 'slow-unit-*' | sort)
    mapfile -t slow < <(find "$crashes" -maxdepth 1 -type f -newer "$stamp" -name 'slow-unit-*' ! -name '*.log' | sort)
    for unit in "${slow[@]}"; do
      echo "slow unit (not a finding): $unit: $(env "${fuzz_env[@]}" SCROLLBACK_FUZZ_TARGET="$name" \
        "$campaign_fuzzer" "$unit" 2>&1 | grep -o 'Executed .* in [0-9]* ms' | sed 's/.* in /replayed in /')"
    done
    rm -f "$stamp"
    rate=$(awk -v n="$executions" -v s="$elapsed" 'BEGIN { printf "%.1f", (s > 0 ? n / s : 0) }')
    counts=$(sed -nE 's|.*oom/timeout/crash: ([0-9]+/[0-9]+/[0-9]+).*|\1|p' <<<"$last")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$executions" "$elapsed" "$rate" \
      "${#found[@]}" "$fork" "$(git rev-parse --short HEAD)" >>"$ledger"
    total=$(awk -F '\t' -v t="$name" '$2 == t { n += $3 } END { print n + 0 }' "$ledger")
    echo "$name: executions $executions, time ${elapsed} s, exec/s $rate, findings ${#found[@]}" \
      "(oom/timeout/crash ${counts:-0/0/0}); all campaigns of $name: $total executions ($ledger)"
    # libFuzzer's counts too: a finding whose file could not be written still fails the campaign.
    [ "${counts:-0/0/0}" = 0/0/0 ] || status=1
    if [ ${#found[@]} -gt 0 ]; then
      status=1
      build_asan >/dev/null
      replay_files "$name" "${found[@]}" || true
    fi
  done <<<"$targets"
  exit $status
fi

build_asan
check_targets "$asan_fuzzer"
mkdir -p .build-fuzz/logs

# Runs one target and writes its status and final stats beside its log (for the summary).
run_target() {
  local name=$1 max_len=$2
  local corpus=.build-fuzz/corpus/$name crashes=.build-fuzz/crashes/$name log=.build-fuzz/logs/$name.log
  mkdir -p "$corpus" "$crashes"
  local limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  echo "== $name (${limit[*]}, -max_len=$max_len)"
  # -timeout: one input may take at most 10 s (the targets check a tighter bound per byte in CPU
  # time themselves); -rss_limit_mb: a memory blow-up is a failure too.
  local status=0
  env "${fuzz_env[@]}" SCROLLBACK_FUZZ_TARGET="$name" "$asan_fuzzer" "$corpus" "Fuzz/Seeds/$name" "${limit[@]}" \
    -max_len="$max_len" -timeout=10 -rss_limit_mb="$rss_limit_mb" -artifact_prefix="$crashes/" \
    -print_final_stats=1 >"$log" 2>&1 || status=$?
  if [ $status != 0 ]; then
    tail -n 40 "$log" >&2
    echo "fuzz target $name failed; reproducer in $crashes/ (replay: scripts/fuzz.sh --replay $name <file>)" >&2
  fi
  echo $status >".build-fuzz/logs/$name.status"
  echo "$name: $(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" |
    sed 's/^stat:://' | tr -s ' ' | paste -sd ' ')" >".build-fuzz/logs/$name.summary"
}

# Up to $parallel targets at a time (each its own process, corpus and /dev/shm folder).
ran=()
while read -r name max_len; do
  is_wanted "$name" || continue
  rm -f ".build-fuzz/logs/$name.status" ".build-fuzz/logs/$name.summary"
  while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n || true; done
  run_target "$name" "$max_len" &
  ran+=("$name")
done <<<"$targets"
wait
clean_dead_worlds
status=0
for name in "${ran[@]}"; do
  cat ".build-fuzz/logs/$name.summary" 2>/dev/null || echo "$name: no stats"
  [ "$(cat ".build-fuzz/logs/$name.status" 2>/dev/null)" = 0 ] || status=1
done
exit $status
