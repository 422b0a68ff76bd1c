#!/usr/bin/env python3
"""The Python baseline for scripts/bench-hls.sh: globocom's `m3u8` package on the same files.

    bench_m3u8.py FILE [ITERATIONS]

Prints `parse`, `format` and `rewrite` in MB/s of input (10^6 bytes per second), best of five
rounds, like `sparsecache hls bench`. parse is m3u8.loads; format is dumps() of the parsed
playlist; rewrite is what a proxy does with the package: loads, replace every segment, key, map,
variant, I-frame variant and rendition URI by http://127.0.0.1:8080/proxy?url=<percent-encoded
absolute URI>, then dumps.
"""
import sys
import time
from urllib.parse import quote, urljoin

import m3u8

BASE = "https://origin.example.com/path/to/index.m3u8"
PROXY = "http://127.0.0.1:8080/proxy?url="


def proxied(uri):
    return PROXY + quote(urljoin(BASE, uri), safe="")


def rewrite(text):
    playlist = m3u8.loads(text, uri=BASE)
    for segment in playlist.segments:
        segment.uri = proxied(segment.uri)
        if segment.init_section is not None and segment.init_section.uri:
            segment.init_section.uri = proxied(segment.init_section.uri)
    for key in playlist.keys:
        if key is not None and key.uri:
            key.uri = proxied(key.uri)
    for variant in playlist.playlists:
        variant.uri = proxied(variant.uri)
    for variant in playlist.iframe_playlists:
        variant.uri = proxied(variant.uri)
    for media in playlist.media:
        if media.uri:
            media.uri = proxied(media.uri)
    return playlist.dumps()


def best(function, iterations):
    fastest = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(iterations):
            function()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest / iterations


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "rb") as handle:
        data = handle.read()
    text = data.decode("utf-8")
    iterations = int(argv[2]) if len(argv) == 3 else 3
    parsed = m3u8.loads(text, uri=BASE)
    size = len(data) / 1e6
    for name, function in (("parse", lambda: m3u8.loads(text, uri=BASE)),
                           ("format", parsed.dumps),
                           ("rewrite", lambda: rewrite(text))):
        print("%s %.1f MB/s" % (name, size / best(function, iterations)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
