/// What a reader found in one of the two header slots.
public struct HeaderSlotStatus: Sendable, Hashable {
    /// 0 or 1.
    public var index: Int
    /// The slot's commit generation when it decoded, nil otherwise.
    public var generation: UInt64?
    /// Why the slot does not decode; nil when it does, and for an empty slot.
    public var problem: String?
    /// Whether the slot is all zeros: a new file's slot 1 before the file's second commit. That
    /// is the normal state of a new file, not damage.
    public var isEmpty: Bool
    /// Whether this slot holds the header in use (the valid one with the highest generation).
    public var isActive: Bool

    /// Whether the slot holds a header that decodes.
    public var isValid: Bool { problem == nil && !isEmpty }
    /// Whether the slot holds something that does not decode (an empty slot is not damaged).
    public var isDamaged: Bool { problem != nil }
}
