#ifndef SPARSECACHE_CXXHASH_SHIM_H
#define SPARSECACHE_CXXHASH_SHIM_H
// XXH3 from the system libxxhash (Debian: libxxhash-dev). Only the one-shot and streaming
// 64-bit XXH3 entry points are used; see Docs/FORMAT.md for where each checksum lives.
#include <xxhash.h>
#endif
