#if DASH
import CacheProxyParsing

extension FetchEnvironment {
    /// Whether the entry cached for `origin` (with the header fields its requests carry) is an
    /// MPD by its content type: how a URL without an `.mpd` extension is told to be DASH.
    func holdsDASHManifest(_ origin: OriginURL, headers: OriginHeaderFields) -> Bool {
        let key = upstream.entryKey(for: origin, headers: headers)
        return store.reader(for: key).file?.metadata.isDASHManifest ?? false
    }
}
#endif
