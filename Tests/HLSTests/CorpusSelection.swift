import HLS

/// The fixtures and corpus playlists sorted by the properties they can exercise, so that a
/// property test runs only on the playlists it is about (a case never passes by returning
/// early) and a companion test requires a minimum of them: a parser change that made most of
/// the corpus unusable for a property would fail it, not silently shrink it.
enum CorpusSelection {
    /// Every playlist that parses (every file but the few that are not playlists at all, which
    /// `CorpusTests` checks are refused), parsed once.
    static let parsed: [(name: String, playlist: HLSPlaylist)] = CorpusTests.allPlaylists.compactMap { name in
        guard !CorpusTests.notPlaylists.contains(name), let input = try? CorpusTests.bytes(name),
              let playlist = try? HLSPlaylist(parsing: input, options: CorpusTests.options) else { return nil }
        return (name, playlist)
    }

    /// Media playlists whose every segment is listed and whose end is known: VOD or ended, no delta update.
    static let finishedMedia: [String] = parsed.filter { $0.playlist.kind == .media && !$0.playlist.isLive && $0.playlist.skip == nil }.map(\.name)

    /// Multivariant playlists with a variant to lock to.
    static let lockable: [String] = parsed.filter { $0.playlist.kind == .master && $0.playlist.variant(for: .lowest) != nil }.map(\.name)

    /// Every playlist that parses.
    static let all: [String] = parsed.map(\.name)

    /// Why joining `playlist` with itself must fail, or nil when it must succeed: the refusals
    /// ``HLSVirtualPlaylist`` documents, from the model alone.
    static func joinRefusal(_ playlist: HLSPlaylist) -> HLSComposeError.Code? {
        if playlist.kind == .master { return .multivariant }
        if playlist.iFramesOnly { return .iFramesOnly }
        if playlist.isLive { return .live }
        if playlist.skip != nil { return .deltaUpdate }
        if playlist.segments.isEmpty { return .empty }
        // Joined with itself, its first segments would follow its own EXT-X-MAP.
        if playlist.segments.first?.map == nil && playlist.segments.contains(where: { $0.map != nil }) { return .missingMap }
        return nil
    }

    /// The playlists that join with themselves.
    static let joinable: [String] = parsed.filter { joinRefusal($0.playlist) == nil }.map(\.name)

    /// The fewest playlists each property must be exercised on: a little under what the
    /// fixtures and the corpus hold today (counted when these were set, in the comments).
    enum Minimum {
        static let joinableFixtures = 12
        static let joinableCorpus = 60
        /// 19 fixtures and 75 corpus playlists on 2026-11-27.
        static let finishedMediaFixtures = 17
        static let finishedMediaCorpus = 70
        /// 3 fixtures and 38 corpus playlists on 2026-11-27.
        static let lockableFixtures = 3
        static let lockableCorpus = 35
    }

    /// How many of `names` are from the shared corpus, and how many fixtures.
    static func counts(_ names: [String]) -> (corpus: Int, fixtures: Int) {
        let corpus = names.filter { $0.hasPrefix("corpus/") }.count
        return (corpus, names.count - corpus)
    }
}
