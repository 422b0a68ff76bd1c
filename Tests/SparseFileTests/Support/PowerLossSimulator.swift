#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import TestSupport
@testable import SparseFile

/// Models a disk under a page cache: writes reach the file at once (so the file works), but only
/// an `fdatasync` makes them *durable*. At a chosen system call the power fails: the simulator
/// builds the image the disk would hold (everything synchronized, plus any subset of the writes
/// since, some of them torn) and every later call fails with EIO.
final class PowerLossSimulator: Sendable {
    struct Write {
        var offset: Int
        var bytes: [UInt8]
    }

    struct State {
        var durable: [UInt8]
        var pending: [Write] = []
        var callCount = 0
        var syncCount = 0
        var crashAtCall: Int
        var crashImage: [UInt8]?
        var syncsBeforeCrash = 0
        var generator: SeededGenerator
    }

    let state: Mutex<State>

    init(initialImage: [UInt8], crashAtCall: Int, seed: UInt64) {
        state = Mutex(State(durable: initialImage, crashAtCall: crashAtCall, generator: SeededGenerator(seed: seed)))
    }

    var crashImage: [UInt8]? { state.withLock { $0.crashImage } }
    var syncsBeforeCrash: Int { state.withLock { $0.crashImage == nil ? $0.syncCount : $0.syncsBeforeCrash } }

    func imageAfterPowerFailure() -> [UInt8] {
        state.withLock { Self.image(after: $0.durable, pending: $0.pending, generator: &$0.generator) }
    }
    var syncCount: Int { state.withLock { $0.syncCount } }
    var callCount: Int { state.withLock { $0.callCount } }

    /// Counts a call; returns false once the power has failed.
    private func powerIsOn() -> Bool {
        state.withLock { state in
            state.callCount += 1
            if state.crashImage == nil && state.callCount >= state.crashAtCall {
                state.crashImage = Self.image(after: state.durable, pending: state.pending, generator: &state.generator)
                state.syncsBeforeCrash = state.syncCount
            }
            return state.crashImage == nil
        }
    }

    private static func image(after durable: [UInt8], pending: [Write], generator: inout SeededGenerator) -> [UInt8] {
        var image = durable
        for write in pending {
            var bytes = write.bytes
            switch UInt8.random(in: 0..<10, using: &generator) {
            case 0..<4: break
            case 4..<8: continue
            default:
                // Torn: only the first sectors made it.
                let sectors = (bytes.count + 511) / 512
                bytes = Array(bytes.prefix(512 * Int.random(in: 0..<max(1, sectors), using: &generator)))
            }
            apply(Write(offset: write.offset, bytes: bytes), to: &image)
        }
        return image
    }

    private static func apply(_ write: Write, to image: inout [UInt8]) {
        let end = write.offset + write.bytes.count
        if image.count < end { image += [UInt8](repeating: 0, count: end - image.count) }
        image.replaceSubrange(write.offset..<end, with: write.bytes)
    }

    var calls: SystemCalls {
        SystemCalls(
            pread: { fd, buffer, count, offset in Glibc.pread(fd, buffer, count, off_t(offset)) },
            pwrite: { [self] fd, buffer, count, offset in
                guard powerIsOn() else { errno = EIO; return -1 }
                let written = Glibc.pwrite(fd, buffer, count, off_t(offset))
                if written > 0 {
                    let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: written))
                    state.withLock { $0.pending.append(Write(offset: Int(offset), bytes: bytes)) }
                }
                return written
            },
            fdatasync: { [self] _ in
                guard powerIsOn() else { errno = EIO; return -1 }
                state.withLock { state in
                    for write in state.pending { Self.apply(write, to: &state.durable) }
                    state.pending.removeAll()
                    state.syncCount += 1
                }
                return 0
            },
            ftruncate: { [self] fd, length in
                guard powerIsOn() else { errno = EIO; return -1 }
                state.withLock { state in
                    if state.durable.count > Int(length) { state.durable.removeSubrange(Int(length)...) }
                }
                return Glibc.ftruncate(fd, off_t(length))
            })
    }
}
