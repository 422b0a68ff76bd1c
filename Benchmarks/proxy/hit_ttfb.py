"""Time to first byte of cached ranges over one keep-alive connection per target, alternating
between targets request by request, so that both see the same machine.

Every response is checked: status 206 and exactly the asked-for number of body bytes.
Prints, per target, the median and 90th percentile in milliseconds.
Usage: hit_ttfb.py PORT COUNT TARGET...   (targets are request paths such as /proxy?url=...)
"""
import socket
import statistics
import sys
import time

RANGE_LENGTH = 65536


def read_response(sock, buffer):
    """Reads one response; returns (status, body length, bytes left over)."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed before the head")
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = next(int(line.split(":", 1)[1]) for line in lines[1:] if line.lower().startswith("content-length:"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed in the body")
        rest += chunk
    return status, length, rest[length:]


def main():
    port, count, targets = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in targets]
    for sock in sockets:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    leftovers = [b"" for _ in targets]
    samples = [[] for _ in targets]
    for _ in range(count):
        for index, (target, sock) in enumerate(zip(targets, sockets)):
            request = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nRange: bytes=0-{RANGE_LENGTH - 1}\r\n\r\n".encode()
            start = time.perf_counter()
            sock.sendall(request)
            first = leftovers[index] or sock.recv(65536)
            elapsed = time.perf_counter() - start
            status, length, leftovers[index] = read_response(sock, first)
            if status != 206 or length != RANGE_LENGTH:
                raise SystemExit(f"{target}: answered {status} with {length} bytes")
            samples[index].append(elapsed * 1000)
    for target, values in zip(targets, samples):
        values.sort()
        print(f"{statistics.median(values):.3f} {values[int(len(values) * 0.9) - 1]:.3f}")


main()
