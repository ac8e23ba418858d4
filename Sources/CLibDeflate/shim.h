// libdeflate's raw DEFLATE compressor and decompressor, for the search index's document chunks
// (ZIPFoundation has its own module of zlib, named CZlib, for zip exports).
#include <libdeflate.h>
