import HLS

/// Lossless formatting gives the bytes back; the canonical form parses to the same model, and
/// canonicalizing it again changes nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSRoundTrip(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let options = HLSParserOptions(playlistURL: "https://origin.example/index.m3u8?token=t",
                                   importedVariables: ["host": "https://cdn.example"])
    guard let playlist = try? HLSPlaylist(parsing: bytes, options: options) else { return 0 }
    precondition(playlist.formatted() == bytes, "lossless formatting changed the bytes")
    let canonical = playlist.canonicalFormatted()
    let reparsed: HLSPlaylist
    do {
        reparsed = try HLSPlaylist(parsing: canonical, options: options)
    } catch {
        preconditionFailure("canonical form does not parse: \(error)")
    }
    precondition(reparsed == playlist, "canonical form parses to a different model")
    precondition(reparsed.canonicalFormatted() == canonical, "canonical form is not idempotent")
    return 0
}
