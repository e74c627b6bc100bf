import Animation

/// The keys of an animation object, which classes accept each, and its schema: the single table
/// behind both the decoder's unknown-key check and the JSON Schema (so they cannot drift).
struct AnimationField {
    let key: String
    /// nil = every animation class.
    let classes: [AnimationClass]?
    let schema: SchemaJSON

    func accepted(by cls: AnimationClass) -> Bool { classes?.contains(cls) ?? true }

    static let property: [AnimationClass] = [.basic, .keyframe, .spring]
    static let fromTo: [AnimationClass] = [.basic, .spring]

    static let all: [AnimationField] = [
        AnimationField(key: "class", classes: nil, schema: SchemaJSON.strings(AnimationClass.allCases.map(\.rawValue))
            .described("The Core Animation class of the animation.")),
        AnimationField(key: "key", classes: nil, schema: SchemaJSON.type("string")
            .described("add(_:forKey:)'s key; a later animation with the same key replaces the earlier one.")),
        // CAMediaTiming
        AnimationField(key: "beginTime", classes: nil, schema: SchemaJSON.type("number")
            .described("0 = when added; otherwise a time in the layer's (or group's) time space.")),
        AnimationField(key: "duration", classes: nil, schema: SchemaJSON.anyOf([.number(.nonNegative), .constant("settlingDuration")])
            .described("Seconds of one iteration; 0 = the transaction's duration or 0.25 s. \"settlingDuration\" (CASpringAnimation only) uses the spring's settling duration.")),
        AnimationField(key: "speed", classes: nil, schema: SchemaJSON.type("number").described("Time scale relative to the parent; default 1.")),
        AnimationField(key: "timeOffset", classes: nil, schema: SchemaJSON.type("number").described("Offset in the animation's active local time (seconds).")),
        AnimationField(key: "repeatCount", classes: nil, schema: SchemaJSON.anyOf([.number(.nonNegative), .constant("infinity")])
            .described("Number of iterations (may be fractional); \"infinity\" repeats forever.")),
        AnimationField(key: "repeatDuration", classes: nil, schema: SchemaJSON.anyOf([.number(.nonNegative), .constant("infinity")])
            .described("Seconds to repeat for; \"infinity\" repeats forever.")),
        AnimationField(key: "autoreverses", classes: nil, schema: SchemaJSON.type("boolean").described("Play backwards after each forward pass.")),
        AnimationField(key: "fillMode", classes: nil, schema: SchemaJSON.strings(FillMode.allCases.map(\.rawValue))
            .described("removed (default), forwards, backwards or both.")),
        AnimationField(key: "removedOnCompletion", classes: nil, schema: SchemaJSON.type("boolean")
            .described("Remove the animation once its active duration has passed; default true.")),
        AnimationField(key: "timingFunction", classes: nil, schema: SchemaJSON.ref("timingFunction")
            .described("Pacing of the animation; absent = linear.")),
        // CAPropertyAnimation
        AnimationField(key: "keyPath", classes: property, schema: SchemaJSON.keyPath
            .described("The animated key path, as passed to CABasicAnimation(keyPath:): opacity, position.x, transform.rotation.z, filters.NAME.INPUT, emitterCells.NAME.KEY …")),
        AnimationField(key: "additive", classes: property, schema: SchemaJSON.type("boolean").described("Add the animated value to the current value.")),
        AnimationField(key: "cumulative", classes: property, schema: SchemaJSON.type("boolean").described("Each repeat builds on the end value of the previous one.")),
        // CABasicAnimation
        AnimationField(key: "fromValue", classes: fromTo, schema: SchemaJSON.object([]).described("Start value, encoded like the property.")),
        AnimationField(key: "toValue", classes: fromTo, schema: SchemaJSON.object([]).described("End value, encoded like the property.")),
        AnimationField(key: "byValue", classes: fromTo, schema: SchemaJSON.object([]).described("Relative change, encoded like the property.")),
        // CAKeyframeAnimation
        AnimationField(key: "values", classes: [.keyframe], schema: SchemaJSON.arrayOf(.object([]), max: SceneLimits.maxKeyframes)
            .described("Keyframe values, encoded like the property.")),
        AnimationField(key: "keyTimes", classes: [.keyframe], schema: SchemaJSON.arrayOf(.number(.unitInterval), max: SceneLimits.maxKeyframes)
            .described("Fractions of the duration in [0, 1], non-decreasing, one per value.")),
        AnimationField(key: "timingFunctions", classes: [.keyframe], schema: SchemaJSON.arrayOf(.ref("timingFunction"), max: SceneLimits.maxKeyframes)
            .described("One timing function per segment between keyframes.")),
        AnimationField(key: "calculationMode", classes: [.keyframe], schema: SchemaJSON.strings(CalculationMode.allCases.map(\.rawValue))
            .described("linear (default), discrete, paced, cubic or cubicPaced.")),
        AnimationField(key: "path", classes: [.keyframe], schema: SchemaJSON.ref("path")
            .described("A path to move along (point key paths such as position); overrides values.")),
        AnimationField(key: "rotationMode", classes: [.keyframe], schema: SchemaJSON.strings(RotationMode.allCases.map(\.rawValue))
            .described("Rotate the layer along the path's tangent: auto or autoReverse.")),
        AnimationField(key: "tensionValues", classes: [.keyframe], schema: SchemaJSON.arrayOf(.number(AnimationDecoder.kbDomain), max: SceneLimits.maxKeyframes)
            .described("Kochanek–Bartels tension per keyframe, in [-1, 1] (cubic modes).")),
        AnimationField(key: "continuityValues", classes: [.keyframe], schema: SchemaJSON.arrayOf(.number(AnimationDecoder.kbDomain), max: SceneLimits.maxKeyframes)
            .described("Kochanek–Bartels continuity per keyframe, in [-1, 1] (cubic modes).")),
        AnimationField(key: "biasValues", classes: [.keyframe], schema: SchemaJSON.arrayOf(.number(AnimationDecoder.kbDomain), max: SceneLimits.maxKeyframes)
            .described("Kochanek–Bartels bias per keyframe, in [-1, 1] (cubic modes).")),
        // CASpringAnimation
        AnimationField(key: "mass", classes: [.spring], schema: SchemaJSON.number(.positive).described("Mass of the object on the spring; default 1.")),
        AnimationField(key: "stiffness", classes: [.spring], schema: SchemaJSON.number(.positive).described("Spring stiffness; default 100.")),
        AnimationField(key: "damping", classes: [.spring], schema: SchemaJSON.number(.nonNegative).described("Damping coefficient; default 10.")),
        AnimationField(key: "initialVelocity", classes: [.spring], schema: SchemaJSON.type("number")
            .described("Initial velocity in fractions of the distance per second; default 0.")),
        AnimationField(key: "allowsOverdamping", classes: [.spring], schema: SchemaJSON.type("boolean")
            .described("Allow damping ratios above 1 (otherwise treated as critically damped).")),
        AnimationField(key: "perceptualDuration", classes: [.spring], schema: SchemaJSON.number(.positive)
            .described("iOS 17's init(perceptualDuration:bounce:), with bounce; sets duration to the settling duration unless given.")),
        AnimationField(key: "bounce", classes: [.spring], schema: SchemaJSON.number(AnimationDecoder.bounceDomain)
            .described("Bounce in (-1, 1) for perceptualDuration; default 0.")),
        AnimationField(key: "dampingRatio", classes: [.spring], schema: SchemaJSON.number(AnimationDecoder.dampingRatioDomain)
            .described("UIKit's usingSpringWithDamping: ratio in (0, 1], solved with duration as UIKit does.")),
        // CAAnimationGroup
        AnimationField(key: "animations", classes: [.group], schema: SchemaJSON.arrayOf(.ref("animation"))
            .described("Child animations, timed in the group's time space and clipped to its duration.")),
        // CATransition
        AnimationField(key: "type", classes: [.transition], schema: SchemaJSON.strings(TransitionType.allCases.map(\.rawValue))
            .described("fade (default), moveIn, push or reveal.")),
        AnimationField(key: "subtype", classes: [.transition], schema: SchemaJSON.strings(TransitionSubtype.allCases.map(\.rawValue))
            .described("Edge the motion starts from: fromLeft, fromRight, fromTop or fromBottom.")),
        AnimationField(key: "startProgress", classes: [.transition], schema: SchemaJSON.number(.unitInterval).described("Progress at the start, in [0, 1].")),
        AnimationField(key: "endProgress", classes: [.transition], schema: SchemaJSON.number(.unitInterval).described("Progress at the end, in [0, 1] and ≥ startProgress.")),
    ]
}
