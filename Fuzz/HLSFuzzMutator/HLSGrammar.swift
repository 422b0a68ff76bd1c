/// The tags of RFC 8216 and its successor draft with the shape of their values, and values of
/// each kind that parsers treat specially: what the structure-aware mutator writes.
enum HLSGrammar {
    enum Value: Equatable {
        case integer, decimal, signedDecimal, quoted, uri, hex, resolution, date, byteRange, quotedByteRange
        case enumerated([String])
    }

    enum Shape {
        case bare
        case single(Value)
        /// EXTINF: a duration, a comma and a title.
        case extinf
        /// Attributes, the required ones first; a variant tag is followed by a URI line.
        case attributes([(String, Value)], required: Int, uriLine: Bool)
    }

    static let yesNo = Value.enumerated(["YES", "NO"])

    static let tags: [(name: String, shape: Shape)] = [
        ("EXTM3U", .bare),
        ("EXT-X-VERSION", .single(.integer)),
        ("EXTINF", .extinf),
        ("EXT-X-BYTERANGE", .single(.byteRange)),
        ("EXT-X-DISCONTINUITY", .bare),
        ("EXT-X-KEY", .attributes([("METHOD", .enumerated(["NONE", "AES-128", "SAMPLE-AES", "SAMPLE-AES-CTR"])), ("URI", .uri),
                                   ("IV", .hex), ("KEYFORMAT", .quoted), ("KEYFORMATVERSIONS", .quoted)], required: 2, uriLine: false)),
        ("EXT-X-MAP", .attributes([("URI", .uri), ("BYTERANGE", .quotedByteRange)], required: 1, uriLine: false)),
        ("EXT-X-PROGRAM-DATE-TIME", .single(.date)),
        ("EXT-X-DATERANGE", .attributes([("ID", .quoted), ("START-DATE", .date), ("END-DATE", .date), ("DURATION", .decimal),
                                         ("PLANNED-DURATION", .decimal), ("CLASS", .quoted), ("SCTE35-OUT", .hex),
                                         ("SCTE35-IN", .hex), ("END-ON-NEXT", .enumerated(["YES", "NO"])), ("X-COM-EXAMPLE", .quoted),
                                         ("CUE", .quoted)], required: 2, uriLine: false)),
        ("EXT-X-GAP", .bare),
        ("EXT-X-BITRATE", .single(.integer)),
        ("EXT-X-PART", .attributes([("DURATION", .decimal), ("URI", .uri), ("INDEPENDENT", yesNo), ("BYTERANGE", .quotedByteRange),
                                    ("GAP", .enumerated(["YES"]))], required: 2, uriLine: false)),
        ("EXT-X-TARGETDURATION", .single(.integer)),
        ("EXT-X-MEDIA-SEQUENCE", .single(.integer)),
        ("EXT-X-DISCONTINUITY-SEQUENCE", .single(.integer)),
        ("EXT-X-ENDLIST", .bare),
        ("EXT-X-PLAYLIST-TYPE", .single(.enumerated(["VOD", "EVENT", "LIVE"]))),
        ("EXT-X-I-FRAMES-ONLY", .bare),
        ("EXT-X-PART-INF", .attributes([("PART-TARGET", .decimal)], required: 1, uriLine: false)),
        ("EXT-X-SERVER-CONTROL", .attributes([("CAN-SKIP-UNTIL", .decimal), ("CAN-SKIP-DATERANGES", yesNo), ("HOLD-BACK", .decimal),
                                              ("PART-HOLD-BACK", .decimal), ("CAN-BLOCK-RELOAD", yesNo)], required: 1, uriLine: false)),
        ("EXT-X-SKIP", .attributes([("SKIPPED-SEGMENTS", .integer), ("RECENTLY-REMOVED-DATERANGES", .quoted)], required: 1, uriLine: false)),
        ("EXT-X-PRELOAD-HINT", .attributes([("TYPE", .enumerated(["PART", "MAP"])), ("URI", .uri), ("BYTERANGE-START", .integer),
                                            ("BYTERANGE-LENGTH", .integer)], required: 2, uriLine: false)),
        ("EXT-X-RENDITION-REPORT", .attributes([("URI", .uri), ("LAST-MSN", .integer), ("LAST-PART", .integer)], required: 2, uriLine: false)),
        ("EXT-X-MEDIA", .attributes([("TYPE", .enumerated(["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"])), ("GROUP-ID", .quoted),
                                     ("NAME", .quoted), ("URI", .uri), ("LANGUAGE", .quoted), ("ASSOC-LANGUAGE", .quoted),
                                     ("DEFAULT", yesNo), ("AUTOSELECT", yesNo), ("FORCED", yesNo),
                                     ("INSTREAM-ID", .enumerated(["\"CC1\"", "\"SERVICE3\"", "\"CC9\""])), ("CHARACTERISTICS", .quoted),
                                     ("CHANNELS", .quoted), ("STABLE-RENDITION-ID", .quoted)], required: 3, uriLine: false)),
        ("EXT-X-STREAM-INF", .attributes([("BANDWIDTH", .integer), ("AVERAGE-BANDWIDTH", .integer), ("CODECS", .quoted),
                                          ("RESOLUTION", .resolution), ("FRAME-RATE", .decimal),
                                          ("HDCP-LEVEL", .enumerated(["TYPE-0", "TYPE-1", "NONE"])), ("AUDIO", .quoted),
                                          ("VIDEO", .quoted), ("SUBTITLES", .quoted),
                                          ("CLOSED-CAPTIONS", .enumerated(["NONE", "\"cc\""])), ("SCORE", .decimal),
                                          ("VIDEO-RANGE", .enumerated(["SDR", "HLG", "PQ"])), ("PATHWAY-ID", .quoted),
                                          ("STABLE-VARIANT-ID", .quoted), ("PROGRAM-ID", .integer)], required: 1, uriLine: true)),
        ("EXT-X-I-FRAME-STREAM-INF", .attributes([("BANDWIDTH", .integer), ("URI", .uri), ("CODECS", .quoted),
                                                  ("RESOLUTION", .resolution), ("AVERAGE-BANDWIDTH", .integer)], required: 2, uriLine: false)),
        ("EXT-X-SESSION-DATA", .attributes([("DATA-ID", .quoted), ("VALUE", .quoted), ("URI", .uri), ("LANGUAGE", .quoted),
                                            ("FORMAT", .enumerated(["JSON", "RAW"]))], required: 2, uriLine: false)),
        ("EXT-X-SESSION-KEY", .attributes([("METHOD", .enumerated(["AES-128", "SAMPLE-AES", "NONE"])), ("URI", .uri), ("IV", .hex),
                                           ("KEYFORMAT", .quoted)], required: 2, uriLine: false)),
        ("EXT-X-CONTENT-STEERING", .attributes([("SERVER-URI", .uri), ("PATHWAY-ID", .quoted)], required: 1, uriLine: false)),
        ("EXT-X-INDEPENDENT-SEGMENTS", .bare),
        ("EXT-X-START", .attributes([("TIME-OFFSET", .signedDecimal), ("PRECISE", yesNo)], required: 1, uriLine: false)),
        ("EXT-X-DEFINE", .attributes([("NAME", .quoted), ("VALUE", .quoted), ("IMPORT", .quoted), ("QUERYPARAM", .quoted)],
                                     required: 1, uriLine: false)),
    ]

    static let integers = ["0", "1", "2", "3", "6", "10", "4294967295", "4294967296", "9007199254740993",
                           "18446744073709551615", "18446744073709551616", "-1", "007", "1.5", ""]
    static let decimals = ["0", "0.5", "2.000000", "6.006", "9.009", "10", "10.", ".5", "1e3", "-0",
                           "99999999999999999999.9", "0.000000001", "4.0000000000000000001"]
    static let names = ["a", "b", "host", "p", "token", "x-y_z", "A"]
    static let strings = ["", "a", "x,y", "a=b", "{$host}", "{$p}/k", "{$missing}", "en", "aac", "com.apple.streamingkeydelivery",
                          "identity", "1/2/5", "avc1.64001f,mp4a.40.2", "public.accessibility.describes-video"]
    static let uris = ["seg.ts", "a/b.ts", "../up.ts", "./x/../y.ts", "/abs/path.m3u8?x=1", "//cdn.example/p.ts",
                       "https://cdn.example/v/seg.ts", "http://127.0.0.1:8080/proxy?url=x", "{$host}/seg.ts", "{$p}/{$p}.ts",
                       "skd://key-id", "data:text/plain;base64,AAAA", "a%20b.ts", "key.bin?sig=a&b=c", "index.m3u8", ""]
    static let dates = ["2026-11-24T10:00:00.000Z", "2026-11-24T10:00:06Z", "2026-11-24T10:00:00.123+02:00", "2026-02-30T25:61:61Z",
                        "2026-11-24", ""]

    static func value(_ kind: Value, random: inout MutationRandom) -> String {
        switch kind {
        case .integer:
            return random.chance(1, in: 3) ? String(random.next() >> random.below(64)) : random.element(of: integers) ?? "0"
        case .decimal:
            return random.chance(1, in: 3) ? "\(random.below(100)).\(random.below(1000))" : random.element(of: decimals) ?? "0"
        case .signedDecimal:
            return (random.chance(1, in: 2) ? "-" : "") + value(.decimal, random: &random)
        case .quoted:
            return "\"" + (random.element(of: strings) ?? "") + "\""
        case .uri:
            return "\"" + (random.element(of: uris) ?? "") + "\""
        case .hex:
            return random.element(of: ["0x00000000000000000000000000000001", "0X0123456789ABCDEF0123456789abcdef", "0x", "0x1",
                                       "0xFC302000000000000000FFF00A050800000000" + "7FFFFFFFFFFFFFFF"]) ?? "0x1"
        case .resolution:
            return random.element(of: ["1920x1080", "640x360", "0x0", "1x18446744073709551616", "416X234", "x"]) ?? "1x1"
        case .date:
            return "\"" + (random.element(of: dates) ?? "") + "\""
        case .byteRange:
            return value(.integer, random: &random) + (random.chance(1, in: 2) ? "@" + value(.integer, random: &random) : "")
        case .quotedByteRange:
            return "\"" + value(.byteRange, random: &random) + "\""
        case .enumerated(let values):
            return random.element(of: values) ?? ""
        }
    }

    /// A whole tag line of `tag` (and, for EXT-X-STREAM-INF, its URI line).
    static func lines(of tag: (name: String, shape: Shape), random: inout MutationRandom) -> [String] {
        let head = "#" + tag.name
        switch tag.shape {
        case .bare:
            return [head]
        case .single(let kind):
            var text = value(kind, random: &random)
            if kind.isQuotedDate { text = String(text.dropFirst().dropLast()) }
            return [head + ":" + text]
        case .extinf:
            return [head + ":" + value(.decimal, random: &random) + "," + (random.chance(1, in: 4) ? "title, with comma" : "")]
        case .attributes(let attributes, let required, let uriLine):
            var chosen = Array(attributes.prefix(required))
            for attribute in attributes.dropFirst(required) where random.chance(1, in: 3) { chosen.append(attribute) }
            if random.chance(1, in: 8), let extra = random.element(of: attributes) { chosen.append(extra) }
            let list = chosen.map { $0.0 + "=" + value($0.1, random: &random) }.joined(separator: ",")
            let line = head + ":" + list
            return uriLine ? [line, String((random.element(of: uris) ?? "v.m3u8").filter { $0 != "\"" })] : [line]
        }
    }

    /// The kind of value `name` holds in `tag`, when the grammar knows it.
    static func kind(of name: String, in tag: String) -> Value? {
        guard let entry = tags.first(where: { "#" + $0.name == tag }), case .attributes(let attributes, _, _) = entry.shape else {
            return nil
        }
        return attributes.first(where: { $0.0 == name })?.1
    }
}

extension HLSGrammar.Value {
    /// EXT-X-PROGRAM-DATE-TIME takes a date unquoted; attributes take it quoted.
    var isQuotedDate: Bool {
        if case .date = self { return true }
        return false
    }
}
