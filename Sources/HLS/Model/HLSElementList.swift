/// A random-access list whose elements are decoded from the playlist when read, so that a
/// proxy can count a live playlist's segments or look at the last few without decoding all.
public struct HLSElementList<Element: Sendable>: RandomAccessCollection, Sendable {
    /// The number of elements.
    public let count: Int
    private let element: @Sendable (Int) -> Element

    init(count: Int, element: @escaping @Sendable (Int) -> Element) {
        self.count = count
        self.element = element
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of elements.
    public var endIndex: Int { count }

    /// The element at `position`, decoded now. `position` must be in `0..<count`.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count, "HLSElementList index out of range")
        return element(position)
    }
}

extension HLSElementList: Equatable where Element: Equatable {
    public static func == (lhs: HLSElementList, rhs: HLSElementList) -> Bool {
        lhs.elementsEqual(rhs)
    }
}
