import HLS

/// Parses arbitrary bytes in both modes and decodes the whole model. It must never trap, and
/// lossless formatting must give the input back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSParse(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    _ = HLSPlaylist.looksLikePlaylist(bytes)
    let options = HLSParserOptions(playlistURL: "https://origin.example/a/b.m3u8?token=t&x=%22",
                                   importedVariables: ["host": "https://cdn.example", "p": "/x"])
    _ = try? HLSPlaylist(parsing: bytes, options: HLSParserOptions(mode: .strict))
    guard let playlist = try? HLSPlaylist(parsing: bytes, options: options) else { return 0 }
    precondition(playlist.formatted() == bytes, "lossless formatting changed the bytes")
    var checksum = playlist.warnings.count
    for segment in playlist.segments {
        checksum &+= segment.uri.utf8.count &+ segment.keys.count
        _ = segment.duration.value
        _ = segment.byteRange?.httpRangeHeaderValue
    }
    checksum &+= playlist.parts.count &+ playlist.preloadHints.count &+ playlist.renditionReports.count
    checksum &+= playlist.dateRanges.count &+ playlist.variants.count &+ playlist.iFrameVariants.count
    checksum &+= playlist.renditions.count &+ playlist.sessionData.count &+ playlist.sessionKeys.count
    checksum &+= playlist.maps.count &+ playlist.keys.count &+ playlist.variables.count
    _ = (playlist.serverControl, playlist.skip, playlist.start, playlist.contentSteering, playlist.partTarget)
    return checksum == -1 ? 1 : 0
}
