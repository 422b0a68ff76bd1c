/// A `Representation`: one encoding of the content, with its segments.
public struct DASHRepresentation: Sendable {
    let document: XMLDocument
    let index: Int32
    /// The AdaptationSet holding it.
    public let adaptationSet: DASHAdaptationSet
    /// 0-based position among the AdaptationSet's Representations.
    public let ordinal: Int

    /// The element, for what the model does not cover.
    public var element: DASHElement { DASHElement(document: document, index: index) }
    /// The Period holding it.
    public var period: DASHPeriod { adaptationSet.period }
    /// `@id`, which `$RepresentationID$` expands to.
    public var id: String? { document.value("id", of: index) }
    /// `@bandwidth` in bits per second.
    public var bandwidth: UInt64? { document.value("bandwidth", of: index).flatMap(XMLNumber.unsigned) }
    /// `@width`.
    public var width: UInt64? { document.value("width", of: index).flatMap(XMLNumber.unsigned) }
    /// `@height`.
    public var height: UInt64? { document.value("height", of: index).flatMap(XMLNumber.unsigned) }
    /// `@codecs`, or the AdaptationSet's.
    public var codecs: String? { document.value("codecs", of: index) ?? adaptationSet.codecs }
    /// `@mimeType`, or the AdaptationSet's.
    public var mimeType: String? { document.value("mimeType", of: index) ?? adaptationSet.mimeType }
    /// `@frameRate`, or the AdaptationSet's.
    public var frameRate: String? { document.value("frameRate", of: index) ?? adaptationSet.element.attribute("frameRate") }
    /// The AdaptationSet's `@contentType`, else the type part of the MIME type (`video/mp4` → `video`).
    public var contentType: String? {
        adaptationSet.contentType ?? mimeType.flatMap { $0.split(separator: "/").first.map(String.init) }
    }
    /// The Representation's own `BaseURL` elements.
    public var baseURLs: [DASHBaseURL] { DASHBaseURL.all(in: document, under: index) }
    /// `ContentProtection` of the Representation and of its AdaptationSet, untouched.
    public var contentProtections: [DASHContentProtection] {
        adaptationSet.contentProtections + DASHContentProtection.all(in: document, under: index)
    }

    /// The segment information after inheritance, or nil when no level has any (then the
    /// Representation is one segment: its base URL).
    public var segmentInformation: DASHSegmentInformation? {
        let levels = SegmentInformationLevels(document: document, representation: index)
        switch levels.kind {
        case .segmentTemplate: return .template(DASHSegmentTemplate(levels))
        case .segmentList: return .list(DASHSegmentList(levels))
        case .segmentBase: return .base(DASHSegmentBase(levels))
        default: return nil
        }
    }

    /// What a rewrite policy sees of this Representation.
    public var summary: DASHRepresentationSummary {
        DASHRepresentationSummary(period: period.ordinal, adaptationSet: adaptationSet.ordinal, ordinal: ordinal, id: id,
                                  bandwidth: bandwidth, width: width, height: height, contentType: contentType,
                                  codecs: codecs)
    }
}

/// The facts about a Representation that quality choices are made on.
public struct DASHRepresentationSummary: Hashable, Sendable {
    /// 0-based Period position.
    public var period: Int
    /// 0-based AdaptationSet position within the Period.
    public var adaptationSet: Int
    /// 0-based position within the AdaptationSet.
    public var ordinal: Int
    /// `@id`.
    public var id: String?
    /// `@bandwidth`.
    public var bandwidth: UInt64?
    /// `@width`.
    public var width: UInt64?
    /// `@height`.
    public var height: UInt64?
    /// `video`, `audio`, `text`, ... (see ``DASHRepresentation/contentType``).
    public var contentType: String?
    /// `@codecs`.
    public var codecs: String?

    /// A summary made of its values (for tests and policies built by hand).
    public init(period: Int, adaptationSet: Int, ordinal: Int, id: String?, bandwidth: UInt64?, width: UInt64? = nil,
                height: UInt64? = nil, contentType: String? = nil, codecs: String? = nil) {
        self.period = period
        self.adaptationSet = adaptationSet
        self.ordinal = ordinal
        self.id = id
        self.bandwidth = bandwidth
        self.width = width
        self.height = height
        self.contentType = contentType
        self.codecs = codecs
    }
}
