extension Bool {
    /// Both, evaluated without a branch (`&&` may skip its right side, and so branch): for
    /// conditions whose outcome follows no pattern the processor could learn.
    @inline(__always)
    static func & (lhs: Bool, rhs: Bool) -> Bool {
        (lhs ? 1 as UInt8 : 0) & (rhs ? 1 : 0) != 0
    }
}
