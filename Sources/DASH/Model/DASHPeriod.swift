/// A `Period`: an interval of the presentation with its own AdaptationSets.
public struct DASHPeriod: Sendable {
    let document: XMLDocument
    let index: Int32
    /// 0-based position among the MPD's Periods.
    public let ordinal: Int
    let timings: PeriodTimings

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
    public var startSeconds: Double? { timings.starts[ordinal] }

    /// How long the Period lasts, in seconds: `@duration`; else up to the next Period's `@start`;
    /// else, for the last Period, up to `MPD@mediaPresentationDuration`. Nil when unknown (a
    /// live Period still going on).
    public var durationSeconds: Double? { timings.durations[ordinal] }
}

/// The start and duration of every Period, derived once for all of them (each depends on the
/// one before or after it).
struct PeriodTimings: Sendable {
    let starts: [Double?]
    let durations: [Double?]

    init(document: XMLDocument, periods: [Int32]) {
        func seconds(_ name: StaticString, of period: Int32) -> Double? {
            document.value(name, of: period).flatMap(DASHDuration.init)?.seconds
        }
        var starts: [Double?] = []
        starts.reserveCapacity(periods.count)
        for (ordinal, period) in periods.enumerated() {
            if let start = seconds("start", of: period) {
                starts.append(start)
            } else if ordinal == 0 {
                starts.append(DASHManifest.presentationType(in: document) == .static ? 0 : nil)
            } else if let previousStart = starts[ordinal - 1], let previousDuration = seconds("duration", of: periods[ordinal - 1]) {
                starts.append(previousStart + previousDuration)
            } else {
                starts.append(nil)
            }
        }
        let total = document.value("mediaPresentationDuration", of: 0).flatMap(DASHDuration.init)?.seconds
        durations = periods.enumerated().map { ordinal, period -> Double? in
            if let duration = seconds("duration", of: period) { return duration }
            guard let start = starts[ordinal] else { return nil }
            if ordinal + 1 < periods.count { return seconds("start", of: periods[ordinal + 1]).map { $0 - start } }
            return total.map { $0 - start }
        }
        self.starts = starts
    }
}

extension DASHManifest {
    static func presentationType(in document: XMLDocument) -> DASHPresentationType {
        document.value("type", of: 0).flatMap { DASHPresentationType(rawValue: XMLNumber.trimmed($0)) } ?? .static
    }
}
