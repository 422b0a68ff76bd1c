import CLibFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// The structure-aware mutator of the HLS fuzz targets. libFuzzer's byte mutations mostly break
/// a line early, so long campaigns spend their time on syntax errors; this one reads the input
/// as playlist lines and changes what a playlist is made of: it inserts or replaces whole tags of
/// every kind with values parsers treat specially (byte ranges, parts, variables, date ranges,
/// keys), changes, drops, repeats or adds one attribute of an attribute list, changes a tag's
/// number or a URI line, repeats, moves or drops lines, adds a segment or a variant. One mutation
/// in four is still libFuzzer's own (`LLVMFuzzerMutate`, with the target's dictionary).
///
/// `SPARSECACHE_FUZZ_MUTATOR=bytes` leaves every mutation to libFuzzer, to compare the two in
/// one build (Docs/FUZZING.md).
struct HLSMutator {
    var random: MutationRandom
    var playlist: PlaylistLines

    static let byteMutationsOnly: Bool = {
        guard let value = getenv("SPARSECACHE_FUZZ_MUTATOR") else { return false }
        return String(cString: value) == "bytes"
    }()

    /// Mutates `playlist` once; false when the chosen mutation found nothing to change.
    mutating func mutate() -> Bool {
        if playlist.lines.isEmpty || !playlist.lines.contains(where: { $0.content.starts(with: Array("#EXT".utf8)) }) {
            playlist.insert(Array("#EXTM3U".utf8), at: 0)
            insertTag()
            return true
        }
        switch random.weighted([3, 2, 5, 2, 2, 1, 1, 2, 2]) {
        case 0: insertTag()
        case 1: replaceLineWithTag()
        case 2: return mutateAttribute()
        case 3: return mutateTagValue()
        case 4: repeatLines()
        case 5: deleteLine()
        case 6: swapLines()
        case 7: return replaceURILine()
        default: insertSegmentOrVariant()
        }
        return true
    }

    private var randomPosition: Int { mutating get { random.below(playlist.lines.count + 1) } }

    private mutating func generatedTag() -> [[UInt8]] {
        let tag = HLSGrammar.tags[random.below(HLSGrammar.tags.count)]
        return HLSGrammar.lines(of: tag, random: &random).map { Array($0.utf8) }
    }

    private mutating func insertTag() {
        let position = randomPosition
        for (offset, line) in generatedTag().enumerated() { playlist.insert(line, at: position + offset) }
    }

    private mutating func replaceLineWithTag() {
        let index = random.below(playlist.lines.count)
        playlist.lines.remove(at: index)
        for (offset, line) in generatedTag().enumerated() { playlist.insert(line, at: index + offset) }
    }

    /// Changes one attribute of an attribute list: another value of its kind (or of any kind),
    /// quoted or not, dropped, repeated, or a known attribute of the tag added.
    private mutating func mutateAttribute() -> Bool {
        guard let index = random.element(of: playlist.attributeLines),
              var list = AttributeList(line: playlist.lines[index].content) else { return false }
        let tag = String(decoding: list.tag, as: UTF8.self)
        let position = random.below(list.attributes.count)
        let name = String(decoding: list.attributes[position].name, as: UTF8.self)
        switch random.below(6) {
        case 0, 1:
            let kind = HLSGrammar.kind(of: name, in: tag) ?? .integer
            list.attributes[position].value = Array(HLSGrammar.value(kind, random: &random).utf8)
        case 2:
            let kinds: [HLSGrammar.Value] = [.integer, .decimal, .quoted, .uri, .hex, .resolution, .date]
            list.attributes[position].value = Array(HLSGrammar.value(kinds[random.below(kinds.count)], random: &random).utf8)
        case 3:
            let value = list.attributes[position].value
            list.attributes[position].value = value.first == 0x22 ? value.filter { $0 != 0x22 } : [0x22] + value + [0x22]
        case 4:
            if random.chance(1, in: 2) { list.attributes.remove(at: position) } else { list.attributes.append(list.attributes[position]) }
        default:
            guard let entry = HLSGrammar.tags.first(where: { "#" + $0.name == tag }),
                  case .attributes(let known, _, _) = entry.shape, let added = random.element(of: known) else { return false }
            list.attributes.insert((Array(added.0.utf8), Array(HLSGrammar.value(added.1, random: &random).utf8)),
                                   at: random.below(list.attributes.count + 1))
        }
        playlist.lines[index].content = list.line
        return true
    }

    /// Gives a tag with one value (`#EXTINF:`, `#EXT-X-MEDIA-SEQUENCE:`, ...) another number.
    private mutating func mutateTagValue() -> Bool {
        let candidates = playlist.lines.indices.filter { index in
            let content = playlist.lines[index].content
            return content.starts(with: Array("#EXT".utf8)) && content.contains(0x3A) && !content.contains(0x3D)
        }
        guard let index = random.element(of: candidates), let colon = playlist.lines[index].content.firstIndex(of: 0x3A) else {
            return false
        }
        let content = playlist.lines[index].content
        let kind: HLSGrammar.Value = content.starts(with: Array("#EXTINF".utf8)) ? .decimal : .integer
        var value = Array(HLSGrammar.value(kind, random: &random).utf8)
        // A space after the colon, which parsers skip and report.
        if random.chance(1, in: 8) { value.insert(0x20, at: 0) }
        // EXTINF keeps its title.
        if let comma = content[colon...].firstIndex(of: 0x2C), kind == .decimal { value += content[comma...] }
        playlist.lines[index].content = Array(content[...colon]) + value
        return true
    }

    private mutating func repeatLines() {
        let start = random.below(playlist.lines.count)
        let block = Array(playlist.lines[start..<min(playlist.lines.count, start + 1 + random.below(4))])
        let position = randomPosition
        for (offset, line) in block.enumerated() { playlist.insert(line.content, at: position + offset) }
    }

    private mutating func deleteLine() {
        playlist.lines.remove(at: random.below(playlist.lines.count))
    }

    private mutating func swapLines() {
        let first = random.below(playlist.lines.count)
        let second = random.below(playlist.lines.count)
        let content = playlist.lines[first].content
        playlist.lines[first].content = playlist.lines[second].content
        playlist.lines[second].content = content
    }

    private mutating func replaceURILine() -> Bool {
        let candidates = playlist.lines.indices.filter { !playlist.lines[$0].content.isEmpty && playlist.lines[$0].content.first != 0x23 }
        guard let index = random.element(of: candidates) else { return false }
        playlist.lines[index].content = Array((random.element(of: HLSGrammar.uris) ?? "s.ts").utf8)
        return true
    }

    /// A segment (EXTINF, perhaps a byte range, a URI) or a variant (EXT-X-STREAM-INF, a URI).
    private mutating func insertSegmentOrVariant() {
        var lines: [String]
        if random.chance(1, in: 3), let variant = HLSGrammar.tags.first(where: { $0.name == "EXT-X-STREAM-INF" }) {
            lines = HLSGrammar.lines(of: variant, random: &random)
        } else {
            lines = ["#EXTINF:" + HLSGrammar.value(.decimal, random: &random) + ","]
            if random.chance(1, in: 3) { lines.append("#EXT-X-BYTERANGE:" + HLSGrammar.value(.byteRange, random: &random)) }
            lines.append(random.element(of: HLSGrammar.uris.filter { !$0.isEmpty }) ?? "s.ts")
        }
        let position = randomPosition
        for (offset, line) in lines.enumerated() { playlist.insert(Array(line.utf8), at: position + offset) }
    }
}

/// libFuzzer's hook for a custom mutator: mutates `data` (`size` bytes, room for `maxSize`) in
/// place and returns the new size.
@_cdecl("LLVMFuzzerCustomMutator")
public func hlsCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data else { return 0 }
    var random = MutationRandom(seed: seed)
    if HLSMutator.byteMutationsOnly || random.chance(1, in: 4) {
        return LLVMFuzzerMutate(data, size, maxSize)
    }
    var mutator = HLSMutator(random: random, playlist: PlaylistLines(UnsafeBufferPointer(start: data, count: size)))
    // A few tries: some mutations find nothing to change in a given input.
    for _ in 0..<4 where mutator.mutate() {
        let output = mutator.playlist.bytes
        guard output.count <= maxSize else { break }
        _ = UnsafeMutableBufferPointer(start: data, count: maxSize).update(fromContentsOf: output)
        return output.count
    }
    return LLVMFuzzerMutate(data, size, maxSize)
}
