#ifdef __linux__
#define _GNU_SOURCE
#include <sched.h>
#endif
#include "pinned_thread.h"

#include <errno.h>

#ifdef __linux__
int sparsecache_test_pin_thread(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set);
}

int sparsecache_test_may_run_on(int cpu) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    return CPU_ISSET(cpu, &set) ? 1 : 0;
}
#else
int sparsecache_test_pin_thread(int cpu) {
    (void)cpu;
    errno = ENOTSUP;
    return -1;
}

int sparsecache_test_may_run_on(int cpu) {
    (void)cpu;
    return -1;
}
#endif
