import ArgumentParser
import CacheProxyParsing
import CacheStore
import HLS

/// `sparsecache url ORIGIN_URL [--port N] [--host H]`: prints the URL that plays ORIGIN_URL through
/// a running `serve`, for scripts (`ffplay "$(sparsecache url https://...)"`) and for people.
/// Without --port and --host, the address is that of the proxy holding the cache directory (as
/// `fetch` finds it), else 127.0.0.1:9000.
struct URLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "Print the proxy URL that plays an origin URL through `sparsecache serve`.",
        discussion: """
            The origin URL is percent-encoded whole, so its own query (a signed URL's signature) reaches the origin \
            intact: https://cdn.example.com/a.m3u8?t=1 becomes \
            http://127.0.0.1:9000/proxy?url=https%3A%2F%2Fcdn.example.com%2Fa.m3u8%3Ft%3D1. \
            Spaces and non-ASCII characters are percent-encoded first, as browsers and curl send them \
            (http://o.example/a b/é.m3u8 plays http://o.example/a%20b/%C3%A9.m3u8); control characters are refused. \
            Without --port and --host, the URL is for the proxy that runs on the cache directory (--cache-dir, or the \
            per-user one), found as fetch finds it, at the address it recorded (its --public-url when it has one); \
            with no proxy running there, 127.0.0.1:9000.
            """)

    @Argument(help: ArgumentHelp("The origin's http or https URL.", valueName: "origin-url"))
    var originURL: String
    @Option(help: "The port the proxy listens on (default: the running proxy's, else 9000).") var port: Int?
    @Option(help: "The address the proxy listens on (default: the running proxy's, else 127.0.0.1).") var host: String?
    @OptionGroup var cacheDirectory: CacheDirectoryOption

    func validate() throws {
        _ = try encodedOriginURL()
        if let port, !(1...65535).contains(port) { throw ValidationError("--port takes 1 to 65535") }
    }

    func run() throws {
        let origin = try encodedOriginURL()
        if port == nil, host == nil, let running = runningProxyEndpoint() {
            writeToStandardOutput(running.url(for: origin) + "\n")
            return
        }
        writeToStandardOutput(ProxyAddress(host: host ?? "127.0.0.1", port: port ?? 9000).proxyURL(for: origin) + "\n")
    }

    /// The `/proxy` endpoint of the proxy that holds the cache directory, at the base URL it
    /// recorded beside the store; nil when no proxy runs there.
    private func runningProxyEndpoint() -> HLSProxyEndpoint? {
        guard DirectoryCheck.isDirectory(cacheDirectory.path),
              let base = CacheStore.holder(of: cacheDirectory.path)?.controlAddress else { return nil }
        return HLSProxyEndpoint(base + "/proxy")
    }

    /// The origin URL with its spaces and non-ASCII characters percent-encoded, checked to be
    /// one the proxy fetches.
    private func encodedOriginURL() throws(ValidationError) -> String {
        let encoded: String
        do {
            encoded = try PastedURL.encoded(originURL)
        } catch {
            throw ValidationError("\(originURL.debugDescription) is not a URL the proxy fetches: \(error.message)")
        }
        do {
            _ = try OriginURL(parsing: Array(encoded.utf8))
        } catch {
            throw ValidationError("\(originURL) is not a URL the proxy fetches: \(error.message)")
        }
        return encoded
    }
}
