import HLS
import Testing

/// RFC 3986 section 5.4: every normal and abnormal example, against its base URI.
@Suite struct URIResolutionTests {
    static let base = HLSBaseURL("http://a/b/c/d;p?q")!

    static let normal: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ]

    static let abnormal: [(String, String)] = [
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
    ]

    @Test(arguments: normal + abnormal)
    func resolvesLikeRFC3986(_ example: (String, String)) {
        #expect(Self.base.resolve(example.0) == example.1)
    }

    @Test(arguments: [
        ("https://h/p/index.m3u8?token=abc", "seg.ts", "https://h/p/seg.ts"),
        ("https://h", "seg.ts", "https://h/seg.ts"),
        ("https://h", "../a/./seg.ts", "https://h/a/seg.ts"),
        ("https://h/p/index.m3u8", "HTTP://CDN.EXAMPLE.COM:8080/./a/../b/5.m4s", "HTTP://CDN.EXAMPLE.COM:8080/b/5.m4s"),
        ("https://h/p/index.m3u8", "skd://key-id", "skd://key-id"),
        ("https://h/p/index.m3u8", "seg%20with%20space.m4s", "https://h/p/seg%20with%20space.m4s"),
    ])
    func resolvesPlaylistShapedReferences(_ example: (String, String, String)) throws {
        let base = try #require(HLSBaseURL(example.0))
        #expect(base.resolve(example.1) == example.2)
    }

    @Test(arguments: ["", "index.m3u8", "/path/index.m3u8", "//host/index.m3u8", "1http://x"])
    func aBaseMustBeAbsolute(_ text: String) {
        #expect(HLSBaseURL(text) == nil)
    }
}
