public import NIOCore

/// An origin's answer: its head, and its body still on its way.
public struct OriginResponse: Sendable {
    public var status: Int
    public var headers: HeaderFields
    public var body: OriginBody

    public init(status: Int, headers: HeaderFields, body: OriginBody) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The body of an ``OriginResponse``: its chunks as they arrive, once.
///
/// Any client's stream fits behind it; the cost is one dynamic call per chunk (chunks are
/// kilobytes).
public struct OriginBody: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    public typealias Failure = any Error

    private let base: any AsyncSequence<ByteBuffer, any Error> & Sendable

    public init(_ base: some AsyncSequence<ByteBuffer, any Error> & Sendable) {
        self.base = base
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: any AsyncIteratorProtocol<ByteBuffer, any Error>

        public mutating func next() async throws -> ByteBuffer? {
            try await base.next()
        }
    }
}
