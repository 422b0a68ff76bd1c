/// Serialization: lossless (the bytes as parsed) and canonical (normalized).
extension HLSPlaylist {
    /// The playlist written back losslessly: byte for byte the input, with every comment,
    /// unknown tag, spelling, quote and line ending. The line table covers the input without
    /// gaps, so this is one copy of the source bytes into a new buffer.
    public func formatted() -> [UInt8] {
        bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// The playlist normalized: no BOM, LF line endings, no blank lines, no white space around
    /// lines, attribute lists as `NAME=VALUE` joined by commas, EXTINF as `duration,title`, tags
    /// without a value written without a colon. Comments, unknown tags, attribute order, quoting,
    /// number spellings and variable references stay as written, so parsing the result gives
    /// the same model as parsing the original.
    public func canonicalFormatted() -> [UInt8] {
        CanonicalWriter(playlist: self).write()
    }
}
