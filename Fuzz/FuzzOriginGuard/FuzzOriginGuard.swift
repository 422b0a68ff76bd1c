import CacheProxyParsing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The origin guard's verdict on where a hop may connect (CacheProxy's OriginGuard, through
// `OriginAddressPolicy`), on addresses and ports from the input, and on the address a URL's
// IP-literal host names.
//
// Input: a flags byte (bit 0: the proxy listens beyond loopback; 1: the allow-list vouched for
// the addresses; 2: the proxy is bound to an IP address; 3: a connection's local end is known;
// 4: the proxy listens yet), the listening port and the hop's port (two bytes each, big-endian),
// then addresses, each a tag byte and 4 bytes (tag even), 16 (tag odd), or 4 bytes written as
// IPv4-mapped IPv6 (tag bit 1): the bound address and the local end first when the flags say so.
// A line feed ends the addresses; what follows it is a URL, read as `OriginURL`.
//
// What must hold, for every address: a link-local one (169.254.0.0/16, fe80::/10, in any
// IPv4-mapped form too) is refused; on the proxy's own port, this host's addresses, the bound
// address and the local end are refused; on a proxy listening beyond loopback, private and this
// host's addresses are refused unless vouched for; nothing else is refused. An IPv4 address and
// its IPv4-mapped form are one address with one verdict, and an address written as text
// (`description`) reads back as itself. A URL's port is its own or its scheme's, and an IP literal
// host is judged on that port by the same rules.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOriginGuard(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    var input = Array(UnsafeBufferPointer(start: start, count: count))[...]
    var url: [UInt8] = []
    if let newline = input.firstIndex(of: 0x0A) {
        url = Array(input[(newline + 1)...])
        input = input[..<newline]
    }
    guard input.count >= 5 else { return 0 }
    let flags = input[input.startIndex]
    let listeningPort = flags & 16 != 0 ? Int(input[input.startIndex + 1]) << 8 | Int(input[input.startIndex + 2]) : nil
    let port = Int(input[input.startIndex + 3]) << 8 | Int(input[input.startIndex + 4])
    var reader = AddressReader(bytes: input.dropFirst(5))
    let policy = OriginAddressPolicy(exposed: flags & 1 != 0, boundAddress: flags & 4 != 0 ? reader.next() : nil)
    let judge = Judge(policy: policy, listeningPort: listeningPort, local: flags & 8 != 0 ? reader.next() : nil,
                      vouched: flags & 2 != 0)
    while let address = reader.next() {
        judge.check(address, port: port)
    }
    if let hop = try? OriginURL(parsing: url) {
        let hopPort = OriginAddressPolicy.port(of: hop)
        precondition(hopPort == (hop.port ?? (hop.scheme == .http ? 80 : 443)) && (1...65535).contains(hopPort),
                     "\(hop) connects to port \(hopPort)")
        if let address = literal(hop.host) { judge.check(address, port: hopPort) }
    }
    return 0
}

/// Addresses from the input, in the forms the tag byte picks.
private struct AddressReader {
    var bytes: ArraySlice<UInt8>

    mutating func next() -> IPAddress? {
        guard let tag = bytes.first else { return nil }
        let length = tag & 1 == 0 ? 4 : 16
        guard bytes.count > length else { bytes = []; return nil }
        var raw = Array(bytes.dropFirst().prefix(length))
        bytes = bytes.dropFirst(1 + length)
        if length == 4 && tag & 2 != 0 { raw = Array(repeating: 0, count: 10) + [0xFF, 0xFF] + raw }
        return IPAddress(bytes: raw)
    }
}

/// The verdicts for one proxy, checked against the rules written out again here.
private struct Judge {
    let policy: OriginAddressPolicy
    let listeningPort: Int?
    let local: IPAddress?
    let vouched: Bool

    func check(_ address: IPAddress, port: Int) {
        let verdict = policy.refusal(of: address, port: port, listeningPort: listeningPort, local: local, vouched: vouched)
        let kind = Kind(address.bytes)
        let ownPort = listeningPort == port
        let mustRefuse = kind == .linkLocal
            || ownPort && (kind == .thisHost || address == policy.boundAddress || address == local)
            || policy.exposed && kind != .global && !vouched
        precondition((verdict != nil) == mustRefuse, "\(address) on port \(port): \(verdict ?? "allowed") (\(kind))")
        if address.bytes.count == 4 {
            let mapped = IPAddress(bytes: Array(repeating: 0, count: 10) + [0xFF, 0xFF] + address.bytes)
            precondition(mapped == address, "the IPv4-mapped form of \(address) is another address")
        }
        precondition(literal(address.description) == address, "\(address) does not read back")
    }
}

/// Where an address leads, worked out from its leading bits (RFC 6890's special ranges).
private enum Kind {
    case linkLocal, thisHost, privateNetwork, global

    init(_ bytes: [UInt8]) {
        if bytes.count == 4 {
            let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            func within(_ prefix: UInt32, _ length: UInt32) -> Bool { value >> (32 - length) == prefix >> (32 - length) }
            self = within(0xA9FE_0000, 16) ? .linkLocal
                : within(0x7F00_0000, 8) || within(0, 8) ? .thisHost
                : within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) ? .privateNetwork
                : .global
            return
        }
        precondition(bytes.count == 16, "an address of \(bytes.count) bytes")
        precondition(!(bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF),
                     "an IPv4-mapped address kept as IPv6")
        let high = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self = high >> 54 == 0x3FA ? .linkLocal
            : high == 0 && low <= 1 ? .thisHost
            : high >> 57 == 0x7E ? .privateNetwork
            : .global
    }
}

/// An IP literal (`10.0.0.1`, `[::1]`) as the system reads it; nil for a name.
private func literal(_ text: String) -> IPAddress? {
    let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    var v4 = [UInt8](repeating: 0, count: 4)
    if inet_pton(AF_INET, bare, &v4) == 1 { return IPAddress(bytes: v4) }
    var v6 = [UInt8](repeating: 0, count: 16)
    if inet_pton(AF_INET6, bare, &v6) == 1 { return IPAddress(bytes: v6) }
    return nil
}
