// Nothing to call: the target only defines jemalloc's `malloc_conf` (malloc_options.c).
#ifndef SCROLLBACK_MALLOC_OPTIONS_H
#define SCROLLBACK_MALLOC_OPTIONS_H
extern const char *malloc_conf;
#endif
