/// An absolute URL that relative references resolve against (RFC 3986 section 5.2), working on
/// bytes: no Foundation `URL`, no allocation per reference beyond the output.
///
/// Resolution is exactly RFC 3986's: dot segments are removed, but scheme and host case are
/// left as written (that is normalization, section 6, not resolution).
public struct HLSBaseURL: Sendable, Hashable, CustomStringConvertible {
    let bytes: [UInt8]
    let components: URIComponents

    /// Nil unless `string` is an absolute URI (it has a scheme).
    public init?(_ string: String) {
        let bytes = Array(string.utf8)
        let components = bytes.withUnsafeBufferPointer { buffer in
            URIComponents(buffer, 0..<buffer.count)
        }
        guard components.scheme != nil else { return nil }
        self.bytes = bytes
        self.components = components
    }

    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The scheme, lower-cased.
    var schemeIsHTTP: Bool {
        guard let scheme = components.scheme else { return false }
        return URIComponents.isHTTP(bytes[scheme])
    }

    /// Resolves `reference` against this base.
    public func resolve(_ reference: String) -> String {
        var output: [UInt8] = []
        let referenceBytes = Array(reference.utf8)
        _ = referenceBytes.withUnsafeBufferPointer { buffer in
            resolve(buffer, 0..<buffer.count, into: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the resolution of `source[range]` to `output`; returns whether the result's
    /// scheme is http or https.
    @discardableResult
    func resolve(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into output: inout [UInt8]) -> Bool {
        let reference = URIComponents(source, range)
        return bytes.withUnsafeBufferPointer { base in
            let isHTTP: Bool
            if let scheme = reference.scheme {
                isHTTP = URIComponents.isHTTP(source[scheme])
                output.append(contentsOf: source[scheme])
                output.append(ASCII.colon)
                if let authority = reference.authority {
                    output.append(ASCII.slash)
                    output.append(ASCII.slash)
                    output.append(contentsOf: source[authority])
                }
                DotSegments.appendRemoving(source, reference.path, to: &output)
                appendQuery(source, reference.query, to: &output)
            } else {
                isHTTP = schemeIsHTTP
                if let scheme = components.scheme {
                    output.append(contentsOf: base[scheme])
                    output.append(ASCII.colon)
                }
                if let authority = reference.authority {
                    output.append(ASCII.slash)
                    output.append(ASCII.slash)
                    output.append(contentsOf: source[authority])
                    DotSegments.appendRemoving(source, reference.path, to: &output)
                    appendQuery(source, reference.query, to: &output)
                } else {
                    if let authority = components.authority {
                        output.append(ASCII.slash)
                        output.append(ASCII.slash)
                        output.append(contentsOf: base[authority])
                    }
                    if reference.path.isEmpty {
                        output.append(contentsOf: base[components.path])
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
                output.append(contentsOf: source[fragment])
            }
            return isHTTP
        }
    }

    private func appendQuery(_ source: UnsafeBufferPointer<UInt8>, _ query: Range<Int>?, to output: inout [UInt8]) {
        guard let query else { return }
        output.append(ASCII.questionMark)
        output.append(contentsOf: source[query])
    }

    /// RFC 3986 section 5.2.3 "merge", then remove_dot_segments. The merged path is the base's
    /// directory and the reference; when neither has a dot segment it is copied as is.
    private func appendMerged(base: UnsafeBufferPointer<UInt8>, _ source: UnsafeBufferPointer<UInt8>,
                              _ path: Range<Int>, to output: inout [UInt8]) {
        let rootOnly = components.authority != nil && components.path.isEmpty
        var directory = components.path.lowerBound..<components.path.lowerBound
        if let lastSlash = base[components.path].lastIndex(of: ASCII.slash) {
            directory = components.path.lowerBound..<(lastSlash + 1)
        }
        if !DotSegments.contains(base, directory) && !DotSegments.contains(source, path) {
            if rootOnly { output.append(ASCII.slash) }
            output.append(contentsOf: base[directory])
            output.append(contentsOf: source[path])
            return
        }
        var merged: [UInt8] = []
        merged.reserveCapacity(directory.count + path.count)
        if rootOnly { merged.append(ASCII.slash) }
        merged.append(contentsOf: base[directory])
        merged.append(contentsOf: source[path])
        merged.withUnsafeBufferPointer { buffer in
            DotSegments.appendRemoving(buffer, 0..<buffer.count, to: &output)
        }
    }
}
