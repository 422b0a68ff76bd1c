import Synchronization

/// The proxy's own counters (the store keeps hits, misses and byte counts across restarts).
final class ProxyCounters: Sendable {
    private let requests = Atomic<UInt64>(0)
    private let upstreamRequests = Atomic<UInt64>(0)
    private let fetchedBytes = Atomic<UInt64>(0)
    private let servedBytes = Atomic<UInt64>(0)
    private let brokenResponses = Atomic<UInt64>(0)
    private let ignoredRanges = Atomic<UInt64>(0)
    private let staleServes = Atomic<UInt64>(0)
    private let rawHits = Atomic<UInt64>(0)
    private let chosenSendfileHits = Atomic<UInt64>(0)
    private let mappedHits = Atomic<UInt64>(0)
    private let passedThrough = Atomic<UInt64>(0)
    private let coldReads = Atomic<UInt64>(0)
    private let coldReadBytes = Atomic<UInt64>(0)
    private let openConnections = Atomic<Int>(0)
    private let pausedTransfers = Atomic<UInt64>(0)
    private let cutOrphans = Atomic<UInt64>(0)
    private let preemptedTransfers = Atomic<UInt64>(0)
    private let droppedStalledClients = Atomic<UInt64>(0)
    private let playlistsWithoutOrigin = Atomic<UInt64>(0)
    private let revalidations = Atomic<UInt64>(0)
    private let notModified = Atomic<UInt64>(0)

    func requestReceived() { requests.add(1, ordering: .relaxed) }
    func upstreamRequestStarted() { upstreamRequests.add(1, ordering: .relaxed) }
    func recordFetched(_ count: UInt64) { fetchedBytes.add(count, ordering: .relaxed) }
    func recordServed(_ count: UInt64) { servedBytes.add(count, ordering: .relaxed) }
    func recordBroken() { brokenResponses.add(1, ordering: .relaxed) }
    func recordIgnoredRange() { ignoredRanges.add(1, ordering: .relaxed) }
    func recordStale() { staleServes.add(1, ordering: .relaxed) }
    func recordRawHit() { rawHits.add(1, ordering: .relaxed) }
    func recordChosenSendfileHit() { chosenSendfileHits.add(1, ordering: .relaxed) }
    func recordMappedHit() { mappedHits.add(1, ordering: .relaxed) }
    func recordPassedThrough(_ count: UInt64) { passedThrough.add(count, ordering: .relaxed) }
    func recordColdRead(_ count: UInt64) {
        coldReads.add(1, ordering: .relaxed)
        coldReadBytes.add(count, ordering: .relaxed)
    }
    func recordPausedTransfer() { pausedTransfers.add(1, ordering: .relaxed) }
    func recordCutOrphan() { cutOrphans.add(1, ordering: .relaxed) }
    func recordPreemptedTransfer() { preemptedTransfers.add(1, ordering: .relaxed) }
    func recordStalledClientDropped() { droppedStalledClients.add(1, ordering: .relaxed) }
    func recordPlaylistWithoutOrigin() { playlistsWithoutOrigin.add(1, ordering: .relaxed) }
    func recordRevalidation(notModified wasNotModified: Bool) {
        revalidations.add(1, ordering: .relaxed)
        if wasNotModified { notModified.add(1, ordering: .relaxed) }
    }
    func connectionOpened() { openConnections.add(1, ordering: .relaxed) }
    func connectionClosed() { openConnections.subtract(1, ordering: .relaxed) }

    var snapshot: ProxyStatus.Traffic {
        ProxyStatus.Traffic(
            requests: requests.load(ordering: .relaxed),
            openConnections: openConnections.load(ordering: .relaxed),
            bytesServed: servedBytes.load(ordering: .relaxed),
            upstreamRequests: upstreamRequests.load(ordering: .relaxed),
            bytesFetched: fetchedBytes.load(ordering: .relaxed),
            brokenResponses: brokenResponses.load(ordering: .relaxed),
            originsIgnoringRange: ignoredRanges.load(ordering: .relaxed),
            stalePlaylistsServed: staleServes.load(ordering: .relaxed),
            hitsFromRawRequests: rawHits.load(ordering: .relaxed),
            sendfileChosenHits: chosenSendfileHits.load(ordering: .relaxed),
            mappedHits: mappedHits.load(ordering: .relaxed),
            bytesPassedThrough: passedThrough.load(ordering: .relaxed),
            coldReads: coldReads.load(ordering: .relaxed),
            bytesReadCold: coldReadBytes.load(ordering: .relaxed),
            transfersPaused: pausedTransfers.load(ordering: .relaxed),
            orphansCut: cutOrphans.load(ordering: .relaxed),
            transfersCutForAStart: preemptedTransfers.load(ordering: .relaxed),
            stalledClientsDropped: droppedStalledClients.load(ordering: .relaxed),
            playlistsServedWithoutOrigin: playlistsWithoutOrigin.load(ordering: .relaxed),
            playlistRevalidations: revalidations.load(ordering: .relaxed),
            playlistsNotModified: notModified.load(ordering: .relaxed))
    }
}
