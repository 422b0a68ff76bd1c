#!/usr/bin/env bash
# A real Prometheus server (Debian's prometheus package) scrapes a running `sparsecache serve`
# every second while a client plays a cached file through it, and must see
# sparsecache_cache_hits_total rise, and every sparsecache_ metric of Docs/PROXY.md. Everything
# listens on 127.0.0.1 and stops when the script ends. Not part of scripts/test.sh (Prometheus
# takes a while to start); the test command checks the exposition with promtool instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/proxy/common.sh

command -v prometheus >/dev/null 2>&1 || ./scripts/ensure-deps.sh test
build_sparsecache debug
binary=$BINARY
use_scratch_directory
work=$WORK
PROMETHEUS_PID=""
trap 'stop_pids "$PROMETHEUS_PID" "$PROXY_PID" "$NGINX_PID"; rm -rf "$work"' EXIT

mkdir -p "$work/www"
head -c $((4 * 1024 * 1024)) /dev/urandom >"$work/www/movie.mp4"
origin_port=$(free_port)
start_nginx "$work/www" "$origin_port" "$work/nginx"
start_proxy "$binary" "$work/cache"
url="http://127.0.0.1:$PROXY_PORT/proxy?url=$(urlencode "http://127.0.0.1:$origin_port/movie.mp4")"

prometheus_port=$(free_port)
cat >"$work/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: sparsecache
    static_configs:
      - targets: ["127.0.0.1:$PROXY_PORT"]
YAML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prometheus_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
PROMETHEUS_PID=$!
wait_for_port "$prometheus_port"

# query EXPRESSION: the first value Prometheus has for it, or nothing.
query() {
    curl -sf "http://127.0.0.1:$prometheus_port/api/v1/query" --data-urlencode "query=$1" |
        python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
}
# wait_for EXPRESSION: waits (up to 30 s) until the expression has a value; prints it.
wait_for() {
    local value=""
    for _ in $(seq 1 60); do
        value=$(query "$1")
        [ -n "$value" ] && { echo "$value"; return 0; }
        sleep 0.5
    done
    return 1
}

curl -sf -o /dev/null "$url"  # a miss: the file is cached
before=$(wait_for 'sparsecache_cache_hits_total{job="sparsecache"}') || { echo "check-prometheus: FAIL: Prometheus never scraped the proxy" >&2; exit 1; }
for _ in $(seq 1 20); do curl -sf -o /dev/null -H "Range: bytes=0-65535" "$url"; done
after=$before
for _ in $(seq 1 60); do
    after=$(query 'sparsecache_cache_hits_total{job="sparsecache"}')
    python3 -c "import sys; sys.exit(0 if float('$after') >= float('$before') + 20 else 1)" && break
    sleep 0.5
done
passed=0
failed=0
if python3 -c "import sys; sys.exit(0 if float('$after') >= float('$before') + 20 else 1)"; then
    echo "check-prometheus: Prometheus saw sparsecache_cache_hits_total rise from $before to $after" >&2
    passed=$((passed + 1))
else
    echo "check-prometheus: FAIL: sparsecache_cache_hits_total went from $before to $after, not up by 20" >&2
    failed=$((failed + 1))
fi
missing=0
for metric in sparsecache_requests_total sparsecache_cache_misses_total sparsecache_bytes_served_total sparsecache_store_bytes \
    sparsecache_store_max_bytes sparsecache_store_entries sparsecache_evictions_total sparsecache_upstream_requests_total \
    sparsecache_upstream_seconds_bucket sparsecache_lane_waiting sparsecache_breakers_open sparsecache_prefetch_bytes_total; do
    if [ -z "$(query "$metric")" ]; then
        echo "check-prometheus: FAIL: Prometheus has no $metric" >&2
        missing=$((missing + 1))
    fi
done
if [ "$missing" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
rate=$(query 'sum(rate(sparsecache_requests_total{route="proxy"}[10s]))')
echo "check-prometheus: rate of proxy requests over the last 10 s, as Prometheus computes it: $rate/s" >&2
echo "check-prometheus: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
