import ArgumentParser
import CacheProxyParsing

/// `sparsecache url ORIGIN_URL [--port N] [--host H]`: prints the URL that plays ORIGIN_URL through
/// a running `serve`, for scripts (`ffplay "$(sparsecache url https://...)"`) and for people.
struct URLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "Print the proxy URL that plays an origin URL through `sparsecache serve`.",
        discussion: """
            The origin URL is percent-encoded whole, so its own query (a signed URL's signature) reaches the origin \
            intact: https://cdn.example.com/a.m3u8?t=1 becomes \
            http://127.0.0.1:9000/proxy?url=https%3A%2F%2Fcdn.example.com%2Fa.m3u8%3Ft%3D1.
            """)

    @Argument(help: ArgumentHelp("The origin's http or https URL.", valueName: "origin-url"))
    var originURL: String
    @Option(help: "The port the proxy listens on.") var port = 9000
    @Option(help: "The address the proxy listens on.") var host = "127.0.0.1"

    func validate() throws {
        do {
            _ = try OriginURL(parsing: Array(originURL.utf8))
        } catch {
            throw ValidationError("\(originURL) is not a URL the proxy fetches: \(error.message)")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port takes 1 to 65535") }
    }

    func run() {
        writeToStandardOutput(ProxyAddress(host: host, port: port).proxyURL(for: originURL) + "\n")
    }
}
