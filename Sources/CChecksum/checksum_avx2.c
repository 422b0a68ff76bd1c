// libxxhash's own XXH3 code from its header, compiled for AVX2. Every function in this file
// gets the avx2 target attribute; it is only called after the CPU was checked for AVX2.
#if defined(__x86_64__) && defined(__clang__)
#include <stddef.h>
#include <stdint.h>
#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define XXH_INLINE_ALL
#define XXH_VECTOR 2 /* XXH_AVX2 */
#include <xxhash.h>

uint64_t sparsecache_xxh3_64_avx2(const void *data, size_t length, uint64_t seed) {
    return XXH3_64bits_withSeed(data, length, seed);
}
#pragma clang attribute pop
#endif
