/// A `BaseURL` element: a URL that the references below it resolve against.
public struct DASHBaseURL: Hashable, Sendable {
    /// The URL as written, with the white space around it trimmed (`xs:anyURI`).
    public var url: String
    /// `@serviceLocation`: names the CDN or server, for choosing among alternative BaseURLs.
    public var serviceLocation: String?
    /// `@byteRange`: a template for turning byte ranges into URLs (rare; never rewritten).
    public var byteRange: String?

    static func all(in document: XMLDocument, under parent: Int32) -> [DASHBaseURL] {
        document.children(of: parent, kind: .baseURL).map { element in
            DASHBaseURL(url: document.uriText(of: element), serviceLocation: document.value("serviceLocation", of: element),
                        byteRange: document.value("byteRange", of: element))
        }
    }
}

/// A `UTCTiming` element: how a client synchronizes its clock for a dynamic presentation.
/// Never rewritten: a proxy must not cache a clock.
public struct DASHUTCTiming: Hashable, Sendable {
    /// `@schemeIdUri`, such as `urn:mpeg:dash:utc:http-xsdate:2014`.
    public var schemeIdURI: String?
    /// `@value`: for the HTTP schemes, the URL(s) of the time source.
    public var value: String?

    init(document: XMLDocument, index: Int32) {
        schemeIdURI = document.value("schemeIdUri", of: index)
        value = document.value("value", of: index)
    }
}

/// A `ContentProtection` element: DRM signalling, kept untouched (never rewritten, its license
/// URLs included).
public struct DASHContentProtection: Sendable {
    /// The element itself, with every attribute and child (`cenc:pssh`, `ms:laurl`, ...).
    public let element: DASHElement
    /// `@schemeIdUri`: the DRM system (`urn:uuid:...`) or `urn:mpeg:dash:mp4protection:2011`.
    public var schemeIdURI: String? { element.document.value("schemeIdUri", of: element.index) }
    /// `@value`, such as `cenc`.
    public var value: String? { element.document.value("value", of: element.index) }
    /// `@cenc:default_KID`, when present.
    public var defaultKID: String? {
        element.attributes.first { $0.name.hasSuffix(":default_KID") || $0.name == "default_KID" }?.value
    }

    static func all(in document: XMLDocument, under parent: Int32) -> [DASHContentProtection] {
        document.children(of: parent, kind: .contentProtection).map {
            DASHContentProtection(element: DASHElement(document: document, index: $0))
        }
    }
}
