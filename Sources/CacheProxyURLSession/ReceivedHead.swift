import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CacheProxy

/// An `HTTPURLResponse` as an origin's head: its status and fields, described for the body
/// `URLSession` delivers.
struct ReceivedHead {
    var status: Int
    var headers: HeaderFields
    /// The body length the origin announced, when the body arrives as the origin sent it:
    /// a body that ends short of it was cut.
    var expectedLength: Int64?

    init(_ response: HTTPURLResponse) {
        status = response.statusCode
        var headers = HeaderFields()
        // `URLSession` gives a dictionary (repeated fields joined by commas): sorted, so that
        // the order is the same every time.
        let fields = response.allHeaderFields.compactMap { name, value in (name as? String).map { ($0, "\(value)") } }
        for (name, value) in fields.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
            headers.add(name: name, value: value)
        }
        let encoding = headers.first(name: "content-encoding")?.lowercased()
        if let encoding, encoding != "identity" {
            // URLSession has decoded the body (it cannot be told not to): these fields describe
            // the bytes the origin sent, not the ones delivered.
            headers.remove(name: "content-encoding")
            headers.remove(name: "content-length")
        }
        self.headers = headers
        let hasBody = !(100..<200).contains(status) && status != 204 && status != 304
        expectedLength = hasBody ? headers.first(name: "content-length").flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil } : nil
    }
}
