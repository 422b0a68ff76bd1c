#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock timing of repeated runs; the median is reported because a shared machine's
/// noise is one-sided (interference only ever makes a run slower).
public enum Measurement {
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// Runs `body` `repetitions` times and returns the median duration.
    public static func median(repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        for _ in 0..<repetitions { samples.append(try seconds(body)) }
        return median(of: samples)
    }

    public static func median(of samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }
}

/// One printed comparison: what was measured, the baseline and SparseFile figures, and the
/// ratio against the goal.
public struct Comparison {
    public var name: String
    public var unit: String
    public var baseline: Double
    public var candidate: Double
    /// Whether bigger figures are better (throughput) or smaller (latency).
    public var higherIsBetter: Bool
    public var goal: Double
    public var goalText: String

    public init(name: String, unit: String, baseline: Double, candidate: Double, higherIsBetter: Bool, goal: Double, goalText: String) {
        self.name = name
        self.unit = unit
        self.baseline = baseline
        self.candidate = candidate
        self.higherIsBetter = higherIsBetter
        self.goal = goal
        self.goalText = goalText
    }

    /// SparseFile's speed relative to the baseline: > 1 means faster.
    public var ratio: Double { higherIsBetter ? candidate / baseline : baseline / candidate }
    public var passes: Bool { ratio >= goal }

    public func line() -> String {
        let figures = "raw \(format(baseline)) \(unit), sparsefile \(format(candidate)) \(unit)"
        return "\(pad(name, 44)) \(pad(figures, 58)) ratio \(format(ratio))x  goal \(goalText)  \(passes ? "PASS" : "FAIL")"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

public func format(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return value >= 100 ? String(Int(value.rounded())) : String(scaled)
}

/// A measured figure with an absolute goal (no baseline exists), printed like a comparison.
public struct Target {
    public var name: String
    public var value: Double
    public var unit: String
    public var limit: Double

    public init(name: String, value: Double, unit: String, limit: Double) {
        self.name = name
        self.value = value
        self.unit = unit
        self.limit = limit
    }

    public var passes: Bool { value <= limit }

    public func line() -> String {
        let text = "\(name): \(format(value)) \(unit)"
        return text + String(repeating: " ", count: max(1, 70 - text.count)) + "goal < \(format(limit)) \(unit)  \(passes ? "PASS" : "FAIL")"
    }
}

/// The value at fraction `quantile` (0...1) of `samples`.
public func percentile(_ samples: [Double], _ quantile: Double) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * quantile + 0.5))]
}
