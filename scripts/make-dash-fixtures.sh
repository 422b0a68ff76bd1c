#!/usr/bin/env bash
# Regenerates the ffmpeg-made DASH fixtures in Tests/DASHTests/Fixtures/ffmpeg/ from a synthetic
# source (testsrc and a sine tone): only the MPDs and the `sidx` boxes are kept, not the media.
#   scripts/make-dash-fixtures.sh
# Made with FFmpeg 5.1 (Debian 12). FFmpeg cannot write a SegmentBase MPD or several Periods, so
# two fixtures are derived from its output by the small Python steps below (documented in
# Fixtures/README.md): segment-base.mpd points SegmentBase@indexRange at the global `sidx` box
# that `-single_file 1 -global_sidx 1` writes, and multi-period.mpd joins the Periods of two runs.
# live-dynamic.mpd is the MPD of a live run (`-re -window_size 3`) copied while it is dynamic, so
# its times differ from run to run.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/DASHTests/Fixtures/ffmpeg
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
source=(-f lavfi -i testsrc=duration=8:size=160x120:rate=25 -f lavfi -i sine=frequency=440:duration=8)
encode=(-c:v libx264 -g 25 -c:a aac)
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

run() { # run NAME ARGS...: a presentation in $work/NAME, its MPD copied to $out/NAME.mpd
    local name=$1; shift
    mkdir -p "$work/$name"
    (cd "$work/$name" && ff "$@" manifest.mpd)
    cp "$work/$name/manifest.mpd" "$out/$name.mpd"
}

# SegmentTemplate with SegmentTimeline: two video Representations in one AdaptationSet, audio in another.
run template-timeline "${source[@]}" -map 0:v -map 0:v -map 1:a "${encode[@]}" -b:v:0 200k -b:v:1 400k \
    -s:v:1 320x240 -f dash -seg_duration 2 -use_template 1 -use_timeline 1 \
    -adaptation_sets "id=0,streams=v id=1,streams=a"
# SegmentTemplate with @duration and $Number$ (no timeline).
run template-number "${source[@]}" -map 0:v -map 1:a "${encode[@]}" -f dash -seg_duration 2 \
    -use_template 1 -use_timeline 0
# SegmentList of SegmentURL@media.
run segment-list "${source[@]}" -map 0:v -map 1:a "${encode[@]}" -f dash -seg_duration 2 \
    -use_template 0 -use_timeline 0
# One file per Representation: SegmentList of SegmentURL@mediaRange, and a global sidx box.
run single-file "${source[@]}" -map 0:v -map 1:a "${encode[@]}" -f dash -seg_duration 2 \
    -single_file 1 -global_sidx 1
# A live window: the MPD as it is while the run is live (type="dynamic", UTCTiming).
mkdir -p "$work/live"
(cd "$work/live" && ffmpeg -hide_banner -loglevel error -y -re -f lavfi -i testsrc=duration=6:size=160x120:rate=25 \
    -c:v libx264 -g 25 -f dash -seg_duration 1 -window_size 3 -update_period 2 \
    -utc_timing_url "https://time.example.com/?iso" manifest.mpd) &
live=$!
for _ in $(seq 1 100); do
    sleep 0.1
    if grep -q 'type="dynamic"' "$work/live/manifest.mpd" 2>/dev/null && grep -q 'r="2"' "$work/live/manifest.mpd"; then
        cp "$work/live/manifest.mpd" "$out/live-dynamic.mpd"
        break
    fi
done
wait "$live"
[ -f "$out/live-dynamic.mpd" ] || { echo "make-dash-fixtures: the live run never wrote a dynamic MPD" >&2; exit 1; }

python3 - "$work" "$out" <<'PY'
import re, struct, sys
work, out = sys.argv[1], sys.argv[2]

def boxes(data):
    offset = 0
    while offset + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if size < 8:
            break
        yield offset, size, kind.decode("latin-1")
        offset += size

# segment-base.mpd: single-file.mpd with each SegmentList replaced by a SegmentBase whose
# Initialization@range is ftyp+moov and whose @indexRange is the sidx box; each sidx box is kept
# as segment-base-streamN.sidx with its offset in the name of the test that reads it.
mpd = open("%s/single-file.mpd" % out).read()
for stream in (0, 1):
    data = open("%s/single-file/manifest-stream%d.mp4" % (work, stream), "rb").read()
    sidx = [(o, s) for o, s, k in boxes(data) if k == "sidx"][0]
    open("%s/segment-base-stream%d.sidx" % (out, stream), "wb").write(data[sidx[0]:sidx[0] + sidx[1]])
    base = ('<SegmentBase indexRange="%d-%d">\n\t\t\t\t\t<Initialization range="0-%d" />\n\t\t\t\t</SegmentBase>'
            % (sidx[0], sidx[0] + sidx[1] - 1, sidx[0] - 1))
    pattern = r'(<BaseURL>manifest-stream%d\.mp4</BaseURL>\s*)<SegmentList.*?</SegmentList>' % stream
    mpd = re.sub(pattern, lambda m: m.group(1) + base, mpd, flags=re.S)
open("%s/segment-base.mpd" % out, "w").write(mpd)

# multi-period.mpd: the Period of template-timeline.mpd, then that of template-number.mpd with
# id="1" and start="PT8.0S", under one MPD of twice the duration.
first = open("%s/template-timeline.mpd" % out).read()
second = open("%s/template-number.mpd" % out).read()
period = re.search(r"\t<Period .*?</Period>\n", second, re.S).group(0)
period = period.replace('<Period id="0" start="PT0.0S">', '<Period id="1" start="PT8.0S">', 1)
joined = first.replace("</Period>\n", "</Period>\n" + period, 1)
joined = joined.replace('mediaPresentationDuration="PT8.0S"', 'mediaPresentationDuration="PT16.0S"', 1)
open("%s/multi-period.mpd" % out, "w").write(joined)
PY
ls -l "$out"
