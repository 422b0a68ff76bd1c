import HLS

/// Parses arbitrary bytes in both modes and decodes the whole model. It must never trap,
/// lossless formatting must give the input back, and where strict mode accepts the input,
/// lenient mode must accept it with no warning and the same model.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHLSParse(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    _ = HLSPlaylist.looksLikePlaylist(bytes)
    let options = HLSParserOptions(playlistURL: "https://origin.example/a/b.m3u8?token=t&x=%22",
                                   importedVariables: ["host": "https://cdn.example", "p": "/x"])
    var strictOptions = options
    strictOptions.mode = .strict
    let strict = try? HLSPlaylist(parsing: bytes, options: strictOptions)
    guard let playlist = try? HLSPlaylist(parsing: bytes, options: options) else {
        precondition(strict == nil, "strict mode accepted what lenient mode refused")
        return 0
    }
    precondition(playlist.formatted() == bytes, "lossless formatting changed the bytes")
    if let strict {
        precondition(playlist.warnings.isEmpty, "strict mode accepted a playlist with warnings")
        precondition(strict == playlist, "strict and lenient mode parsed different models")
    }
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
