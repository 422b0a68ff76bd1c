import DASH
import Testing

/// XML well-formedness as the tokenizer checks it: what it refuses, with which code and where,
/// and what it accepts and decodes.
@Suite struct TokenizerTests {
    static let header = "<MPD profiles=\"x\" minBufferTime=\"PT1S\">"

    @Test(arguments: [
        ("<MPD><a></b></MPD>", DASHParseError.Code.malformedXML, 9),
        ("<MPD a=\"1\" a=\"2\"/>", .malformedXML, 12),
        ("<MPD a=1/>", .malformedXML, 8),
        ("<MPD a=\"<\"/>", .malformedXML, 9),
        ("<MPD a=\"1\"b=\"2\"/>", .malformedXML, 11),
        ("<MPD><a>", .malformedXML, 6),
        ("<MPD/><MPD/>", .malformedXML, 7),
        ("text<MPD/>", .malformedXML, 1),
        ("<MPD/>trailing", .malformedXML, 7),
        ("<MPD>]]></MPD>", .malformedXML, 6),
        ("<MPD><!-- a -- b --></MPD>", .malformedXML, 13),
        ("<MPD><?xml version=\"1.0\"?></MPD>", .malformedXML, 6),
        ("<MPD>&nbsp;</MPD>", .entity, 6),
        ("<MPD>&#0;</MPD>", .entity, 6),
        ("<MPD>&#x110000;</MPD>", .entity, 6),
        ("<MPD>a & b</MPD>", .entity, 8),
        ("<MPD>\u{1}</MPD>", .encoding, 6),
        ("<MPD><!DOCTYPE x></MPD>", .doctype, 6),
        ("<Playlist/>", .notAManifest, 1),
        ("", .notAManifest, 0),
        ("  ", .notAManifest, 3),
    ])
    func malformedInputIsRefusedAtItsColumn(_ text: String, _ code: DASHParseError.Code, _ column: Int) {
        let error = #expect(throws: DASHParseError.self) { try DASHManifest(parsing: text) }
        #expect(error?.code == code, "\(text)")
        #expect(error?.column == column, "\(text)")
    }

    /// The runs of plain bytes in attribute values and between elements are scanned 16 bytes
    /// at a time, with a byte loop for the last few: a byte that ends a run is found at every
    /// offset in and around a block, with the column it is at.
    @Test func aByteThatEndsAPlainRunIsFoundAtEveryOffset() {
        for offset in 0..<40 {
            let run = String(repeating: "v", count: offset)
            // The value starts at column 9, the text after the header at the column past it.
            for (special, code) in [("<", DASHParseError.Code.malformedXML), ("\u{1}", .encoding), ("&x;", .entity)] {
                let value = "<MPD a=\"" + run + special + "\" b=\"" + String(repeating: "w", count: 40) + "\"/>"
                let valueError = #expect(throws: DASHParseError.self) { try DASHManifest(parsing: value) }
                #expect(valueError?.code == code && valueError?.column == 9 + offset, "value, offset \(offset), \(special)")
            }
            let indentation = String(repeating: " ", count: offset)
            for (special, code) in [("\u{1}", DASHParseError.Code.encoding), ("]]>", .malformedXML), ("&x;", .entity)] {
                let text = Self.header + indentation + special + String(repeating: " ", count: 40) + "</MPD>"
                let textError = #expect(throws: DASHParseError.self) { try DASHManifest(parsing: text) }
                #expect(textError?.code == code && textError?.column == Self.header.utf8.count + 1 + offset,
                        "text, offset \(offset)")
            }
            // Bytes a run holds: non-ASCII UTF-8, tab and LF in text, references.
            let accepted = Self.header + "<BaseURL>" + indentation + "\té\n&amp;" + run + "</BaseURL>"
                + "<Location>" + run + "\r</Location><Period id=\"" + run + "é&amp;\"/>" + indentation + "</MPD>"
            let manifest = try? DASHManifest(parsing: accepted)
            #expect(manifest?.baseURLs.map(\.url) == ["é\n&" + run], "offset \(offset)")
            #expect(manifest?.periods.first?.id == run + "é&", "offset \(offset)")
            #expect(manifest?.formatted() == Array(accepted.utf8))
        }
    }

    @Test func invalidUTF8IsRefusedWhereverItIs() {
        for bytes: [UInt8] in [[0xC3, 0x28], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xF8]] {
            let text = Array("<MPD a=\"".utf8) + bytes + Array("\"/>".utf8)
            #expect(throws: DASHParseError(code: .encoding, message: "", position: .whole)) { try DASHManifest(parsing: text) }
            let content = Array("<MPD>".utf8) + bytes + Array("</MPD>".utf8)
            #expect(throws: DASHParseError(code: .encoding, message: "", position: .whole)) { try DASHManifest(parsing: content) }
        }
    }

    @Test func referencesCDATAAndNormalizationAreDecoded() throws {
        let text = Self.header + """
            <BaseURL>  <![CDATA[http://a.example/x&y/]]><!-- c --> </BaseURL>\
            <Location>http://a.example/&#x24;&amp;&#36;&lt;&gt;&apos;&quot;</Location>\
            <Period id="a&#10;b\tc"/></MPD>
            """
        let manifest = try DASHManifest(parsing: text)
        #expect(manifest.baseURLs.map(\.url) == ["http://a.example/x&y/"])
        #expect(manifest.locations == ["http://a.example/$&$<>'\""])
        // A character reference keeps its line feed; a literal tab becomes a space.
        #expect(manifest.periods.first?.id == "a\nb c")
        #expect(manifest.formatted() == Array(text.utf8))
    }

    @Test func unknownElementsAndAttributesAreKeptAndReachable() throws {
        let manifest = try Fixtures.manifest("handwritten/cdn-base-urls.mpd")
        #expect(manifest.root.attribute("x:custom") == "kept")
        let unknown = try #require(manifest.root.children.first { $0.name == "x:Unknown" })
        #expect(unknown.localName == "Unknown")
        #expect(unknown.children.first?.text == "text <kept>")
        #expect(String(decoding: unknown.sourceBytes, as: UTF8.self)
                == "<x:Unknown attr=\"1\"><x:Child>text &lt;kept&gt;</x:Child></x:Unknown>")
    }

    @Test func prefixedMPDElementsAreRecognizedThroughTheirNamespace() throws {
        let text = """
            <d:MPD xmlns:d="urn:mpeg:dash:schema:mpd:2011" profiles="x" minBufferTime="PT1S"><d:Period id="1">\
            <d:AdaptationSet><d:Representation id="r" bandwidth="5"/></d:AdaptationSet></d:Period>\
            <other:Period xmlns:other="urn:other" id="2"/></d:MPD>
            """
        let manifest = try DASHManifest(parsing: text, options: DASHParserOptions(mode: .strict))
        #expect(manifest.periods.map(\.id) == ["1"])
        #expect(manifest.representations.map(\.id) == ["r"])
    }

    @Test func looksLikeManifestSniffsTheRootName() {
        #expect(DASHManifest.looksLikeManifest(Array("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- x -->\n<MPD>".utf8)))
        #expect(DASHManifest.looksLikeManifest(Array("<dash:MPD xmlns:dash=\"x\">".utf8)))
        #expect(!DASHManifest.looksLikeManifest(Array("#EXTM3U\n".utf8)))
        #expect(!DASHManifest.looksLikeManifest(Array("<html><MPD>".utf8)))
    }
}
