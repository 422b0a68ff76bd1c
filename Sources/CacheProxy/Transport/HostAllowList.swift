/// The origins a proxy may fetch from: exact host names and `*.suffix` patterns.
struct HostAllowList: Sendable {
    private let exact: Set<String>
    private let suffixes: [String]

    /// nil patterns allow every host.
    init?(_ patterns: [String]?) {
        guard let patterns else { return nil }
        var exact = Set<String>()
        var suffixes: [String] = []
        for pattern in patterns.map({ $0.lowercased() }) {
            if pattern.hasPrefix("*.") {
                suffixes.append(String(pattern.dropFirst(1)))
                exact.insert(String(pattern.dropFirst(2)))
            } else {
                exact.insert(pattern)
            }
        }
        self.exact = exact
        self.suffixes = suffixes
    }

    /// Whether `host` (lower-cased, as ``OriginURL/host`` gives it) is allowed.
    func allows(_ host: String) -> Bool {
        exact.contains(host) || suffixes.contains { host.hasSuffix($0) }
    }
}
