import NIOCore

/// The body of a ``Transfer`` as its reader sees it: the stream of chunks, telling the transfer
/// what was taken (which lets a held-back transfer go on), and ending the request when the
/// reader is gone.
struct ResponseBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// Cancels the transfer when the last copy of the body and its iterators is dropped: a
    /// response dropped unread, or a loop left early, must not leave the task running.
    fileprivate final class Owner: Sendable {
        let transfer: Transfer
        init(_ transfer: Transfer) { self.transfer = transfer }
        deinit { transfer.cancel() }
    }

    private let chunks: AsyncThrowingStream<ByteBuffer, any Error>
    private let owner: Owner

    init(_ chunks: AsyncThrowingStream<ByteBuffer, any Error>, transfer: Transfer) {
        self.chunks = chunks
        owner = Owner(transfer)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(base: chunks.makeAsyncIterator(), owner: owner)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ByteBuffer, any Error>.Iterator
        fileprivate let owner: Owner

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else {
                // A stream ends quietly when its reader's task is cancelled; the body did not
                // end, so that must not look like its end.
                try Task.checkCancellation()
                return nil
            }
            owner.transfer.consumed(chunk.readableBytes)
            return chunk
        }
    }
}
