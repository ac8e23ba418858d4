#!/usr/bin/env bash
# Installs the Debian packages Scrollback builds and tests with, only when one is missing.
set -euo pipefail
packages=(pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev libxml2-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${missing[@]}"
fi
