import ArgumentParser

/// `on` or `off`, for a feature that is on by default.
enum SwitchArgument: String, ExpressibleByArgument, CaseIterable {
    case on
    case off

    var isOn: Bool { self == .on }
}
