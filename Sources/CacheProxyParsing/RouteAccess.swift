/// Which of the proxy's guards a route needs, decided by its path alone: the one table every
/// request is looked up in before it is routed.
///
/// Players' routes (`/proxy`, `/dash/...` and a session's playlist and media) are ``media``: a player cannot
/// add headers, so they never need the control token, and they take GET and HEAD only.
/// Every other path is ``control``: `/status`, `/metrics`, `/entries`, `/prefetch`,
/// `/sessions`, `/downloads`, and any route added later unless it is added to this table.
public enum RouteAccess: Sendable, Hashable {
    case media
    case control

    /// The media routes; `*` is one path segment.
    static let mediaRoutes: [[String]] = [
        ["proxy"],
        ["sessions", "*", "index.m3u8"],
        ["sessions", "*", "proxy"],
    ]

    /// Whether `path` is DASH's path form under a session, `/sessions/<ID>/dash/...`.
    static func isSessionDASHPath(_ path: some Collection<UInt8>) -> Bool {
        let sessions = "/sessions/".utf8
        guard path.starts(with: sessions) else { return false }
        let rest = path.dropFirst(sessions.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")), slash != rest.startIndex else { return false }
        return rest[slash...].starts(with: "/dash/".utf8)
    }

    /// Whether a request target is a session's media or playlist route, its own DASH path
    /// form included.
    public static func isSessionResource(_ target: some Collection<UInt8>) -> Bool {
        let path = target.prefix { $0 != UInt8(ascii: "?") }
        guard path.starts(with: "/sessions/".utf8) else { return false }
        return isSessionDASHPath(path) || path.reversed().starts(with: "/index.m3u8".utf8.reversed())
            || path.reversed().starts(with: "/proxy".utf8.reversed())
    }

    /// The access a request target needs (its query, if any, is ignored).
    public init(target: some Collection<UInt8>) {
        let path = target.prefix { $0 != UInt8(ascii: "?") }
        // "/a/b" splits into "", "a", "b"; a target not starting with "/" matches nothing.
        guard path.first == UInt8(ascii: "/") else {
            self = .control
            return
        }
        // DASH's path form (`/dash/<prefix>/<rest>`, a session's under `/sessions/ID`) is a
        // player's, however many segments follow.
        if path.starts(with: "/dash/".utf8) || Self.isSessionDASHPath(path) {
            self = .media
            return
        }
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        let isMedia = Self.mediaRoutes.contains { route in
            route.count == segments.count && zip(route, segments).allSatisfy { pattern, segment in
                pattern == "*" ? !segment.isEmpty : segment.elementsEqual(pattern.utf8)
            }
        }
        self = isMedia ? .media : .control
    }
}
