"""Time to first byte of N misses, direct from the origin and through the proxy.

Each request names a new URL (a unique query), so every one through the proxy is a miss that
the proxy must fetch. Every response timed must be the 206 asked for, with the whole 256 KiB
range: a fast error answer must not pass as a fast first byte (the script exits 1 otherwise).
Prints the median and 90th percentile in milliseconds, one line each.
Usage: ttfb.py ORIGIN_URL PROXY_PORT COUNT
"""
import socket
import statistics
import sys
import time
import urllib.parse


RANGE_LENGTH = 262144


def first_byte(host, port, target):
    start = time.perf_counter()
    with socket.create_connection((host, port)) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\nRange: bytes=0-{RANGE_LENGTH - 1}\r\nConnection: close\r\n\r\n".encode())
        response = sock.recv(1)
        elapsed = time.perf_counter() - start
        while chunk := sock.recv(65536):
            response += chunk
    head, _, body = response.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1:2]
    if status != [b"206"] or len(body) != RANGE_LENGTH:
        line = head.split(b"\r\n", 1)[0].decode(errors="replace")
        sys.exit(f"ttfb: {host}:{port}{target[:80]} answered {line!r} with {len(body)} body bytes, not 206 with {RANGE_LENGTH}")
    return elapsed * 1000


def main():
    origin, proxy_port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    parsed = urllib.parse.urlsplit(origin)
    direct, proxied = [], []
    for index in range(count):
        direct.append(first_byte(parsed.hostname, parsed.port, f"{parsed.path}?direct={index}"))
        url = f"{origin}?proxied={index}"
        proxied.append(first_byte("127.0.0.1", proxy_port, "/proxy?url=" + urllib.parse.quote(url, safe="")))
    for name, values in (("direct", direct), ("proxy", proxied)):
        values.sort()
        print(f"{name} {statistics.median(values):.2f} {values[int(len(values) * 0.9) - 1]:.2f}")


main()
