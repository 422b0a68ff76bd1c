/// A request's method, as its request line spells it (methods are case-sensitive).
///
/// The cases are the methods the proxy tells apart; every other method is ``other(_:)``.
enum RequestMethod: Sendable, Hashable {
    case GET, HEAD, POST, PUT, DELETE, OPTIONS, CONNECT
    case other(String)

    init(rawValue: String) {
        switch rawValue {
        case "GET": self = .GET
        case "HEAD": self = .HEAD
        case "POST": self = .POST
        case "PUT": self = .PUT
        case "DELETE": self = .DELETE
        case "OPTIONS": self = .OPTIONS
        case "CONNECT": self = .CONNECT
        default: self = .other(rawValue)
        }
    }

    var rawValue: String {
        switch self {
        case .GET: "GET"
        case .HEAD: "HEAD"
        case .POST: "POST"
        case .PUT: "PUT"
        case .DELETE: "DELETE"
        case .OPTIONS: "OPTIONS"
        case .CONNECT: "CONNECT"
        case .other(let name): name
        }
    }
}
