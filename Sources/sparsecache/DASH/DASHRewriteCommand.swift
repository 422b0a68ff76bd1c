import ArgumentParser
import DASH

/// `sparsecache dash rewrite FILE --base URL --proxy http://127.0.0.1:PORT [--served URL] [--max-bandwidth BPS] [--lock ID]`.
struct DASHRewriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Print the MPD with every URL a player requests routed through the proxy.",
        discussion: """
            URLs take the path form <proxy>/dash/<percent-encoded origin prefix>/<rest>, which keeps $Number$ and the \
            other template identifiers literal. References that already resolve through the proxy from where the MPD is \
            served (by default its own path-form URL) are kept; every other byte is kept. Exits 1 for an MPD with an \
            xlink:href remote element (never fetched) or a URL without a path form.
            """
    )

    @Argument(help: "The MPD file.")
    var file: String

    @Option(help: "The MPD's origin URL, which relative URLs resolve against.")
    var base: String

    @Option(help: "The proxy's origin, such as http://127.0.0.1:8080.")
    var proxy: String

    @Option(help: "The URL the player fetches the rewritten MPD from (default: its path-form URL on the proxy).")
    var served: String?

    @Option(name: .customLong("max-bandwidth"), help: "Drop Representations whose @bandwidth is above BPS (each AdaptationSet keeps its lowest).")
    var maxBandwidth: UInt64?

    @Option(help: "Keep only the Representation with this @id in its AdaptationSet (quality lock).")
    var lock: String?

    @Flag(name: .customLong("keep-patch-locations"), help: "Keep PatchLocation elements (routed through the proxy) instead of removing them.")
    var keepPatchLocations = false

    func run() throws {
        let baseURL = try ManifestFile.baseURL(base)
        guard let endpoint = DASHProxyEndpoint(proxy) else {
            throw CommandFailure(code: .failure, message: "--proxy \(proxy) is not an http origin such as http://127.0.0.1:8080")
        }
        var policy = DASHProxyRewritePolicy(endpoint: endpoint, maximumBandwidth: maxBandwidth,
                                            keepsPatchLocations: keepPatchLocations)
        if let served {
            guard let servedURL = DASHAbsoluteURL(served) else {
                throw CommandFailure(code: .failure, message: "--served \(served) is not an absolute URL")
            }
            policy.servedManifestURL = servedURL
        }
        let manifest = try ManifestFile.parse(file)
        if let lock {
            guard let locked = manifest.representations.first(where: { $0.id == lock }) else {
                throw CommandFailure(code: .failure, message: "--lock \(lock): no Representation has that @id")
            }
            policy.lock(to: locked.summary)
        }
        do {
            PlaylistFile.writeBytes(try manifest.rewritten(manifestURL: baseURL, policy: policy))
        } catch {
            throw CommandFailure(code: .failure, message: "\(file): \(error.code): \(error)")
        }
    }
}
