#!/usr/bin/env python3
"""The differential oracle of the DASH tests: the `mpegdash` package (PyPI) parses each MPD,
and this script lists, from its model alone, every Representation with its initialization and
media segment URLs, with its own template, SegmentTimeline and BaseURL code (urllib's RFC 3986
urljoin), written from ISO/IEC 23009-1 and independent of the Swift implementation.

    oracle_mpegdash.py summarize MANIFEST_URL FILE...   prints {file: summary or {"error": ...}} as JSON
    oracle_mpegdash.py generate DIR COUNT SEED          writes COUNT generated MPDs into DIR

SegmentBase Representations are listed without segments (those are in the sidx box).
"""
import json
import math
import random
import re
import sys
from urllib.parse import urljoin

DURATION = re.compile(r"^-?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")
IDENTIFIER = re.compile(r"\$(RepresentationID|Number|Time|Bandwidth)(?:%0?(\d+)([diuxXo]))?\$|\$\$")


def seconds(text):
    if text is None:
        return None
    match = DURATION.match(text.strip())
    if not match:
        return None
    y, mo, d, h, mi, s = (float(g) if g else 0.0 for g in match.groups())
    value = y * 365 * 86400 + mo * 30 * 86400 + d * 86400 + h * 3600 + mi * 60 + s
    return -value if text.strip().startswith("-") else value


def expand(template, rep_id, bandwidth, number=None, time=None):
    def substitute(match):
        if match.group(0) == "$$":
            return "$"
        name, width, conversion = match.group(1), match.group(2), match.group(3) or "d"
        value = {"RepresentationID": rep_id, "Number": number, "Time": time, "Bandwidth": bandwidth}[name]
        if value is None:
            return match.group(0)
        if name == "RepresentationID":
            return str(value)
        spec = "%0" + (width or "1") + {"i": "d", "u": "d"}.get(conversion, conversion)
        return spec % int(value)
    return IDENTIFIER.sub(substitute, template)


def first(items):
    return items[0] if items else None


def children(node, name):
    return getattr(node, name, None) or []


def inherited(levels, kind, attribute):
    """The attribute from the lowest level whose `kind` element has it."""
    for level in reversed(levels):
        element = first(children(level, kind))
        if element is not None and getattr(element, attribute, None) is not None:
            return getattr(element, attribute)
    return None


def base_url(manifest_url, levels):
    base = manifest_url
    for level in levels:
        url = first(children(level, "base_urls"))
        if url is not None and url.base_url_value is not None:
            base = urljoin(base, url.base_url_value.strip())
    return base


def period_duration(mpd, periods, index):
    period = periods[index]
    own = seconds(period.duration)
    if own is not None:
        return own
    start = seconds(period.start) or 0.0
    if index + 1 < len(periods) and seconds(periods[index + 1].start) is not None:
        return seconds(periods[index + 1].start) - start
    total = seconds(mpd.media_presentation_duration)
    return None if total is None else total - start


def timeline_times(timeline, end_ticks):
    times = []
    entries = children(timeline, "Ss")
    previous_end = 0
    for index, s in enumerate(entries):
        t = s.t if s.t is not None else previous_end
        r = s.r or 0
        if r < 0:
            following = entries[index + 1].t if index + 1 < len(entries) else None
            bound = following if following is not None else end_ticks
            r = math.ceil((bound - t) / s.d) - 1
        for k in range(r + 1):
            times.append((t + k * s.d, s.d))
        previous_end = t + (r + 1) * s.d
    return times


def summarize(mpd, manifest_url):
    periods = children(mpd, "periods")
    result = []
    for period_index, period in enumerate(periods):
        duration = period_duration(mpd, periods, period_index)
        for adaptation_set in children(period, "adaptation_sets"):
            for rep in children(adaptation_set, "representations"):
                levels = [period, adaptation_set, rep]
                base = base_url(manifest_url, [mpd] + levels)
                entry = {"id": rep.id, "bandwidth": rep.bandwidth, "kind": None, "init": None, "segments": []}
                kind = None
                for level in reversed(levels):
                    for name, label in (("segment_templates", "template"), ("segment_lists", "list"),
                                        ("segment_bases", "base")):
                        if children(level, name):
                            kind = kind or (name, label)
                    if kind:
                        break
                if kind is None:
                    entry["segments"] = [base]
                elif kind[1] == "template":
                    entry["kind"] = "template"
                    media = inherited(levels, "segment_templates", "media")
                    initialization = inherited(levels, "segment_templates", "initialization")
                    timescale = inherited(levels, "segment_templates", "timescale") or 1
                    start_number = inherited(levels, "segment_templates", "start_number")
                    start_number = 1 if start_number is None else start_number
                    pto = inherited(levels, "segment_templates", "presentation_time_offset") or 0
                    if initialization:
                        entry["init"] = urljoin(base, expand(initialization, rep.id, rep.bandwidth))
                    timeline = None
                    for level in reversed(levels):
                        template = first(children(level, "segment_templates"))
                        if template is not None and children(template, "segment_timelines"):
                            timeline = template.segment_timelines[0]
                            break
                    end_ticks = pto + duration * timescale if duration is not None else None
                    if timeline is not None:
                        times = timeline_times(timeline, end_ticks)
                        times = [(t, d) for (t, d) in times if end_ticks is None or t < end_ticks]
                    else:
                        d = inherited(levels, "segment_templates", "duration")
                        count = math.ceil(duration * timescale / d)
                        end_number = inherited(levels, "segment_templates", "end_number")
                        if end_number is not None:
                            count = min(count, end_number - start_number + 1)
                        times = [(pto + k * d, d) for k in range(count)]
                    entry["segments"] = [urljoin(base, expand(media, rep.id, rep.bandwidth, start_number + k, t))
                                         for k, (t, _) in enumerate(times)]
                elif kind[1] == "list":
                    entry["kind"] = "list"
                    owner = None
                    for level in reversed(levels):
                        listed = first(children(level, "segment_lists"))
                        if listed is not None and children(listed, "segment_urls"):
                            owner = listed
                            break
                    for level in reversed(levels):
                        listed = first(children(level, "segment_lists"))
                        if listed is not None and children(listed, "initializations"):
                            init = listed.initializations[0]
                            entry["init"] = urljoin(base, init.source_url or "")
                            break
                    entry["segments"] = [urljoin(base, u.media or "") for u in (children(owner, "segment_urls") if owner else [])]
                else:
                    entry["kind"] = "base"
                    entry["segments"] = None
                    for level in reversed(levels):
                        segment_base = first(children(level, "segment_bases"))
                        if segment_base is not None and children(segment_base, "initializations"):
                            entry["init"] = urljoin(base, segment_base.initializations[0].source_url or "")
                            break
                result.append(entry)
    return {"representations": result}


def generate(folder, count, seed):
    """MPDs of every addressing shape, with BaseURLs at random levels and long timelines."""
    rng = random.Random(seed)
    for number in range(count):
        shape = ["timeline", "numbered", "list"][number % 3]
        lines = ['<?xml version="1.0" encoding="utf-8"?>',
                 '<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" '
                 'type="static" mediaPresentationDuration="PT%dS" minBufferTime="PT2S">' % (rng.randint(20, 400))]
        if rng.random() < 0.5:
            lines.append("  <BaseURL>https://cdn%d.example/root/</BaseURL>" % rng.randint(1, 9))
        lines.append('  <Period id="p">')
        if rng.random() < 0.5:
            lines.append("    <BaseURL>period-%d/</BaseURL>" % number)
        lines.append('    <AdaptationSet contentType="video" mimeType="video/mp4">')
        timescale = rng.choice([1000, 90000, 12800])
        seg = timescale * rng.choice([1, 2, 4])
        for rep_index in range(rng.randint(1, 4)):
            rep_id = "r%d" % rep_index
            lines.append('      <Representation id="%s" bandwidth="%d">' % (rep_id, rng.randint(1, 50) * 100000))
            if rng.random() < 0.4:
                lines.append("        <BaseURL>%s/</BaseURL>" % rep_id)
            media = rng.choice(["$RepresentationID$/$Number%05d$.m4s", "seg-$Bandwidth$-$Number$.m4s",
                                "$RepresentationID$-$Time$.m4s", "../$RepresentationID$/$Number%03d$.m4s"])
            if shape == "timeline":
                lines.append('        <SegmentTemplate timescale="%d" startNumber="%d" initialization="init-$RepresentationID$.mp4" media="%s">'
                             % (timescale, rng.randint(0, 5), media))
                lines.append("          <SegmentTimeline>")
                t = 0
                for index in range(rng.randint(1, 6)):
                    r = rng.randint(0, 40)
                    d = seg + rng.randint(-seg // 10, seg // 10)
                    attributes = ('t="%d" ' % t if index == 0 or rng.random() < 0.3 else "")
                    lines.append('            <S %sd="%d" r="%d"/>' % (attributes, d, r))
                    t += d * (r + 1)
                lines.append("          </SegmentTimeline>")
                lines.append("        </SegmentTemplate>")
            elif shape == "numbered":
                lines.append('        <SegmentTemplate timescale="%d" duration="%d" startNumber="%d" initialization="init-$RepresentationID$.mp4" media="%s"/>'
                             % (timescale, seg, rng.randint(0, 5), media.replace("$Time$", "$Number$")))
            else:
                lines.append('        <SegmentList timescale="%d" duration="%d">' % (timescale, seg))
                lines.append('          <Initialization sourceURL="%s/init.mp4"/>' % rep_id)
                for index in range(rng.randint(1, 30)):
                    lines.append('          <SegmentURL media="%s/s%d.m4s"/>' % (rep_id, index))
                lines.append("        </SegmentList>")
            lines.append("      </Representation>")
        lines.append("    </AdaptationSet>")
        lines.append("  </Period>")
        lines.append("</MPD>")
        with open("%s/generated-%03d.mpd" % (folder, number), "w") as handle:
            handle.write("\n".join(lines) + "\n")


def main(argv):
    if argv[1] == "generate":
        generate(argv[2], int(argv[3]), int(argv[4]))
        return 0
    from mpegdash.parser import MPEGDASHParser
    manifest_url = argv[2]
    results = {}
    for name in argv[3:]:
        try:
            with open(name, encoding="utf-8") as handle:
                text = handle.read()
            results[name] = summarize(MPEGDASHParser.parse(text), manifest_url)
        except Exception as error:  # the oracle's verdict is "reject"
            results[name] = {"error": "%s: %s" % (type(error).__name__, error)}
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
