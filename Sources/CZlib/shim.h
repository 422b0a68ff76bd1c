#ifndef SPARSECACHE_CZLIB_SHIM_H
#define SPARSECACHE_CZLIB_SHIM_H
#include <zlib.h>
#endif
