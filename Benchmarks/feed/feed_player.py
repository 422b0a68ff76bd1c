#!/usr/bin/env python3
"""Plays a feed of HLS videos the way a short-video app's player does, and times each start.

One pass of scripts/bench-feed.sh: for each video in order,
  1. (with --prefetch-ahead) the app posts `/prefetch` for the next videos, then
  2. the player starts the video as AVPlayer and ExoPlayer do: the multivariant playlist, the
     media playlist of the variant closest to --height, the init section when there is one,
     then whole segments in order, one request after another on one keep-alive connection;
  3. the video has started when the last byte of its first segment is in (timed from the start
     of the multivariant request); the player keeps buffering the next segments while the user
     watches --watch seconds, then the user swipes: the connection is closed, cutting whatever
     transfer is in flight, and the next video starts at once.

Every body is checked against the feed's files (segments byte for byte, playlists by their
segment count); a wrong byte, an HTTP error or a start that never comes is written into the
result as an error, and the pass exits 1. Standard library only.

Writes JSON: per video the wall-clock times (time.time(), the clock nginx's $msec uses) of the
start, the first segment's last byte and the swipe, the start in ms (perf_counter), and each
request the player made; per prefetch post its time and answer.
"""
import argparse
import http.client
import json
import os
import socket
import statistics
import sys
import threading
import time
import urllib.parse

CHUNK = 64 * 1024


class Cut(Exception):
    """The user swiped: the transfer was cut on purpose."""


class Failure(Exception):
    """Something a real player would report as a playback error."""


def parse_attributes(text):
    """EXT-X-STREAM-INF attributes, quoted values kept whole (CODECS holds commas)."""
    attributes, key, value, quoted, reading_key = {}, "", "", False, True
    for character in text + ",":
        if reading_key:
            if character == "=":
                reading_key = False
            else:
                key += character
        elif character == '"':
            quoted = not quoted
        elif character == "," and not quoted:
            attributes[key.strip()] = value.strip('"')
            key, value, reading_key = "", "", True
        else:
            value += character
    return attributes


def parse_multivariant(text):
    """[(attributes, uri)] of the variants (EXT-X-STREAM-INF), in order."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0] != "#EXTM3U":
        raise Failure("the multivariant playlist does not start with #EXTM3U")
    variants = []
    for index, line in enumerate(lines):
        if line.startswith("#EXT-X-STREAM-INF:") and index + 1 < len(lines):
            variants.append((parse_attributes(line.split(":", 1)[1]), lines[index + 1]))
    if not variants:
        raise Failure("the multivariant playlist lists no variant")
    return variants


def parse_media(text):
    """(init URI or None, [segment URIs]) of a VOD media playlist."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or lines[0] != "#EXTM3U":
        raise Failure("the media playlist does not start with #EXTM3U")
    if "#EXT-X-ENDLIST" not in lines:
        raise Failure("the media playlist is not a complete VOD playlist")
    init, segments = None, []
    for line in lines:
        if line.startswith("#EXT-X-MAP:"):
            init = parse_attributes(line.split(":", 1)[1]).get("URI")
        elif not line.startswith("#"):
            segments.append(line)
    return init, segments


def choose_variant(variants, height):
    """The variant whose RESOLUTION height is closest to `height` (a player locked to it)."""
    def distance(variant):
        resolution = variant[0].get("RESOLUTION", "0x0")
        return abs(int(resolution.split("x")[1]) - height)
    return min(variants, key=distance)


class Player:
    """One video's playback on one keep-alive connection; `cut()` is the swipe."""

    def __init__(self, url, media_root, proxied, origin_stopped=False):
        self.url = url
        self.origin_stopped = origin_stopped
        self.stalled = None
        self.last_partial = b""
        self.media_root = media_root
        self.proxied = proxied
        self.requests = []
        self.started = threading.Event()
        self.t0_perf = self.t0_wall = None
        self.started_perf = None
        self.started_wall = None
        self.error = None
        self.segments_complete = 0
        self.bytes = 0
        self._cut = threading.Event()
        self._connection = None
        self._lock = threading.Lock()

    # The origin URL a request stands for (a proxy URL names it in `url=`).
    def origin_url(self, url):
        if not self.proxied:
            return url
        query = urllib.parse.urlsplit(url).query
        values = urllib.parse.parse_qs(query).get("url")
        if not values:
            raise Failure(f"a URL in a proxied playlist does not go through the proxy: {url}")
        return values[0]

    def local_file(self, url):
        path = urllib.parse.urlsplit(self.origin_url(url)).path
        return os.path.join(self.media_root, path.lstrip("/"))

    def get(self, url, kind):
        """GET url whole on the player's connection; returns the body."""
        parts = urllib.parse.urlsplit(url)
        with self._lock:
            if self._cut.is_set():
                raise Cut()
            if self._connection is None:
                self._connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=120)
            connection = self._connection
        record = {"kind": kind, "url": self.origin_url(url), "start": time.time(), "end": None,
                  "bytes": 0, "status": None, "complete": False}
        self.requests.append(record)
        target = parts.path + ("?" + parts.query if parts.query else "")
        body = bytearray()
        try:
            connection.request("GET", target, headers={"User-Agent": "sparsecache-feed-player"})
            response = connection.getresponse()
            record["status"] = response.status
            if response.status != 200:
                response.read()
                raise Failure(f"{kind} {self.origin_url(url)}: HTTP {response.status}")
            while True:
                chunk = response.read(CHUNK)
                if not chunk:
                    break
                body += chunk
                record["bytes"] = len(body)
                self.bytes += len(chunk)
            length = response.getheader("Content-Length")
            if self._cut.is_set():
                raise OSError("cut")  # the swipe's shutdown reads as an early end of the body
            if length is not None and int(length) != len(body):
                self.last_partial = bytes(body)
                raise Failure(f"{kind} {self.origin_url(url)}: {len(body)} bytes of {length}")
        except (OSError, http.client.HTTPException, ValueError) as error:
            record["end"] = time.time()
            self.last_partial = bytes(body)
            if self._cut.is_set():
                record["cut"] = True
                raise Cut() from None
            raise Failure(f"{kind} {self.origin_url(url)}: {type(error).__name__}: {error}") from None
        record["end"] = time.time()
        record["complete"] = True
        return bytes(body)

    def is_origin_prefix(self, url, body):
        with open(self.local_file(url), "rb") as file:
            expected = file.read()
        return len(body) < len(expected) and expected[:len(body)] == body

    def check_bytes(self, url, body, kind):
        with open(self.local_file(url), "rb") as file:
            expected = file.read()
        if body != expected:
            raise Failure(f"{kind} {self.origin_url(url)}: {len(body)} bytes differ from the origin's {len(expected)}")

    def check_playlist(self, url, segment_count):
        """A playlist served rewritten must still list the origin's segments."""
        with open(self.local_file(url), "rb") as file:
            _, expected = parse_media(file.read().decode())
        if segment_count != len(expected):
            raise Failure(f"media playlist {self.origin_url(url)}: {segment_count} segments, the origin lists {len(expected)}")

    def play(self, height):
        try:
            # The clock starts as the multivariant request goes out (no thread start counted).
            self.t0_perf, self.t0_wall = time.perf_counter(), time.time()
            master = self.get(self.url, "multivariant")
            variants = parse_multivariant(master.decode())
            _, variant_uri = choose_variant(variants, height)
            media_url = urllib.parse.urljoin(self.url, variant_uri)
            media = self.get(media_url, "media playlist")
            init, segments = parse_media(media.decode())
            self.check_playlist(media_url, len(segments))
            if init is not None:
                init_url = urllib.parse.urljoin(media_url, init)
                self.check_bytes(init_url, self.get(init_url, "init"), "init")
            for index, uri in enumerate(segments):
                segment_url = urllib.parse.urljoin(media_url, uri)
                try:
                    body = self.get(segment_url, f"segment {index}")
                except Failure as failure:
                    # With the origin stopped, buffering ends at the first segment nothing cached:
                    # the player would stall there, and the user swipes before it matters.
                    if self.origin_stopped and index > 0 and self.requests[-1]["status"] in (502, 503, 504):
                        self.stalled = str(failure)
                        break
                    # A segment whose fetch was cut before (a swipe, a start that needed the
                    # link) is cached in part: the proxy sends that part and then breaks the
                    # response, as the rest cannot be fetched. It ends buffering the same way,
                    # provided every byte received is the origin's.
                    if (self.origin_stopped and index > 0 and self.requests[-1]["status"] == 200
                            and self.is_origin_prefix(segment_url, self.last_partial)):
                        self.stalled = f"{failure} (the cached part of a segment cut earlier, every byte the origin's)"
                        break
                    raise
                if index == 0:
                    self.started_perf = time.perf_counter()
                    self.started_wall = time.time()
                    self.started.set()
                self.check_bytes(segment_url, body, f"segment {index}")
                self.segments_complete += 1
        except Cut:
            pass
        except Failure as failure:
            self.error = str(failure)
        except Exception as error:  # a bug here must show, not hang the pass
            self.error = f"{type(error).__name__}: {error}"
        finally:
            with self._lock:
                connection = self._connection
            if connection is not None:
                connection.close()
            self.started.set()  # wakes the app for an error too; started_perf tells which

    def cut(self):
        """The swipe: close the connection under whatever is in flight."""
        with self._lock:
            self._cut.set()
            connection = self._connection
        # Shutdown alone: the player's thread sees its read end and closes the connection itself
        # (a close from here raced http.client's read: "'NoneType' object has no attribute 'close'").
        if connection is not None and connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def post_prefetch(proxy, urls, seconds, variant):
    """The app's `POST /prefetch` (a new list replaces the old one); returns the record."""
    parts = urllib.parse.urlsplit(proxy)
    body = json.dumps({"urls": urls, "seconds": seconds, "variant": variant}).encode()
    record = {"time": time.time(), "urls": urls, "status": None}
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        connection.request("POST", "/prefetch", body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        record["status"] = response.status
    except (OSError, http.client.HTTPException) as error:
        record["error"] = f"{type(error).__name__}: {error}"
    finally:
        connection.close()
    record["ms"] = (time.time() - record["time"]) * 1000
    return record


def variant_bandwidth(media_root, video, height):
    """BANDWIDTH of the variant the player plays (what the app asks prefetching for)."""
    with open(os.path.join(media_root, video, "master.m3u8")) as file:
        attributes, _ = choose_variant(parse_multivariant(file.read()), height)
    return int(attributes["BANDWIDTH"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--name", required=True, help="the pass's name, written into the result")
    parser.add_argument("--origin", required=True, help="the origin's base URL, e.g. http://10.213.7.2")
    parser.add_argument("--proxy", help="the proxy's base URL; without it the player goes to the origin")
    parser.add_argument("--media-root", required=True, help="the folder the origin serves (bodies are checked against it)")
    parser.add_argument("--videos", type=int, required=True)
    parser.add_argument("--watch", type=float, required=True, help="seconds watched after the start, before the swipe")
    parser.add_argument("--height", type=int, default=720, help="the player's variant (closest RESOLUTION height)")
    parser.add_argument("--prefetch-ahead", type=int, default=0, help="videos posted to /prefetch at each swipe")
    parser.add_argument("--prefetch-seconds", type=float, default=6)
    parser.add_argument("--start-timeout", type=float, default=120, help="seconds a start may take before it is an error")
    parser.add_argument("--origin-stopped", action="store_true",
                        help="the origin is down: a 5xx for a segment after the first ends buffering, not the pass")
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    if arguments.prefetch_ahead and not arguments.proxy:
        parser.error("--prefetch-ahead needs --proxy")

    videos = [f"v{index:02d}" for index in range(arguments.videos)]
    origin_urls = [f"{arguments.origin}/{video}/master.m3u8" for video in videos]
    bandwidth = variant_bandwidth(arguments.media_root, videos[0], arguments.height)
    result = {"name": arguments.name, "start": time.time(), "videos": [], "prefetch": []}
    for index, video in enumerate(videos):
        ahead = origin_urls[index + 1:index + 1 + arguments.prefetch_ahead]
        # Nothing left to prefetch near the feed's end: the app keeps its last list.
        if arguments.prefetch_ahead and ahead:
            post = post_prefetch(arguments.proxy, ahead, arguments.prefetch_seconds, bandwidth)
            result["prefetch"].append(post)
            if post.get("status") != 202:
                result.setdefault("errors", []).append(f"POST /prefetch for {video}: {post.get('error') or post.get('status')}")
        url = origin_urls[index]
        if arguments.proxy:
            url = f"{arguments.proxy}/proxy?url={urllib.parse.quote(url, safe='')}"
        player = Player(url, arguments.media_root, proxied=bool(arguments.proxy), origin_stopped=arguments.origin_stopped)
        launched = time.time()
        thread = threading.Thread(target=player.play, args=(arguments.height,), daemon=True)
        thread.start()
        player.started.wait(arguments.start_timeout)
        entry = {"video": video, "t0": player.t0_wall or launched, "started": None, "startMs": None}
        if player.started_perf is not None:
            entry["started"] = player.started_wall
            entry["startMs"] = (player.started_perf - player.t0_perf) * 1000
            # The user watches from the start on, however soon the player has every segment;
            # the player keeps buffering meanwhile.
            time.sleep(max(0.0, player.started_perf + arguments.watch - time.perf_counter()))
        elif player.error is None:
            player.error = f"did not start within {arguments.start_timeout:.0f} s"
        entry["swipe"] = time.time()
        player.cut()
        thread.join(10)
        if thread.is_alive():
            player.error = player.error or "the player's transfer did not stop at the swipe"
        entry.update(segmentsComplete=player.segments_complete, bytes=player.bytes,
                     requests=player.requests, error=player.error, stalled=player.stalled)
        result["videos"].append(entry)
        shown = f"{entry['startMs']:8.0f} ms" if entry["startMs"] is not None else "  no start"
        print(f"  {arguments.name:<9} {video} {shown}  {player.segments_complete} segments whole"
              + (f" (then {player.stalled})" if player.stalled else "")
              + (f"  ERROR {player.error}" if player.error else ""), file=sys.stderr, flush=True)
    result["end"] = time.time()
    with open(arguments.out, "w") as file:
        json.dump(result, file, indent=1)
    starts = [video["startMs"] for video in result["videos"] if video["startMs"] is not None]
    if starts:
        print(f"  {arguments.name}: median {statistics.median(starts):.0f} ms over {len(starts)} starts", file=sys.stderr)
    failed = [video for video in result["videos"] if video["error"]] or result.get("errors")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
