/// An absolute URL that relative references resolve against (RFC 3986 section 5.2), working on
/// bytes: no Foundation `URL`, no allocation per reference beyond the output.
///
/// Resolution is exactly RFC 3986's: dot segments are removed, but scheme and host case are
/// left as written (that is normalization, section 6, not resolution).
public struct HLSBaseURL: Sendable, Hashable, CustomStringConvertible {
    let bytes: [UInt8]
    let components: URIComponents
    /// The base path up to and including its last slash: what relative paths are merged with.
    let directory: Range<Int>
    let directoryHasDotSegments: Bool

    /// Nil unless `string` is an absolute URI (it has a scheme).
    public init?(_ string: String) {
        let bytes = Array(string.utf8)
        let components = bytes.withUnsafeBufferPointer { buffer in
            URIComponents(buffer, 0..<buffer.count)
        }
        guard components.scheme != nil else { return nil }
        self.bytes = bytes
        self.components = components
        let path = components.path
        let lastSlash = bytes[path].lastIndex(of: ASCII.slash)
        directory = path.lowerBound..<(lastSlash.map { $0 + 1 } ?? path.lowerBound)
        directoryHasDotSegments = bytes.withUnsafeBufferPointer { [directory] in DotSegments.contains($0, directory) }
    }

    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The scheme, lower-cased.
    var schemeIsHTTP: Bool {
        guard let scheme = components.scheme else { return false }
        return bytes.withUnsafeBufferPointer { URIComponents.isHTTP($0[scheme]) }
    }

    /// Resolves `reference` against this base.
    public func resolve(_ reference: String) -> String {
        var output = OutputBuffer(capacity: bytes.count + reference.utf8.count + 16)
        let referenceBytes = Array(reference.utf8)
        _ = referenceBytes.withUnsafeBufferPointer { buffer in
            resolve(buffer, 0..<buffer.count, into: &output)
        }
        return String(decoding: output.written, as: UTF8.self)
    }

    /// Appends the resolution of `source[range]` to `output`; returns whether the result's
    /// scheme is http or https.
    @discardableResult
    func resolve(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into output: inout OutputBuffer) -> Bool {
        let reference = URIComponents(source, range)
        return bytes.withUnsafeBufferPointer { base in
            let isHTTP: Bool
            if let scheme = reference.scheme {
                isHTTP = URIComponents.isHTTP(source[scheme])
                // An absolute reference without dot segments resolves to itself.
                if !DotSegments.contains(source, reference.path) {
                    output.append(UnsafeBufferPointer(rebasing: source[range]))
                    return isHTTP
                }
                output.append(UnsafeBufferPointer(rebasing: source[scheme]))
                output.append(ASCII.colon)
                appendAuthority(source, reference.authority, to: &output)
                DotSegments.appendRemoving(source, reference.path, to: &output)
                appendQuery(source, reference.query, to: &output)
            } else {
                isHTTP = schemeIsHTTP
                if let scheme = components.scheme {
                    output.append(UnsafeBufferPointer(rebasing: base[scheme]))
                    output.append(ASCII.colon)
                }
                if reference.authority != nil {
                    appendAuthority(source, reference.authority, to: &output)
                    DotSegments.appendRemoving(source, reference.path, to: &output)
                    appendQuery(source, reference.query, to: &output)
                } else {
                    appendAuthority(base, components.authority, to: &output)
                    if reference.path.isEmpty {
                        output.append(UnsafeBufferPointer(rebasing: base[components.path]))
                        appendQuery(reference.query != nil ? source : base, reference.query ?? components.query,
                                    to: &output)
                    } else if source[reference.path.lowerBound] == ASCII.slash {
                        DotSegments.appendRemoving(source, reference.path, to: &output)
                        appendQuery(source, reference.query, to: &output)
                    } else {
                        appendMerged(base: base, source, reference.path, to: &output)
                        appendQuery(source, reference.query, to: &output)
                    }
                }
            }
            if let fragment = reference.fragment {
                output.append(ASCII.hash)
                output.append(UnsafeBufferPointer(rebasing: source[fragment]))
            }
            return isHTTP
        }
    }

    private func appendAuthority(_ source: UnsafeBufferPointer<UInt8>, _ authority: Range<Int>?,
                                 to output: inout OutputBuffer) {
        guard let authority else { return }
        output.append(ASCII.slash)
        output.append(ASCII.slash)
        output.append(UnsafeBufferPointer(rebasing: source[authority]))
    }

    private func appendQuery(_ source: UnsafeBufferPointer<UInt8>, _ query: Range<Int>?, to output: inout OutputBuffer) {
        guard let query else { return }
        output.append(ASCII.questionMark)
        output.append(UnsafeBufferPointer(rebasing: source[query]))
    }

    /// RFC 3986 section 5.2.3 "merge", then remove_dot_segments. The merged path is the base's
    /// directory and the reference; when neither has a dot segment it is copied as is.
    private func appendMerged(base: UnsafeBufferPointer<UInt8>, _ source: UnsafeBufferPointer<UInt8>,
                              _ path: Range<Int>, to output: inout OutputBuffer) {
        let rootOnly = components.authority != nil && components.path.isEmpty
        let directory = self.directory
        if !directoryHasDotSegments && !DotSegments.contains(source, path) {
            if rootOnly { output.append(ASCII.slash) }
            output.append(UnsafeBufferPointer(rebasing: base[directory]))
            output.append(UnsafeBufferPointer(rebasing: source[path]))
            return
        }
        var merged = OutputBuffer(capacity: directory.count + path.count + 1)
        if rootOnly { merged.append(ASCII.slash) }
        merged.append(UnsafeBufferPointer(rebasing: base[directory]))
        merged.append(UnsafeBufferPointer(rebasing: source[path]))
        let buffer = merged.written
        DotSegments.appendRemoving(buffer, 0..<buffer.count, to: &output)
    }
}
