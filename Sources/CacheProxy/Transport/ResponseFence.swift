import NIOCore

/// What the raw-bytes hit path and the HTTP/1 codec's side share on a connection: how many
/// requests were handed to the HTTP decoder and how many of their responses have ended, and
/// when a request was last answered from the raw bytes. `RawHitHandler` answers a hit from the
/// raw bytes only while the two counts are equal, so a response never overtakes one the HTTP
/// side still owes; `RequestHeadTimeoutHandler` starts its wait for the next head at the last
/// raw answer, which it never sees pass (read here by its timer, not sent up the pipeline per hit).
///
/// Used on the connection's event loop only. The handler counting the ends must see every
/// response end the HTTP side writes, so it sits above the decoder and below every handler
/// that answers (`ProxyServer` installs them in that order; `RawHitTests` fails otherwise).
final class ResponseFence {
    private var handedOn = 0
    private var ended = 0
    /// When `RawHitHandler` last queued a response; nil until it has.
    private(set) var lastRawAnswer: NIODeadline?

    /// Whether every request handed to the decoder has been answered.
    var isClear: Bool { handedOn == ended }

    /// A request goes to the HTTP decoder.
    func handOn() { handedOn += 1 }

    /// A response of the HTTP side has been written to its end.
    func responseEnded() { ended += 1 }

    /// `RawHitHandler` queued a response: the wait for the next request head starts now.
    func answeredRaw() { lastRawAnswer = .now() }
}
