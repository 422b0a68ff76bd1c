import CacheProxyParsing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Header fields given on the command line: each argument is one field, or `@FILE` for one
/// field a line of FILE (blank lines and `#` comments skipped), so that secrets need not be
/// on the command line, where every user of the machine can read them. Errors name the option
/// and the field, never a value.
struct HeaderFieldArguments {
    private let arguments: [String]
    private let option: String

    init(_ arguments: [String], option: String) {
        self.arguments = arguments
        self.option = option
    }

    /// `Name: value` lines (`fetch --header`), checked as ``OriginHeaderFields``.
    func fields() throws(CommandFailure) -> OriginHeaderFields {
        let lines = try lines()
        do {
            return try OriginHeaderFields(lines: lines, context: option)
        } catch {
            throw CommandFailure(code: .usage, message: error.message)
        }
    }

    /// `HOST-PATTERN: Name: value` lines (`serve --origin-header`): the fields per host pattern.
    func fieldsByHost() throws(CommandFailure) -> [String: OriginHeaderFields] {
        var pairs: [String: [(name: String, value: String)]] = [:]
        var order: [String] = []
        for line in try lines() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":"), !trimmed[..<colon].isEmpty, !trimmed[..<colon].contains(" ") else {
                throw CommandFailure(code: .usage, message: "\(option) takes 'HOST-PATTERN: Name: value' (e.g. '*.example.com: Authorization: Bearer ...')")
            }
            let host = trimmed[..<colon].lowercased()
            let field: (name: String, value: String)
            do {
                field = try OriginHeaderFields.pair(parsing: trimmed[trimmed.index(after: colon)...].drop { $0 == " " }, context: "\(option) \(host)")
            } catch {
                throw CommandFailure(code: .usage, message: error.message)
            }
            if pairs[host] == nil { order.append(host) }
            pairs[host, default: []].append(field)
        }
        var byHost: [String: OriginHeaderFields] = [:]
        for host in order {
            do {
                byHost[host] = try OriginHeaderFields(pairs[host] ?? [], context: "\(option) \(host)")
            } catch {
                throw CommandFailure(code: .usage, message: error.message)
            }
        }
        return byHost
    }

    /// The arguments, with each `@FILE` replaced by FILE's lines.
    private func lines() throws(CommandFailure) -> [String] {
        var lines: [String] = []
        for argument in arguments {
            guard argument.hasPrefix("@") else {
                lines.append(argument)
                continue
            }
            let path = String(argument.dropFirst())
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw CommandFailure(code: .usage, message: "\(option) @\(path): the file cannot be read")
            }
            lines += text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map { line in
                line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            }
        }
        return lines
    }
}
