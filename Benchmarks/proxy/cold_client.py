"""A player seeking around a file whose pages are no longer in memory: GETs of 64 KiB ranges
at random offsets, one after another on one keep-alive connection, for SECONDS. Each answer must
be a 206 with the file's bytes at that offset. Prints "COUNT MEDIAN_MS P90_MS MAX_MS".
Used by cold-reads.sh. Usage: cold_client.py PORT PATH FILE SECONDS SEED"""
import http.client
import random
import statistics
import sys
import time

port, path, file_path, seconds, seed = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
with open(file_path, "rb") as source:
    data = source.read()
pieces = (len(data) - 65536) // 65536
offsets = random.Random(seed).sample(range(pieces), pieces)
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
latencies = []
end = time.monotonic() + seconds
for piece in offsets:
    if time.monotonic() >= end:
        break
    offset = piece * 65536
    started = time.monotonic()
    connection.request("GET", path, headers={"Range": f"bytes={offset}-{offset + 65535}"})
    response = connection.getresponse()
    body = response.read()
    latencies.append((time.monotonic() - started) * 1000)
    if response.status != 206 or body != data[offset:offset + 65536]:
        sys.exit(f"offset {offset}: status {response.status}, {len(body)} bytes, right: {body == data[offset:offset + 65536]}")
latencies.sort()
print(len(latencies), f"{statistics.median(latencies):.1f}", f"{latencies[int(len(latencies) * 0.9)]:.1f}", f"{latencies[-1]:.1f}")
