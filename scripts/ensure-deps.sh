#!/usr/bin/env bash
# Installs the system packages SparseCache needs when they are missing (Debian/Ubuntu).
# Usage: scripts/ensure-deps.sh [build|test|bench]
#   build: the C libraries (libxxhash-dev, zlib1g-dev) and pkg-config
#   test:  build + the real tools the tests drive (ffmpeg, nginx, promtool from prometheus), and
#          Python's m3u8 package for the HLS oracle test (into .build-bench/venv)
#   bench: test + load and timing tools (wrk, curl, hyperfine, python3-venv, valgrind)
set -euo pipefail
level=${1:-build}

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists libxxhash 2>/dev/null || need+=(libxxhash-dev)
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
if [ "$level" = test ] || [ "$level" = bench ]; then
    command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
    command -v promtool >/dev/null 2>&1 || need+=(prometheus)
    python3 -m venv --help >/dev/null 2>&1 || need+=(python3-venv)
fi
if [ "$level" = bench ]; then
    command -v wrk >/dev/null 2>&1 || need+=(wrk)
    command -v curl >/dev/null 2>&1 || need+=(curl)
    command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
    command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
fi
install_m3u8() {
    local venv
    venv="$(dirname "$0")/../.build-bench/venv"
    "$venv/bin/python" -c 'import m3u8' 2>/dev/null && return 0
    python3 -m venv "$venv" && "$venv/bin/pip" install --quiet m3u8
}
if [ ${#need[@]} -eq 0 ]; then
    if [ "$level" = test ] || [ "$level" = bench ]; then install_m3u8; fi
    exit 0
fi

echo "installing: ${need[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "need root or sudo to install: ${need[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
if [ "$level" = test ] || [ "$level" = bench ]; then install_m3u8; fi
