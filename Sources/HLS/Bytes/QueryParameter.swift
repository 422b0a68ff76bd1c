/// Reads one query parameter of a URL, for EXT-X-DEFINE:QUERYPARAM.
enum QueryParameter {
    /// The percent-decoded value of the first `name=value` pair in the query of `url`, or nil.
    static func value(named name: [UInt8], in url: String?) -> [UInt8]? {
        guard let url else { return nil }
        let bytes = Array(url.utf8)
        guard let questionMark = bytes.firstIndex(of: ASCII.questionMark) else { return nil }
        let queryEnd = bytes.firstIndex(of: ASCII.hash) ?? bytes.count
        guard questionMark < queryEnd else { return nil }
        for pair in bytes[(questionMark + 1)..<queryEnd].split(separator: 0x26, omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: ASCII.equals) ?? pair.endIndex
            if pair[pair.startIndex..<equals].elementsEqual(name) {
                let value = equals < pair.endIndex ? pair[(equals + 1)...] : pair[pair.endIndex...]
                return PercentEncoding.decode(value)
            }
        }
        return nil
    }
}
