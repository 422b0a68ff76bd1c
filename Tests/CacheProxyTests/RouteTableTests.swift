@testable import CacheProxyParsing
import Testing

/// The route table is the one declaration of a route: the path it answers, its access rule,
/// metrics label, body limit, methods and error format, and how its parameters parse.
@Suite("One route table")
struct RouteTableTests {
    /// A path each pattern matches: `*` stands for one segment, `**` for two.
    private static func samplePath(_ pattern: RoutePattern) -> String {
        pattern.segments.map { segment -> String in
            switch segment {
            case .literal(let bytes): "/" + String(decoding: bytes, as: UTF8.self)
            case .parameter: "/x1"
            case .rest: "/x2/y2"
            }
        }.joined()
    }

    /// The route each case of ``ProxyRoute`` stands for: a new case fails to compile here until
    /// it is given a target, which the next test then looks up in the table.
    private static func sampleTarget(for route: ProxyRoute) -> String {
        switch route {
        case .proxy: "/proxy?url=http%3A%2F%2Fh%2Fa.ts"
        case .status: "/status"
        case .metrics: "/metrics"
        case .prefetch: "/prefetch"
        case .sessions: "/sessions"
        case .session: "/sessions/s1"
        case .sessionPlaylist: "/sessions/s1/index.m3u8"
        case .sessionProxy: "/sessions/s1/proxy?url=http%3A%2F%2Fh%2Fa.ts"
        case .downloads: "/downloads"
        case .download: "/downloads/d1"
        case .dashboard: "/"
        case .entries: "/entries"
        case .entry: "/entries?url=http%3A%2F%2Fh%2Fa.ts"
        case .pinEntry: "/entries/pin"
        case .unpinEntry: "/entries/unpin"
        case .evict: "/evict"
        case .dash: "/dash/http%3A%2F%2Fh%2F/a.m4s"
        }
    }

    @Test("Every entry is reachable: a path of each of its patterns names it, not an earlier entry")
    func noEntryIsShadowed() {
        for (index, entry) in RouteTable.entries.enumerated() {
            for pattern in entry.patterns {
                let path = Self.samplePath(pattern)
                let found = RouteTable.entries.firstIndex { $0.match(Array(path.utf8)) != nil }
                #expect(found == index, "\(path) names entry \(String(describing: found)), not \(index)")
            }
        }
    }

    @Test("Every route parses from its table entry, with the traits the entry declares")
    func everyRouteIsInTheTable() throws {
        let origin = try OriginURL(parsing: "http://h/a.ts")
        let routes: [ProxyRoute] = [
            .proxy(origin, DeliveryDirectives()), .status, .metrics, .prefetch, .sessions, .session("s1"),
            .sessionPlaylist("s1", DeliveryDirectives()), .sessionProxy("s1", origin, DeliveryDirectives()), .downloads,
            .download("d1"), .dashboard, .entries(EntriesPageRequest()), .entry("http://h/a.ts"), .pinEntry, .unpinEntry, .evict,
            .dash(try OriginURL(parsing: "http://h/a.m4s")),
        ]
        for route in routes {
            let target = Self.sampleTarget(for: route)
            let parsed = RequestRoute(target: target.utf8)
            #expect(parsed.route == route, "\(target)")
            let entry = try #require(RouteTable.entry(forPath: target.utf8.prefix { $0 != UInt8(ascii: "?") }))
            #expect(parsed.traits == entry.0.traits)
        }
    }

    @Test("A player's routes read no body and write errors as text; control routes that take more than GET and HEAD answer in JSON")
    func traitsAgreeWithAccess() {
        for entry in RouteTable.entries {
            let traits = entry.traits
            if traits.access == .media {
                #expect(traits.body == .none && traits.errors == .text, "\(entry.patterns.map(Self.samplePath))")
            } else if traits.methods == .any {
                #expect(traits.errors == .json, "\(entry.patterns.map(Self.samplePath))")
            }
        }
    }

    @Test("Every metrics label is some route's")
    func everyLabelIsDeclared() {
        let declared = Set(RouteTable.entries.map(\.traits.label) + [RouteTable.unmatched.label])
        #expect(declared == Set(RouteLabel.allCases))
    }

    @Test("Every route that reads a body declares its limit, and no other route reads one", arguments: [
        ("/prefetch", RouteTraits.BodyLimit.prefetchRequest), ("/sessions", .sessionRequest), ("/sessions/", .sessionRequest),
        ("/downloads", .bytes(DownloadRequest.maximumBodyBytes)), ("/entries/pin", .bytes(EntryRequest.maximumBodyBytes)),
        ("/entries/unpin", .bytes(EntryRequest.maximumBodyBytes)), ("/evict", .bytes(EvictRequest.maximumBodyBytes)),
        ("/sessions/s1", RouteTraits.BodyLimit.none), ("/entries", .none), ("/proxy", .none), ("/status", .none), ("/nowhere", .none),
    ])
    func bodyLimits(path: String, limit: RouteTraits.BodyLimit) {
        #expect(RequestRoute(target: path.utf8).traits.body == limit)
    }

    @Test("A path under a family's prefix that names none of its routes is the family's: not found, counted and written as the family's", arguments: [
        ("/sessions/s1/other", RouteLabel.sessions, RouteTraits.ErrorFormat.json), ("/sessions/s1/a/proxy", .sessions, .json),
        ("/sessions//index.m3u8", .sessions, .json), ("/downloads/d1/x", .downloads, .json), ("/entries/x", .store, .json),
        ("/evict/x", .other, .json), ("/prefetch/x", .other, .json), ("/metrics/x", .other, .text), ("/proxy/", .other, .text),
    ])
    func familyPaths(path: String, label: RouteLabel, errors: RouteTraits.ErrorFormat) {
        let route = RequestRoute(target: path.utf8)
        #expect(route.traits.label == label && route.traits.errors == errors && route.traits.access == .control)
        #expect(throws: ParseError(.notFound, "")) { try route.parsed.get() }
    }

    @Test("A route's traits hold when its parameters do not parse, so a refusal counts where it was meant")
    func traitsOfRefusedTargets() {
        let badURL = RequestRoute(target: "/proxy?url=%zz".utf8)
        #expect(badURL.traits.label == .proxy && badURL.traits.access == .media)
        #expect(throws: ParseError(.malformed, "")) { try badURL.parsed.get() }
        let tooLong = RequestRoute(target: ("/sessions/s1/index.m3u8?" + String(repeating: "a", count: 100)).utf8,
                                   limits: RequestTargetLimits(maximumLength: 50))
        #expect(tooLong.traits.label == .session && tooLong.traits.access == .media)
        #expect(throws: ParseError(.tooLong, "")) { try tooLong.parsed.get() }
    }

    @Test("Pattern matching: * is one segment that is not empty, ** at least one of anything, and nothing may be left")
    func patterns() {
        func matches(_ pattern: String, _ path: String) -> Bool { RoutePattern(pattern).match(Array(path.utf8)) != nil }
        #expect(matches("/sessions/*/proxy", "/sessions/a/proxy"))
        #expect(!matches("/sessions/*/proxy", "/sessions//proxy"))
        #expect(!matches("/sessions/*/proxy", "/sessions/a/proxy/"))
        #expect(matches("/dash/**", "/dash/"))
        #expect(matches("/dash/**", "/dash/a/b//c"))
        #expect(!matches("/dash/**", "/dash"))
        #expect(matches("/", "/"))
        #expect(!matches("/", ""))
        #expect(!matches("/proxy", "proxy"))
        let parameter = RoutePattern("/downloads/*").match(Array("/downloads/d-1".utf8))
        #expect(parameter == 11..<14)
    }
}
