#!/usr/bin/env python3
"""Writes the MPDs of scripts/bench-dash.sh: one video AdaptationSet of three Representations
sharing a SegmentTimeline of N `S` entries (durations vary, so no entry folds into an @r, as in a
live event with drifting segment lengths), plus an audio Representation of its own timeline.

    generate.py DIR      writes timeline-1k.mpd, -10k, -100k and manifest.tsv (shape, entries, representations)
"""
import random
import sys

SHAPES = [("timeline-1k", 1_000), ("timeline-10k", 10_000), ("timeline-100k", 100_000)]


def write(path, entries, rng):
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" '
             'type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" publishTime="2026-01-01T04:00:00Z" '
             'minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT240M" minBufferTime="PT4S">',
             '  <Period id="1" start="PT0S">',
             '    <AdaptationSet id="1" contentType="video" mimeType="video/mp4" segmentAlignment="true">',
             '      <SegmentTemplate timescale="90000" initialization="$RepresentationID$/init.mp4" '
             'media="$RepresentationID$/$Time$.m4s" startNumber="1">',
             "        <SegmentTimeline>"]
    t = 0
    for index in range(entries):
        d = 180000 + rng.randint(-900, 900)
        lines.append('          <S t="%d" d="%d"/>' % (t, d) if index == 0 else '          <S d="%d"/>' % d)
        t += d
    lines += ["        </SegmentTimeline>", "      </SegmentTemplate>"]
    for rep, (bandwidth, width, height) in enumerate([(800000, 640, 360), (2500000, 1280, 720), (5000000, 1920, 1080)]):
        lines.append('      <Representation id="v%d" bandwidth="%d" width="%d" height="%d" codecs="avc1.64001f"/>'
                     % (rep, bandwidth, width, height))
    lines.append("    </AdaptationSet>")
    lines.append('    <AdaptationSet id="2" contentType="audio" mimeType="audio/mp4" lang="en">')
    lines.append('      <Representation id="a0" bandwidth="128000" codecs="mp4a.40.2">')
    lines.append('        <SegmentTemplate timescale="48000" initialization="a0/init.mp4" media="a0/$Time$.m4s">')
    lines.append("          <SegmentTimeline>")
    t = 0
    for index in range(entries):
        d = 96000 + rng.choice([-1024, 0, 1024])
        lines.append('            <S t="%d" d="%d"/>' % (t, d) if index == 0 else '            <S d="%d"/>' % d)
        t += d
    lines += ["          </SegmentTimeline>", "        </SegmentTemplate>", "      </Representation>",
              "    </AdaptationSet>", "  </Period>", "</MPD>"]
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


def main(folder):
    rng = random.Random(36)
    with open("%s/manifest.tsv" % folder, "w") as manifest:
        manifest.write("shape\tentries\trepresentations\n")
        for shape, entries in SHAPES:
            write("%s/%s.mpd" % (folder, shape), entries, rng)
            manifest.write("%s\t%d\t4\n" % (shape, entries))


if __name__ == "__main__":
    import os
    os.makedirs(sys.argv[1], exist_ok=True)
    main(sys.argv[1])
