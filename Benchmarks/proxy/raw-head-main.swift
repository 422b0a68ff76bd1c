// Same-run agreement and timing of `RawRequestHead.read` as it is now and at another revision (compiled in as
// `RawRequestHeadBase`), on the heads ffmpeg and wrk send, with the check the raw-bytes hit path
// makes on what the current reader returns (no Origin, the Host the connection passed with).
// Built and run by raw-head-parse.sh.
let heads = [
    "GET /proxy?url=http%3A%2F%2F127.0.0.1%3A8080%2Fmovie.mp4 HTTP/1.1\r\nUser-Agent: Lavf/59.27.100\r\nAccept: */*\r\n"
        + "Range: bytes=65536-\r\nConnection: close\r\nHost: 127.0.0.1:9000\r\nIcy-MetaData: 1\r\n\r\n",
    "GET /proxy?url=http%3A%2F%2F127.0.0.1%3A8080%2Fmovie.mp4 HTTP/1.1\r\nHost: 127.0.0.1:9000\r\nRange: bytes=1048576-1114111\r\n\r\n",
].map { Array($0.utf8) }
let rounds = 1_000_000
let admittedHost: String? = "127.0.0.1:9000"

func nanosecondsPerHead(_ body: (UnsafeRawBufferPointer) -> Int) -> Double {
    let clock = ContinuousClock()
    var sink = 0
    let start = clock.now
    for index in 0..<rounds { sink &+= heads[index & 1].withUnsafeBytes(body) }
    let elapsed = clock.now - start
    precondition(sink == rounds / 2 * (heads[0].count + heads[1].count), "a head was not read whole")
    return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(rounds)
}

// Before timing: the two readers must agree on every input, heads and their mutations alike
// (a byte replaced by one that matters to the grammar, inserted, removed, or the bytes cut
// short), under several limits.
var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
func random(_ bound: Int) -> Int {
    seed ^= seed << 13
    seed ^= seed >> 7
    seed ^= seed << 17
    return Int(seed % UInt64(bound))
}
let seeds = heads + [
    "HEAD /p HTTP/1.0\r\nConnection: Keep-Alive\r\nIf-Range: \"v\"\r\nOrigin: https://a.example\r\nContent-Length: 0\r\n\r\n",
    "GET /p HTTP/1.1\r\nExpect: 100-continue\r\nUpgrade: h2c\r\nTransfer-Encoding: chunked\r\n\r\n",
].map { Array($0.utf8) }
let interesting = Array("\r\n :\t-Aa0159".utf8) + [0x00, 0x7F, 0xE9, 0x01, 0x2C]
func described(_ text: String) -> String { text.replacing("RawRequestHeadBase", with: "RawRequestHead") }
var disagreements = 0
var examples: [String] = []
for _ in 0..<300_000 {
    var input = seeds[random(seeds.count)]
    for _ in 0..<(1 + random(3)) where !input.isEmpty {
        let at = random(input.count)
        switch random(4) {
        case 0: input[at] = interesting[random(interesting.count)]
        case 1: input.insert(interesting[random(interesting.count)], at: at)
        case 2: input.remove(at: at)
        default: input.removeLast(random(input.count))
        }
    }
    let limit = [8192, 64, input.count, max(input.count - 1, 0)][random(4)]
    let fields = [100, 1, 2][random(3)]
    let before = input.withUnsafeBytes { RawRequestHeadBase.read($0, limit: limit, maximumFields: fields) }
    let now = input.withUnsafeBytes { RawRequestHead.read($0, limit: limit, maximumFields: fields) }
    if described(String(describing: before)) != described(String(describing: now)) {
        disagreements += 1
        if disagreements <= 3 { examples.append("\(String(decoding: input, as: UTF8.self).debugDescription): \(before) / \(now)") }
    }
}
if disagreements > 0 { fatalError("\(disagreements) inputs read differently by the two readers, among them\n" + examples.joined(separator: "\n")) }
print("the two readers agree on 300,000 heads and mutations of them")

var base: [Double] = []
var current: [Double] = []
for _ in 0..<9 {
    base.append(nanosecondsPerHead { bytes in
        guard case .head(_, let length) = RawRequestHeadBase.read(bytes) else { return 0 }
        return length
    })
    current.append(nanosecondsPerHead { bytes in
        guard case .head(let head, let length) = RawRequestHead.read(bytes), head.origin == nil, head.host == admittedHost else { return 0 }
        return length
    })
}
base.sort()
current.sort()
let ratio = (current[4] / base[4] * 1000).rounded() / 1000
print("ns per head, median of 9 alternating rounds: base \(Int(base[4].rounded())), current \(Int(current[4].rounded())), current / base \(ratio)")
