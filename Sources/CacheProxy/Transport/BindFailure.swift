import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the listening socket could not be bound, in words: the port in use, an address this
/// machine does not have, a port that needs privileges. Never the system call's name or errno.
enum BindFailure {
    static func error(_ error: any Error, host: String, port: Int) -> CacheProxyError {
        let address = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE?:
            return CacheProxyError(.addressInUse, "port \(port) on \(host) is in use by another program")
        case EADDRNOTAVAIL?:
            return CacheProxyError(.bindFailed, "cannot listen on \(address): \(host) is not an address of this machine")
        case EACCES?, EPERM?:
            return CacheProxyError(.bindFailed, "cannot listen on \(address): ports below 1024 need administrator rights")
        case let code?:
            return CacheProxyError(.bindFailed, "cannot listen on \(address): \(String(cString: strerror(code)).lowercased())")
        case nil:
            if error is SocketAddressError {
                return CacheProxyError(.bindFailed, "cannot listen on \(address): \(host) is not an address or a name this machine resolves")
            }
            return CacheProxyError(.bindFailed, "cannot listen on \(address)")
        }
    }
}
