import CacheProxy
import CacheStore
import Foundation

/// What `serve` says when it starts, and when it cannot.
enum ServeStartup {
    /// The origin URL of the example play line.
    static let exampleOrigin = "https://cdn.example.com/video/master.m3u8"

    /// The lines after `listening on http://HOST:PORT` (which scripts parse, so it stays first
    /// and alone): the cache directory and its effective limit, the page, and how to play a URL.
    /// With a control token, the page's address carries it in its fragment (never sent by the
    /// browser; the page's script sends it with its requests); the token itself is not printed,
    /// since standard output often ends up in a log.
    static func banner(_ address: ProxyAddress, store: CacheStore, hasControlToken: Bool = false) -> String {
        let dashboard = hasControlToken
            ? "\(address.base)/#token=TOKEN (TOKEN: the --control-token; the browser never sends what follows #)"
            : "\(address.base)/"
        return """
        cache: \(store.directory), limit \(ByteCountText.text(store.maximumSize)) \
        (\(CountText.text(store.entries.count, "entry", plural: "entries")), \(ByteCountText.text(store.totalBytes)) used)
        dashboard: \(dashboard)
        play a URL through it: \(address.proxyURL(for: exampleOrigin)) \
        (sparsecache url\(address.port == 9000 ? "" : " --port \(address.port)") URL prints it for yours)

        """
    }

    /// The one line a failed bind ends with: what happened, then what to do.
    static func bindFailure(_ error: CacheProxyError) -> String {
        error.code == .addressInUse
            ? error.message + "; stop that program, or choose another port with --port (--port 0 picks a free one)"
            : error.message + "; check --host and --port"
    }

    /// Removes the directory `serve` made for a store it then could not use, so that a failed
    /// start leaves nothing behind.
    static func removeCreatedDirectory(_ path: String?) {
        guard let path else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
