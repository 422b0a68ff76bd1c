import CacheProxy
import CacheStore
import Foundation

/// What `serve` says when it starts, and when it cannot.
enum ServeStartup {
    /// The origin URL of the example play line.
    static let exampleOrigin = "https://cdn.example.com/video/master.m3u8"

    /// The lines after `listening on http://HOST:PORT` (which scripts parse, so it stays first
    /// and alone): the cache directory and its effective limit, the page, and how to play a URL.
    static func banner(_ address: ProxyAddress, store: CacheStore) -> String {
        """
        cache: \(store.directory), limit \(ByteCountText.text(store.maximumSize)) \
        (\(store.entries.count) entries, \(ByteCountText.text(store.totalBytes)) used)
        dashboard: \(address.base)/
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
