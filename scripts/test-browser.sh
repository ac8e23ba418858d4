#!/usr/bin/env bash
# The browser suite (Tests/Browser): builds the sites to test into artifacts/sites/ with the
# release binary, then drives Debian's chromium headless through Playwright (pytest).
# Installs what it needs on a fresh Debian machine: chromium and fonts (apt, only when
# missing) and a pinned Python environment in .venv (scripts/python-env.sh).
# Extra arguments go to pytest, e.g. `scripts/test-browser.sh -k hostile -x`.
# The sites are built side by side, and the tests run in BROWSER_WORKERS processes (pytest-xdist;
# default 2, one per core; 0 runs them in this process). Each worker runs the session and module
# fixtures itself, so a fixture that writes must write into its own folder (tmp_path_factory, or
# artifacts/voice-notes/<worker>).
set -euo pipefail
cd "$(dirname "$0")/.."
repo_root="$(pwd)"

# --- Debian packages: the browser and the fonts that make emoji and CJK render. ---
packages=(chromium fonts-noto-color-emoji fonts-noto-cjk)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "browser suite: installing ${missing[*]}"
  $sudo_cmd apt-get update -qq -o DPkg::Lock::Timeout=300
  $sudo_cmd apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${missing[@]}"
fi
command -v java >/dev/null || { echo "browser suite: java (17+) is needed for the Nu HTML Checker" >&2; exit 1; }

# --- Python environment (pytest, playwright, axe, Nu checker, lychee). ---
bash scripts/python-env.sh

# --- The release binary (make test builds it first; build it here when run alone). ---
binary="$repo_root/.build/release/scrollback"
if [ ! -x "$binary" ]; then
  bash scripts/build-release.sh
fi

# --- Fixtures and sites. Generated fresh every run, never committed. ---
artifacts="$repo_root/artifacts"
rm -rf "$artifacts/sites" "$artifacts/fixtures" "$artifacts/build-logs" "$artifacts/screenshots"
mkdir -p "$artifacts/sites" "$artifacts/fixtures" "$artifacts/build-logs" "$artifacts/screenshots"
# The build caches of every site the suite builds (issue 44: never in the output), fresh each
# run, under artifacts/: never in the user's ~/.cache (the pytest builds inherit it too).
export XDG_CACHE_HOME="$artifacts/cache"
rm -rf "$XDG_CACHE_HOME"
.venv/bin/python Tests/Fixtures/hostile/generate.py "$artifacts/fixtures/hostile"
.venv/bin/python Tests/Fixtures/long/generate.py "$artifacts/fixtures/long" --messages 2500
.venv/bin/python Tests/Browser/fixture_options.py "$artifacts/fixtures/options"

# Builds one site; its output and exit status are kept for the suite, which fails on a failed
# build (the other sites are still built and tested). Each runs in the background: most are a few
# conversations, where starting the process and writing the assets is most of the time.
build_site() {
  local name="$1" input="$2"
  local log="$artifacts/build-logs/$name.log"
  set +e
  "$binary" build "$input" -o "$artifacts/sites/$name" >"$log" 2>&1
  local status=$?
  set -e
  echo "$status" >"$artifacts/build-logs/$name.status"
  echo "browser suite: built $name (exit $status)"
}
build_site sample "$repo_root/sample-logs" &
build_site hostile "$artifacts/fixtures/hostile/input" &
build_site long "$artifacts/fixtures/long/input" &
build_site options "$artifacts/fixtures/options/input" &
# Search (Tests/Browser/test_search.py): the multilingual fixture, and the same with `search: false`.
build_site search "$repo_root/Tests/Fixtures/search" &
build_site sections "$repo_root/Tests/Fixtures/sections" &
# AI conversations as documents (Tests/Browser/test_ai_document.py).
build_site ai "$repo_root/Tests/Fixtures/ai" &
# iMessage (Tests/Browser/test_imessage.py): imessage-exporter's TXT output (no real sample met yet).
build_site import-imessage "$repo_root/Tests/Fixtures/imessage" &
mkdir -p "$artifacts/fixtures/search-off"
cp -R "$repo_root/Tests/Fixtures/search/." "$artifacts/fixtures/search-off/"
printf 'search: false\n' >>"$artifacts/fixtures/search-off/scrollback.yml"
build_site search-off "$artifacts/fixtures/search-off" &
# Imports (Tests/Browser/test_imports.py): each format's real sample exports, read from
# $SHARED/samples (never copied), built as a user builds them; and Slack and Telegram imported
# as logs with a small page size and thread limit, for what shows only across pages.
samples="$(.venv/bin/python Tests/Fixtures/shared_folder.py)/samples"
for format in slack discord telegram whatsapp chatgpt messenger instagram claude teams signal mattermost; do
  build_site "import-$format" "$samples/$format" &
done
.venv/bin/python Tests/Browser/fixture_imports.py "$binary" "$artifacts/fixtures/import-paged"
build_site import-paged "$artifacts/fixtures/import-paged/input" &
# (build_site never fails: each site's status is in build-logs/, checked by the suite.)
wait

# --- The suite. ---
workers=(-n "${BROWSER_WORKERS:-2}")
[ "${BROWSER_WORKERS:-2}" = 0 ] && workers=(-p no:xdist)
exec .venv/bin/python -m pytest Tests/Browser -p no:cacheprovider "${workers[@]}" "$@"
