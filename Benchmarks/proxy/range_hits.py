"""Makes COUNT GETs of 64 KiB ranges of a cached file on one keep-alive connection, at 64
offsets spread over the file in turn, and checks each answer's status and length.
Used by hit-instructions.sh. Usage: range_hits.py PORT PATH COUNT FILE_SIZE
FIELD="Name: value" in the environment adds that header field to every request."""
import http.client
import os
import sys

port, path, count, size = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
connection = http.client.HTTPConnection("127.0.0.1", port)
step = (size - 65536) // 63
extra = {}
if os.environ.get("FIELD"):
    name, _, value = os.environ["FIELD"].partition(":")
    extra[name.strip()] = value.strip()
for index in range(count):
    offset = (index % 64) * step
    connection.request("GET", path, headers={"Range": f"bytes={offset}-{offset + 65535}", **extra})
    response = connection.getresponse()
    body = response.read()
    if response.status != 206 or len(body) != 65536:
        sys.exit(f"request {index}: status {response.status}, {len(body)} bytes")
