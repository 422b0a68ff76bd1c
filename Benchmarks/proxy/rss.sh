# rss_kib PID: resident memory of a process in KiB.
rss_kib() {
    awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

# sample_rss PID SECONDS INTERVAL OUT: appends one RSS sample (KiB) per INTERVAL to OUT.
sample_rss() {
    local pid=$1 seconds=$2 interval=$3 out=$4
    local end=$(($(date +%s) + seconds))
    while [ "$(date +%s)" -lt "$end" ] && kill -0 "$pid" 2>/dev/null; do
        rss_kib "$pid" >>"$out"
        sleep "$interval"
    done
}
