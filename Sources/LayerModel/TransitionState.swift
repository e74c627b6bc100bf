/// One of the two states a running CATransition shows (reference §4.7): the snapshot of the
/// layer's previous rendered state, or its new state. The evaluator puts both in the presentation
/// tree side by side (previous first); the planner renders each as a snapshot offscreen and, for
/// `fade`, mixes them in one pass (a true cross-dissolve); the other types move the snapshots.
public struct TransitionState: Sendable, Equatable {
    public enum Role: Sendable, Equatable { case previous, next }
    public var role: Role
    /// For `fade`: the transition's progress p (previous weighs 1 − p, next weighs p). nil for
    /// `moveIn`, `push` and `reveal`, whose states are offset instead.
    public var dissolve: Double?
    public init(role: Role, dissolve: Double?) { self.role = role; self.dissolve = dissolve }
}
