/// The result of reading into a caller's buffer.
public enum ReadOutcome: Hashable, Sendable {
    /// Every requested byte was cached, verified and copied into the buffer.
    case complete
    /// These original ranges are not cached (or failed verification and were dropped); the
    /// buffer's contents are unspecified. The ranges are sorted and never overlap.
    case missing([ByteRange])
}

/// The result of reading a range into new storage.
public enum ReadResult: Hashable, Sendable {
    /// The requested bytes, all cached and verified.
    case bytes([UInt8])
    /// These original ranges are not cached; see ``ReadOutcome/missing(_:)``.
    case missing([ByteRange])
}
