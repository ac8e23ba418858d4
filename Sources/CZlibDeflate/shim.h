// zlib's raw deflate and inflate, for the search index's document chunks (ZIPFoundation has its
// own module of zlib, named CZlib, for zip exports).
#include <zlib.h>
