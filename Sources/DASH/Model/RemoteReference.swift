/// `xlink:href` on `Period`, `AdaptationSet`, `SegmentList`, `EventStream` and friends: an
/// element whose content lives at another URL. SparseCache never fetches one (the proxy would
/// have to fetch and splice untrusted XML on the player's behalf); the rewriter refuses them.
enum RemoteReference {
    /// The special value that asks a client to drop the element: nothing to fetch.
    static let resolveToZero = "urn:mpeg:dash:resolve-to-zero:2013"

    /// The index of the element's `href` attribute in any namespace prefix (`xlink:href`), or
    /// nil. Any prefix counts: refusing a look-alike costs nothing, missing a real one would.
    static func href(of element: Int32, in document: XMLDocument) -> Int32? {
        for attribute in document.attributeIndices(of: element) {
            let record = document.attributes[Int(attribute)]
            guard record.isPrefixed, record.nameEnd - record.nameStart >= 6 else { continue }
            let end = Int(record.nameEnd)
            if document.bytes[(end - 5)..<end].elementsEqual(":href".utf8) { return attribute }
        }
        return nil
    }

    /// The `href` of the element when it names something to fetch (not resolve-to-zero).
    static func fetchable(_ element: Int32, in document: XMLDocument) -> Int32? {
        guard let attribute = href(of: element, in: document) else { return nil }
        return XMLNumber.trimmed(document.value(ofAttribute: attribute)) == resolveToZero ? nil : attribute
    }
}
