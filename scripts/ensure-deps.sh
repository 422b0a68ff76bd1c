#!/usr/bin/env bash
# Installs what SparseCache needs when it is missing (Debian/Ubuntu packages, and Python
# packages from PyPI).
# Usage: scripts/ensure-deps.sh [build|test|bench]
#   build: the C libraries (libxxhash-dev, zlib1g-dev) and pkg-config
#   test:  build + what the tests drive: ffmpeg and nginx (end-to-end scripts), chromium (the
#          dashboard), GStreamer, mpv and VLC (players), promtool (from prometheus: the metrics
#          format), python3 with the `m3u8` package (the HLS parser's differential oracle) and
#          the `mpegdash` package (the DASH parser's)
#   bench: test + load and timing tools (wrk, curl, hyperfine, python3-venv, valgrind), and what
#          scripts/bench-feed.sh needs (iproute2, nginx's echo module)
# Exits non-zero when something could not be installed: a test run must not go on without it.
set -euo pipefail
level=${1:-build}
case "$level" in
    test | bench) tests=true ;;
    *) tests=false ;;
esac

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists libxxhash 2>/dev/null || need+=(libxxhash-dev)
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
if $tests; then
    command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
    # The dashboard is rendered in headless Chromium; players are checked for real.
    command -v chromium >/dev/null 2>&1 || need+=(chromium)
    command -v gst-launch-1.0 >/dev/null 2>&1 || need+=(gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
                                                       gstreamer1.0-plugins-bad gstreamer1.0-libav)
    command -v mpv >/dev/null 2>&1 || need+=(mpv)
    command -v cvlc >/dev/null 2>&1 || need+=(vlc-bin vlc-plugin-base)
    command -v python3 >/dev/null 2>&1 || need+=(python3)
    python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
    command -v promtool >/dev/null 2>&1 || need+=(prometheus)
fi
if [ "$level" = bench ]; then
    command -v wrk >/dev/null 2>&1 || need+=(wrk)
    command -v curl >/dev/null 2>&1 || need+=(curl)
    command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
    python3 -m venv --help >/dev/null 2>&1 || need+=(python3-venv)
    command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
    # scripts/bench-feed.sh: a shaped link (ip netns, veth, tc tbf) and a per-response delay at
    # the origin (nginx's echo module).
    command -v tc >/dev/null 2>&1 || need+=(iproute2)
    [ -f /usr/lib/nginx/modules/ngx_http_echo_module.so ] || need+=(libnginx-mod-http-echo)
fi

if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}" >&2
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "need root or sudo to install: ${need[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if $tests && ! python3 -c 'import m3u8' 2>/dev/null; then
    echo "installing: m3u8 (PyPI)" >&2
    # A system Python that is externally managed (PEP 668) takes it into the user's site.
    python3 -m pip install --quiet m3u8 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages m3u8
    python3 -c 'import m3u8' || { echo "ensure-deps: python3 cannot import m3u8 after installing it" >&2; exit 1; }
fi

if $tests && ! python3 -c 'import mpegdash' 2>/dev/null; then
    echo "installing: mpegdash (PyPI)" >&2
    python3 -m pip install --quiet mpegdash 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages mpegdash
    python3 -c 'import mpegdash' || { echo "ensure-deps: python3 cannot import mpegdash after installing it" >&2; exit 1; }
fi
