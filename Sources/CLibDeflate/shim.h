// libdeflate's raw DEFLATE compressor and decompressor, for the search index's document chunks
// (ZIPFoundation has its own module of zlib, named CZlib, for zip exports), and its CRC-32, which
// checks each unpacked zip entry (ExportArchive: ZIPFoundation's own is Swift, and unchecked).
#include <libdeflate.h>
