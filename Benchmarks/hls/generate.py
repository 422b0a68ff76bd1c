#!/usr/bin/env python3
"""Writes the HLS benchmark playlists into a folder (generated at run time, never committed),
and a manifest of what each one holds, for scripts/bench-hls.sh to check the parse against.

    generate.py OUTDIR

Each shape is one file and one row of the benchmark. The shapes follow what real packagers and
CDNs write rather than the easiest case: long absolute URIs with signed query strings, EXTINF
titles, EXT-X-PROGRAM-DATE-TIME on every segment, key rotation, byte-range fMP4, multivariant
playlists whose variants carry every common attribute, LL-HLS, date ranges and session data.

media-plain-10k.m3u8  10,000 segments, EXTINF without title, absolute URI with a short query
media-10k.m3u8        10,000 segments, each with PROGRAM-DATE-TIME, an EXTINF title and a
                      150-byte signed URI; an AES-128 key with IV every 10 segments, a
                      discontinuity every 500
media-100k.m3u8       the same shape, 100,000 segments
byterange-10k.m3u8    single-file fMP4: EXT-X-MAP with BYTERANGE, 10,000 segments with
                      EXT-X-BYTERANGE length@offset
daterange-10k.m3u8    10,000 segments with PROGRAM-DATE-TIME; an EXT-X-DATERANGE (SCTE-35 out and
                      in, client attributes) every 10 segments
llhls-2k.m3u8         LL-HLS: SERVER-CONTROL, PART-INF, 2,000 segments of 4 EXT-X-PARTs each,
                      PROGRAM-DATE-TIME, a preload hint and three rendition reports
master-2000.m3u8      multivariant: 2,000 EXT-X-STREAM-INF with 11 attributes and a signed URI,
                      300 EXT-X-MEDIA, 200 EXT-X-I-FRAME-STREAM-INF, 20 SESSION-DATA, a
                      SESSION-KEY and CONTENT-STEERING
master-wide-2000.m3u8 multivariant of another shape: 2,000 EXT-X-STREAM-INF with long CODECS
                      lists (up to nine codecs), SUPPLEMENTAL-CODECS, ALLOWED-CPC and
                      REQ-VIDEO-LAYOUT (quoted values with commas), attributes in varying
                      order, relative URIs; 1,500 EXT-X-MEDIA (audio, video angles, subtitles,
                      closed captions) whose NAMEs and CHARACTERISTICS hold commas; 400
                      EXT-X-I-FRAME-STREAM-INF

manifest.tsv: name, kind, segments, variants, i-frame variants, renditions, parts, date ranges,
session data, keys (EXT-X-KEY) and session keys.
"""
import datetime
import os
import random
import sys

# Deterministic content: every run writes the same bytes.
RANDOM = random.Random(20261121)


def token(length, alphabet="0123456789abcdef"):
    return "".join(RANDOM.choice(alphabet) for _ in range(length))


BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
START = datetime.datetime(2026, 11, 21, 22, 3, 8, 70000, tzinfo=datetime.timezone.utc)


def date_time(seconds):
    moment = START + datetime.timedelta(seconds=seconds)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % (moment.microsecond // 1000) + "Z"


class Shape:
    def __init__(self, kind):
        self.kind = kind
        self.lines = ["#EXTM3U"]
        self.counts = dict(segments=0, variants=0, iframes=0, renditions=0, parts=0, dateranges=0,
                           sessiondata=0, keys=0, sessionkeys=0)

    def add(self, line):
        self.lines.append(line)

    def text(self):
        return "\n".join(self.lines) + "\n"


def media_plain(count):
    shape = Shape("media")
    for line in ("#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:7", "#EXT-X-MEDIA-SEQUENCE:0",
                 "#EXT-X-PLAYLIST-TYPE:VOD"):
        shape.add(line)
    for i in range(count):
        shape.add("#EXTINF:%s," % ("6.006000" if i % 10 else "5.972000"))
        shape.add("https://cdn.example.com/v/1080p/seg_%07d.ts?tok=ab%04d" % (i, i % 9973))
        shape.counts["segments"] += 1
    shape.add("#EXT-X-ENDLIST")
    return shape


def media(count):
    shape = Shape("media")
    for line in ("#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:7", "#EXT-X-MEDIA-SEQUENCE:1000",
                 "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS"):
        shape.add(line)
    asset = token(12)
    seconds = 0.0
    for i in range(count):
        if i % 500 == 0 and i > 0:
            shape.add("#EXT-X-DISCONTINUITY")
        if i % 10 == 0:
            shape.add('#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example-drm.com/v2/keys/%s/%06d?auth=%s",'
                      "IV=0x%s" % (asset, i // 10, token(24), token(32)))
            shape.counts["keys"] += 1
        duration = 6.006 if i % 7 else 5.005
        shape.add("#EXT-X-PROGRAM-DATE-TIME:%s" % date_time(seconds))
        shape.add('#EXTINF:%.6f,Episode 12 "The Long Night" part %d' % (duration, i))
        shape.add("https://cdn-%02d.media-delivery.example.net/vod/2026/11/21/asset_%s/hls/1080p_h264_6000k/"
                  "segment_%06d.ts?token=%s&expires=%d&sig=%s"
                  % (i % 16, asset, i, token(32), 1764000000 + i, token(43, BASE64URL)))
        shape.counts["segments"] += 1
        seconds += duration
    shape.add("#EXT-X-ENDLIST")
    return shape


def byterange(count):
    shape = Shape("media")
    for line in ("#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:7", "#EXT-X-MEDIA-SEQUENCE:0",
                 "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS",
                 '#EXT-X-MAP:URI="video_1080p_h264_6000k.mp4",BYTERANGE="1432@0"'):
        shape.add(line)
    offset = 1432
    for i in range(count):
        length = 1_200_000 + (i * 7919) % 3_000_000
        shape.add("#EXTINF:%s," % ("6.006000" if i % 10 else "5.972000"))
        shape.add("#EXT-X-BYTERANGE:%d@%d" % (length, offset))
        shape.add("video_1080p_h264_6000k.mp4")
        shape.counts["segments"] += 1
        offset += length
    shape.add("#EXT-X-ENDLIST")
    return shape


def daterange(count):
    shape = Shape("media")
    for line in ("#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:7", "#EXT-X-MEDIA-SEQUENCE:0",
                 "#EXT-X-PLAYLIST-TYPE:EVENT"):
        shape.add(line)
    seconds = 0.0
    for i in range(count):
        shape.add("#EXT-X-PROGRAM-DATE-TIME:%s" % date_time(seconds))
        if i % 10 == 0:
            shape.add('#EXT-X-DATERANGE:ID="splice-%06d",CLASS="com.example.ad",START-DATE="%s",DURATION=30.000,'
                      'PLANNED-DURATION=30.000,SCTE35-OUT=0x%s,X-COM-EXAMPLE-AD-ID="%s",X-ASSET-URI="https://ads.example.com/%s"'
                      % (i, date_time(seconds), token(40).upper(), token(16), token(20)))
            shape.counts["dateranges"] += 1
        shape.add("#EXTINF:6.006,")
        shape.add("https://cdn.example.net/live/channel-7/1080p/%09d.ts" % (4_000_000 + i))
        shape.counts["segments"] += 1
        seconds += 6.006
    return shape


def llhls(count):
    shape = Shape("media")
    for line in ("#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:4",
                 "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24.0,PART-HOLD-BACK=3.012",
                 "#EXT-X-PART-INF:PART-TARGET=1.004", "#EXT-X-MEDIA-SEQUENCE:48000",
                 '#EXT-X-MAP:URI="init-1080p.mp4"'):
        shape.add(line)
    seconds = 0.0
    first = 48000
    for i in range(count):
        shape.add("#EXT-X-PROGRAM-DATE-TIME:%s" % date_time(seconds))
        for part in range(4):
            shape.add('#EXT-X-PART:DURATION=1.00100,URI="filePart%d.%d.mp4"%s'
                      % (first + i, part, ",INDEPENDENT=YES" if part == 0 else ""))
            shape.counts["parts"] += 1
        shape.add("#EXTINF:4.00400,")
        shape.add("fileSequence%d.mp4" % (first + i))
        shape.counts["segments"] += 1
        seconds += 4.004
    for part in range(2):
        shape.add('#EXT-X-PART:DURATION=1.00100,URI="filePart%d.%d.mp4"%s'
                  % (first + count, part, ",INDEPENDENT=YES" if part == 0 else ""))
        shape.counts["parts"] += 1
    shape.add('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="filePart%d.2.mp4"' % (first + count))
    for rendition in ("720p", "480p", "audio"):
        shape.add('#EXT-X-RENDITION-REPORT:URI="../%s/live.m3u8",LAST-MSN=%d,LAST-PART=1'
                  % (rendition, first + count))
    return shape


def master(variants, renditions, iframes):
    shape = Shape("master")
    shape.add("#EXT-X-VERSION:7")
    shape.add("#EXT-X-INDEPENDENT-SEGMENTS")
    shape.add('#EXT-X-CONTENT-STEERING:SERVER-URI="https://steering.example.com/v1/steer?session=%s",'
              'PATHWAY-ID="cdn-a"' % token(16))
    shape.add('#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://keys.example.com/%s",'
              'KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"' % token(32))
    shape.counts["sessionkeys"] += 1
    for i in range(20):
        shape.add('#EXT-X-SESSION-DATA:DATA-ID="com.example.title.%d",VALUE="Episode %d: %s",LANGUAGE="en"'
                  % (i, i, token(24)))
        shape.counts["sessiondata"] += 1
    languages = ["en", "fr", "de", "es", "it", "ja", "ko", "pt", "nl", "sv"]
    for i in range(renditions):
        language = languages[i % len(languages)]
        if i % 3 == 2:
            shape.add('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="%s %d",LANGUAGE="%s",DEFAULT=NO,'
                      'AUTOSELECT=YES,FORCED=NO,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog",'
                      'URI="https://cdn.example.net/vod/asset/subs/%s_%03d/index.m3u8?token=%s"'
                      % (language, i, language, language, i, token(32)))
        else:
            group = "aac-stereo-%d" % (i % 4)
            shape.add('#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="%s",NAME="%s %d",LANGUAGE="%s",DEFAULT=%s,AUTOSELECT=YES,'
                      'CHANNELS="2",URI="https://cdn.example.net/vod/asset/audio/%s_%03d/index.m3u8?token=%s"'
                      % (group, language, i, language, "YES" if i < 4 else "NO", language, i, token(32)))
        shape.counts["renditions"] += 1
    resolutions = [(640, 360), (960, 540), (1280, 720), (1920, 1080), (3840, 2160)]
    for i in range(variants):
        bandwidth = 200_000 + i * 3_000
        width, height = resolutions[i % len(resolutions)]
        shape.add('#EXT-X-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,CODECS="avc1.640028,mp4a.40.2",'
                  'RESOLUTION=%dx%d,FRAME-RATE=29.970,HDCP-LEVEL=%s,VIDEO-RANGE=%s,AUDIO="aac-stereo-%d",'
                  'SUBTITLES="subs",CLOSED-CAPTIONS=NONE,PATHWAY-ID="cdn-%s"'
                  % (bandwidth, bandwidth * 9 // 10, width, height, "TYPE-1" if height >= 2160 else "TYPE-0",
                     "PQ" if i % 2 else "SDR", i % 4, "a" if i % 2 else "b"))
        shape.add("https://cdn-%s.example.net/vod/2026/11/21/asset_%04d/video/%dp_%dk/index.m3u8?token=%s&sig=%s"
                  % ("a" if i % 2 else "b", i % 97, height, bandwidth // 1000, token(32), token(43, BASE64URL)))
        shape.counts["variants"] += 1
    for i in range(iframes):
        width, height = resolutions[i % len(resolutions)]
        shape.add('#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=%d,AVERAGE-BANDWIDTH=%d,CODECS="avc1.640028",'
                  'RESOLUTION=%dx%d,HDCP-LEVEL=TYPE-0,VIDEO-RANGE=SDR,'
                  'URI="https://cdn.example.net/vod/asset/iframes/%dp_%03d/iframe_index.m3u8?token=%s"'
                  % (50_000 + i * 100, 45_000 + i * 90, width, height, height, i, token(32)))
        shape.counts["iframes"] += 1
    return shape


def master_wide(variants, renditions, iframes):
    """A multivariant playlist unlike master(): what a packager with many languages, camera
    angles and codecs writes. Most of its bytes are quoted attribute values holding commas."""
    shape = Shape("master")
    shape.add("#EXT-X-VERSION:12")
    shape.add("#EXT-X-INDEPENDENT-SEGMENTS")
    shape.add('#EXT-X-START:TIME-OFFSET=-30.5,PRECISE=YES')
    languages = [("en", "English"), ("fr", "Fran\u00e7ais"), ("de", "Deutsch"), ("es", "Espa\u00f1ol"),
                 ("pt-BR", "Portugu\u00eas (Brasil)"), ("ja", "Japanese"), ("zh-Hans", "Chinese, Simplified"),
                 ("ar", "Arabic"), ("hi", "Hindi"), ("ko", "Korean"), ("it", "Italiano"), ("nl", "Nederlands")]
    audio_groups = ["aud-aac-lc", "aud-he-aac", "aud-ec3-51", "aud-ec3-atmos", "aud-ac3"]
    video_groups = ["angles-sdr", "angles-hdr"]
    for i in range(renditions):
        code, name = languages[i % len(languages)]
        kind = i % 10
        if kind < 5:
            group = audio_groups[i % len(audio_groups)]
            channels = ["2", "2", "6", "16/JOC", "6"][i % len(audio_groups)]
            described = i % 7 == 0
            characteristics = ('public.accessibility.describes-video,public.easy-to-read' if described
                               else 'public.translation.dubbed,com.example.mix-v2')
            shape.add('#EXT-X-MEDIA:TYPE=AUDIO,URI="audio/%s/%s_%04d/prog_index.m3u8",GROUP-ID="%s",LANGUAGE="%s",'
                      'ASSOC-LANGUAGE="%s",NAME="%s, %s (%s, track %d)",STABLE-RENDITION-ID="a%04d-%s",'
                      'DEFAULT=%s,AUTOSELECT=YES,CHARACTERISTICS="%s",CHANNELS="%s"'
                      % (group, code, i, group, code, code.split("-")[0], name,
                         "Audio Description" if described else "Main", channels, i, i, token(6),
                         "YES" if i < len(audio_groups) else "NO", characteristics, channels))
        elif kind < 7:
            group = video_groups[i % 2]
            shape.add('#EXT-X-MEDIA:GROUP-ID="%s",TYPE=VIDEO,NAME="Angle %d, %s camera, \'%s\' feed",'
                      'LANGUAGE="%s",DEFAULT=NO,AUTOSELECT=NO,STABLE-RENDITION-ID="v%04d",'
                      'URI="video/angle_%04d/%s/prog_index.m3u8"'
                      % (group, i, ["wide", "tight", "aerial"][i % 3], token(5), code, i, i, group))
        elif kind < 9:
            shape.add('#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs-webvtt",LANGUAGE="%s",NAME="%s, %s",'
                      'AUTOSELECT=YES,DEFAULT=NO,FORCED=%s,CHARACTERISTICS="public.accessibility.'
                      'transcribes-spoken-dialog,public.accessibility.describes-music-and-sound",'
                      'URI="subtitles/%s/%04d/prog_index.m3u8"'
                      % (code, name, "SDH" if i % 2 else "Forced narrative", "YES" if i % 2 == 0 else "NO",
                         code, i))
        else:
            shape.add('#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="%s, CC%d (%d)",LANGUAGE="%s",'
                      'INSTREAM-ID="%s",AUTOSELECT=YES,DEFAULT=NO'
                      % (name, i % 4 + 1, i, code, "CC%d" % (i % 4 + 1) if i % 2 else "SERVICE%d" % (i % 63 + 1)))
        shape.counts["renditions"] += 1
    codec_lists = [
        "avc1.640028,avc1.64001f,avc1.4d401f,mp4a.40.2,mp4a.40.5,ec-3,ac-3,stpp.ttml.im1t,wvtt",
        "hvc1.2.4.L153.B0,hvc1.2.4.L150.90,mp4a.40.2,ec-3,stpp.ttml.im1t",
        "dvh1.05.06,hvc1.2.4.L153.B0,ec-3,mp4a.40.2,wvtt",
        "av01.0.12M.10.0.110.09.16.09.0,av01.0.08M.08,opus,mp4a.40.2,ec-3,wvtt",
    ]
    resolutions = [(416, 234), (640, 360), (768, 432), (960, 540), (1280, 720), (1920, 1080), (2560, 1440),
                   (3840, 2160)]
    for i in range(variants):
        bandwidth = 145_000 + i * 7_919
        width, height = resolutions[i % len(resolutions)]
        codecs = codec_lists[i % len(codec_lists)]
        layout = '"CH-STEREO,CH-MONO"' if i % 5 == 0 else '"CH-MONO"'
        cpc = '"com.example.drm-one:SW-SECURE-DECODE,com.example.drm-two:HW-SECURE-ALL,com.example.drm-three:L1"'
        attributes = [
            "BANDWIDTH=%d" % bandwidth,
            "AVERAGE-BANDWIDTH=%d" % (bandwidth * 7 // 8),
            "SCORE=%d.%d" % (i % 50, i % 10),
            'CODECS="%s"' % codecs,
            'SUPPLEMENTAL-CODECS="dvh1.08.07/db4h,dav1.10.09/db4h"' if i % 4 == 2 else None,
            "RESOLUTION=%dx%d" % (width, height),
            "FRAME-RATE=%s" % ("59.940" if i % 3 else "23.976"),
            "HDCP-LEVEL=%s" % ("TYPE-1" if height >= 1080 else "NONE"),
            "ALLOWED-CPC=%s" % cpc,
            "VIDEO-RANGE=%s" % ["SDR", "PQ", "HLG"][i % 3],
            "REQ-VIDEO-LAYOUT=%s" % layout,
            'STABLE-VARIANT-ID="var-%05d-%s"' % (i, token(8)),
            'AUDIO="%s"' % audio_groups[i % len(audio_groups)],
            'VIDEO="%s"' % video_groups[i % 2],
            'SUBTITLES="subs-webvtt"',
            'CLOSED-CAPTIONS="cc"',
            'PATHWAY-ID="cdn-%s"' % "abc"[i % 3],
        ]
        attributes = [attribute for attribute in attributes if attribute]
        # Packagers disagree on the order: rotate it so no position is always the same attribute.
        turn = i % len(attributes)
        attributes = attributes[turn:] + attributes[:turn]
        shape.add("#EXT-X-STREAM-INF:" + ",".join(attributes))
        shape.add("v%d/%dp/%s/prog_index.m3u8" % (i, height, codecs.split(".")[0]))
        shape.counts["variants"] += 1
    for i in range(iframes):
        width, height = resolutions[i % len(resolutions)]
        shape.add('#EXT-X-I-FRAME-STREAM-INF:URI="iframes/%d/%dp/iframe_index.m3u8",BANDWIDTH=%d,'
                  'CODECS="%s",RESOLUTION=%dx%d,VIDEO-RANGE=%s,HDCP-LEVEL=NONE,'
                  'ALLOWED-CPC="com.example.drm-one:SW-SECURE-DECODE,com.example.drm-two:HW-SECURE-ALL"'
                  % (i, height, 40_000 + i * 211, codec_lists[i % len(codec_lists)].split(",")[0], width, height,
                     ["SDR", "PQ", "HLG"][i % 3]))
        shape.counts["iframes"] += 1
    return shape


SHAPES = {
    "media-plain-10k": lambda: media_plain(10_000),
    "media-10k": lambda: media(10_000),
    "media-100k": lambda: media(100_000),
    "byterange-10k": lambda: byterange(10_000),
    "daterange-10k": lambda: daterange(10_000),
    "llhls-2k": lambda: llhls(2_000),
    "master-2000": lambda: master(2_000, 300, 200),
    "master-wide-2000": lambda: master_wide(2_000, 1_500, 400),
}


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    columns = ["segments", "variants", "iframes", "renditions", "parts", "dateranges", "sessiondata", "keys",
               "sessionkeys"]
    manifest = ["\t".join(["name", "kind"] + columns)]
    for name, build in SHAPES.items():
        shape = build()
        with open(os.path.join(out, name + ".m3u8"), "w") as handle:
            handle.write(shape.text())
        manifest.append("\t".join([name, shape.kind] + [str(shape.counts[column]) for column in columns]))
    with open(os.path.join(out, "manifest.tsv"), "w") as handle:
        handle.write("\n".join(manifest) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
