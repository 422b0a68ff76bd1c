import ArgumentParser
import HLS

/// `sparsecache hls rewrite FILE --base URL --proxy http://127.0.0.1:PORT [--head-segments N] [--max-bandwidth BPS]`.
struct HLSRewriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Print the playlist with every URI routed through the proxy.",
        discussion: "Each URI becomes <proxy>/proxy?url=<percent-encoded absolute URI>. Every other byte is kept."
    )

    @Argument(help: "The playlist file.")
    var file: String

    @Option(help: "The playlist's URL, which relative URIs resolve against.")
    var base: String

    @Option(help: "The proxy's origin, such as http://127.0.0.1:8080.")
    var proxy: String

    @Option(name: .customLong("head-segments"), help: "Route only the first N segments through the proxy; later ones keep their absolute origin URI.")
    var headSegments: Int?

    @Option(name: .customLong("max-bandwidth"), help: "Drop variants whose BANDWIDTH is above BPS (the lowest is kept if all are above).")
    var maxBandwidth: UInt64?

    func validate() throws {
        if let headSegments, headSegments < 0 {
            throw ValidationError("--head-segments must not be negative")
        }
    }

    func run() throws {
        guard let baseURL = HLSBaseURL(base) else {
            throw CommandFailure(code: .failure, message: "--base \(base) is not an absolute URL")
        }
        var origin = proxy
        while origin.hasSuffix("/") { origin.removeLast() }
        guard let endpoint = HLSProxyEndpoint(origin + "/proxy") else {
            throw CommandFailure(code: .failure, message: "--proxy \(proxy) is not a usable URL")
        }
        let playlist = try PlaylistFile.parse(file, options: HLSParserOptions(playlistURL: base))
        let policy = HLSProxyRewritePolicy(endpoint: endpoint, headSegmentCount: headSegments,
                                           maximumBandwidth: maxBandwidth)
        PlaylistFile.writeBytes(playlist.rewritten(base: baseURL, policy: policy))
    }
}
