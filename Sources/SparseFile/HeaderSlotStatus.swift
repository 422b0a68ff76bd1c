/// What a reader found in one of the two header slots.
public struct HeaderSlotStatus: Sendable, Hashable {
    /// 0 or 1.
    public var index: Int
    /// The slot's commit generation when it decoded, nil otherwise.
    public var generation: UInt64?
    /// Why the slot does not decode, nil when it does.
    public var problem: String?
    /// Whether this slot holds the header in use (the valid one with the highest generation).
    public var isActive: Bool

    public var isValid: Bool { problem == nil }
}
