#!/usr/bin/env python3
"""Times the `mpegdash` package (PyPI) parsing one MPD, for scripts/bench-dash.sh.

    bench_mpegdash.py FILE ROUNDS

Prints `counts representations=R entries=E` (the S elements of the first Representation's
timeline, to check the parse) and `parse X MB/s`: the fastest of ROUNDS parses.
"""
import sys
import time

from mpegdash.parser import MPEGDASHParser


def main(path, rounds):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    size = len(text.encode("utf-8"))
    best = None
    mpd = None
    for _ in range(rounds):
        start = time.perf_counter()
        mpd = MPEGDASHParser.parse(text)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    adaptation_sets = mpd.periods[0].adaptation_sets
    representations = sum(len(a.representations or []) for a in adaptation_sets)
    entries = len(adaptation_sets[0].segment_templates[0].segment_timelines[0].Ss)
    print("counts representations=%d entries=%d" % (representations, entries))
    print("parse %.1f MB/s" % (size / best / 1e6))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
