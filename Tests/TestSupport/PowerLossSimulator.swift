#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
package import SparseFile

/// Models the disk under one directory tree beneath a page cache: every call reaches the real
/// files at once (so the code under test works), but only a sync makes it *durable*. File data
/// becomes durable with `fdatasync` (or `fsync`) of the file; names (creations, links, renames,
/// unlinks, new directories) with `fsync` of their directory.
///
/// At a chosen call the power fails: every later call that changes the disk fails with EIO, and
/// the simulator keeps the image the disk would hold. Names change in one journal, in order:
/// the image holds every durable name change plus a random prefix of the later ones. Each
/// file's data is everything synchronized plus a random subset of its later writes, some of
/// them torn (only their first sectors made it). ``materialize(into:)`` writes that image out.
public final class PowerLossSimulator: Sendable {
    private enum Pending {
        case write(offset: Int, bytes: [UInt8])
        case truncate(length: Int)
    }

    private struct Inode {
        var durable: [UInt8]
        var pending: [Pending] = []
    }

    private enum NameChange {
        case bind(path: String, inode: Int)
        case unbind(path: String)
        case rename(from: String, to: String)
        case makeDirectory(path: String)

        func touches(directory: String) -> Bool {
            switch self {
            case .bind(let path, _), .unbind(let path), .makeDirectory(let path):
                return Directory.parent(of: path) == directory
            case .rename(let source, let destination):
                return Directory.parent(of: source) == directory || Directory.parent(of: destination) == directory
            }
        }
    }

    private struct Namespace {
        var files: [String: Int] = [:]
        var directories: Set<String> = []

        mutating func apply(_ change: NameChange) {
            switch change {
            case .bind(let path, let inode): files[path] = inode
            case .unbind(let path): files[path] = nil
            case .rename(let source, let destination):
                files[destination] = files[source]
                files[source] = nil
            case .makeDirectory(let path): directories.insert(path)
            }
        }
    }

    private enum Handle {
        case file(Int)
        case directory(String)
    }

    /// What the disk holds after the power failure: files by path, and directories.
    private struct Image {
        var files: [String: [UInt8]]
        var directories: Set<String>
    }

    private struct State {
        var root: String
        var inodes: [Int: Inode] = [:]
        var live = Namespace()
        var durable = Namespace()
        var changes: [NameChange] = []
        var handles: [Int32: Handle] = [:]
        var callCount = 0
        var syncCount = 0
        var crashAtCall: Int
        var crashImage: Image?
        var syncsBeforeCrash = 0
        var generator: SeededGenerator
    }

    private let state: Mutex<State>

    /// Starts modelling `directory`: everything in it now counts as durable.
    public init(directory: String, crashAtCall: Int, seed: UInt64) throws {
        var initial = State(root: directory, crashAtCall: crashAtCall, generator: SeededGenerator(seed: seed))
        initial.live.directories.insert(directory)
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                initial.live.directories.insert(path)
            } else {
                let inode = initial.inodes.count
                initial.inodes[inode] = Inode(durable: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
                initial.live.files[path] = inode
            }
        }
        initial.durable = initial.live
        state = Mutex(initial)
    }

    /// File syncs (not directory syncs) made so far.
    public var syncCount: Int { state.withLock { $0.syncCount } }
    public var callCount: Int { state.withLock { $0.callCount } }
    /// File syncs that had completed when the power failed.
    public var syncsBeforeCrash: Int { state.withLock { $0.crashImage == nil ? $0.syncCount : $0.syncsBeforeCrash } }
    public var hasCrashed: Bool { state.withLock { $0.crashImage != nil } }

    /// Writes the disk image after the power failure (or, when the power never failed, after a
    /// failure now) into `target`, which takes the place of the modelled directory.
    public func materialize(into target: String) throws {
        let image = state.withLock { state in
            state.crashImage ?? Self.image(of: &state)
        }
        let root = state.withLock { $0.root }
        func relocated(_ path: String) -> String { target + path.dropFirst(root.count) }
        for directory in image.directories.sorted(by: { $0.count < $1.count }) {
            try FileManager.default.createDirectory(atPath: relocated(directory), withIntermediateDirectories: true)
        }
        for (path, bytes) in image.files {
            guard FileManager.default.createFile(atPath: relocated(path), contents: Data(bytes)) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
    }

    // MARK: The model

    /// Counts a call that changes the disk; returns false once the power has failed.
    private func powerIsOn() -> Bool {
        state.withLock { state in
            state.callCount += 1
            if state.crashImage == nil && state.callCount >= state.crashAtCall {
                state.crashImage = Self.image(of: &state)
                state.syncsBeforeCrash = state.syncCount
            }
            return state.crashImage == nil
        }
    }

    private static func image(of state: inout State) -> Image {
        var names = state.durable
        let kept = Int.random(in: 0...state.changes.count, using: &state.generator)
        for change in state.changes.prefix(kept) { names.apply(change) }
        var contents: [Int: [UInt8]] = [:]
        var files: [String: [UInt8]] = [:]
        for (path, inode) in names.files where names.directories.contains(Directory.parent(of: path)) {
            if contents[inode] == nil, let node = state.inodes[inode] {
                contents[inode] = Self.contents(of: node, generator: &state.generator)
            }
            files[path] = contents[inode] ?? []
        }
        return Image(files: files, directories: names.directories)
    }

    private static func contents(of inode: Inode, generator: inout SeededGenerator) -> [UInt8] {
        var bytes = inode.durable
        for change in inode.pending {
            switch change {
            case .truncate:
                if Bool.random(using: &generator) { apply(change, to: &bytes) }
            case .write(let offset, var written):
                switch UInt8.random(in: 0..<10, using: &generator) {
                case 0..<4: break
                case 4..<8: continue
                default:
                    // Torn: only the first sectors made it.
                    let sectors = (written.count + 511) / 512
                    written = Array(written.prefix(512 * Int.random(in: 0..<max(1, sectors), using: &generator)))
                }
                apply(.write(offset: offset, bytes: written), to: &bytes)
            }
        }
        return bytes
    }

    private static func apply(_ change: Pending, to bytes: inout [UInt8]) {
        switch change {
        case .write(let offset, let written):
            let end = offset + written.count
            if bytes.count < end { bytes += [UInt8](repeating: 0, count: end - bytes.count) }
            bytes.replaceSubrange(offset..<end, with: written)
        case .truncate(let length):
            if bytes.count > length { bytes.removeSubrange(length...) } else { bytes += [UInt8](repeating: 0, count: length - bytes.count) }
        }
    }

    private func isModelled(_ path: String) -> Bool {
        let root = state.withLock { $0.root }
        return path == root || path.hasPrefix(root + "/")
    }

    private func synchronizeData(of inode: Int) {
        state.withLock { state in
            guard var node = state.inodes[inode] else { return }
            for change in node.pending { Self.apply(change, to: &node.durable) }
            node.pending.removeAll()
            state.inodes[inode] = node
            state.syncCount += 1
        }
    }

    /// Makes every name change up to the last one in `directory` durable (a journal commits in order).
    private func synchronizeNames(in directory: String) {
        state.withLock { state in
            guard let last = state.changes.lastIndex(where: { $0.touches(directory: directory) }) else { return }
            for change in state.changes[...last] { state.durable.apply(change) }
            state.changes.removeSubrange(...last)
        }
    }

    /// Performs a call that changes names at `path`: it counts, fails once the power is out, and
    /// when it succeeds in a modelled directory, the change (made from the live names) is recorded.
    private func changingNames(at path: String, _ perform: () -> Int32, _ change: (Namespace) -> NameChange?) -> Int32 {
        guard isModelled(path) else { return perform() }
        guard powerIsOn() else { errno = EIO; return -1 }
        let result = perform()
        if result == 0 {
            state.withLock { state in
                guard let change = change(state.live) else { return }
                state.live.apply(change)
                state.changes.append(change)
            }
        }
        return result
    }

    package var calls: SystemCalls {
        var calls = SystemCalls.live
        let live = SystemCalls.live
        calls.open = { [self] path, flags, mode in
            let creates = flags & O_CREAT != 0
            if creates && isModelled(path) && !powerIsOn() { errno = EIO; return -1 }
            let descriptor = live.open(path, flags, mode)
            guard descriptor >= 0, isModelled(path) else { return descriptor }
            state.withLock { state in
                if state.live.directories.contains(path) {
                    state.handles[descriptor] = .directory(path)
                } else if let inode = state.live.files[path] {
                    state.handles[descriptor] = .file(inode)
                } else {
                    let inode = (state.inodes.keys.max() ?? -1) + 1
                    state.inodes[inode] = Inode(durable: [])
                    state.live.files[path] = inode
                    state.changes.append(.bind(path: path, inode: inode))
                    state.handles[descriptor] = .file(inode)
                }
            }
            return descriptor
        }
        calls.close = { [self] descriptor in
            state.withLock { $0.handles[descriptor] = nil }
            return live.close(descriptor)
        }
        calls.dup = { [self] descriptor in
            let duplicate = live.dup(descriptor)
            if duplicate >= 0 { state.withLock { $0.handles[duplicate] = $0.handles[descriptor] } }
            return duplicate
        }
        calls.pwrite = { [self] descriptor, buffer, count, offset in
            guard case .file(let inode)? = state.withLock({ $0.handles[descriptor] }) else {
                return live.pwrite(descriptor, buffer, count, offset)
            }
            guard powerIsOn() else { errno = EIO; return -1 }
            let written = live.pwrite(descriptor, buffer, count, offset)
            if written > 0 {
                let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: written))
                state.withLock { $0.inodes[inode]?.pending.append(.write(offset: Int(offset), bytes: bytes)) }
            }
            return written
        }
        calls.ftruncate = { [self] descriptor, length in
            guard case .file(let inode)? = state.withLock({ $0.handles[descriptor] }) else {
                return live.ftruncate(descriptor, length)
            }
            guard powerIsOn() else { errno = EIO; return -1 }
            state.withLock { $0.inodes[inode]?.pending.append(.truncate(length: Int(length))) }
            return live.ftruncate(descriptor, length)
        }
        let synchronize: @Sendable (Int32) -> Int32 = { [self] descriptor in
            let handle = state.withLock { $0.handles[descriptor] }
            guard handle != nil else { return live.fsync(descriptor) }
            guard powerIsOn() else { errno = EIO; return -1 }
            switch handle {
            case .file(let inode)?: synchronizeData(of: inode)
            case .directory(let path)?: synchronizeNames(in: path)
            case nil: break
            }
            return 0
        }
        calls.fdatasync = synchronize
        calls.fsync = synchronize
        calls.rename = { [self] source, destination in
            changingNames(at: source, { live.rename(source, destination) }) { _ in .rename(from: source, to: destination) }
        }
        calls.link = { [self] source, destination in
            changingNames(at: source, { live.link(source, destination) }) { names in
                names.files[source].map { .bind(path: destination, inode: $0) }
            }
        }
        calls.unlink = { [self] path in
            changingNames(at: path, { live.unlink(path) }) { _ in .unbind(path: path) }
        }
        calls.mkdir = { [self] path, mode in
            changingNames(at: path, { live.mkdir(path, mode) }) { _ in .makeDirectory(path: path) }
        }
        return calls
    }
}
