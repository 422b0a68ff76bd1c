/// RESOLUTION: width and height in pixels.
public struct HLSResolution: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: UInt64
    /// Height in pixels.
    public var height: UInt64

    /// A resolution of `width` by `height` pixels.
    public init(width: UInt64, height: UInt64) {
        self.width = width
        self.height = height
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
}
