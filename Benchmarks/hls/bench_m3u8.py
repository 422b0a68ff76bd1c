#!/usr/bin/env python3
"""The Python baseline for scripts/bench-hls.sh: globocom's `m3u8` package on the same files.

    bench_m3u8.py FILE [ROUNDS] [ITERATIONS] [MINIMUM_SECONDS]

Prints what the parse found (`counts ...`, for the caller to check) and, in MB/s of input
(10^6 bytes per second), the fastest of ROUNDS rounds (default 5) of ITERATIONS runs (default 1)
of each operation, each timed on its own; rounds go on past ROUNDS until the operation has been
timed for MINIMUM_SECONDS (default 0), as `sparsecache hls bench --minimum-seconds` does:

parse      m3u8.loads
canonical  dumps() of a parsed playlist (the package's only serializer; it normalizes)
rewrite    what a proxy does with the package: loads, replace every segment, key, map,
           part, preload hint, rendition report, variant, I-frame variant and rendition URI by
           http://127.0.0.1:8080/proxy?url=<percent-encoded absolute URI>, then dumps
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
        if segment.uri:
            segment.uri = proxied(segment.uri)
        if segment.init_section is not None and segment.init_section.uri:
            segment.init_section.uri = proxied(segment.init_section.uri)
        for part in segment.parts:
            part.uri = proxied(part.uri)
    for key in playlist.keys:
        if key is not None and key.uri:
            key.uri = proxied(key.uri)
    if playlist.preload_hint is not None:
        playlist.preload_hint.uri = proxied(playlist.preload_hint.uri)
    for report in playlist.rendition_reports:
        report.uri = proxied(report.uri)
    for variant in playlist.playlists:
        variant.uri = proxied(variant.uri)
    for variant in playlist.iframe_playlists:
        variant.uri = proxied(variant.uri)
    for media in playlist.media:
        if media.uri:
            media.uri = proxied(media.uri)
    return playlist.dumps()


def best(function, rounds, iterations, minimum_seconds):
    fastest = float("inf")
    deadline = time.perf_counter() + minimum_seconds
    done = 0
    while done < rounds or time.perf_counter() < deadline:
        start = time.perf_counter()
        for _ in range(iterations):
            function()
        fastest = min(fastest, time.perf_counter() - start)
        done += 1
    return fastest / iterations


def main(argv):
    if len(argv) not in (2, 3, 4, 5):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "rb") as handle:
        data = handle.read()
    text = data.decode("utf-8")
    rounds = int(argv[2]) if len(argv) >= 3 else 5
    iterations = int(argv[3]) if len(argv) >= 4 else 1
    minimum_seconds = float(argv[4]) if len(argv) == 5 else 0.0
    parsed = m3u8.loads(text, uri=BASE)
    # The package counts the parts after the last segment as a segment without a URI.
    segments = [segment for segment in parsed.segments if segment.uri]
    print("counts segments=%d variants=%d iframes=%d renditions=%d parts=%d dateranges=%d sessiondata=%d"
          % (len(segments), len(parsed.playlists), len(parsed.iframe_playlists), len(parsed.media),
             sum(len(segment.parts) for segment in parsed.segments),
             sum(len(segment.dateranges) for segment in parsed.segments), len(parsed.session_data)))
    size = len(data) / 1e6
    for name, function in (("parse", lambda: m3u8.loads(text, uri=BASE)),
                           ("canonical", parsed.dumps),
                           ("rewrite", lambda: rewrite(text))):
        print("%s %.2f MB/s" % (name, size / best(function, rounds, iterations, minimum_seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
