@testable import CacheProxy
import Testing

@Suite("Decimal digits written into a response head")
struct DecimalDigitsTests {
    private func digits(_ number: UInt64) -> String {
        let room = 3..<(3 + DecimalDigits.maximumCount)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: room.upperBound + 3)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: UInt8(ascii: "#"))
        let end = DecimalDigits.write(number, into: buffer, at: room.lowerBound)
        #expect(buffer[..<room.lowerBound].allSatisfy { $0 == UInt8(ascii: "#") } && buffer[room.upperBound...].allSatisfy { $0 == UInt8(ascii: "#") },
                "nothing written outside the room")
        return String(decoding: buffer[room.lowerBound..<end], as: UTF8.self)
    }

    @Test("Every number is written as String(number) writes it, at every count of digits")
    func asStringWrites() {
        var numbers: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, 65_535, 65_536, 2_000_000, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            numbers += [power - 1, power, power + 1, power / 2 + 7]
        }
        var generator = SystemRandomNumberGenerator()
        numbers += (0..<20_000).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator) }
        for number in numbers {
            #expect(digits(number) == String(number), "\(number)")
        }
    }
}
