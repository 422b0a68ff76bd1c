"""The second client of scripts/bench-store-pressure.sh: requests through the proxy, one after
another on one keep-alive connection, each for a URL the cache has not seen (the origin ignores
the query), so that each creates an entry. Paced at RATE requests per second (0: as fast as
they complete) until killed; after each completed request, their number is written to
COUNT_FILE.

Usage: new-entries.py PROXY_PORT ORIGIN_URL RATE COUNT_FILE
"""
import http.client
import os
import sys
import time
import urllib.parse

port, origin, rate, count_file = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
start = time.monotonic()
done = 0
while True:
    if rate > 0:
        time.sleep(max(0.0, start + done / rate - time.monotonic()))
    url = urllib.parse.quote(f"{origin}?n={done}-{start}", safe="")
    try:
        connection.request("GET", f"/proxy?url={url}")
        response = connection.getresponse()
        response.read()
    except (OSError, http.client.HTTPException):
        connection.close()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        continue
    done += 1
    # Replaced whole, so that the script never reads a half-written count.
    with open(count_file + ".new", "w") as file:
        file.write(f"{done}\n")
    os.replace(count_file + ".new", count_file)
