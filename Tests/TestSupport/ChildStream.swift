import Foundation

/// One standard stream of a `ChildProcess`: what its descriptor becomes in the child, and which
/// end of a pipe the parent gives up once the child holds it.
struct ChildStream {
    private enum Source {
        case inherited
        case nullDevice
        case descriptor(Int32)
    }

    private let source: Source
    private let target: Int32
    /// The pipe end the child alone must hold (a reader sees the end of a pipe only once every
    /// writer closed it).
    private let parentEnd: FileHandle?

    /// `stream` is what `Process` takes: nil, a `Pipe` or a `FileHandle`.
    init(_ stream: Any?, descriptor target: Int32) throws {
        self.target = target
        switch stream {
        case nil:
            (source, parentEnd) = (.inherited, nil)
        case let pipe as Pipe:
            let childEnd = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            (source, parentEnd) = (.descriptor(childEnd.fileDescriptor), childEnd)
        case let handle as FileHandle:
            // FileHandle.nullDevice has no descriptor of its own on Linux.
            (source, parentEnd) = (handle.fileDescriptor < 0 ? .nullDevice : .descriptor(handle.fileDescriptor), nil)
        default:
            throw ChildProcessError("standard stream \(target) is neither a Pipe nor a FileHandle: \(type(of: stream))")
        }
    }

    func add(to actions: inout posix_spawn_file_actions_t) throws {
        let status: Int32
        switch source {
        case .inherited: return
        case .nullDevice: status = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
        case .descriptor(let descriptor): status = posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        }
        guard status == 0 else { throw ChildProcessError("stream \(target): \(String(cString: strerror(status)))") }
    }

    func closeParentEnd() {
        try? parentEnd?.close()
    }
}
