#!/usr/bin/env bash
# Builds the release binary, .build/release/scrollback: the one way the Makefile, the tests and the
# benchmark build it. Extra arguments go to `swift build`.
#
#   - `--static-swift-stdlib`: the Swift runtime and Foundation linked in, so the binary runs
#     without the toolchain (scripts/test-portable-binary.sh).
#   - jemalloc (Debian's libjemalloc-dev) as the process's malloc: a build allocates and frees
#     millions of small values on both cores at once, and glibc's malloc was a large share of
#     it (the measurements are in scripts/bench/RESULTS.md).
#
# jemalloc goes in as one relocatable object made from its static archive, not as `-ljemalloc`:
# the shared library would be one more runtime package, and `--static-swift-stdlib` links with
# `--exclude-libs ALL`, which makes every archive's symbols local. An archive's malloc would then
# serve only the binary's own code while libc, libxml2 and cmark-gfm kept glibc's, and memory
# that one allocates and the other frees (strdup, realpath, a parser's output) would crash. An
# object file is not an archive: its malloc is exported, and every library in the process binds
# to it (test-portable-binary.sh checks that too). The object leaves out the archive's C++
# `operator new` and `delete` (jemalloc_cpp): `swift build` links it into the build tools too
# (EmbedTemplatesTool), which have no C++ runtime; libstdc++'s own `operator new` calls malloc,
# which is jemalloc's anyway.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
cd "$repo"

archive="$(pkg-config --variable=libdir jemalloc)/libjemalloc_pic.a"
[[ -f $archive ]] || { echo "build-release: no $archive; run scripts/install-deps.sh" >&2; exit 1; }
object=.build/jemalloc.o
if [[ ! $object -nt $archive || ! $object -nt ${BASH_SOURCE[0]} ]]; then
    mkdir -p .build
    members=$(mktemp -d)
    (cd "$members" && ar x "$archive" && rm -f jemalloc_cpp*.o)
    ld -r "$members"/*.o -o "$object.tmp"
    rm -rf "$members"
    mv "$object.tmp" "$object"
    # SwiftPM does not know the object is an input: a binary linked with the old one goes.
    rm -f .build/release/scrollback
fi
exec swift build -c release --product scrollback --static-swift-stdlib -Xlinker "$repo/$object" "$@"
