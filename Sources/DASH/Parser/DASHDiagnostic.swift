public import CodedErrors

/// A rule an MPD broke (ISO/IEC 23009-1 and its schema), with where it broke it.
///
/// In lenient mode the parser keeps going and collects these as warnings; in strict mode the
/// first one is thrown as a ``DASHParseError``. `sparsecache dash lint` prints all of them.
/// Unknown elements and attributes are never diagnostics: MPDs are extensible and every byte
/// of them is kept.
public struct DASHDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// Which rule was broken. Codes are stable strings, so scripts and tests can match them.
    public typealias Code = ErrorCode<DASHDiagnostic>

    /// The rule broken.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// Where the offending element or attribute starts.
    public var position: DASHPosition

    /// A diagnostic at `position`.
    public init(code: Code, message: String, position: DASHPosition) {
        self.code = code
        self.message = message
        self.position = position
    }

    public var description: String { "\(position): \(message)" }
}

extension ErrorCode where Domain == DASHDiagnostic {
    /// A required attribute is missing (`MPD@profiles`, `Representation@id`, `S@d`, ...).
    public static var missingAttribute: Self { Self(rawValue: "missing-attribute") }

    /// An attribute's value does not follow its type: a number, a duration, a byte range,
    /// an enumeration.
    public static var value: Self { Self(rawValue: "value") }

    /// A segment template (`@media`, `@initialization`, ...) with an unknown or malformed
    /// `$...$` identifier, or one that may not appear in that attribute.
    public static var template: Self { Self(rawValue: "template") }

    /// A `SegmentTimeline` whose `S@t` goes back in time, or a negative `@r` other than -1.
    public static var timeline: Self { Self(rawValue: "timeline") }

    /// More than one of `SegmentBase`, `SegmentList` and `SegmentTemplate` on one element.
    public static var segmentInformation: Self { Self(rawValue: "segment-information") }

    /// An element where its parent may not hold it (a `BaseURL` with child elements, ...).
    public static var placement: Self { Self(rawValue: "placement") }
}
