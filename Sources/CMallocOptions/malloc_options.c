// jemalloc's options for the `scrollback` command, read by jemalloc when the process starts
// (its documented `malloc_conf` symbol; scripts/build-release.sh links jemalloc in). Without
// jemalloc, as in `swift build` and the tests' builds, nothing reads it.
//
// background_thread: memory freed in bulk (a Slack export's day files, a conversation's pages
// once written) goes back to the system from jemalloc's own thread, not from the threads that
// free it, in `madvise` calls on the build's own threads (measured in scripts/bench/RESULTS.md).

#include "CMallocOptions.h"

const char *malloc_conf = "background_thread:true";
