#ifndef SPARSECACHE_PAGE_CACHE_H
#define SPARSECACHE_PAGE_CACHE_H
#include <stdint.h>

/// How many pages of bytes `offset..<offset + length` of the file open as `fd` are in the page
/// cache (`cachestat(2)`, Linux 6.5 and later), into `*cached`. Returns 0, or -1 with errno
/// set: ENOSYS where the system cannot tell (an older kernel, another system).
///
/// Swift cannot call the variadic `syscall(2)`, and libc has no wrapper for cachestat yet.
int sparsecache_cached_pages(int fd, uint64_t offset, uint64_t length, uint64_t *cached);

#endif
