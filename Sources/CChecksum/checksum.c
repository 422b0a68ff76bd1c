#include "checksum.h"
#include <xxhash.h>

#if defined(__x86_64__) && defined(__clang__)
uint64_t sparsecache_xxh3_64_avx2(const void *data, size_t length, uint64_t seed);

static int has_avx2(void) {
    // Threads may race to fill the cache; they all compute the same value, and the atomic
    // accesses make that race well-defined.
    static int cached = -1;
    int value = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (value < 0) {
        __builtin_cpu_init();
        value = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&cached, value, __ATOMIC_RELAXED);
    }
    return value;
}

uint64_t sparsecache_xxh3_64(const void *data, size_t length, uint64_t seed) {
    // Short inputs are dominated by call overhead, not by vector width.
    if (length >= 1024 && has_avx2()) {
        return sparsecache_xxh3_64_avx2(data, length, seed);
    }
    return XXH3_64bits_withSeed(data, length, seed);
}

int sparsecache_xxh3_uses_avx2(void) { return has_avx2(); }
#else
uint64_t sparsecache_xxh3_64(const void *data, size_t length, uint64_t seed) {
    return XXH3_64bits_withSeed(data, length, seed);
}

int sparsecache_xxh3_uses_avx2(void) { return 0; }
#endif

uint64_t sparsecache_xxh3_64_library(const void *data, size_t length, uint64_t seed) {
    return XXH3_64bits_withSeed(data, length, seed);
}
