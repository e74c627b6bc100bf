/// CATransition's fields (reference §4.7). The layer's previous rendered state is replaced by its
/// new state; the transition is added under the key "transition".
public struct TransitionSpec: Hashable, Sendable {
    public var type: TransitionType = .fade
    public var subtype: TransitionSubtype?
    /// 0 ≤ startProgress ≤ endProgress ≤ 1.
    public var startProgress: Double = 0
    public var endProgress: Double = 1
    public init() {}
}
