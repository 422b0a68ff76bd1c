public import CodedErrors

/// A rule a playlist broke, with the line where it broke it.
///
/// In lenient mode the parser recovers and collects these as warnings; in strict mode the first
/// one is thrown as an ``HLSParseError``. `sparsecache hls lint` prints all of them.
public struct HLSDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// Which rule was broken. Codes are stable strings, so scripts and tests can match them.
    public typealias Code = ErrorCode<HLSDiagnostic>

    /// The rule broken.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// 1-based line number.
    public var line: Int

    /// A diagnostic for `line` (1-based).
    public init(code: Code, message: String, line: Int) {
        self.code = code
        self.message = message
        self.line = line
    }

    public var description: String { "line \(line): \(message)" }
}

extension ErrorCode where Domain == HLSDiagnostic {
    /// The text is not UTF-8, has a BOM, control characters or bare CR line endings.
    public static var encoding: Self { Self(rawValue: "encoding") }

    /// Leading or trailing white space on a line, or in an attribute list.
    public static var whitespace: Self { Self(rawValue: "whitespace") }

    /// `#EXTM3U` is missing, repeated, or not before every other tag.
    public static var header: Self { Self(rawValue: "header") }

    /// A tag's value or attribute list does not follow its grammar.
    public static var malformedTag: Self { Self(rawValue: "malformed-tag") }

    /// A required attribute is missing, or a forbidden one present.
    public static var attribute: Self { Self(rawValue: "attribute") }

    /// A number is out of range (larger than 2^64-1, negative where it must not be, ...).
    public static var range: Self { Self(rawValue: "range") }

    /// A tag that may appear once appears again.
    public static var duplicate: Self { Self(rawValue: "duplicate") }

    /// A tag stands where it may not: after the first segment, in the wrong playlist kind, ...
    public static var placement: Self { Self(rawValue: "placement") }

    /// A URI line without its EXTINF or EXT-X-STREAM-INF, or a tag without its URI line.
    public static var orphan: Self { Self(rawValue: "orphan") }

    /// A byte range whose implicit offset has no previous sub-range of the same resource.
    public static var byteRange: Self { Self(rawValue: "byte-range") }

    /// The playlist uses a feature its EXT-X-VERSION does not allow.
    public static var version: Self { Self(rawValue: "version") }

    /// An EXT-X-DEFINE problem: duplicate or undefined variable, missing import or query parameter.
    public static var variable: Self { Self(rawValue: "variable") }

    /// A playlist-wide rule: missing EXT-X-TARGETDURATION, a segment longer than it, ...
    public static var playlist: Self { Self(rawValue: "playlist") }
}
