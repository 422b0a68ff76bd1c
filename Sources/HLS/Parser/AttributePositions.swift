/// Where the attribute list just parsed holds each known name: its index in the attribute pool,
/// by ``AttributeName`` raw value. Valid only for the names of that list (its
/// ``AttributeListSummary/names``), which are the ones ever read: the table is never cleared.
///
/// Indexed by a whole byte, so every raw value is in bounds without a check.
struct AttributePositions: ~Copyable {
    private let pointer: UnsafeMutablePointer<Int32>

    init() {
        pointer = .allocate(capacity: 256)
        pointer.initialize(repeating: 0, count: 256)
    }

    deinit {
        pointer.deallocate()
    }

    @inline(__always)
    subscript(name: UInt8) -> Int32 {
        get { pointer[Int(name)] }
        nonmutating set { pointer[Int(name)] = newValue }
    }
}
