#ifdef __linux__
#define _GNU_SOURCE
#endif
#include "cpu_locality.h"

#include <errno.h>

#ifdef __linux__
#include <sched.h>
#include <linux/filter.h>
#include <sys/socket.h>

#ifndef SO_ATTACH_REUSEPORT_CBPF
#define SO_ATTACH_REUSEPORT_CBPF 51
#endif

int sparsecache_steer_connections_by_cpu(int listener, unsigned int count) {
    if (count == 0) {
        errno = EINVAL;
        return -1;
    }
    // The kernel takes the program's result as an index into the group, in the order the
    // sockets started listening; an index past the group falls back to its usual hash.
    struct sock_filter code[] = {
        { BPF_LD | BPF_W | BPF_ABS, 0, 0, SKF_AD_OFF + SKF_AD_CPU },
        { BPF_ALU | BPF_MOD | BPF_K, 0, 0, count },
        { BPF_RET | BPF_A, 0, 0, 0 },
    };
    struct sock_fprog program = { .len = sizeof(code) / sizeof(code[0]), .filter = code };
    return setsockopt(listener, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &program, sizeof(program));
}

int sparsecache_current_cpu(void) {
    return sched_getcpu();
}
#else
int sparsecache_steer_connections_by_cpu(int listener, unsigned int count) {
    (void)listener;
    (void)count;
    errno = ENOTSUP;
    return -1;
}

int sparsecache_current_cpu(void) {
    return -1;
}
#endif
