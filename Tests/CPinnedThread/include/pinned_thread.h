#ifndef SPARSECACHE_PINNED_THREAD_H
#define SPARSECACHE_PINNED_THREAD_H

/// Restricts the calling thread to `cpu`. Returns 0, or -1 with errno set (ENOTSUP off Linux).
int sparsecache_test_pin_thread(int cpu);

/// Whether the calling thread may run on `cpu`: 1, 0, or -1 where the system does not say.
int sparsecache_test_may_run_on(int cpu);

#endif
