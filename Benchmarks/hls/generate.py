#!/usr/bin/env python3
"""Writes the HLS benchmark playlists into a folder (generated at run time, never committed).

    generate.py OUTDIR

media-10k.m3u8       10,000-segment media playlist (about 780 KB)
media-100k.m3u8      100,000-segment media playlist (the same shape, 10x longer)
byterange-10k.m3u8   10,000-segment single-file fMP4 playlist with EXT-X-MAP and EXT-X-BYTERANGE
master-2000.m3u8     multivariant playlist: 2,000 variants, 200 renditions, I-frame variants
"""
import os
import sys


def media(count):
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:7", "#EXT-X-MEDIA-SEQUENCE:0",
             "#EXT-X-PLAYLIST-TYPE:VOD"]
    for i in range(count):
        duration = "6.006000" if i % 10 else "5.972000"
        lines.append("#EXTINF:%s," % duration)
        lines.append("https://cdn.example.com/v/1080p/seg_%07d.ts?tok=ab%04d" % (i, i % 9973))
    lines.append("#EXT-X-ENDLIST")
    return "\n".join(lines) + "\n"


def byterange(count):
    lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:7", "#EXT-X-MEDIA-SEQUENCE:0",
             "#EXT-X-PLAYLIST-TYPE:VOD", '#EXT-X-MAP:URI="main.mp4",BYTERANGE="1024@0"']
    offset = 1024
    for i in range(count):
        length = 1_200_000 + (i * 7919) % 300_000
        lines.append("#EXTINF:6.006000,")
        lines.append("#EXT-X-BYTERANGE:%d@%d" % (length, offset))
        lines.append("main.mp4")
        offset += length
    lines.append("#EXT-X-ENDLIST")
    return "\n".join(lines) + "\n"


def master(variants, renditions):
    lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS"]
    for i in range(renditions):
        kind = "SUBTITLES" if i % 4 == 3 else "AUDIO"
        group = "subs" if kind == "SUBTITLES" else "aud%d" % (i % 3)
        lines.append('#EXT-X-MEDIA:TYPE=%s,GROUP-ID="%s",NAME="Track %d",LANGUAGE="l%02d",DEFAULT=%s,'
                     'AUTOSELECT=YES,URI="media/%s/track_%03d/index.m3u8"'
                     % (kind, group, i, i % 100, "YES" if i < 4 else "NO", kind.lower(), i))
    for i in range(variants):
        bandwidth = 200_000 + i * 3_000
        width, height = [(640, 360), (960, 540), (1280, 720), (1920, 1080)][i % 4]
        lines.append('#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,CODECS="avc1.64001f,mp4a.40.2",'
                     'RESOLUTION=%dx%d,FRAME-RATE=29.970,AUDIO="aud%d",SUBTITLES="subs"'
                     % (bandwidth, bandwidth * 9 // 10, width, height, i % 3))
        lines.append("video/variant_%04d/index.m3u8" % i)
    for i in range(0, variants, 10):
        lines.append('#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=%d,CODECS="avc1.64001f",RESOLUTION=1280x720,'
                     'URI="video/variant_%04d/iframes.m3u8"' % (50_000 + i * 100, i))
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    files = {
        "media-10k.m3u8": media(10_000),
        "media-100k.m3u8": media(100_000),
        "byterange-10k.m3u8": byterange(10_000),
        "master-2000.m3u8": master(2_000, 200),
    }
    for name, text in files.items():
        with open(os.path.join(out, name), "w") as handle:
            handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
