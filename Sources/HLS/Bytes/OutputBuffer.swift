/// A growable byte buffer for the rewriter and the canonical writer. It appends through raw
/// pointers (one capacity check per piece rather than a uniqueness and capacity check per
/// byte) and hands its bytes over as an array once, at the end.
struct OutputBuffer: ~Copyable {
    private var pointer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 256)
        pointer = .allocate(capacity: self.capacity)
    }

    deinit {
        pointer.deallocate()
    }

    /// Makes room for `additional` more bytes.
    @inline(__always)
    mutating func reserve(_ additional: Int) {
        if count + additional > capacity { grow(to: count + additional) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let newPointer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newPointer.update(from: pointer, count: count)
        pointer.deallocate()
        pointer = newPointer
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        pointer[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (pointer + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Where the next byte goes. Valid for as many bytes as the last `reserve` made room for.
    @inline(__always)
    var tail: UnsafeMutablePointer<UInt8> { pointer + count }

    /// Accounts for `written` bytes stored through `tail` after a `reserve` of at least that many.
    @inline(__always)
    mutating func advance(by written: Int) {
        precondition(written >= 0 && count + written <= capacity, "OutputBuffer overrun")
        count += written
    }

    /// The bytes written so far; valid until the next append.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: pointer, count: count) }

    mutating func removeAll() {
        count = 0
    }

    /// Drops the bytes after the first `newCount`.
    mutating func truncate(to newCount: Int) {
        count = min(max(newCount, 0), count)
    }

    /// The bytes written, as an array.
    consuming func finish() -> [UInt8] {
        Array(UnsafeBufferPointer(start: pointer, count: count))
    }
}
