#include "page_cache.h"
#include <errno.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's ABI (include/uapi/linux/mman.h); glibc 2.36 ships no header with it.
struct sparsecache_cachestat_range {
    uint64_t off;
    uint64_t len;
};

struct sparsecache_cachestat {
    uint64_t nr_cache;
    uint64_t nr_dirty;
    uint64_t nr_writeback;
    uint64_t nr_evicted;
    uint64_t nr_recently_evicted;
};

// The same number on every architecture Linux added it to after the syscall tables merged.
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

int sparsecache_cached_pages(int fd, uint64_t offset, uint64_t length, uint64_t *cached) {
    struct sparsecache_cachestat_range range = { offset, length };
    struct sparsecache_cachestat status = { 0 };
    if (syscall(__NR_cachestat, fd, &range, &status, 0) != 0) return -1;
    *cached = status.nr_cache;
    return 0;
}
#else
int sparsecache_cached_pages(int fd, uint64_t offset, uint64_t length, uint64_t *cached) {
    (void)fd; (void)offset; (void)length; (void)cached;
    errno = ENOSYS;
    return -1;
}
#endif
