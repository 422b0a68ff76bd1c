import SparseFile

/// Builds a store's in-memory index from its saved index and what is actually on disk.
struct StoreLoader {
    let layout: StoreDirectory
    let readOnly: Bool
    let options: SparseFileOptions

    func load() -> (StoreState, OpenReport) {
        var state = StoreState()
        var report = OpenReport()
        let snapshot = layout.readBytes(layout.indexPath).flatMap(IndexSnapshot.decode)
        var saved: [String: EntryRecord] = [:]
        saved.reserveCapacity(snapshot?.records.count ?? 0)
        state.records.reserveCapacity(snapshot?.records.count ?? 0)
        state.owners.reserveCapacity(snapshot?.records.count ?? 0)
        for record in snapshot?.records ?? [] { saved[record.fileName] = record }
        state.statistics = snapshot?.statistics ?? StoreStatistics()
        state.accessSequence = snapshot?.accessSequence ?? 0

        if !readOnly {
            // Temporary files of an index or settings replacement a crash interrupted.
            for name in Directory.names(in: layout.root) where name.contains(".tmp-") { layout.remove(layout.root + "/" + name) }
        }
        let scan = DirectoryScan.scan(layout)
        for leftover in scan.leftovers {
            if !readOnly { layout.remove(layout.path(ofEntry: leftover)) }
            report.dropped.append(.init(path: leftover, reason: "left over from an interrupted write", deleted: !readOnly))
        }
        for stray in scan.strays {
            report.dropped.append(.init(path: stray, reason: "not an entry file", deleted: false))
        }
        var rebuilt: [EntryRecord] = []
        for file in scan.files {
            if let record = saved.removeValue(forKey: file.fileName), record.fileSize == file.size, record.modified == file.modified {
                add(record, to: &state, report: &report)
                continue
            }
            switch rebuildRecord(file) {
            case .rebuilt(let record):
                rebuilt.append(record)
            case .dropped(let dropped):
                if dropped.deleted { layout.remove(layout.path(ofEntry: file.fileName)) }
                report.dropped.append(dropped)
            }
        }
        report.vanished = saved.count
        // Files changed since the index was saved were used after everything it knew of: order
        // them after, by modification time.
        for record in rebuilt.sorted(by: { $0.modified < $1.modified }) {
            state.accessSequence += 1
            var record = record
            record.accessSequence = state.accessSequence
            add(record, to: &state, report: &report)
        }
        report.rebuiltFromHeaders = rebuilt.count
        report.entries = state.records.count
        state.isDirty = !rebuilt.isEmpty || report.vanished > 0
        return (state, report)
    }

    /// Keeps the newer of two files that claim the same key (a collision leftover).
    private func add(_ record: EntryRecord, to state: inout StoreState, report: inout OpenReport) {
        if let existing = state.records[record.key] {
            let (keep, drop) = existing.modified >= record.modified ? (existing, record) : (record, existing)
            if !readOnly { layout.remove(layout.path(ofEntry: drop.fileName)) }
            report.dropped.append(.init(path: drop.fileName, reason: "a newer file holds the same key", deleted: !readOnly))
            state.removeRecord(existing.key)
            state.insert(keep)
            return
        }
        state.insert(record)
    }

    private enum Rebuild {
        case rebuilt(EntryRecord)
        case dropped(OpenReport.Dropped)
    }

    private func rebuildRecord(_ file: DirectoryScan.File) -> Rebuild {
        let path = layout.path(ofEntry: file.fileName)
        do {
            let entry = try SparseFile.open(at: path, options: options)
            let metadata = entry.metadata
            let record = EntryRecord(
                key: metadata.key, fileName: file.fileName, diskBytes: try entry.allocatedBytes,
                cachedBytes: entry.cachedByteCount, contentLength: metadata.contentLength,
                lastAccess: file.modified / 1_000_000, accessSequence: 0,
                pinned: metadata.attributes[EntryAttribute.pinned] == "1",
                expires: metadata.attributes[EntryAttribute.expires].flatMap { UInt64($0) },
                headLimit: metadata.attributes[EntryAttribute.headLimit].flatMap { UInt64($0) },
                fileSize: file.size, modified: file.modified)
            return .rebuilt(record)
        } catch {
            switch error.code {
            case .notACacheFile, .unsupportedVersion:
                return .dropped(.init(path: file.fileName, reason: error.message, deleted: false))
            default:
                return .dropped(.init(path: file.fileName, reason: error.message, deleted: !readOnly))
            }
        }
    }
}
