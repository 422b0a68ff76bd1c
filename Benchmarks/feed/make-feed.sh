#!/usr/bin/env bash
# Makes the feed of scripts/bench-feed.sh once and keeps it: N distinct videos of 40 s, each a
# multivariant HLS presentation of 3 variants, encoded by ffmpeg at a constant bit rate (x264's
# CBR with filler) so that every segment of a variant has nearly the same size whatever the
# picture.
#
# Usage: Benchmarks/feed/make-feed.sh SHAPE COUNT DIR
#   SHAPE ts:   MPEG-TS, 4 s segments, 720p (2.0 Mbit/s video: ~1.1 MB a segment), 540p, 360p
#   SHAPE fmp4: fragmented MP4, 2 s segments, 1080p (4.2 Mbit/s video: ~1.1 MB a segment), 720p,
#               480p, each with its init section
# Videos go to DIR/v00 ... (DIR/vNN/master.m3u8); a video is made only when its folder lacks
# the `complete` mark, so a larger COUNT later makes only the videos missing. Each video differs
# from the others (hue and tone by index): no two paths hold the same bytes.
set -euo pipefail
shape=$1 count=$2 dir=$3
case "$shape" in
    ts)
        segment_seconds=4 keyframes=100 type=(-hls_segment_type mpegts) extension=ts
        sizes=(1280x720 960x540 640x360) rates=(2000 1200 600) names=(720p 540p 360p) ;;
    fmp4)
        segment_seconds=2 keyframes=50 type=(-hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4) extension=m4s
        sizes=(1920x1080 1280x720 854x480) rates=(4200 2000 1000) names=(1080p 720p 480p) ;;
    *) echo "make-feed: SHAPE is ts or fmp4, not '$shape'" >&2; exit 2 ;;
esac
mkdir -p "$dir"
for index in $(seq 0 $((count - 1))); do
    video=$(printf '%s/v%02d' "$dir" "$index")
    [ -f "$video/complete" ] && continue
    echo "make-feed: encoding $(basename "$video") ($shape)" >&2
    rm -rf "$video"
    mkdir -p "$video"
    # One decode, three encodes: split the picture, scale two copies down. Keyframes at every
    # segment boundary exactly (fixed GOP, no scene cuts), so every segment is SEGMENT_SECONDS.
    video_options=()
    for variant in 0 1 2; do
        rate=${rates[$variant]}
        video_options+=(-b:v:$variant "${rate}k" -maxrate:v:$variant "${rate}k" -bufsize:v:$variant "${rate}k")
    done
    (
        cd "$video"
        ffmpeg -hide_banner -loglevel error -nostdin \
            -f lavfi -i "testsrc2=size=${sizes[0]}:rate=25:duration=40" \
            -f lavfi -i "sine=frequency=$((300 + 37 * index)):duration=40" \
            -filter_complex "[0:v]hue=h=$((index * 29 % 360)),split=3[a][b][c];[b]scale=${sizes[1]/x/:}[b2];[c]scale=${sizes[2]/x/:}[c2]" \
            -map "[a]" -map "[b2]" -map "[c2]" -map 1:a -map 1:a -map 1:a \
            -c:v libx264 -preset ultrafast -pix_fmt yuv420p -x264-params nal-hrd=cbr:force-cfr=1 \
            "${video_options[@]}" -g "$keyframes" -keyint_min "$keyframes" -sc_threshold 0 \
            -c:a aac -b:a 64k -ac 2 \
            -f hls -hls_time "$segment_seconds" -hls_playlist_type vod "${type[@]}" \
            -hls_segment_filename "%v/seg%d.$extension" -master_pl_name master.m3u8 \
            -var_stream_map "v:0,a:0,name:${names[0]} v:1,a:1,name:${names[1]} v:2,a:2,name:${names[2]}" \
            "%v/index.m3u8"
    )
    for name in "${names[@]}"; do
        [ -s "$video/$name/index.m3u8" ] && grep -q '#EXT-X-ENDLIST' "$video/$name/index.m3u8" ||
            { echo "make-feed: ffmpeg left no complete playlist for $video/$name" >&2; exit 1; }
    done
    touch "$video/complete"
done
