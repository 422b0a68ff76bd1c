import CacheProxyParsing
import CacheStore
import NIOCore
import SparseFile

/// Answers a request for bytes the cache holds entirely, on the event loop: no task, no hop.
/// Bytes verified before are written from the file's mapping when it is a small file
/// (``MappedCacheFiles``), and sent from the cache file with `sendfile` otherwise, whatever
/// their size; others are read (and so verified) into the buffer that is written, up to one chunk. Anything
/// else gets no answer here, and goes to the asynchronous path: so do bytes whose pages are not
/// in memory (``ResidencyMemo``), which would make the loop wait for the disk (``ColdReader``).
///
/// One per connection, shared by the handler that reads plain requests from the raw bytes
/// (`RawHitHandler`) and the one behind the HTTP/1 codec (`CacheHitHandler`). It keeps
/// what the connection's last hit looked up: a player asks a connection for many ranges of one
/// resource, and parsing, keying and looking up a URL cost more than the rest of a hit.
final class HitResponder {
    struct Answer {
        var plan: ByteResponsePlan
        /// The entry's header lines, for ``writeHead(into:)``.
        var headerLines: [UInt8]
        var version: ProtocolVersion
        /// The `Connection` header's value, when the response carries one.
        var connection: String?
        var body: IOData?
        /// How the body is written, when ``HitWriteChooser`` chose it and wants the write
        /// timed; the writer reports how long it took (``recordWrite(of:nanoseconds:)``).
        var chosenMethod: HitWriteChooser.Method?
        var keepAlive: Bool
        /// The access log's record of the response, appended once it is written; nil when the
        /// access log is off.
        var log: AccessLog.Pending?

        /// The response head, for the HTTP/1 codec's encoder.
        var head: ResponseHead {
            var headers = plan.headers
            if let connection { headers.add(name: "Connection", value: connection) }
            return ResponseHead(version: version, status: plan.status, headers: headers)
        }

        /// The most bytes ``writeHead(into:)`` writes.
        var headCapacity: Int { ByteResponsePlan.headCapacity(headerLines: headerLines, connection: connection) }

        /// The response head as the HTTP/1 codec would write ``head``.
        func writeHead(into buffer: inout ByteBuffer) {
            plan.writeHead(version: version, headerLines: headerLines, connection: connection, into: &buffer)
        }
    }

    /// A request target seen before: the entry key it names, and whether a hit may be served
    /// for it at all (an allowed host, and not a playlist by its name).
    private struct Target {
        let uri: String
        /// The origin URL it names, for the access log.
        let origin: String
        let key: String
        let isServable: Bool
    }

    /// An entry served before, with the revisions that keep it valid: the store's (the key still
    /// names this file) and the file's metadata (the facts still hold).
    private struct Entry {
        let key: String
        let file: SparseFile
        var storeRevision: UInt64
        let metadataRevision: UInt64
        let facts: EntryFacts
        let headerLines: [UInt8]
    }

    private let environment: HitEnvironment
    private let fileHandles: ConnectionFileHandles
    private let routes: RouteMemo
    private var lastTarget: Target?
    /// The request target the connection's last hit named (or the last one looked at): the raw
    /// reader reuses it for a request that names it again.
    var lastURI: String? { lastTarget?.uri }
    private var lastEntry: Entry?
    private var writeChooser = HitWriteChooser()
    private var residency: ResidencyMemo

    init(environment: HitEnvironment, fileHandles: ConnectionFileHandles, routes: RouteMemo) {
        self.environment = environment
        self.fileHandles = fileHandles
        self.routes = routes
        residency = ResidencyMemo(coldReader: environment.coldReader)
    }

    deinit {
        environment.heldFiles.remove(ObjectIdentifier(self))
    }

    /// Lets go of the kept entry and descriptor when the store no longer holds their file, so
    /// that its blocks are freed now rather than at the connection's next request.
    func releaseIfRemoved(from store: CacheStore) {
        if let lastEntry, store.reader(for: lastEntry.key).file !== lastEntry.file { self.lastEntry = nil }
        fileHandles.releaseIfRemoved(from: store)
    }

    /// The answer when the request is a cache hit served here; nil otherwise. `range` and
    /// `ifRange` are the values of those headers.
    func answer(
        method: RequestMethod, uri: String, version: ProtocolVersion, keepAlive: Bool, range: String?, ifRange: String?,
        allocator: ByteBufferAllocator
    ) -> Answer? {
        let started = environment.accessLog == nil ? nil : ContinuousClock.now
        // A match on the cases: RequestMethod's == compares raw value strings.
        let isHead: Bool
        switch method {
        case .GET: isHead = false
        case .HEAD: isHead = true
        default: return nil
        }
        guard let target = target(of: uri), target.isServable,
              let (file, facts, headerLines) = entry(for: target.key), let length = facts.length, !facts.isPlaylist
        else { return nil }
        let range = ByteResponsePlan.requestedRange(range: range, ifRange: ifRange, facts: facts, limits: environment.configuration.limits.range)
        guard let plan = try? ByteResponsePlan(facts: facts, length: length, range: range, isHead: isHead) else { return nil }
        let reader = environment.store.reader(for: target.key)
        var body: IOData?
        var chosenMethod: HitWriteChooser.Method?
        if let bytes = plan.body {
            // Bytes on disk would stall the loop's other connections: the asynchronous path
            // reads them on a cold-read thread.
            if !residency.sawInMemory(bytes, of: ObjectIdentifier(file)) {
                guard residency.isInMemory(bytes, of: file) else { return nil }
            }
            let choice = writeChooser.choose(length: bytes.length)
            if choice.fromMapping,
               let buffer = environment.mappedFiles.buffer(for: bytes, of: file, key: target.key, store: environment.store) {
                body = .byteBuffer(buffer)
                chosenMethod = choice.timed ? .mapping : nil
                reader.recordServed(bytes.length)
                environment.counters.recordMappedHit()
            } else if let region = fileHandles.sharedRegion(for: bytes, of: file, key: target.key) {
                body = .fileRegion(region)
                chosenMethod = choice.timed ? .sendfile : nil
                reader.recordServed(bytes.length)
                if !choice.fromMapping { environment.counters.recordChosenSendfileHit() }
            } else {
                guard let buffer = try? reader.readWhole(bytes, of: file, limit: environment.configuration.responseChunkSize, allocator: allocator) else {
                    return nil
                }
                body = .byteBuffer(buffer)
            }
            environment.counters.recordServed(bytes.length)
        }
        // Everything is cached (and a region's descriptor keeps its bytes readable even if the
        // entry is evicted now): count the hit and mark the entry used, without planning again.
        environment.store.recordHit(key: target.key)
        environment.counters.requestReceived()
        let bodyBytes = plan.body?.length ?? 0
        environment.metrics?.recordResponse(route: .proxy, status: plan.status.code, cache: .hit, bodyBytes: bodyBytes)
        var log: AccessLog.Pending?
        if let accessLog = environment.accessLog, let started {
            log = AccessLog.Pending(log: accessLog, record: AccessLogRecord(
                method: method, target: uri, url: target.origin, status: plan.status.code, bodyBytes: bodyBytes, cache: .hit, started: started,
                firstByte: nil, ended: started))
        }
        let framing = ResponseFraming.decide(version: version, keepAlive: keepAlive, isHead: isHead, hasLength: true)
        return Answer(plan: plan, headerLines: headerLines, version: version, connection: framing.connection, body: body,
                      chosenMethod: chosenMethod, keepAlive: framing.keepAlive, log: log)
    }

    /// The answer's body, written as ``Answer/chosenMethod`` says, took `nanoseconds` to write
    /// into the socket.
    func recordWrite(of answer: Answer, nanoseconds: UInt64) {
        guard let method = answer.chosenMethod, let length = answer.plan.body?.length else { return }
        writeChooser.record(method, length: length, nanoseconds: nanoseconds)
    }

    /// What a request target names, parsed once per distinct target of the connection (the
    /// handlers behind the decoder find the route in the connection's ``RouteMemo``).
    private func target(of uri: String) -> Target? {
        if let lastTarget, lastTarget.uri == uri { return lastTarget }
        let origin: OriginURL
        switch routes.route(for: uri).route {
        case .proxy(let named, let directives)? where directives.isEmpty: origin = named
        #if DASH
        case .dash(let named)?: origin = named
        #endif
        default: return nil
        }
        let target = Target(uri: uri, origin: origin.string, key: environment.store.key(for: origin.string),
                               isServable: environment.fetching.allows(origin) && !PlaylistDetection.hasManifestExtension(origin))
        lastTarget = target
        return target
    }

    /// The entry's file, facts and header lines, looked up again only when the store's entries
    /// or the file's metadata changed since the last hit. The revisions are read before what they vouch for,
    /// so a change in between only makes the next hit look up again.
    private func entry(for key: String) -> (SparseFile, EntryFacts, [UInt8])? {
        let storeRevision = environment.store.entriesRevision
        let kept = lastEntry.flatMap { $0.key == key ? $0 : nil }
        guard let file = kept?.storeRevision == storeRevision ? kept?.file : environment.store.reader(for: key).file else {
            lastEntry = nil
            return nil
        }
        let metadataRevision = file.metadataRevision
        if let kept, kept.file === file, kept.metadataRevision == metadataRevision {
            if kept.storeRevision != storeRevision { lastEntry?.storeRevision = storeRevision }
            return (file, kept.facts, kept.headerLines)
        }
        let facts = EntryFacts(file)
        let entry = Entry(key: key, file: file, storeRevision: storeRevision, metadataRevision: metadataRevision, facts: facts,
                          headerLines: facts.representationHeaderLines())
        lastEntry = entry
        return (file, facts, entry.headerLines)
    }
}
