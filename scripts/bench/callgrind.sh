#!/usr/bin/env bash
# Instruction counts of one clean build (load-independent, unlike wall or CPU time):
#
#   scripts/bench/callgrind.sh BINARY CORPUS NAME
#
# Writes bench-work/callgrind/NAME.out and prints the total and the largest functions, callees
# included. Valgrind 3.19 (Debian 12) needs two workarounds for a Swift binary: the C targets'
# DWARF 5 debug info is stripped (symbols stay), and sigsuspend-shim.c is preloaded (valgrind
# crashes when rt_sigsuspend's mask is read-only memory, as libdispatch's is).
set -euo pipefail
binary="$1"; corpus="$2"; name="$3"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$repo/bench-work/callgrind"
mkdir -p "$out"
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }
[ -f "$out/sigsuspend-shim.so" ] || cc -shared -fPIC -O2 -o "$out/sigsuspend-shim.so" "$repo/scripts/bench/sigsuspend-shim.c"
strip --strip-debug -o "$out/$name.bin" "$binary"
rm -rf "$out/$name-site"
LD_PRELOAD="$out/sigsuspend-shim.so" valgrind --tool=callgrind --callgrind-out-file="$out/$name.out" \
  "$out/$name.bin" build "$corpus" -o "$out/$name-site" --clean > "$out/$name.log" 2>&1
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
callgrind_annotate --inclusive=yes "$out/$name.out" | demangle | sed -n '20,80p'
