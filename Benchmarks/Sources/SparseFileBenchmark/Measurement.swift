#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock timing of repeated runs; the median is reported because a shared machine's
/// noise is one-sided (interference only ever makes a run slower).
enum Measurement {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// Runs `body` `repetitions` times and returns the median duration.
    static func median(repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        for _ in 0..<repetitions { samples.append(try seconds(body)) }
        return median(of: samples)
    }

    static func median(of samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }
}

/// One printed comparison: what was measured, the baseline and SparseFile figures, and the
/// ratio against the goal.
struct Comparison {
    var name: String
    var unit: String
    var baseline: Double
    var candidate: Double
    /// Whether bigger figures are better (throughput) or smaller (latency).
    var higherIsBetter: Bool
    var goal: Double
    var goalText: String

    /// SparseFile's speed relative to the baseline: > 1 means faster.
    var ratio: Double { higherIsBetter ? candidate / baseline : baseline / candidate }
    var passes: Bool { ratio >= goal }

    func line() -> String {
        let figures = "raw \(format(baseline)) \(unit), sparsefile \(format(candidate)) \(unit)"
        return "\(pad(name, 44)) \(pad(figures, 58)) ratio \(format(ratio))x  goal \(goalText)  \(passes ? "PASS" : "FAIL")"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

func format(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return value >= 100 ? String(Int(value.rounded())) : String(scaled)
}
