#!/usr/bin/env bash
# Installs the Debian packages Scrollback needs, only those that are missing.
#   scripts/install-deps.sh          the C libraries the build links (cmark-gfm, libxml2, libdeflate, zlib, jemalloc)
#                                    and highlight.js, which builds copy into sites with code (AI answers);
#                                    ffmpeg, which builds use (when on PATH) to add an .m4a copy of each Ogg
#                                    voice note (.opus, .ogg), since Safari plays no Ogg; the tests make
#                                    their voice notes with it
#   scripts/install-deps.sh --test   also what the browser tests run (chromium, fonts)
# The Swift toolchain itself is expected on PATH (Swift 6.x); Swift packages come from
# Package.swift.
set -euo pipefail

packages=(pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev libxml2-dev libdeflate-dev zlib1g-dev libjemalloc-dev libjs-highlight.js ffmpeg)
if [ "${1:-}" = "--test" ]; then
  packages+=(chromium fonts-dejavu-core fonts-noto-color-emoji)
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "install-deps: 'swift' is not on PATH; install Swift 6 (https://swift.org/install) first" >&2
  exit 1
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "install-deps: installing ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
  -o DPkg::Lock::Timeout=300 "${missing[@]}"
