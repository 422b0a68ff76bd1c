# The shaped link of scripts/bench-feed.sh: an nginx origin in its own network namespace behind
# a veth pair, both ends shaped by `tc ... tbf` (one link shared by every connection, as a
# phone's is), every response held back by a fixed delay before it starts (nginx's echo module).
# Needs root. Only the two addresses below are ever contacted, both inside the pair made here.
# Sourced after Benchmarks/proxy/common.sh (nginx_binary, nginx_prepare, nginx_static_settings).

FEED_NAMESPACE=scfeed
FEED_HOST_DEVICE=scfeed0
FEED_ORIGIN_DEVICE=scfeed1
FEED_HOST_ADDRESS=10.213.7.1
FEED_ORIGIN_ADDRESS=10.213.7.2
FEED_ECHO_MODULE=/usr/lib/nginx/modules/ngx_http_echo_module.so
ORIGIN_PID=""
# Set once this shell made the namespace and the pair: link_down removes only what it made.
LINK_MADE=""

feed_namespace_exists() {
    ip netns list 2>/dev/null | awk -v name="$FEED_NAMESPACE" '$1 == name { found = 1 } END { exit !found }'
}

# link_clear_stale: removes a namespace and veth left by a run that was killed before its clean-up
# (nothing runs in it any more); refuses when processes still run there (another run).
link_clear_stale() {
    if feed_namespace_exists; then
        if [ -n "$(ip netns pids "$FEED_NAMESPACE" 2>/dev/null)" ]; then
            echo "bench-feed: network namespace $FEED_NAMESPACE is in use (another bench-feed run?)" >&2
            return 1
        fi
        ip netns del "$FEED_NAMESPACE"
    fi
    if ip link show "$FEED_HOST_DEVICE" >/dev/null 2>&1; then ip link del "$FEED_HOST_DEVICE"; fi
}

# link_up RATE: the namespace, the veth pair with its two addresses, and `tbf rate RATE` on both
# ends (RATE as tc writes it: 7mbit). The queue holds 400 ms of the rate, as a phone link's does.
link_up() {
    local rate=$1
    link_clear_stale
    ip netns add "$FEED_NAMESPACE"
    LINK_MADE=1
    ip link add "$FEED_HOST_DEVICE" type veth peer name "$FEED_ORIGIN_DEVICE"
    ip link set "$FEED_ORIGIN_DEVICE" netns "$FEED_NAMESPACE"
    # No IPv6 on the pair: no router solicitations or other chatter on the shaped link.
    sysctl -qw "net.ipv6.conf.$FEED_HOST_DEVICE.disable_ipv6=1" 2>/dev/null || true
    ip netns exec "$FEED_NAMESPACE" sysctl -qw "net.ipv6.conf.$FEED_ORIGIN_DEVICE.disable_ipv6=1" 2>/dev/null || true
    ip addr add "$FEED_HOST_ADDRESS/30" dev "$FEED_HOST_DEVICE"
    ip -n "$FEED_NAMESPACE" addr add "$FEED_ORIGIN_ADDRESS/30" dev "$FEED_ORIGIN_DEVICE"
    ip link set "$FEED_HOST_DEVICE" up
    ip -n "$FEED_NAMESPACE" link set "$FEED_ORIGIN_DEVICE" up
    ip -n "$FEED_NAMESPACE" link set lo up
    tc qdisc add dev "$FEED_HOST_DEVICE" root tbf rate "$rate" burst 32kbit latency 400ms
    ip netns exec "$FEED_NAMESPACE" tc qdisc add dev "$FEED_ORIGIN_DEVICE" root tbf rate "$rate" burst 32kbit latency 400ms
}

# link_down: stops the origin and removes the pair and the namespace this shell made (safe to
# call twice, and a no-op in a run that stopped before making them).
link_down() {
    origin_stop
    [ -n "$LINK_MADE" ] || return 0
    if ip link show "$FEED_HOST_DEVICE" >/dev/null 2>&1; then ip link del "$FEED_HOST_DEVICE" 2>/dev/null || true; fi
    if feed_namespace_exists; then ip netns del "$FEED_NAMESPACE" 2>/dev/null || true; fi
    LINK_MADE=""
}

# origin_start ROOT DELAY_MS WORKDIR: nginx in the namespace on $FEED_ORIGIN_ADDRESS:80 serving
# ROOT, every response (but /nginx-status) started DELAY_MS after its request (echo_sleep, then
# an internal redirect to the static handler, which keeps Range, ETag and Content-Length as they
# are). Access log WORKDIR/access.log, one line per request:
#   $msec $request_time $status $body_bytes_sent $connection $connection_requests "$http_range" $request_uri
# ($msec is when the response ended, on the clock the player's time.time() reads).
origin_start() {
    local root=$1 delay_ms=$2 work=$3
    [ -f "$FEED_ECHO_MODULE" ] || { echo "bench-feed: $FEED_ECHO_MODULE is missing (libnginx-mod-http-echo)" >&2; return 1; }
    nginx_prepare "$root" "$work"
    local delay
    delay=$(awk -v ms="$delay_ms" 'BEGIN { printf "%.3f", ms / 1000 }')
    cat >"$work/nginx.conf" <<CONF
load_module $FEED_ECHO_MODULE;
worker_processes 1;
daemon off;
error_log $work/nginx-error.log warn;
pid $work/nginx.pid;
events { worker_connections 1024; }
http {
    log_format feed '\$msec \$request_time \$status \$body_bytes_sent \$connection \$connection_requests "\$http_range" \$request_uri';
    access_log $work/access.log feed;
$(nginx_static_settings "$work")
    server {
        listen $FEED_ORIGIN_ADDRESS:80 sndbuf=32k;
        root $root;
        location / { echo_sleep $delay; echo_exec @file; }
        location @file { }
        location = /nginx-status { stub_status; access_log off; }
    }
}
CONF
    ip netns exec "$FEED_NAMESPACE" "$(nginx_binary)" -c "$work/nginx.conf" &
    ORIGIN_PID=$!
    for _ in $(seq 1 100); do
        curl -sf -o /dev/null --max-time 2 "http://$FEED_ORIGIN_ADDRESS/nginx-status" && return 0
        sleep 0.1
    done
    echo "bench-feed: the origin did not answer on $FEED_ORIGIN_ADDRESS:80" >&2
    return 1
}

# origin_stop: stops nginx (its connections are reset) and waits for it.
origin_stop() {
    if [ -n "$ORIGIN_PID" ]; then
        kill "$ORIGIN_PID" 2>/dev/null || true
        wait "$ORIGIN_PID" 2>/dev/null || true
        ORIGIN_PID=""
    fi
}

# origin_wait_idle SECONDS: waits until the origin sends nothing but this question (stub_status
# counts 1 connection writing: its own) or SECONDS pass; prints the seconds waited, and "busy"
# after them when the origin never went idle.
origin_wait_idle() {
    local limit=$1 start now writing
    start=$(date +%s.%N)
    while :; do
        writing=$(curl -sf --max-time 5 "http://$FEED_ORIGIN_ADDRESS/nginx-status" | sed -n 's/.*Writing: \([0-9]*\).*/\1/p')
        now=$(date +%s.%N)
        if [ "$writing" = 1 ]; then
            awk -v a="$start" -v b="$now" 'BEGIN { printf "%.1f\n", b - a }'
            return 0
        fi
        if awk -v a="$start" -v b="$now" -v l="$limit" 'BEGIN { exit !(b - a > l) }'; then
            awk -v a="$start" -v b="$now" 'BEGIN { printf "%.1f busy\n", b - a }'
            return 0
        fi
        sleep 0.2
    done
}
