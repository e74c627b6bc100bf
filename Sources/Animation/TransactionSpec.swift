import LayerModel

/// A CATransaction committed at scene time `time` (scene-format.md "Transactions"). Layers are named
/// by `name`; the decoder has checked that each named layer exists when the transaction runs and that
/// its name is unique.
public struct TransactionSpec: Sendable {
    /// Seconds of scene time.
    public var time: Double
    /// Duration of the implicit animations; default 0.25 s.
    public var animationDuration: Double = 0.25
    /// nil = the `default` curve Core Animation gives implicit animations.
    public var animationTimingFunction: TimingFunctionSpec?
    /// true: `set` changes the model without implicit animations.
    public var disableActions = false
    public var set: [PropertyChange] = []
    public var add: [AnimationAddition] = []
    public var remove: [AnimationRemoval] = []
    public var insert: [LayerInsertion] = []
    public var removeLayers: [LayerReference] = []
    public var location: SourceLocation
    public init(time: Double, location: SourceLocation) { self.time = time; self.location = location }
}

/// `setValue(_:forKeyPath:)` on a named layer.
public struct PropertyChange: Sendable {
    public var layer: String
    public var keyPath: ResolvedKeyPath
    /// Typed by the key path.
    public var value: AnimationValue
    public var location: SourceLocation
    public init(layer: String, keyPath: ResolvedKeyPath, value: AnimationValue, location: SourceLocation) {
        self.layer = layer; self.keyPath = keyPath; self.value = value; self.location = location
    }
}

/// `add(_:forKey:)` on a named layer; a `beginTime` of 0 means the transaction's time.
public struct AnimationAddition: Sendable {
    public var layer: String
    public var animation: AnimationSpec
    public var location: SourceLocation
    public init(layer: String, animation: AnimationSpec, location: SourceLocation) {
        self.layer = layer; self.animation = animation; self.location = location
    }
}

/// `removeAnimation(forKey:)` on a named layer.
public struct AnimationRemoval: Sendable {
    public var layer: String
    public var key: String
    public var location: SourceLocation
    public init(layer: String, key: String, location: SourceLocation) {
        self.layer = layer; self.key = key; self.location = location
    }
}

/// `insertSublayer(_:at:)` on a named parent. The layer's ids are its preorder indices within the
/// inserted subtree (0 = the inserted layer, as `Scene.assignIDs` numbers a tree); `animations` is
/// keyed by those indices.
public struct LayerInsertion: Sendable {
    public var parent: String
    public var index: Int
    public var layer: Layer
    public var animations: [LayerID: [AnimationSpec]]
    public var location: SourceLocation
    public init(parent: String, index: Int, layer: Layer, animations: [LayerID: [AnimationSpec]], location: SourceLocation) {
        self.parent = parent; self.index = index; self.layer = layer; self.animations = animations; self.location = location
    }
}

/// A layer named by a transaction (`removeLayers`: `removeFromSuperlayer()`).
public struct LayerReference: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation
    public init(name: String, location: SourceLocation) { self.name = name; self.location = location }
}
