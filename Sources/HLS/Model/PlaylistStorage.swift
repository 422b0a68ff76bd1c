/// Everything the parser learned about a playlist, as records of offsets into its bytes.
///
/// The public model types (``HLSSegment``, ``HLSVariant``, ...) are decoded from these records
/// on demand, so parsing allocates no string per segment and a 100,000-segment playlist costs a
/// handful of array appends per line.
struct PlaylistStorage: Sendable {
    var lines = RecordArray<LineRecord>()
    var attributes = RecordArray<AttributeRecord>()

    var segments = RecordArray<SegmentRecord>()
    /// EXT-X-BITRATE values, which segments index.
    var bitrates: [UInt64] = []
    var keys: [TagRecord] = []
    /// Flattened key sets: each segment's `keySet` indexes `keySets`, a range of `keySetMembers`,
    /// which index `keys`. Segments share a set until an EXT-X-KEY changes it.
    var keySetMembers: [Int32] = []
    var keySets: [Range<Int32>] = []
    var maps: [MapRecord] = []
    var parts: [PartRecord] = []
    var preloadHints: [TagRecord] = []
    var renditionReports: [TagRecord] = []
    var dateRanges: [DateRangeRecord] = []

    var variants: [VariantRecord] = []
    var renditions: [TagRecord] = []
    var sessionData: [TagRecord] = []
    var sessionKeys: [TagRecord] = []
    var contentSteering: TagRecord?

    var variables = VariableTable()

    var serverControl: TagRecord?
    var partInf: TagRecord?
    var skip: TagRecord?
    var start: TagRecord?

    var version: UInt64?
    var targetDuration: UInt64?
    var mediaSequence: UInt64?
    var discontinuitySequence: UInt64?
    var skippedSegments: UInt64 = 0
    var playlistType: HLSPlaylistType?
    var endList = false
    var iFramesOnly = false
    var independentSegments = false
    var kind: HLSPlaylistKind = .media

    var diagnostics: [HLSDiagnostic] = []
}
