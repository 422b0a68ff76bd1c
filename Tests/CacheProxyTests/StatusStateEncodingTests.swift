import CacheProxy
import Foundation
import Testing

/// The states of the status reports are enums in Swift and, in JSON, the very names the proxy's
/// HTTP API has always reported (the CLI prints these objects; scripts read them). A name a newer
/// proxy adds decodes as `.unknown(name)` and encodes back unchanged.
@Suite("Status states encode as their names")
struct StatusStateEncodingTests {
    static let downloadStates: [(DownloadStatus.State, String)] = [
        (.queued, "queued"), (.running, "running"), (.done, "done"), (.failed, "failed"), (.cancelled, "cancelled"),
    ]
    static let prefetchStates: [(PrefetchStatus.Job.State, String)] = [
        (.queued, "queued"), (.running, "running"), (.done, "done"), (.failed, "failed"), (.cancelled, "cancelled"),
        (.stopped, "stopped"),
    ]
    static let sessionStates: [(PlaybackSessionStatus.State, String)] = [(.active, "active"), (.idle, "idle"), (.closed, "closed")]
    static let breakerStates: [(ProxyStatus.BreakerState, String)] = [(.closed, "closed"), (.open, "open"), (.halfOpen, "half-open")]

    /// The JSON of `value` with sorted keys, as text.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `state` encodes as `name`, `name` decodes and converts to `state`, and `name` is listed
    /// among the known states.
    static func expectNamed<State: StatusState>(_ state: State, _ name: String) throws {
        #expect(try json([state]) == "[\"\(name)\"]")
        #expect(try JSONDecoder().decode([State].self, from: Data("[\"\(name)\"]".utf8)) == [state])
        #expect(State(rawValue: name) == state)
        #expect(state.rawValue == name && "\(state)" == name)
        #expect(State.known.contains(state))
    }

    /// A name this version does not know decodes as `.unknown(name)`, and encodes back as it was read.
    static func expectUnknownKept<State: StatusState>(_ type: State.Type, knownCount: Int) throws {
        let decoded = try JSONDecoder().decode([State].self, from: Data(#"["paused", "Done", ""]"#.utf8))
        #expect(decoded == [.unknown("paused"), .unknown("Done"), .unknown("")])
        #expect(try json(decoded) == #"["paused","Done",""]"#)
        #expect(State(rawValue: "paused") == .unknown("paused"))
        #expect(State.known.count == knownCount, "every case but unknown is known, once")
        #expect(Set(State.known.map(\.rawValue)).count == knownCount)
    }

    @Test("Download states encode as today's names", arguments: downloadStates)
    func downloadState(_ state: DownloadStatus.State, name: String) throws {
        try Self.expectNamed(state, name)
    }

    @Test("Prefetch job states encode as today's names", arguments: prefetchStates)
    func prefetchState(_ state: PrefetchStatus.Job.State, name: String) throws {
        try Self.expectNamed(state, name)
    }

    @Test("Session states encode as today's names", arguments: sessionStates)
    func sessionState(_ state: PlaybackSessionStatus.State, name: String) throws {
        try Self.expectNamed(state, name)
    }

    @Test("Breaker states encode as today's names", arguments: breakerStates)
    func breakerState(_ state: ProxyStatus.BreakerState, name: String) throws {
        try Self.expectNamed(state, name)
    }

    @Test("A state a newer proxy reports decodes as unknown and encodes back unchanged")
    func unknownStatesKept() throws {
        try Self.expectUnknownKept(DownloadStatus.State.self, knownCount: Self.downloadStates.count)
        try Self.expectUnknownKept(PrefetchStatus.Job.State.self, knownCount: Self.prefetchStates.count)
        try Self.expectUnknownKept(PlaybackSessionStatus.State.self, knownCount: Self.sessionStates.count)
        try Self.expectUnknownKept(ProxyStatus.BreakerState.self, knownCount: Self.breakerStates.count)
    }

    @Test("A download report of a newer proxy decodes, and encodes back to the same JSON")
    func downloadReportOfANewerProxy() throws {
        let reported = #"{"bytes":0,"elapsedSeconds":0,"error":null,"id":"d1","resources":0,"resourcesDone":0,"segments":0,"#
            + #""segmentsDone":0,"state":"paused","url":"https://cdn.example.com/a.m3u8"}"#
        let status = try JSONDecoder().decode(DownloadStatus.self, from: Data(reported.utf8))
        #expect(status.state == .unknown("paused"))
        #expect(try Self.json(status) == reported)
    }

    @Test("Reports as the proxy writes them today decode to the cases and encode back to the same JSON")
    func reportsOfToday() throws {
        let download = #"{"bytes":10,"elapsedSeconds":1.5,"error":null,"id":"d1","resources":2,"resourcesDone":1,"segments":1,"#
            + #""segmentsDone":0,"state":"cancelled","url":"https://cdn.example.com/a.m3u8"}"#
        let downloadStatus = try JSONDecoder().decode(DownloadStatus.self, from: Data(download.utf8))
        #expect(downloadStatus.state == .cancelled)
        #expect(try Self.json(downloadStatus) == download)
        let prefetch = #"{"bytesFetched":0,"finished":1,"jobs":[{"budget":"3 segments","bytesFetched":0,"#
            + #""detail":"the cache is near its size limit","state":"stopped","url":"https://cdn.example.com/b.m3u8"}],"queued":0,"running":0}"#
        let prefetchStatus = try JSONDecoder().decode(PrefetchStatus.self, from: Data(prefetch.utf8))
        #expect(prefetchStatus.jobs.map(\.state) == [.stopped])
        #expect(try Self.json(prefetchStatus) == prefetch)
        let breakers = #"{"127.0.0.1:8080":"half-open","127.0.0.1:8081":"open"}"#
        let breakerStates = try JSONDecoder().decode([String: ProxyStatus.BreakerState].self, from: Data(breakers.utf8))
        #expect(breakerStates == ["127.0.0.1:8080": .halfOpen, "127.0.0.1:8081": .open])
        #expect(try Self.json(breakerStates) == breakers)
    }

    @Test("A state that is not a string fails to decode", arguments: ["[3]", "[null]", "[{}]"])
    func nonStringStateRefused(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([DownloadStatus.State].self, from: Data(json.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ProxyStatus.BreakerState].self, from: Data(json.utf8)) }
    }
}
