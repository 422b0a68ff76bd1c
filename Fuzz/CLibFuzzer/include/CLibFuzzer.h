#ifndef SPARSECACHE_CLIBFUZZER_H
#define SPARSECACHE_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own byte mutator (with its dictionary), for a custom mutator to fall back on.
/// Defined by libFuzzer, which every fuzz target links (-sanitize=fuzzer).
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#endif
