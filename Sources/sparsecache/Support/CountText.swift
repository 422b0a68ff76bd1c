/// A count with its noun, singular for one: `1 resource`, `2 resources`, `0 segments`.
enum CountText {
    static func text(_ count: some BinaryInteger, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}
