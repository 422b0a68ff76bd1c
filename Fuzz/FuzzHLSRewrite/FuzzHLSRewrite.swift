import HLS

private let base = HLSBaseURL("https://origin.example/a/b/index.m3u8?token=t")
private let endpoint = HLSProxyEndpoint(port: 8080)

/// Rewrites every URI through the proxy (and, with head-only caching, later segments to the
/// origin). The result must parse, with the same segments and durations, and the same number
/// of lines: a URI can never inject a line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSRewrite(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, let base else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let options = HLSParserOptions(playlistURL: "https://origin.example/a/b/index.m3u8?token=%0A%22evil",
                                   importedVariables: ["host": "https://cdn.example/\r\n\"x"])
    guard let playlist = try? HLSPlaylist(parsing: bytes, options: options) else { return 0 }
    for policy in [HLSProxyRewritePolicy(endpoint: endpoint),
                   HLSProxyRewritePolicy(endpoint: endpoint, headSegmentCount: 1)] {
        let rewritten = playlist.rewritten(base: base, policy: policy)
        var relaxed = options
        relaxed.limits.maximumInputBytes = Int(Int32.max)
        relaxed.limits.maximumLineBytes = Int(Int32.max)
        let reparsed: HLSPlaylist
        do {
            reparsed = try HLSPlaylist(parsing: rewritten, options: relaxed)
        } catch {
            preconditionFailure("rewritten playlist does not parse: \(error)")
        }
        precondition(lineCount(rewritten) == lineCount(bytes), "rewriting changed the number of lines")
        precondition(reparsed.segments.count == playlist.segments.count, "rewriting changed the segment count")
        for (old, new) in zip(playlist.segments, reparsed.segments) {
            precondition(old.duration == new.duration, "rewriting changed a duration")
        }
        precondition(reparsed.variants.count == playlist.variants.count, "rewriting changed the variant count")
    }
    return 0
}

private func lineCount(_ bytes: [UInt8]) -> Int {
    var lines = 0
    var index = 0
    while index < bytes.count {
        if bytes[index] == 0x0A || bytes[index] == 0x0D {
            lines += 1
            if bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
        }
        index += 1
    }
    return lines
}
