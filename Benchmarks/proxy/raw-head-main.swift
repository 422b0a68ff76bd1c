// Same-run timing of `RawRequestHead.read` as it is now and at another revision (compiled in as
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
