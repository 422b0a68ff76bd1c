#ifndef SPARSECACHE_CHECKSUM_H
#define SPARSECACHE_CHECKSUM_H
#include <stddef.h>
#include <stdint.h>

/// XXH3-64 of `length` bytes with `seed`: bit-identical to libxxhash's XXH3_64bits_withSeed,
/// computed with AVX2 when the CPU has it (Debian's libxxhash is built for SSE2 only, which
/// halves hashing speed on the write path).
uint64_t sparsecache_xxh3_64(const void *data, size_t length, uint64_t seed);

/// Whether the AVX2 variant is in use, for benchmarks and tests.
int sparsecache_xxh3_uses_avx2(void);

/// The system library's own implementation, for tests that check both agree.
uint64_t sparsecache_xxh3_64_library(const void *data, size_t length, uint64_t seed);

#endif
