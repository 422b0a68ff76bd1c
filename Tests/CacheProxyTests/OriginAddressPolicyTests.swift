import CacheProxyParsing
import Testing

/// The origin guard's verdict on an address, as FuzzOriginGuard checks it: link-local never,
/// the proxy itself never, private and this host's addresses only on a loopback proxy or when
/// the allow-list vouched for them.
@Suite struct OriginAddressPolicyTests {
    static func address(_ bytes: [UInt8]) throws -> IPAddress { try #require(IPAddress(bytes: bytes)) }
    static let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]

    @Test(arguments: [[169, 254, 169, 254], mappedPrefix + [169, 254, 0, 1], [0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]])
    func linkLocalAddressesAreAlwaysRefused(_ bytes: [UInt8]) throws {
        for exposed in [false, true] {
            let policy = OriginAddressPolicy(exposed: exposed, boundAddress: nil)
            #expect(policy.refusal(of: try Self.address(bytes), port: 80, listeningPort: 8080, local: nil, vouched: true) != nil)
        }
    }

    @Test func theProxyItselfIsRefusedOnItsOwnPortOnly() throws {
        let bound = try Self.address([203, 0, 113, 7])
        let policy = OriginAddressPolicy(exposed: true, boundAddress: bound)
        #expect(policy.refusal(of: bound, port: 8443, listeningPort: 8443, local: nil, vouched: false) == "the proxy itself")
        #expect(policy.refusal(of: bound, port: 443, listeningPort: 8443, local: nil, vouched: false) == nil)
        let loopback = try Self.address([127, 0, 0, 2])
        let local = OriginAddressPolicy(exposed: false, boundAddress: nil)
        #expect(local.refusal(of: loopback, port: 8080, listeningPort: 8080, local: nil, vouched: true) == "the proxy itself")
        #expect(local.refusal(of: loopback, port: 9000, listeningPort: 8080, local: nil, vouched: false) == nil)
        #expect(local.refusal(of: loopback, port: 8080, listeningPort: nil, local: nil, vouched: false) == nil)
    }

    @Test(arguments: [[10, 1, 2, 3], [172, 31, 0, 1], [192, 168, 1, 1], [127, 0, 0, 1], [0, 0, 0, 0]])
    func privateAddressesAreRefusedBeyondLoopbackUnlessVouchedFor(_ bytes: [UInt8]) throws {
        let address = try Self.address(bytes)
        let exposed = OriginAddressPolicy(exposed: true, boundAddress: nil)
        #expect(exposed.refusal(of: address, port: 80, listeningPort: 8080, local: nil, vouched: false) != nil)
        #expect(exposed.refusal(of: address, port: 80, listeningPort: 8080, local: nil, vouched: true) == nil)
        #expect(OriginAddressPolicy(exposed: false, boundAddress: nil)
            .refusal(of: address, port: 80, listeningPort: 8080, local: nil, vouched: false) == nil)
    }

    @Test func anIPv4AddressAndItsMappedFormAreOneAddress() throws {
        #expect(try Self.address(Self.mappedPrefix + [10, 0, 0, 1]) == Self.address([10, 0, 0, 1]))
        #expect(try Self.address(Self.mappedPrefix + [10, 0, 0, 1]).description == "10.0.0.1")
    }

    @Test func addressesAreWrittenAsURLsWriteThem() throws {
        #expect(try Self.address([0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]).description == "[fe80::1]")
        #expect(try Self.address([192, 0, 2, 1]).description == "192.0.2.1")
    }

    @Test(arguments: [0, 3, 5, 15, 17])
    func onlyFourOrSixteenBytesAreAnAddress(_ count: Int) {
        #expect(IPAddress(bytes: Array(repeating: 1, count: count)) == nil)
    }

    @Test(arguments: [("http://a.example/", 80), ("https://a.example/", 443), ("http://a.example:8080/", 8080)])
    func aHopConnectsToItsPortOrItsSchemes(_ url: String, _ port: Int) throws {
        #expect(OriginAddressPolicy.port(of: try OriginURL(parsing: url)) == port)
    }
}
