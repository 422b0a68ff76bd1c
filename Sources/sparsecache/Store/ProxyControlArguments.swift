import ArgumentParser

/// `--control-token`, for the store commands that write: when a running `serve` holds the
/// store, they hand their work to it, and a proxy started with a token asks for it.
struct ProxyControlArguments: ParsableArguments {
    @Option(name: .customLong("control-token"),
            help: "The control token of the proxy that holds the store, if it has one (the command is handed to a running serve).")
    var controlToken: String?

    /// How the option reads in a usage line written by hand.
    static let usage = "[--control-token <control-token>]"
}
