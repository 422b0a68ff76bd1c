#ifndef SPARSECACHE_CPU_LOCALITY_H
#define SPARSECACHE_CPU_LOCALITY_H

/// The socket option that reads the CPU a connection's last packets were processed on (Linux's
/// SO_INCOMING_CPU): on loopback, the CPU its client ran on when it last sent.
#define SPARSECACHE_SO_INCOMING_CPU 49

/// Attaches to the SO_REUSEPORT group of `listener` a classic BPF program that hands each new
/// connection to listener number (CPU % `count`), the CPU being the one the connection's first
/// packet was processed on: on loopback, the CPU its client ran on when it connected. Returns 0,
/// or -1 with errno set (ENOTSUP where the system has no such program, that is off Linux).
int sparsecache_steer_connections_by_cpu(int listener, unsigned int count);

/// The CPU the calling thread runs on, or -1 where the system does not say.
int sparsecache_current_cpu(void);

#endif
