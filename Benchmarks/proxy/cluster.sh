# A SparseCache cluster on loopback, as Docs/SCALING.md deploys it: N `sparsecache serve`
# instances behind an nginx front that routes each origin URL to one instance by consistent
# hashing, and each session to the instance that opened it. Sourced after common.sh.

# front_config FRONT_PORT WORKDIR PORT...: the front's nginx.conf (the configuration SCALING.md
# shows, with these ports).
front_config() {
    local front_port=$1 work=$2; shift 2
    local ports=("$@") index
    cat <<CONF
worker_processes auto;
daemon off;
error_log $work/front-error.log warn;
pid $work/front.pid;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;

    # Every origin URL lives on one instance: the same url= always lands on the same one, and
    # when an instance is down, only its URLs move (to the next instance on the ring).
    upstream sparsecache {
        hash \$arg_url consistent;
$(for port in "${ports[@]}"; do echo "        server 127.0.0.1:$port max_fails=1 fail_timeout=10s;"; done)
        keepalive 64;
    }
    # Anything that is not about one URL (opening a session, say) goes to any instance.
    upstream sparsecache_any {
$(for port in "${ports[@]}"; do echo "        server 127.0.0.1:$port max_fails=1 fail_timeout=10s;"; done)
        keepalive 16;
    }
    # Each instance on its own, for what lives on it: sessions, and its /status and /metrics.
$(index=1; for port in "${ports[@]}"; do echo "    upstream sparsecache_$index { server 127.0.0.1:$port; keepalive 16; }"; index=$((index + 1)); done)

    server {
        listen 127.0.0.1:$front_port;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host \$http_host;
        # Stream what the instance sends as it sends it; never spool a video to the front's disk.
        proxy_buffering off;
        # Unbuffered, nginx relays through this one buffer: the default (a page) would take
        # a read and a write per 4 KiB of video.
        proxy_buffer_size 256k;
        proxy_buffers 4 256k;
        proxy_busy_buffers_size 256k;
        proxy_request_buffering off;
        proxy_next_upstream error timeout;
        proxy_connect_timeout 2s;
        proxy_read_timeout 60s;

        # Players' requests, as the instances write them into playlists (/i/N/proxy) or as an
        # app writes them (/proxy): by URL, whichever instance wrote the playlist.
        location = /proxy { proxy_pass http://sparsecache; }
        location ~ ^/i/[0-9]+/proxy\$ {
            rewrite ^/i/[0-9]+(/proxy)\$ \$1 break;
            proxy_pass http://sparsecache;
        }
        # Everything else under an instance's prefix (its sessions, its status) goes to it.
        location ~ ^/i/(?<instance>[0-9]+)(?<rest>/.*)\$ {
            proxy_pass http://sparsecache_\$instance\$rest\$is_args\$args;
        }
        location / { proxy_pass http://sparsecache_any; }
    }
}
CONF
}

# start_cluster BINARY WORKDIR N [serve options...]: N instances (caches WORKDIR/cacheI, logs
# WORKDIR/instanceI.log at info, so with their access logs) and the front. Appends to
# INSTANCE_PIDS (set it, and a trap stopping them, first) and sets INSTANCE_PORTS, FRONT_PID
# and FRONT_PORT.
start_cluster() {
    local binary=$1 work=$2 count=$3; shift 3
    FRONT_PORT=$(free_port)
    INSTANCE_PORTS=()
    local index
    for index in $(seq 1 "$count"); do
        PROXY_LOG_LEVEL=info start_proxy "$binary" "$work/cache$index" \
            --public-url "http://127.0.0.1:$FRONT_PORT/i/$index" "$@" 2>"$work/instance$index.log"
        INSTANCE_PIDS+=("$PROXY_PID")
        INSTANCE_PORTS+=("$PROXY_PORT")
    done
    PROXY_PID=""
    mkdir -p "$work/tmp"
    front_config "$FRONT_PORT" "$work" "${INSTANCE_PORTS[@]}" >"$work/front.conf"
    "$(nginx_binary)" -c "$work/front.conf" &
    FRONT_PID=$!
    wait_for_port "$FRONT_PORT"
}
