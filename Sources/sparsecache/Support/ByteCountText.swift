/// Sizes for people, in the binary units of ``SizeArgument``: `512 B`, `1.5 KiB`, `476.8 MiB`.
/// Commands print exact byte counts with `--bytes` or `--json`.
enum ByteCountText {
    static func text(_ count: UInt64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        guard count >= 1024 else { return "\(count) B" }
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // One decimal, rounded down so that a size just under a limit never reads as the limit.
        let tenths = UInt64((value * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
