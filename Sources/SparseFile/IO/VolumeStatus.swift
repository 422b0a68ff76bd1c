/// What `statvfs` says about the volume holding a path, in bytes.
package struct VolumeStatus: Sendable, Hashable {
    /// The bytes this process may still allocate (blocks available to unprivileged users).
    package var availableBytes: UInt64
    /// The size of the volume.
    package var totalBytes: UInt64

    /// The status of the volume holding `path`, or nil when it cannot be read (`errno` says why).
    package init?(path: String, calls: SystemCalls) {
        var status = VolumeStatusBuffer()
        guard calls.statvfs(path, &status) == 0 else { return nil }
        let blockSize = UInt64(status.f_frsize)
        availableBytes = UInt64(status.f_bavail).multipliedReportingOverflow(by: blockSize).partialValue
        totalBytes = UInt64(status.f_blocks).multipliedReportingOverflow(by: blockSize).partialValue
    }
}
