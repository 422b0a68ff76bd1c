import NIOCore

/// Answers `GET /` with the dashboard: one self-contained HTML page (no external assets) whose
/// script reads `/status`, `/entries` and `/downloads` every two seconds.
struct DashboardResponder {
    func respond(writer: ResponseWriter) async throws {
        let body = writer.allocator.buffer(string: DashboardPage.html)
        let headers: HeaderFields = [
            "Content-Type": "text/html; charset=utf-8",
            "Content-Length": String(body.readableBytes),
            "Cache-Control": "no-store",
            // The page runs its own inline script and talks to this proxy only.
            "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'",
        ]
        try await writer.sendComplete(status: .ok, headers: headers, body: body)
    }
}
