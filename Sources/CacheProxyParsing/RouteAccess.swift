/// Which of the proxy's guards a route needs, as its entry in ``RouteTable`` declares it.
///
/// Players' routes (`/proxy`, `/dash/...` and a session's playlist and media) are ``media``: a
/// player cannot add headers, so they never need the control token, and they take GET and HEAD
/// only. Every other path is ``control``: `/status`, `/metrics`, `/entries`, `/prefetch`,
/// `/sessions`, `/downloads`, any path no route matches, and any route added later unless its
/// entry says otherwise.
public enum RouteAccess: Sendable, Hashable {
    case media
    case control

    /// The access a request target needs (its query, if any, is not parsed).
    public init(target: some Collection<UInt8>) {
        self = RouteTable.traits(forPath: target).access
    }
}
