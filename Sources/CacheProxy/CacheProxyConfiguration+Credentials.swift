import CacheProxyParsing

extension CacheProxyConfiguration {
    /// The fields of a player's request that ``forwardedHeaders`` names, to send to the origin
    /// with the requests made for it. Fields the proxy owns are never forwarded, and a value
    /// the checks of ``OriginHeaderFields`` refuse is left out (the rest still goes).
    func forwardedFields(from request: HeaderFields) -> OriginHeaderFields {
        guard !forwardedHeaders.isEmpty else { return OriginHeaderFields() }
        var pairs: [(name: String, value: String)] = []
        var bytes = 0
        for name in forwardedHeaders where !OriginHeaderFields.refusedNames.contains(name.lowercased()) {
            // Several fields of one name are one list (RFC 9110 section 5.3); `Cookie` joins with "; ".
            let values = request[name]
            guard !values.isEmpty else { continue }
            let value = values.joined(separator: name.lowercased() == "cookie" ? "; " : ", ")
            let size = name.utf8.count + value.utf8.count + 4
            guard pairs.count < OriginHeaderFields.maximumCount, bytes + size <= OriginHeaderFields.maximumBytes,
                  (try? OriginHeaderFields([(name, value)])) != nil else { continue }
            bytes += size
            pairs.append((name, value))
        }
        return (try? OriginHeaderFields(pairs)) ?? OriginHeaderFields()
    }
}
