/// Where the top-level boxes of an MP4 (ISO BMFF) file lie, read from untrusted bytes: enough
/// to know whether the `moov` box (the index a player needs before the first frame) is at the
/// start, or after the media data at the end, and how long the presentation lasts.
public struct MP4BoxLayout: Sendable, Hashable {
    public struct Box: Sendable, Hashable {
        /// The four-character type, e.g. `moov`.
        public var type: String
        public var offset: UInt64
        /// The whole box, header included; nil for a box that runs to the end of the file.
        public var size: UInt64?
    }

    /// The top-level boxes whose headers lie in the bytes given, in order.
    public var boxes: [Box]
    /// Where the next top-level box starts, when it lies past the bytes given (e.g. after an
    /// `mdat` too long to read): for a file whose `moov` is at the end, that is where it is.
    public var nextBoxOffset: UInt64?

    public var moov: Box? { boxes.first { $0.type == "moov" } }

    /// Reads the box headers in `bytes`, which hold the file from offset `offset` on.
    ///
    /// Stops at the first header that does not make sense (a size below the header's own, or
    /// past `fileLength`), and after `maximumBoxes`; never traps.
    public init(scanning bytes: some Collection<UInt8>, at offset: UInt64 = 0, fileLength: UInt64? = nil, maximumBoxes: Int = 64) {
        let data = Array(bytes)
        var boxes: [Box] = []
        var position = 0
        var next: UInt64?
        while boxes.count < maximumBoxes, data.count - position >= 8 {
            let start = offset + UInt64(position)
            let size32 = Self.readUInt32(data, position)
            let type = String(decoding: data[position + 4..<position + 8].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            var size: UInt64?
            var headerLength: UInt64 = 8
            switch size32 {
            case 0:
                size = nil  // to the end of the file
            case 1:
                guard data.count - position >= 16 else { break }
                size = Self.readUInt64(data, position + 8)
                headerLength = 16
            default:
                size = UInt64(size32)
            }
            if size32 == 1 && data.count - position < 16 { break }
            if let size {
                guard size >= headerLength else { break }
                let (end, overflow) = start.addingReportingOverflow(size)
                if overflow { break }
                if let fileLength, end > fileLength { break }
                boxes.append(Box(type: type, offset: start, size: size))
                guard let advance = Int(exactly: size), advance <= data.count - position else {
                    next = end
                    break
                }
                position += advance
            } else {
                boxes.append(Box(type: type, offset: start, size: nil))
                break
            }
        }
        self.boxes = boxes
        self.nextBoxOffset = next
    }

    /// The presentation's duration in seconds from the `mvhd` box inside `moov`, given the
    /// bytes of the `moov` box; nil when absent or malformed.
    public static func duration(inMovieBox moov: some Collection<UInt8>) -> Double? {
        let data = Array(moov)
        var position = 8
        while data.count - position >= 8 {
            let size = Int(readUInt32(data, position))
            guard size >= 8, size <= data.count - position else { return nil }
            if data[position + 4..<position + 8].elementsEqual("mvhd".utf8) {
                let body = position + 8
                guard data.count - body >= 4 else { return nil }
                let version = data[body]
                let (scaleAt, durationAt, durationLength) = version == 1 ? (body + 20, body + 24, 8) : (body + 12, body + 16, 4)
                guard data.count >= durationAt + durationLength, size >= durationAt + durationLength - position else { return nil }
                let timescale = readUInt32(data, scaleAt)
                let duration = durationLength == 8 ? readUInt64(data, durationAt) : UInt64(readUInt32(data, durationAt))
                guard timescale > 0, duration > 0, duration < UInt64.max else { return nil }
                return Double(duration) / Double(timescale)
            }
            position += size
        }
        return nil
    }

    private static func readUInt32(_ data: [UInt8], _ at: Int) -> UInt32 {
        data[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func readUInt64(_ data: [UInt8], _ at: Int) -> UInt64 {
        data[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
