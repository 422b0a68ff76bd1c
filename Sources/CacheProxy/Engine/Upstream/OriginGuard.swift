package import CacheProxyParsing
import HLS
import NIOCore
import Synchronization

/// Keeps the proxy from fetching what no page, playlist or origin may reach through it
/// (request forgery towards the origin side). It refuses:
/// - the proxy itself (its own address and port: a loop);
/// - link-local addresses, always (169.254.0.0/16, fe80::/10: cloud metadata services);
/// - on a proxy that listens on an address other than loopback (a shared server), this host's
///   and private addresses too (127.0.0.0/8, ::1, 0.0.0.0/8, ::, 10/8, 172.16/12, 192.168/16,
///   fc00::/7), unless the allow-list (`--allow-host`) names the host that resolved to them.
///
/// Every hop is checked twice: before connecting, on all the addresses its host resolves to
/// (so a refusal is a clear `403` even when nothing would answer there), and once connected, on
/// the address the connection actually reached (``checkPeer(_:local:)``, which the origin
/// client calls for each new connection), so a name that resolves elsewhere the second time (DNS rebinding)
/// is caught as well. Redirects are followed here rather than by the client, so that every hop
/// passes both checks and the allow-list.
package final class OriginGuard: Sendable {
    /// Redirects followed for one request at most.
    static let maximumRedirects = 5
    /// How long a host's addresses are reused for the check before connecting. The check on the
    /// connection needs no lookup and is the one that holds, so this only spares a lookup per
    /// request.
    private static let lookupLifetime = Duration.seconds(30)
    private static let lookupCapacity = 256

    private let policy: OriginAddressPolicy
    private let allowList: HostAllowList?
    private let resolver: OriginResolver
    private let listeningPort = Mutex<Int?>(nil)
    private let lookups = Mutex<[String: (addresses: [IPAddress], until: ContinuousClock.Instant)]>([:])
    /// Private and this host's addresses that hosts the allow-list names resolved to: on a
    /// shared server, the only ones of their kind a connection may reach.
    private let vouched = Mutex<[IPAddress: ContinuousClock.Instant]>([:])

    package init(configuration: CacheProxyConfiguration) {
        policy = OriginAddressPolicy(exposed: !CacheProxy.isLoopback(configuration.host),
                                     boundAddress: IPAddress(literal: configuration.host))
        allowList = HostAllowList(configuration.allowedHosts)
        resolver = configuration.security.resolver
    }

    /// Tells the guard the port the proxy listens on, once it does.
    package func listening(on port: Int?) {
        listeningPort.withLock { $0 = port }
    }

    /// Sends a GET with `fields` to `origin` through `client`, following redirects (at most
    /// ``maximumRedirects``, no cycles) and checking every hop before it is sent.
    ///
    /// - Parameter headers: the extra fields for each hop, by its URL (credentials may stay
    ///   behind on a redirect to another host: ``OriginHeaderRules``); they replace fields of
    ///   `fields` with the same name.
    /// - Returns: the last hop's answer and its URL.
    /// - Throws: `UpstreamError.Code.refused` for a forbidden hop; the client's errors.
    func execute(
        _ fields: HeaderFields, to origin: OriginURL, client: any OriginClient, deadline: NIODeadline,
        headers: (OriginURL) -> OriginHeaderFields = { _ in OriginHeaderFields() }
    ) async throws -> (response: OriginResponse, url: String) {
        var url = origin
        var seen: Set<String> = [origin.string]
        for hop in 0...Self.maximumRedirects {
            try await check(url)
            var request = OriginRequest(url: url.string, headers: fields, deadline: deadline)
            for field in headers(url).fields { request.headers.replaceOrAdd(name: field.name, value: field.value) }
            let response: OriginResponse
            do {
                response = try await client.send(request)
            } catch let refused as OriginClientError where refused.kind == .peerRefused {
                throw refused.underlying as? UpstreamError ?? UpstreamError(.refused, "the connection to \(url.authority) was refused")
            }
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers.first(name: "location") else {
                return (response, url.string)
            }
            try await Self.discard(response.body)
            guard hop < Self.maximumRedirects else { break }
            guard let target = HLSBaseURL(url.string)?.resolve(location), let next = try? OriginURL(parsing: target) else {
                throw UpstreamError(.invalidResponse, "\(url): a redirect to \(location.prefix(200)), which the proxy does not fetch")
            }
            guard seen.insert(next.string).inserted else { throw UpstreamError(.invalidResponse, "\(origin): a redirect cycle") }
            url = next
        }
        throw UpstreamError(.invalidResponse, "\(origin): more than \(Self.maximumRedirects) redirects")
    }

    /// The check before connecting: the allow-list, then every address the host resolves to.
    ///
    /// - Throws: `UpstreamError` (`UpstreamError.Code.refused`, or `unreachable` when the
    ///   name does not resolve).
    package func check(_ url: OriginURL) async throws {
        if let allowList, !allowList.allows(url.host) {
            throw UpstreamError(.refused, "\(url.host) is not on the proxy's allow-list")
        }
        // Past the allow-list, a host is named by it whenever there is one.
        let named = allowList != nil
        let addresses = try await addresses(of: url.host)
        let port = OriginAddressPolicy.port(of: url)
        for address in addresses {
            if let reason = refusal(of: address, port: port, local: nil, vouched: named) {
                throw UpstreamError(.refused, "\(url.authority) resolves to \(address), \(reason)")
            }
        }
        guard named && policy.exposed else { return }
        let until = ContinuousClock.now + Self.lookupLifetime * 10
        vouched.withLock { vouched in
            if vouched.count >= Self.lookupCapacity { vouched = vouched.filter { $0.value > .now } }
            if vouched.count >= Self.lookupCapacity { vouched.removeAll() }
            for address in addresses where address.scope != .global { vouched[address] = until }
        }
    }

    /// The check of a connection once it is made (``OriginClientSettings/checkPeer``): why its
    /// peer is an address the proxy must not reach, or nil.
    @Sendable func checkPeer(_ remote: SocketAddress, local: SocketAddress?) -> (any Error)? {
        guard let address = IPAddress(remote) else { return nil }
        let isVouched = vouched.withLock { $0[address].map { $0 > .now } ?? false }
        guard let reason = refusal(of: address, port: remote.port ?? 0, local: local.flatMap(IPAddress.init), vouched: isVouched) else {
            return nil
        }
        return UpstreamError(.refused, "the connection reached \(address), \(reason)")
    }

    /// Why the proxy may not connect to `address` on `port`; nil when it may
    /// (``OriginAddressPolicy``'s verdict, with the port the proxy listens on now).
    private func refusal(of address: IPAddress, port: Int, local: IPAddress?, vouched: Bool) -> String? {
        policy.refusal(of: address, port: port, listeningPort: listeningPort.withLock { $0 }, local: local, vouched: vouched)
    }

    private func addresses(of host: String) async throws(UpstreamError) -> [IPAddress] {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let cached = lookups.withLock({ $0[name] }), cached.until > .now { return cached.addresses }
        let addresses: [IPAddress]
        do {
            addresses = try await resolver.addresses(name)
        } catch let error as UpstreamError {
            throw error
        } catch {
            throw UpstreamError(.unreachable, "\(host) could not be resolved: \(error)")
        }
        let until = ContinuousClock.now + Self.lookupLifetime
        lookups.withLock { lookups in
            if lookups.count >= Self.lookupCapacity { lookups.removeAll() }
            lookups[name] = (addresses, until)
        }
        return addresses
    }

    /// Reads and drops a redirect's body, up to 64 KiB: a longer one ends its connection.
    private static func discard(_ body: OriginBody) async throws {
        var left = 64 * 1024
        for try await chunk in body {
            left -= chunk.readableBytes
            if left < 0 { return }
        }
    }
}
