import CacheProxyParsing
import CacheStore
import HLS
import Logging

/// One background revalidation of a cached multivariant playlist that went stale: a
/// conditional request with the copy's validators (an unchanged playlist costs a `304`), run
/// as a tracked fetch (shutdown cancels it) at ``FetchUrgency/deep``. Its answer is what the
/// next request gets; until then, and whenever the origin fails or answers garbage, the cached
/// copy is served. Only an origin that no longer has the playlist (`404`, `410`) ends the copy:
/// the next request passes that answer to the player.
struct PlaylistRevalidation {
    let environment: FetchEnvironment
    let origin: OriginURL
    let key: String
    let cachedBody: [UInt8]
    /// The fields the request that found the copy stale was asked with.
    let headers: OriginHeaderFields

    /// Starts the revalidation, unless the copy is fresh or one already runs.
    func startIfStale(validators: EntryMetadata) {
        let freshness = environment.playlistFreshness
        guard freshness.beginRevalidation(key) else { return }
        let started = environment.fetches.start { [self] in
            await run(validators: validators)
            freshness.endRevalidation(key)
            return nil
        }
        if started == nil { freshness.endRevalidation(key) }
    }

    private func run(validators: EntryMetadata) async {
        let freshness = environment.playlistFreshness
        do {
            let answer = try await environment.playlistFetches.revalidate(origin, validators: validators, headers: headers)
            let notModified = answer.head.status == 304
            environment.counters.recordRevalidation(notModified: notModified)
            if !notModified {
                guard PlaylistCache.parse(answer.body, url: answer.finalURL) != nil else {
                    noteFailure("the origin answered with something that is not a playlist")
                    return
                }
                PlaylistCache(environment: environment).save(answer, key: key, replacing: cachedBody)
            }
            freshness.confirmed(key, lifetime: freshness.lifetime(of: answer.head))
        } catch let error as UpstreamError {
            if case .status(let status) = error.code, status == 404 || status == 410 {
                _ = try? environment.store.remove(key: key)
                freshness.forget(key)
                environment.logger.notice("a cached playlist is gone from its origin: the next request gets the origin's answer",
                                      metadata: ["url": "\(origin)", "status": "\(status)"])
                return
            }
            noteFailure(error.message)
        } catch is CancellationError {
            return
        } catch {
            noteFailure("\(error)")
        }
    }

    /// Logs a failed revalidation once until one succeeds; the cached copy goes on serving.
    private func noteFailure(_ reason: String) {
        guard environment.playlistFreshness.failed(key) else { return }
        environment.logger.notice("could not revalidate a cached playlist: serving the cached copy",
                              metadata: ["url": "\(origin)", "reason": "\(reason)"])
    }
}
