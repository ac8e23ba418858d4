#!/usr/bin/env bash
# The release binary stands alone: copied to an empty folder and run where neither the checkout
# (so no Templates/ on disk) nor the Swift toolchain (/opt/swift, off PATH, no LD_LIBRARY_PATH)
# can be seen, it builds sample-logs/ byte-identical to the in-tree build.
#
#   bash scripts/test-portable-binary.sh [path/to/scrollback]   (default: .build/release/scrollback)
#
# The checkout and /opt/swift are hidden by mounting empty read-only folders over them in a
# private mount namespace (`unshare`), so nothing is moved and nothing outside the namespace
# changes. Where namespaces are not allowed, the checkout is renamed for the run and renamed
# back on exit.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
binary=$(realpath "${1:-$repo/.build/release/scrollback}")
toolchain=/opt/swift
[[ -x $binary ]] || { echo "test-portable-binary: no binary at $binary; run scripts/build-release.sh first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/scrollback-portable.XXXXXX")
work=$(realpath "$work")
case $work/ in "$repo"/*) echo "test-portable-binary: temporary folder $work is inside the checkout" >&2; exit 1 ;; esac
trap 'rm -rf "$work"' EXIT

# jemalloc is in the binary (scripts/build-release.sh) as the malloc every library in the process
# binds to: exported, and no shared library of its own to install.
if ! readelf --wide --dyn-syms "$binary" | awk '$4 == "FUNC" && $5 == "GLOBAL" && $8 == "malloc" { found = 1 } END { exit !found }'; then
    echo "test-portable-binary: FAILED: $binary does not export malloc (jemalloc not linked in as an object)" >&2
    exit 1
fi
if readelf -d "$binary" | grep -q 'NEEDED.*jemalloc'; then
    echo "test-portable-binary: FAILED: $binary needs jemalloc's shared library at run time" >&2
    exit 1
fi

# The reference: the in-tree build of the checkout's sample-logs/.
"$binary" build "$repo/sample-logs" -o "$work/in-tree" --quiet

# The portable run: a copy of the binary in an empty folder, a copy of the logs, a clean environment.
mkdir -p "$work/bin" "$work/run" "$work/home"
cp "$binary" "$work/bin/scrollback"
cp -R "$repo/sample-logs" "$work/run/sample-logs"
clean_path=/usr/local/bin:/usr/bin:/bin
run_portable=(env -i "PATH=$clean_path" "HOME=$work/home" LANG=C.UTF-8
    bash -c 'cd "$1/run" && "$1/bin/scrollback" build sample-logs -o site' portable "$work")

# Inside the namespace: hide the checkout and the toolchain, check they are gone, run.
hidden_run='set -e
mount -t tmpfs -o ro,size=4k tmpfs "$1"
if [ -d "$2" ]; then mount -t tmpfs -o ro,size=4k tmpfs "$2"; fi
if [ -e "$1/Templates" ] || [ -e "$2/usr/bin" ]; then echo "test-portable-binary: hiding failed" >&2; exit 1; fi
shift 2
exec "$@"'
if unshare --mount --map-root-user true 2>/dev/null; then
    echo "test-portable-binary: running $binary with $repo and $toolchain hidden (mount namespace)"
    unshare --mount --map-root-user sh -c "$hidden_run" hide "$repo" "$toolchain" "${run_portable[@]}"
else
    away="$repo.hidden-by-test-portable-binary.$$"
    echo "test-portable-binary: no mount namespace; renaming $repo to $away for the run"
    mv "$repo" "$away"
    trap 'mv "$away" "$repo"; rm -rf "$work"' EXIT
    [[ ! -e $repo/Templates ]]
    status=0
    "${run_portable[@]}" || status=$?
    mv "$away" "$repo"
    trap 'rm -rf "$work"' EXIT
    [[ $status -eq 0 ]] || exit "$status"
fi

# The manifest records where the binary and the input were; everything else must be identical.
if ! diff -r -x manifest.json "$work/in-tree" "$work/run/site"; then
    echo "test-portable-binary: FAILED: the copied binary built a different site" >&2
    exit 1
fi
echo "test-portable-binary: ok: $(find "$work/run/site" -type f | wc -l) files identical to the in-tree build"
