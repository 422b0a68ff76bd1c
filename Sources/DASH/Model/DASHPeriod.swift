/// A `Period`: an interval of the presentation with its own AdaptationSets.
public struct DASHPeriod: Sendable {
    let document: XMLDocument
    let index: Int32
    /// 0-based position among the MPD's Periods.
    public let ordinal: Int

    /// The element, for what the model does not cover.
    public var element: DASHElement { DASHElement(document: document, index: index) }
    /// `@id`.
    public var id: String? { document.value("id", of: index) }
    /// `@start`, as written.
    public var start: DASHDuration? { document.value("start", of: index).flatMap(DASHDuration.init) }
    /// `@duration`, as written.
    public var duration: DASHDuration? { document.value("duration", of: index).flatMap(DASHDuration.init) }
    /// The Period's `BaseURL` elements.
    public var baseURLs: [DASHBaseURL] { DASHBaseURL.all(in: document, under: index) }
    /// The AdaptationSets, in order.
    public var adaptationSets: [DASHAdaptationSet] {
        document.children(of: index, kind: .adaptationSet).enumerated().map {
            DASHAdaptationSet(document: document, index: $1, period: self, ordinal: $0)
        }
    }
    /// `xlink:href`, when the Period is a remote element.
    public var remoteHref: String? { RemoteReference.href(of: index, in: document).map { document.value(ofAttribute: $0) } }

    /// When the Period starts, in seconds from the start of the presentation (section 5.3.2.1):
    /// `@start`; else the end of the previous Period; else 0 for the first Period of a static
    /// MPD. Nil when it cannot be known (an early dynamic Period without `@start`).
    public var startSeconds: Double? {
        if let start { return start.seconds }
        let periods = document.children(of: 0, kind: .period)
        guard ordinal > 0 else {
            return DASHManifest.presentationType(in: document) == .static ? 0 : nil
        }
        let previous = DASHPeriod(document: document, index: periods[ordinal - 1], ordinal: ordinal - 1)
        guard let previousStart = previous.startSeconds, let previousDuration = previous.duration else { return nil }
        return previousStart + previousDuration.seconds
    }

    /// How long the Period lasts, in seconds: `@duration`; else up to the next Period's start;
    /// else, for the last Period, up to `MPD@mediaPresentationDuration`. Nil when unknown (a
    /// live Period still going on).
    public var durationSeconds: Double? {
        if let duration { return duration.seconds }
        guard let startSeconds else { return nil }
        let periods = document.children(of: 0, kind: .period)
        if ordinal + 1 < periods.count {
            let next = DASHPeriod(document: document, index: periods[ordinal + 1], ordinal: ordinal + 1)
            return next.start.map { $0.seconds - startSeconds }
        }
        guard let total = document.value("mediaPresentationDuration", of: 0).flatMap(DASHDuration.init) else { return nil }
        return total.seconds - startSeconds
    }
}

extension DASHManifest {
    static func presentationType(in document: XMLDocument) -> DASHPresentationType {
        document.value("type", of: 0).flatMap { DASHPresentationType(rawValue: XMLNumber.trimmed($0)) } ?? .static
    }
}
