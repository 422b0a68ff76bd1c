import ArgumentParser
import HLS

/// `sparsecache hls rewrite FILE --base URL --proxy http://127.0.0.1:PORT [--head-segments N] [--max-bandwidth BPS]`.
struct HLSRewriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Print the playlist with every URI routed through the proxy.",
        discussion: "Each URI becomes <proxy>/proxy?url=<percent-encoded absolute URI>. Every other byte is kept."
    )

    @Argument(help: ArgumentHelp(PlaylistFile.operandHelp, valueName: "file"))
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

    func run() async throws {
        guard let baseURL = HLSBaseURL(base) else {
            throw CommandFailure(code: .failure, message: "--base \(base) is not an absolute URL")
        }
        var origin = proxy
        while origin.hasSuffix("/") { origin.removeLast() }
        // Without a scheme the endpoint would be a relative reference: players resolve every URI
        // against the playlist's own URL, and nothing reaches the proxy.
        let scheme = origin.prefix { $0 != ":" }.lowercased()
        guard origin.contains("://"), scheme == "http" || scheme == "https" else {
            throw CommandFailure(code: .failure, message: "--proxy \(proxy) is not an http origin: write it with its scheme, such as "
                + "http://\(origin.contains("://") ? "127.0.0.1:9000" : origin)")
        }
        guard let endpoint = HLSProxyEndpoint(origin + "/proxy") else {
            throw CommandFailure(code: .failure, message: "--proxy \(proxy) is not a usable URL")
        }
        let playlist = try await PlaylistFile.parse(file, options: HLSParserOptions(playlistURL: base))
        let policy = HLSProxyRewritePolicy(endpoint: endpoint, headSegmentCount: headSegments,
                                           maximumBandwidth: maxBandwidth)
        PlaylistFile.writeBytes(playlist.rewritten(base: baseURL, policy: policy))
    }
}
