@testable import CacheStore
import SparseFile

// The store's saved index (`DIR/index`, IndexSnapshot) as damaged or foreign bytes. The snapshot
// ends with a checksum of everything before it, which random bytes never match, so each input
// is decoded twice: as it is (the magic and checksum checks), and as the body of a snapshot,
// framed with the magic and its correct checksum (the decoder proper).
//
// What must hold: decoding never traps; a decoded snapshot encodes to bytes that decode to an
// equal snapshot and are no longer than the bytes it came from (the decoder also reads longer
// varints than the encoder writes, and any non-zero `pinned`, but never loses what it read), and
// encoding is a fixed point: the encoding of the decoded encoding is the same bytes.

/// The seed IndexSnapshot checksums its bytes with (`encoded()`, `decode(_:)`).
private let checksumSeed: UInt64 = 0x5343_494E_4458

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreIndex(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    if let snapshot = IndexSnapshot.decode(bytes) { check(snapshot, from: bytes) }
    // Seeds are whole snapshots: their body is what lies between the magic and the checksum.
    var body = bytes
    if bytes.count >= IndexSnapshot.magic.count + 8, bytes.starts(with: IndexSnapshot.magic) {
        body = Array(bytes[IndexSnapshot.magic.count..<(bytes.count - 8)])
    }
    var framed = IndexSnapshot.magic + body
    let checksum = Checksum.of(framed, seed: checksumSeed)
    withUnsafeBytes(of: checksum.littleEndian) { framed.append(contentsOf: $0) }
    guard let snapshot = IndexSnapshot.decode(framed) else { return 0 }
    check(snapshot, from: framed)
    return 0
}

private func check(_ snapshot: IndexSnapshot, from bytes: [UInt8]) {
    precondition(snapshot.records.count <= bytes.count / 12, "\(snapshot.records.count) records from \(bytes.count) bytes")
    for record in snapshot.records {
        precondition(record.key.utf8.count <= 64 * 1024 && record.fileName.utf8.count <= 1024, "a key or file name over its limit")
        precondition(record.contentLength != .max && record.expires != .max && record.headLimit != .max,
                     "an optional value that cannot be encoded")
    }
    let encoded = snapshot.encoded()
    guard let again = IndexSnapshot.decode(encoded) else { preconditionFailure("a decoded snapshot encodes to bytes that do not decode") }
    precondition(again == snapshot, "a decoded snapshot changed through encoding")
    precondition(encoded.count <= bytes.count, "a snapshot encoded longer than the bytes it was decoded from")
    precondition(again.encoded() == encoded, "encoding a decoded encoding changed its bytes")
}
