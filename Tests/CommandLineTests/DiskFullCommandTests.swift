import Foundation
import Testing
import TestSupport

/// Writing commands on a disk that fills up (an 8 MiB tmpfs): one line saying the disk is full,
/// exit 1, and everything stored before still there and sound.
@Suite("sparsecache on a full disk")
struct DiskFullCommandTests {
    let origin = TestBytes(seed: 12)

    func expectDiskFullLine(_ result: CommandLineTool.Result, _ command: String) {
        #expect(result.status == 1, "\(command)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(command): \(result.standardError)")
        #expect(result.standardError.contains("disk is full"), "\(command): \(result.standardError)")
    }

    @Test(.enabled(if: SmallFilesystem.isAvailable, "mounting a small tmpfs needs root"))
    func writingCommandsOnAFullDiskSayItInOneLineAndKeepWhatWasStored() throws {
        let disk = try SmallFilesystem(megabytes: 8)
        let store = disk.path + "/store"
        let kept = origin.bytes(0, 1 << 20)
        #expect(try CommandLineTool.run(["put", store, "kept", "--offset", "0"], input: Data(kept)).status == 0)
        let huge = Data(origin.bytes(0, 12 << 20))
        expectDiskFullLine(try CommandLineTool.run(["put", store, "huge", "--offset", "0"], input: huge), "put")
        expectDiskFullLine(try CommandLineTool.run(["file", "write", disk.path + "/file", "--offset", "0"], input: huge), "file write")

        let get = try CommandLineTool.run(["get", store, "kept", "--range", "0-\((1 << 20) - 1)"])
        #expect(get.status == 0)
        #expect(origin.matches([UInt8](get.standardOutput), at: 0) && get.standardOutput.count == kept.count)
        #expect(try CommandLineTool.run(["verify", store + "/entries"]).status == 0)
        #expect(try CommandLineTool.run(["verify", disk.path + "/file"]).status == 0)

        // Once space is free, writing works again.
        try FileManager.default.removeItem(atPath: disk.path + "/file")
        #expect(try CommandLineTool.run(["rm", store, "huge"]).status == 0)
        #expect(try CommandLineTool.run(["put", store, "after", "--offset", "0"], input: Data(kept)).status == 0)
    }
}
