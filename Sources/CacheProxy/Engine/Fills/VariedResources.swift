import CacheProxyParsing
import SparseFile
import Synchronization

/// Resources whose origin answered with `Vary`, and the entries that hold them: one per set of
/// values of the fields they vary on (the same URL fetched with two cookies under
/// `Vary: Cookie` is two entries; without `Vary`, one).
///
/// The entry's key is the resource's key with a suffix that names the fields and hashes their
/// values (``key(_:names:value:)``), so the entries stay apart across restarts and
/// `sparsecache inspect` shows which fields an entry varies on, never their values. Which
/// resources vary is learned from their responses and kept in memory: after a restart, the first
/// request for such a resource is passed through from the origin and teaches it again.
final class VariedResources: Sendable {
    /// Resources remembered at most; past it they are forgotten and learned again.
    static let capacity = 4096

    private let varying = Mutex<[String: [String]]>([:])
    /// Whether any resource varies: the common case (none) costs one atomic load per miss.
    private let isEmpty = Atomic<Bool>(true)

    /// The fields `key`'s resource varies on, lower-cased; nil when it is not known to vary.
    func names(of key: String) -> [String]? {
        guard !isEmpty.load(ordering: .relaxed) else { return nil }
        return varying.withLock { $0[key] }
    }

    /// Remembers that `key`'s resource varies on `names` (none: it does not vary).
    func learn(_ names: [String], for key: String) {
        varying.withLock { varying in
            if names.isEmpty {
                varying[key] = nil
            } else {
                if varying.count >= Self.capacity, varying[key] == nil { varying.removeAll() }
                varying[key] = names
            }
            isEmpty.store(varying.isEmpty, ordering: .relaxed)
        }
    }

    /// The key of the entry holding `key`'s response for requests whose fields `names` have the
    /// values `value(name)` (nil: not sent). Without names, `key` itself.
    static func key(_ key: String, names: [String], value: (String) -> String?) -> String {
        guard !names.isEmpty else { return key }
        var bytes: [UInt8] = []
        for name in names {
            bytes += Array(name.utf8) + [0]
            // An absent field and an empty one are different requests.
            if let sent = value(name) { bytes += [1] + Array(sent.utf8) } else { bytes += [2] }
            bytes.append(0)
        }
        let digest = hexadecimal(Checksum.of(bytes, seed: 0x7661_7279_6869)) + hexadecimal(Checksum.of(bytes, seed: 0x7661_7279_6C6F))
        return key + "#vary(" + names.joined(separator: ",") + ")=" + digest
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
