/// CASpringAnimation's spring, as the scene described it (reference §4.5). Which API was used is kept,
/// because each is solved differently (and the UIKit one needs the animation's duration).
public struct SpringSpec: Hashable, Sendable {
    public enum Parameters: Hashable, Sendable {
        /// CASpringAnimation's own properties; defaults mass 1, stiffness 100, damping 10.
        case physical(mass: Double, stiffness: Double, damping: Double, allowsOverdamping: Bool)
        /// iOS 17's `init(perceptualDuration:bounce:)` (sets allowsOverdamping and duration = settlingDuration).
        case perceptual(duration: Double, bounce: Double)
        /// UIKit's `usingSpringWithDamping:` with the animation's `duration`, solved so that the
        /// spring settles to within 0.001 at that duration (mass 1).
        case dampingRatio(Double)
    }
    public var parameters: Parameters
    /// Fractions of the from→to distance per second; positive = toward the target. Default 0.
    public var initialVelocity: Double
    public init(parameters: Parameters = .physical(mass: 1, stiffness: 100, damping: 10, allowsOverdamping: false),
                initialVelocity: Double = 0) {
        self.parameters = parameters; self.initialVelocity = initialVelocity
    }
}
