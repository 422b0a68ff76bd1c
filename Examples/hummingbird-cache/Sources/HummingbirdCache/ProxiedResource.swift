/// One origin resource as the proxy sees it: where it is fetched from, and its key in the store.
struct ProxiedResource: Sendable {
    var url: String
    var key: String
}
