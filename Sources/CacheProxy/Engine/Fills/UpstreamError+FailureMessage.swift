extension UpstreamError {
    /// The failure as a client is told it when no cached copy stood in: an unreachable origin
    /// says so, any other failure is the upstream's own words.
    var failureMessage: String {
        code == .unreachable ? "origin unreachable and not cached: \(message)" : message
    }
}
