# Shared by the proxy's end-to-end and benchmark scripts: free ports, a throwaway nginx origin,
# starting `sparsecache serve`, percent-encoding, and stopping exactly the processes started.

# A free TCP port on 127.0.0.1.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# The percent-encoded form of $1 (every byte but unreserved ones).
urlencode() {
    python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"
}

# Exit status of a script that could not run here (scripts/test.sh counts it as skipped).
SKIPPED_STATUS=77

# require_media_tools NAME: installs what the end-to-end scripts drive; without ffmpeg (which
# could not be installed) the script is skipped: exit 77.
require_media_tools() {
    ./scripts/ensure-deps.sh test || true
    if ! command -v ffmpeg >/dev/null 2>&1; then
        echo "$1: SKIPPED: ffmpeg is not installed and could not be installed" >&2
        exit "$SKIPPED_STATUS"
    fi
    [ -x "$(nginx_binary)" ] || { echo "$1: nginx is missing" >&2; exit 1; }
}

# require_chromium NAME: sets CHROMIUM to headless Chromium's binary; without it (it could not be
# installed) the script is skipped: exit 77.
require_chromium() {
    CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
    if [ -z "$CHROMIUM" ]; then
        echo "$1: SKIPPED: chromium is not installed and could not be installed" >&2
        exit "$SKIPPED_STATUS"
    fi
}

# build_sparsecache [debug|release]: builds the command-line tool; sets BINARY.
build_sparsecache() {
    local configuration=${1:-debug}
    if [ "$configuration" = release ]; then
        BINARY=$(./scripts/build-release.sh)
        return
    fi
    swift build -c "$configuration" --product sparsecache >&2
    BINARY="$(swift build -c "$configuration" --show-bin-path)/sparsecache"
}

# binary_or_release_build [BINARY]: sets BINARY to BINARY when given, else to a release build.
binary_or_release_build() {
    if [ -n "${1:-}" ]; then
        BINARY=$1
    else
        build_sparsecache release
    fi
}

# use_scratch_directory: sets WORK to a fresh folder; on exit, the nginx, proxy and fetch
# processes the script started (NGINX_PID, PROXY_PID, FETCH_PID) are stopped and it is removed.
use_scratch_directory() {
    WORK=$(mktemp -d)
    NGINX_PID="" PROXY_PID="" FETCH_PID=""
    trap 'stop_pids "$FETCH_PID" "$PROXY_PID" "$NGINX_PID"; rm -rf "$WORK"' EXIT
}

nginx_binary() {
    command -v nginx 2>/dev/null || echo /usr/sbin/nginx
}

# make_media_files DIR: the benchmarks' cached files, random bytes: a 2 MB segment (segment.ts)
# and a 200 MB file (movie.mp4); sets BIG_SIZE to the latter's size.
make_media_files() {
    mkdir -p "$1"
    head -c $((2 * 1000 * 1000)) /dev/urandom >"$1/segment.ts"
    head -c $((200 * 1024 * 1024)) /dev/urandom >"$1/movie.mp4"
    BIG_SIZE=$(stat -c %s "$1/movie.mp4")
}

# start_nginx ROOT PORT WORKDIR: serves ROOT on 127.0.0.1:PORT (static, sendfile, keep-alive);
# sets NGINX_PID. NGINX_ACCESS_LOG=FILE logs "URI RANGE STATUS BYTES_SENT" per request;
# NGINX_LIMIT_RATE=50k throttles every response (a slow origin).
start_nginx() {
    local root=$1 port=$2 work=$3
    nginx_prepare "$root" "$work"
    cat >"$work/nginx.conf" <<CONF
worker_processes auto;
daemon off;
error_log $work/nginx-error.log warn;
pid $work/nginx.pid;
events { worker_connections 4096; }
http {
    log_format ranges '\$uri "\$http_range" \$status \$body_bytes_sent';
    access_log ${NGINX_ACCESS_LOG:-off}${NGINX_ACCESS_LOG:+ ranges};
    ${NGINX_LIMIT_RATE:+limit_rate $NGINX_LIMIT_RATE;}
$(nginx_static_settings "$work")
    server { listen 127.0.0.1:$port; root $root; }
}
CONF
    "$(nginx_binary)" -c "$work/nginx.conf" &
    NGINX_PID=$!
    wait_for_port "$port"
}

# nginx_prepare ROOT WORKDIR: makes ROOT readable to nginx's workers (they drop root privileges:
# the files and every folder above them) and WORKDIR/tmp for its temporary files.
nginx_prepare() {
    local root=$1 work=$2
    mkdir -p "$work/tmp"
    chmod -R a+rX "$root"
    local dir=$root
    while [ "$dir" != / ]; do chmod a+x "$dir" 2>/dev/null || true; dir=$(dirname "$dir"); done
}

# nginx_static_settings WORKDIR: the http-block lines every test origin shares: static files with
# sendfile, long keep-alive, the media types of HLS and MP4, temporary files under WORKDIR/tmp.
nginx_static_settings() {
    cat <<CONF
    sendfile on;
    keepalive_requests 1000000;
    keepalive_timeout 65;
    types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4 m4s; }
    default_type application/octet-stream;
    client_body_temp_path $1/tmp; proxy_temp_path $1/tmp; fastcgi_temp_path $1/tmp;
    uwsgi_temp_path $1/tmp; scgi_temp_path $1/tmp;
CONF
}

# start_proxy BINARY CACHE_DIR [extra serve options]: runs `sparsecache serve --port 0`; sets
# PROXY_PID and PROXY_PORT from the line it prints once it listens.
start_proxy() {
    local binary=$1 cache=$2; shift 2
    local out
    out=$(mktemp)
    "$binary" serve --port 0 --cache-dir "$cache" --log-level "${PROXY_LOG_LEVEL:-warning}" "$@" >"$out" &
    PROXY_PID=$!
    for _ in $(seq 1 200); do
        if grep -q '^listening on ' "$out"; then break; fi
        sleep 0.05
    done
    PROXY_PORT=$(sed -n 's/^listening on http:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$out")
    rm -f "$out"
    [ -n "$PROXY_PORT" ] || { echo "the proxy did not start" >&2; return 1; }
}

wait_for_port() {
    for _ in $(seq 1 200); do
        python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', $1), 0.2)" 2>/dev/null && return 0
        sleep 0.05
    done
    echo "nothing listens on port $1" >&2
    return 1
}

# stop PID...: SIGTERM, then wait for each (only processes this script started).
stop_pids() {
    for pid in "$@"; do
        [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    done
    for pid in "$@"; do
        [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
    done
}

# warm_and_check URL FILE: GETs URL twice (the first fills the proxy's cache, the second is a hit)
# and exits when the second body is not FILE's bytes.
warm_and_check() {
    curl -sf -o /dev/null "$1"
    cmp <(curl -sf "$1") "$2" || { echo "wrong body from $1" >&2; exit 1; }
}

# CPU time (user + system, in clock ticks) of the processes $@, summed. A process that has ended
# counts for nothing (nginx's cache loader ends about a minute after nginx starts, in the middle
# of a benchmark: its few ticks then drop out of one figure, rather than stopping the run).
cpu_ticks() {
    for pid in "$@"; do awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true; done | awk '{ sum += $1 } END { print sum + 0 }'
}

# The middle value of $@ (the upper middle of an even count).
median() {
    printf "%s\n" "$@" | sort -n | awk '{ values[NR] = $1 } END { print values[int((NR + 1) / 2)] }'
}

# wrk_figures WRK_OUTPUT BEFORE AFTER CLIENT_TIMES: "REQ/S SERVER_US CLIENT_US WRONG" of a wrk run
# with Benchmarks/proxy/verify.lua, from its output file, the server's CPU ticks before and after,
# and wrk's "user system" seconds. WRONG counts socket errors, non-2xx, corrupt or unexpected
# bodies, and a run that verified nothing.
wrk_figures() {
    awk -v before="$2" -v after="$3" -v hz="$(getconf CLK_TCK)" -v client="$4" '
        /requests in/ { requests = $1 }
        /^Requests\/sec:/ { rate = $2 }
        /Socket errors/ { gsub(",", ""); wrong += $4 + $6 + $8 + $10 }
        /Non-2xx/ { wrong += $5 }
        /^verified/ { verified = $2; wrong += $4 + $6 }
        END {
            split(client, c, " ")
            if (verified == 0 || requests == 0) { wrong += 1; requests = 1 }
            printf "%.0f %.0f %.0f %d\n", rate, (after - before) / hz * 1e6 / requests, (c[1] + c[2]) * 1e6 / requests, wrong
        }' "$1"
}

# timed_verified_wrk OUTPUT CONNECTIONS SECONDS URL CHECK...: wrk (1 thread for 1 connection, 2
# otherwise) with Benchmarks/proxy/verify.lua and its CHECK arguments, output to OUTPUT; prints
# wrk's "user system" CPU seconds (the shell's own timer: no other tool needed).
timed_verified_wrk() {
    local output=$1 connections=$2 seconds=$3 url=$4
    shift 4
    { TIMEFORMAT='%U %S'; time wrk -t"$((connections < 2 ? 1 : 2))" -c"$connections" -d"${seconds}s" \
        -s Benchmarks/proxy/verify.lua "$url" -- "$@" >"$output"; } 2>&1
}

# workload_path WORKLOAD: what a benchmark workload GETs, from make_media_files' files: the 2 MB
# segment whole (segment) or 64 KiB ranges of the 200 MB file (range).
workload_path() {
    if [ "$1" = segment ]; then echo /segment.ts; else echo /movie.mp4; fi
}

# workload_checks WORKLOAD ROOT: verify.lua's arguments for WORKLOAD's responses, ROOT being the
# folder make_media_files filled.
workload_checks() {
    if [ "$1" = segment ]; then echo "$2/segment.ts whole"; else echo "$2/movie.mp4 $BIG_SIZE"; fi
}
