#!/usr/bin/env python3
"""The report of scripts/bench-feed.sh: start-up tables, where each start's time went according
to the origin's access log, and the goals of issue 31 with their verdicts.

Usage: feed_report.py RUN_DIR MEDIA_ROOT
RUN_DIR holds run.json (videos, watch, links) and per link a folder named in it with link.json
(rate, delay, link check, idle times), one JSON per pass from feed_player.py and nginx's
origin/access.log (format in Benchmarks/feed/link.sh). Exit status: 0 when every goal is met, 1 when
one is missed or the run itself failed (a player error, a link that was not shaped); with
REPORT_ONLY=1 missed goals exit 0, failures still exit 1.
"""
import json
import math
import os
import re
import statistics
import sys
import urllib.parse

PASSES = [
    ("direct", "direct to the origin"),
    ("cold", "through the proxy, cold, no prefetch"),
    ("prefetch", "through the proxy, prefetch {ahead} ahead at each swipe"),
    ("replay", "the same feed again through the proxy (replay)"),
    ("offline", "the same replay with the origin stopped"),
]
LOG_LINE = re.compile(r'^(\S+) (\S+) (\d+) (\d+) (\d+) (\d+) "([^"]*)" (\S+)$')
VIDEO_PATH = re.compile(r"^/(v\d+)/(.*)$")
# The links issue 31 sets goals for: (rate in bit/s, delay in ms) -> (share within 1 s, median ms).
PREFETCH_GOALS = {(7_000_000, 100): (1.0, 150), (3_000_000, 200): (11 / 12, 300)}


def rate_bits(rate):
    """tc's rate ('7mbit', '500kbit', '1gbit', '9000bit') in bit/s."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(k|m|g)?bit", rate.lower())
    if not match:
        raise SystemExit(f"feed_report: cannot read the rate {rate!r} (use kbit, mbit or gbit)")
    return float(match.group(1)) * {None: 1, "k": 1e3, "m": 1e6, "g": 1e9}[match.group(2)]


def nearest_rank(values, share):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def milliseconds(value):
    return "no start" if value is None or math.isinf(value) else f"{value:,.0f} ms"


def megabytes(count):
    return f"{count / 1e6:.2f} MB"


class OriginLog:
    """nginx's access log: each request with its start (end minus duration), end, size sent, and
    the size it would have sent whole (from the files served and the Range header)."""

    def __init__(self, path, media_root):
        self.requests = []
        if not os.path.exists(path):
            return
        for line in open(path):
            match = LOG_LINE.match(line.strip())
            if not match:
                continue
            end, duration = float(match.group(1)), float(match.group(2))
            uri = match.group(8).split("?")[0]
            request = {"start": end - duration, "end": end, "status": int(match.group(3)),
                       "bytes": int(match.group(4)), "connection": int(match.group(5)),
                       "range": match.group(7), "uri": uri, "video": None, "resource": uri}
            video = VIDEO_PATH.match(uri)
            if video:
                request["video"], request["resource"] = video.group(1), video.group(2)
            request["whole"] = self.whole_size(media_root, uri, request["range"])
            self.requests.append(request)

    @staticmethod
    def whole_size(media_root, uri, range_header):
        try:
            size = os.path.getsize(os.path.join(media_root, uri.lstrip("/")))
        except OSError:
            return None
        match = re.fullmatch(r"bytes=(\d*)-(\d*)", range_header)
        if not match or range_header == "-":
            return size
        first, last = match.group(1), match.group(2)
        if first == "":
            return min(size, int(last or 0))
        return max(0, min(size - 1, int(last) if last else size - 1) - int(first) + 1)

    def between(self, start, end):
        """Requests in flight at some time in [start, end]."""
        return [request for request in self.requests if request["start"] <= end and request["end"] >= start]


def describe(request, video_index, t0):
    """One origin request as seen from a video's start: what it is to that video, when (ms from
    the video's multivariant request), and how much of it was sent."""
    other = request["video"]
    if other is None:
        relation = "other"
    else:
        index = int(other[1:])
        relation = "own" if index == video_index else ("earlier video" if index < video_index else "later video")
    name = request["uri"].lstrip("/") if relation != "own" else request["resource"]
    size = f" {megabytes(request['bytes'])}" if request["bytes"] >= 100_000 else ""
    cut = ""
    if request["whole"] is not None and request["bytes"] < request["whole"]:
        cut = f" CUT at {megabytes(request['bytes'])} of {megabytes(request['whole'])}"
        size = ""
    status = "" if request["status"] in (200, 206) else f" HTTP {request['status']}"
    return relation, (f"{name} {(request['start'] - t0) * 1000:+.0f}..{(request['end'] - t0) * 1000:+.0f}"
                      f"{size}{cut}{status}")


def bytes_overlapping(request, start, end, delay):
    """The bytes of a transfer sent within [start, end], spread evenly over its sending time
    (its duration less the origin's delay before the response starts)."""
    sending_start = request["start"] + delay
    span = request["end"] - sending_start
    if span <= 0:
        return request["bytes"] if start <= request["end"] <= end else 0
    overlap = max(0.0, min(end, request["end"]) - max(start, sending_start))
    return request["bytes"] * overlap / span


class LinkReport:
    def __init__(self, folder, media_root, ahead):
        self.folder = folder
        self.link = json.load(open(os.path.join(folder, "link.json")))
        self.rate = rate_bits(self.link["rate"])
        self.delay = self.link["delayMs"] / 1000
        self.log = OriginLog(os.path.join(folder, "origin", "access.log"), media_root)
        self.passes = {}
        for name, _ in PASSES:
            path = os.path.join(folder, f"{name}.json")
            if os.path.exists(path):
                self.passes[name] = json.load(open(path))
        self.ahead = ahead
        self.media_root = media_root
        self.failures = []

    def starts(self, name):
        return [math.inf if video["startMs"] is None else video["startMs"] for video in self.passes[name]["videos"]]

    def summary(self, name):
        starts = self.starts(name)
        return {"within": sum(1 for value in starts if value <= 1000), "count": len(starts),
                "median": statistics.median(starts), "p90": nearest_rank(starts, 0.9),
                "max": max(starts), "first": starts[0]}

    def print_table(self):
        label = f"{self.link['rate']}, {self.link['delayMs']} ms per response"
        print(f"\n=== the feed on a shaped link: {label} ===")
        check = self.link.get("check", {})
        if check:
            print(f"link check (direct, one request at a time): a playlist's first byte after {check['ttfbMs']:.0f} ms "
                  f"(delay {self.link['delayMs']} ms), a segment of {megabytes(check['segmentBytes'])} at "
                  f"{check['segmentRate'] / 1e6:.2f} Mbit/s ({check['segmentRate'] / self.rate:.0%} of the rate)")
        print()
        print("| pass | within 1 s | median | p90 | max | first video |")
        print("|---|---|---|---|---|---|")
        for name, title in PASSES:
            if name not in self.passes:
                continue
            s = self.summary(name)
            print(f"| {title.format(ahead=self.ahead)} | {s['within']}/{s['count']} | {milliseconds(s['median'])} | "
                  f"{milliseconds(s['p90'])} | {milliseconds(s['max'])} | {milliseconds(s['first'])} |")
        idle = self.link.get("idle", {})
        if idle:
            print("origin still sending after a pass's last swipe: "
                  + ", ".join(f"{name} {value}" for name, value in idle.items()))

    def print_videos(self):
        print("\norigin requests in flight between each video's multivariant request and its first segment's last byte")
        print("(ms from that video's start; own = the video's own resources, later video = prefetching,"
              " earlier video = a fill whose player went away; CUT = sent in part)")
        for name, title in PASSES:
            if name not in self.passes:
                continue
            print(f"\n-- {title.format(ahead=self.ahead)}")
            for index, video in enumerate(self.passes[name]["videos"]):
                end = video["started"] or video["swipe"]
                requests = sorted(self.log.between(video["t0"], end), key=lambda request: request["start"])
                own = [describe(request, index, video["t0"])[1] for request in requests
                       if request["video"] == video["video"] and request["start"] >= video["t0"] - 0.005]
                others = []
                for request in requests:
                    if request["video"] == video["video"] and request["start"] >= video["t0"] - 0.005:
                        continue
                    relation, text = describe(request, index, video["t0"])
                    if relation == "own":
                        relation = "own, asked for before the start (prefetching)"
                    others.append(f"{relation}: {text}")
                line = f"  {video['video']} {milliseconds(video['startMs']):>10}  origin before the start: {len(own)} own"
                if own:
                    line += " (" + ", ".join(own) + ")"
                if others:
                    line += f"; {len(others)} other: " + "; ".join(others)
                if video.get("error"):
                    line += f"  ERROR {video['error']}"
                print(line)

    def print_findings(self):
        """What the origin log says about where the time goes, pass by pass."""
        print("\nwhere the time goes (from the origin's log)")
        for name, title in PASSES:
            if name not in self.passes:
                continue
            videos = self.passes[name]["videos"]
            # A pass's requests: from its start to the next pass's (its tail after the last swipe included).
            pass_start = self.passes[name]["start"]
            later = [other["start"] for other in self.passes.values() if other["start"] > pass_start]
            pass_end = min(later, default=math.inf)
            in_pass = [request for request in self.log.requests if pass_start <= request["start"] < pass_end]
            playlists = [request for request in in_pass if request["uri"].endswith(".m3u8")]
            sent = sum(request["bytes"] for request in in_pass)
            notes = [f"{len(in_pass)} origin requests, {megabytes(sent)} sent, {len(playlists)} of them playlists"]
            # A fill whose player went away: the video's transfers still running after its swipe.
            orphan_tails, orphan_bytes, finished = [], 0.0, 0
            for video in videos:
                for request in self.log.requests:
                    if request["video"] == video["video"] and request["start"] < video["swipe"] and request["end"] > video["swipe"] + 0.05:
                        orphan_tails.append(request["end"] - video["swipe"])
                        orphan_bytes += bytes_overlapping(request, video["swipe"], request["end"], self.delay)
                        finished += request["whole"] is not None and request["bytes"] >= request["whole"]
            if orphan_tails:
                notes.append(f"{len(orphan_tails)} transfers went on after their video's swipe, for up to "
                             f"{max(orphan_tails) * 1000:,.0f} ms (median {statistics.median(orphan_tails) * 1000:,.0f} ms), "
                             f"≈{megabytes(orphan_bytes)} sent after the swipes, {finished} of them finished whole")
            # Other videos' bytes on the link while a video waited for its first segment.
            competing, own_playlists = [], 0
            for index, video in enumerate(videos):
                end = video["started"] or video["swipe"]
                others = sum(bytes_overlapping(request, video["t0"], end, self.delay)
                             for request in self.log.between(video["t0"], end) if request["video"] != video["video"])
                competing.append(others)
                own_playlists += any(request["video"] == video["video"] and request["uri"].endswith(".m3u8")
                                     and request["start"] >= video["t0"] - 0.005
                                     for request in self.log.between(video["t0"], end))
            if any(competing):
                notes.append(f"other videos' bytes on the link while a video waited to start: median "
                             f"≈{megabytes(statistics.median(competing))}, max ≈{megabytes(max(competing))} "
                             f"(its own first segment is {megabytes(self.first_segment_size(videos[0]))})")
            # Prefetching of the video the user swipes to, cut at that swipe (the list posted then
            # names the next videos only), and bytes the origin sent more than once in the pass.
            cut_at_swipe = []
            for previous, video in zip(videos, videos[1:]):
                for request in self.log.requests:
                    if (request["video"] == video["video"] and request["start"] < video["t0"]
                            and abs(request["end"] - previous["swipe"]) < 0.5
                            and request["whole"] is not None and request["bytes"] < request["whole"]):
                        cut_at_swipe.append(f"{video['video']} {request['resource']} at {megabytes(request['bytes'])} of {megabytes(request['whole'])}")
            if cut_at_swipe:
                notes.append(f"{len(cut_at_swipe)} transfers of the video swiped to were cut at that swipe: " + ", ".join(cut_at_swipe))
            sent_by_uri = {}
            for request in in_pass:
                if request["whole"] is not None and not request["uri"].endswith(".m3u8"):
                    sent_by_uri.setdefault(request["uri"], []).append(request)
            again = {uri: sum(request["bytes"] for request in requests) - os.path.getsize(os.path.join(self.media_root, uri.lstrip("/")))
                     for uri, requests in sent_by_uri.items() if len(requests) > 1}
            again = {uri: extra for uri, extra in again.items() if extra > 0}
            if again:
                notes.append(f"{megabytes(sum(again.values()))} of media sent more than once ({len(again)} resources, e.g. "
                             + ", ".join(f"{uri.lstrip('/')} +{extra:,} bytes" for uri, extra in sorted(again.items(), key=lambda item: -item[1])[:3]) + ")")
            if name in ("replay", "offline", "prefetch"):
                notes.append(f"{own_playlists} of {len(videos)} videos had a playlist of their own fetched from the origin before their first segment")
            posts = self.passes[name].get("prefetch", [])
            if posts:
                notes.append(f"{len(posts)} prefetch posts, median {statistics.median(post['ms'] for post in posts):.1f} ms each")
            print(f"  {title.format(ahead=self.ahead)}:")
            for note in notes:
                print(f"    - {note}")

    def first_segment_size(self, video):
        for request in video["requests"]:
            if request["kind"] == "segment 0":
                return request["bytes"]
        return 0

    def own_playlists_before_start(self, name):
        videos = []
        for video in self.passes[name]["videos"]:
            end = video["started"] or video["swipe"]
            if any(request["video"] == video["video"] and request["uri"].endswith(".m3u8") and request["start"] >= video["t0"] - 0.005
                   for request in self.log.between(video["t0"], end)):
                videos.append(video["video"])
        return videos

    def check_run(self):
        """Failures of the run itself: they make the figures meaningless, whatever REPORT_ONLY says."""
        for name, _ in PASSES:
            if name not in self.passes:
                self.failures.append(f"the {name} pass did not run")
                continue
            for video in self.passes[name]["videos"]:
                if video.get("error"):
                    self.failures.append(f"{name} {video['video']}: {video['error']}")
            for error in self.passes[name].get("errors", []):
                self.failures.append(f"{name}: {error}")
        # The log must show what the direct pass asked for, at the times the player asked: else
        # every figure read from it (and the replay goal) would be empty, not measured.
        if "direct" in self.passes:
            unseen = [video["video"] for video in self.passes["direct"]["videos"]
                      if not any(request["video"] == video["video"] and request["uri"].endswith("/master.m3u8")
                                 and abs(request["start"] - video["t0"]) < 0.5 for request in self.log.requests)]
            if unseen:
                self.failures.append(f"the origin's access log does not show the direct pass's multivariant requests "
                                     f"of {len(unseen)} videos ({', '.join(unseen[:3])}) within 0.5 s of the player's")
        # A cold pass starts on an empty cache: the origin must have sent every video's first
        # segment during it (during the prefetch pass, possibly before the video's start).
        for name in ("cold", "prefetch"):
            if name not in self.passes:
                continue
            start, end = self.passes[name]["start"], self.passes[name]["end"]
            for video in self.passes[name]["videos"]:
                first = next((urllib.parse.urlsplit(request["url"]).path for request in video["requests"]
                              if request["kind"] == "segment 0"), None)
                if first and not any(request["uri"] == first and start <= request["start"] <= end for request in self.log.requests):
                    self.failures.append(f"the {name} pass was not cold: the origin never sent {first} during it")
        check = self.link.get("check")
        if not check:
            self.failures.append("no link check")
        else:
            if not (0.5 * self.rate <= check["segmentRate"] <= 1.1 * self.rate):
                self.failures.append(f"the link is not shaped to {self.link['rate']}: a segment came at {check['segmentRate'] / 1e6:.2f} Mbit/s")
            if not (0.9 * self.link["delayMs"] <= check["ttfbMs"] <= self.link["delayMs"] + 200):
                self.failures.append(f"the origin's delay is not {self.link['delayMs']} ms: a playlist's first byte took {check['ttfbMs']:.0f} ms")
        if "offline" in self.passes:
            start = self.passes["offline"]["start"]
            reached = [request for request in self.log.requests if request["start"] >= start]
            if reached:
                self.failures.append(f"the origin answered {len(reached)} requests during the pass with the origin stopped")

    def goals(self):
        """(goal, measured, met) for this link."""
        results = []
        label = f"{self.link['rate']}/{self.link['delayMs']} ms"
        if not all(name in self.passes for name, _ in PASSES):
            return results
        direct, cold, prefetch = self.summary("direct"), self.summary("cold"), self.summary("prefetch")
        replay, offline = self.summary("replay"), self.summary("offline")
        target = PREFETCH_GOALS.get((round(self.rate), self.link["delayMs"]))
        if target:
            share, median = target
            needed = math.ceil(share * prefetch["count"] - 1e-9)
            results.append((f"{label}: with prefetch at least {needed} of {prefetch['count']} start within 1 s",
                            f"{prefetch['within']}/{prefetch['count']}", prefetch["within"] >= needed))
            results.append((f"{label}: with prefetch the median start <= {median} ms",
                            milliseconds(prefetch["median"]), prefetch["median"] <= median))
        else:
            results.append((f"{label}: prefetch goals are set for 7mbit/100 ms and 3mbit/200 ms only", "-", None))
        ratio = prefetch["first"] / cold["first"] if cold["first"] and not math.isinf(cold["first"]) else math.inf
        results.append((f"{label}: the prefetch pass's first video within 1.2x the cold pass's first",
                        f"{milliseconds(prefetch['first'])} / {milliseconds(cold['first'])} = {ratio:.2f}x", ratio <= 1.2))
        results.append((f"{label}: replay median <= 50 ms", milliseconds(replay["median"]), replay["median"] <= 50))
        asked = self.own_playlists_before_start("replay")
        results.append((f"{label}: replay: the origin sees no playlist of a video before its first segment",
                        f"{len(asked)} of {replay['count']} videos" + (f" ({', '.join(asked[:4])}{', ...' if len(asked) > 4 else ''})" if asked else ""),
                        not asked))
        results.append((f"{label}: replay with the origin stopped: median <= 50 ms, every video starts",
                        f"{milliseconds(offline['median'])}, {offline['count'] - sum(math.isinf(value) for value in self.starts('offline'))}/{offline['count']} started",
                        offline["median"] <= 50 and not any(math.isinf(value) for value in self.starts("offline"))))
        ratio = cold["median"] / direct["median"] if not math.isinf(direct["median"]) else math.inf
        results.append((f"{label}: cold pass without prefetch within 1.05x direct (medians)",
                        f"{milliseconds(cold['median'])} / {milliseconds(direct['median'])} = {ratio:.2f}x", ratio <= 1.05))
        return results


def main():
    run_dir, media_root = sys.argv[1], sys.argv[2]
    run = json.load(open(os.path.join(run_dir, "run.json")))
    print(f"feed: {run['videos']} videos ({run['shape']}, player at {run['height']}p), watched {run['watch']} s each, "
          f"prefetch {run['ahead']} ahead with seconds: {run['prefetchSeconds']}")
    reports = [LinkReport(os.path.join(run_dir, folder), media_root, run["ahead"]) for folder in run["links"]]
    for report in reports:
        report.print_table()
        report.print_videos()
        report.print_findings()
        report.check_run()
    print("\n=== goals (issue 31) ===")
    missed = 0
    for report in reports:
        for goal, measured, met in report.goals():
            verdict = "n/a" if met is None else ("PASS" if met else "FAIL")
            missed += met is False
            print(f"  {verdict:<4}  {goal}: {measured}")
    print("  n/a   no regression on loopback: measured by scripts/bench-proxy.sh and Benchmarks/proxy/compare-caches.sh, not here")
    failures = [f"{report.link['rate']}/{report.link['delayMs']} ms: {failure}" for report in reports for failure in report.failures]
    for failure in failures:
        print(f"RUN FAILED: {failure}")
    if failures:
        sys.exit(1)
    if missed:
        print(f"{missed} goal(s) missed" + (" (REPORT_ONLY=1: exit 0)" if os.environ.get("REPORT_ONLY") == "1" else ""))
        sys.exit(0 if os.environ.get("REPORT_ONLY") == "1" else 1)
    print("every goal met")


if __name__ == "__main__":
    main()
