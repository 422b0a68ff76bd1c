/// An `AdaptationSet`: interchangeable Representations of one content component.
public struct DASHAdaptationSet: Sendable {
    let document: XMLDocument
    let index: Int32
    /// The Period holding it.
    public let period: DASHPeriod
    /// 0-based position among the Period's AdaptationSets.
    public let ordinal: Int

    /// The element, for what the model does not cover.
    public var element: DASHElement { DASHElement(document: document, index: index) }
    /// `@id`.
    public var id: String? { document.value("id", of: index) }
    /// `@contentType` (`video`, `audio`, `text`, ...).
    public var contentType: String? { document.value("contentType", of: index) }
    /// `@mimeType`.
    public var mimeType: String? { document.value("mimeType", of: index) }
    /// `@codecs`.
    public var codecs: String? { document.value("codecs", of: index) }
    /// `@lang`.
    public var language: String? { document.value("lang", of: index) }
    /// The AdaptationSet's `BaseURL` elements.
    public var baseURLs: [DASHBaseURL] { DASHBaseURL.all(in: document, under: index) }
    /// Its `ContentProtection` elements, untouched.
    public var contentProtections: [DASHContentProtection] { DASHContentProtection.all(in: document, under: index) }
    /// The Representations, in order.
    public var representations: [DASHRepresentation] {
        document.children(of: index, kind: .representation).enumerated().map {
            DASHRepresentation(document: document, index: $1, adaptationSet: self, ordinal: $0)
        }
    }
    /// `xlink:href`, when the AdaptationSet is a remote element.
    public var remoteHref: String? { RemoteReference.href(of: index, in: document).map { document.value(ofAttribute: $0) } }
}
