import Geometry
import LayerModel
import Animation

/// Decodes an animation object into an `AnimationSpec`, typing its values by its key path
/// against the layer it is added to.
struct AnimationDecoder {
    static let kbDomain = NumberDomain(minimum: -1, maximum: 1)
    static let bounceDomain = NumberDomain(minimum: -1, exclusive: true, maximum: 1, maximumExclusive: true)
    static let dampingRatioDomain = NumberDomain(minimum: 0, exclusive: true, maximum: 1)
    private static let infinityOrNonNegative = "a number ≥ 0 or \"infinity\""

    let ctx: DecodingContext
    /// The class of the layer the animation is added to (subclass key paths need their class).
    let layerClass: LayerClass

    func decode(_ v: JSONValue) throws -> AnimationSpec {
        let r = try ObjectReader(v, ctx, owner: "an animation", expected: "an animation (an object)")
        let cls = try ctx.enumeration(try r.required("class"), AnimationClass.self, what: "animation class")
        ctx.animationCount += 1
        if ctx.animationCount > SceneLimits.maxAnimations {
            throw ctx.limit(v, SceneLimits.Message.animations)
        }
        let accepted = AnimationField.all.filter { $0.accepted(by: cls) }.map(\.key)
        for m in r.members where !accepted.contains(m.key) {
            if let field = AnimationField.all.first(where: { $0.key == m.key }), let owners = field.classes {
                throw SceneError(.unknownKey, at: ctx.keyLocation(m),
                                 "\(m.key) is a key of \(owners.map(\.rawValue).joined(separator: ", ")); this animation's class is \(cls.rawValue)")
            }
            throw SceneError(.unknownKey, at: ctx.keyLocation(m), "unknown key \(Echo.quoted(m.key)) for \(cls.rawValue)",
                             suggestion: Suggestion.nearest(to: m.key, among: accepted))
        }

        var spec = AnimationSpec(animationClass: cls, location: ctx.location(v))
        if let k = r["key"] { spec.key = try ctx.string(k) }
        try decodeTiming(r, into: &spec)

        if cls.isPropertyAnimation {
            let kp = try r.required("keyPath")
            spec.keyPath = try resolveKeyPath(kp)
            if let a = r["additive"] { spec.additive = try ctx.bool(a) }
            if let c = r["cumulative"] { spec.cumulative = try ctx.bool(c) }
        }
        switch cls {
        case .basic:
            try decodeFromTo(r, into: &spec)
        case .spring:
            try decodeFromTo(r, into: &spec)
            try decodeSpring(r, into: &spec)
        case .keyframe:
            try decodeKeyframes(r, into: &spec)
        case .group:
            if let a = r["animations"] {
                guard let items = a.array else { throw ctx.typeMismatch(a, expected: "an array of animations") }
                spec.animations = try items.map { try decode($0) }
            }
        case .transition:
            try decodeTransition(r, into: &spec)
        }
        return spec
    }

    // MARK: CAMediaTiming and CAAnimation

    private func decodeTiming(_ r: ObjectReader, into spec: inout AnimationSpec) throws {
        if let v = r["beginTime"] { spec.beginTime = try ctx.number(v) }
        if let v = r["duration"] {
            if v.string == "settlingDuration" {
                guard spec.animationClass == .spring else {
                    throw ctx.error(.invalidValue, v, "\"settlingDuration\" is only for CASpringAnimation", expected: "a number ≥ 0")
                }
                spec.duration = .settlingDuration
            } else if v.number != nil {
                spec.duration = .seconds(try ctx.number(v, domain: .nonNegative, what: "duration"))
            } else {
                throw ctx.typeMismatch(v, expected: spec.animationClass == .spring ? "a number ≥ 0 or \"settlingDuration\"" : "a number ≥ 0")
            }
        }
        if let v = r["speed"] { spec.speed = try ctx.number(v) }
        if let v = r["timeOffset"] { spec.timeOffset = try ctx.number(v) }
        if let v = r["repeatCount"] { spec.repeatCount = try infinityOrNumber(v, what: "repeatCount") }
        if let v = r["repeatDuration"] { spec.repeatDuration = try infinityOrNumber(v, what: "repeatDuration") }
        if let v = r["autoreverses"] { spec.autoreverses = try ctx.bool(v) }
        if let v = r["fillMode"] { spec.fillMode = try ctx.enumeration(v, FillMode.self, what: "fillMode") }
        if let v = r["removedOnCompletion"] { spec.removedOnCompletion = try ctx.bool(v) }
        if let v = r["timingFunction"] { spec.timingFunction = try ctx.timingFunction(v) }
    }

    /// JSON has no infinity: the format spells it "infinity".
    private func infinityOrNumber(_ v: JSONValue, what: String) throws -> Double {
        if let s = v.string {
            guard s == "infinity" else {
                throw ctx.error(.invalidValue, v, "expected \(Self.infinityOrNonNegative), found the string \(Echo.quoted(s))",
                                expected: Self.infinityOrNonNegative, suggestion: Suggestion.nearest(to: s, among: ["infinity"]))
            }
            return .infinity
        }
        guard v.number != nil else { throw ctx.typeMismatch(v, expected: Self.infinityOrNonNegative) }
        return try ctx.number(v, domain: .nonNegative, what: what)
    }

    // MARK: key paths and values

    /// Resolves a key path against `KeyPathTable` and the layer's class. Animating a property Core
    /// Animation does not animate is legal but does nothing: a warning, not an error.
    func resolveKeyPath(_ v: JSONValue, forAnimation: Bool = true) throws -> ResolvedKeyPath {
        let s = try ctx.string(v)
        guard let resolved = KeyPathTable.resolve(s) else {
            throw ctx.error(.invalidValue, v, "unknown key path \(Echo.quoted(s))",
                            suggestion: Suggestion.nearest(to: s, among: KeyPathTable.allKeyPaths))
        }
        let property = resolved.layerProperty
        if let owner = property.layerClass, owner != layerClass {
            throw ctx.error(.invalidValue, v, "\(property.name) is a \(owner.rawValue) property; this layer's class is \(layerClass.rawValue)")
        }
        if forAnimation && !property.animatable {
            ctx.warnings.append(Unsupported(feature: "\(property.name) is not animatable in Core Animation; the animation of \(Echo.quoted(s)) has no effect",
                                            location: ctx.location(v)))
        }
        return resolved
    }

    /// A value typed by the animation's key path (nullable only where the whole property is).
    private func typedValue(_ v: JSONValue, _ keyPath: ResolvedKeyPath) throws -> AnimationValue {
        let nullable = keyPath.field == nil && keyPath.layerProperty.nullable
        return try ctx.value(v, as: keyPath.valueType, nullable: nullable, domain: nil, name: keyPath.keyPath)
    }

    private func decodeFromTo(_ r: ObjectReader, into spec: inout AnimationSpec) throws {
        guard let kp = spec.keyPath else { return }
        if let v = r["fromValue"] { spec.fromValue = try typedValue(v, kp) }
        if let v = r["toValue"] { spec.toValue = try typedValue(v, kp) }
        if let v = r["byValue"] {
            switch kp.valueType {
            case .bool, .enumeration, .image, .string, .path, .cornerMask:
                throw ctx.error(.invalidValue, v, "byValue needs a value that can be added; '\(kp.keyPath)' is \(kp.valueType.summary)")
            default:
                spec.byValue = try typedValue(v, kp)
            }
        }
        if spec.fromValue != nil, spec.toValue != nil, spec.byValue != nil {
            throw ctx.error(.invalidValue, r["byValue"]!, "fromValue, toValue and byValue together are undefined in Core Animation; give at most two")
        }
    }

    // MARK: CAKeyframeAnimation

    private func decodeKeyframes(_ r: ObjectReader, into spec: inout AnimationSpec) throws {
        guard let kp = spec.keyPath else { return }
        var k = KeyframeSpec()
        if let v = r["values"] {
            guard let items = v.array else { throw ctx.typeMismatch(v, expected: "an array of values") }
            if items.count > SceneLimits.maxKeyframes { throw keyframeLimit(v, "values", items.count) }
            k.values = try items.map { try typedValue($0, kp) }
        }
        if let v = r["keyTimes"] {
            let times = try ctx.numberArray(v, domain: .unitInterval, limit: SceneLimits.maxKeyframes, what: "keyTimes")
            for idx in times.indices.dropFirst() where times[idx] < times[idx - 1] {
                throw ctx.error(.invalidValue, v.array![idx], "keyTimes must not decrease: \(display(times[idx])) follows \(display(times[idx - 1]))")
            }
            k.keyTimes = times
        }
        if let v = r["timingFunctions"] {
            guard let items = v.array else { throw ctx.typeMismatch(v, expected: "an array of timing functions") }
            if items.count > SceneLimits.maxKeyframes { throw keyframeLimit(v, "timingFunctions", items.count) }
            k.timingFunctions = try items.map { try ctx.timingFunction($0) }
        }
        if let v = r["calculationMode"] { k.calculationMode = try ctx.enumeration(v, CalculationMode.self, what: "calculationMode") }
        if let v = r["path"] {
            guard kp.valueType == .point else {
                throw ctx.error(.invalidValue, v, "a keyframe path moves a point; '\(kp.keyPath)' is \(kp.valueType.summary) (animate position instead)")
            }
            let path = try ctx.path(v)
            if path.elements.count > SceneLimits.maxKeyframes { throw keyframeLimit(v, "path", path.elements.count) }
            k.path = path
        }
        if let v = r["rotationMode"] { k.rotationMode = try ctx.enumeration(v, RotationMode.self, what: "rotationMode") }
        if let v = r["tensionValues"] { k.tensionValues = try ctx.numberArray(v, domain: Self.kbDomain, limit: SceneLimits.maxKeyframes, what: "tensionValues") }
        if let v = r["continuityValues"] { k.continuityValues = try ctx.numberArray(v, domain: Self.kbDomain, limit: SceneLimits.maxKeyframes, what: "continuityValues") }
        if let v = r["biasValues"] { k.biasValues = try ctx.numberArray(v, domain: Self.kbDomain, limit: SceneLimits.maxKeyframes, what: "biasValues") }
        // Core Animation ignores a keyframe animation whose keyTimes do not match its values one
        // for one (the animation silently does nothing), or, in the discrete mode, with one more
        // key time than values (where value i holds until key time i + 1); without a path and
        // outside the paced modes (which ignore keyTimes), that is an error here rather than a
        // still layer.
        let discrete = k.calculationMode == .discrete
        if let v = r["keyTimes"], let times = k.keyTimes, let values = k.values, k.path == nil, !values.isEmpty,
           k.calculationMode != .paced, k.calculationMode != .cubicPaced, times.count != values.count + (discrete ? 1 : 0) {
            throw ctx.error(.invalidValue, v, "keyTimes has \(times.count) entr\(times.count == 1 ? "y" : "ies") but values has \(values.count): "
                                + (discrete ? "in the discrete mode Core Animation needs one more key time than values (value i holds until key time i + 1)"
                                            : "Core Animation ignores a keyframe animation whose keyTimes and values differ in length; give one key time per value"))
        }
        spec.keyframes = k
    }

    private func keyframeLimit(_ v: JSONValue, _ what: String, _ n: Int) -> SceneError {
        ctx.limit(v, SceneLimits.Message.keyframes(what, n))
    }

    // MARK: CASpringAnimation

    /// Three ways to describe a spring (reference §4.5); mixing them is refused because Core
    /// Animation would silently let the last setter win.
    private func decodeSpring(_ r: ObjectReader, into spec: inout AnimationSpec) throws {
        let physicalKeys = ["mass", "stiffness", "damping", "allowsOverdamping"]
        let physical = r.members.filter { physicalKeys.contains($0.key) }
        var s = SpringSpec()
        if let v = r["initialVelocity"] { s.initialVelocity = try ctx.number(v) }
        if let p = r["perceptualDuration"] {
            if let m = physical.first ?? r.member("dampingRatio") {
                throw SceneError(.invalidValue, at: ctx.keyLocation(m), "\(m.key) cannot be combined with perceptualDuration (iOS 17's perceptualDuration + bounce sets mass, stiffness and damping)")
            }
            let duration = try ctx.number(p, domain: .positive, what: "perceptualDuration")
            let bounce = try r["bounce"].map { try ctx.number($0, domain: Self.bounceDomain, what: "bounce") } ?? 0
            s.parameters = .perceptual(duration: duration, bounce: bounce)
            // init(perceptualDuration:bounce:) sets duration = settlingDuration.
            if r["duration"] == nil { spec.duration = .settlingDuration }
        } else if let b = r.member("bounce") {
            throw SceneError(.missingKey, at: ctx.keyLocation(b), "bounce needs perceptualDuration (iOS 17's init(perceptualDuration:bounce:))")
        } else if let d = r["dampingRatio"] {
            if let m = physical.first {
                throw SceneError(.invalidValue, at: ctx.keyLocation(m), "\(m.key) cannot be combined with dampingRatio (UIKit solves mass, stiffness and damping from dampingRatio and duration)")
            }
            let ratio = try ctx.number(d, domain: Self.dampingRatioDomain, what: "dampingRatio")
            guard case .seconds(let t) = spec.duration, t > 0 else {
                throw ctx.error(.missingKey, d, "dampingRatio needs a duration > 0 in seconds (UIKit's usingSpringWithDamping: solves the spring for that duration)")
            }
            s.parameters = .dampingRatio(ratio)
        } else {
            let mass = try r["mass"].map { try ctx.number($0, domain: .positive, what: "mass") } ?? 1
            let stiffness = try r["stiffness"].map { try ctx.number($0, domain: .positive, what: "stiffness") } ?? 100
            let damping = try r["damping"].map { try ctx.number($0, domain: .nonNegative, what: "damping") } ?? 10
            let overdamping = try r["allowsOverdamping"].map { try ctx.bool($0) } ?? false
            s.parameters = .physical(mass: mass, stiffness: stiffness, damping: damping, allowsOverdamping: overdamping)
        }
        spec.spring = s
    }

    // MARK: CATransition

    private func decodeTransition(_ r: ObjectReader, into spec: inout AnimationSpec) throws {
        var t = TransitionSpec()
        if let v = r["type"] { t.type = try ctx.enumeration(v, TransitionType.self, what: "transition type") }
        if let v = r["subtype"] { t.subtype = try ctx.enumeration(v, TransitionSubtype.self, what: "transition subtype") }
        if let v = r["startProgress"] { t.startProgress = try ctx.number(v, domain: .unitInterval, what: "startProgress") }
        if let v = r["endProgress"] {
            t.endProgress = try ctx.number(v, domain: .unitInterval, what: "endProgress")
            guard t.endProgress >= t.startProgress else {
                throw ctx.error(.outOfRange, v, "endProgress \(display(t.endProgress)) is below startProgress \(display(t.startProgress))")
            }
        }
        spec.transition = t
    }
}
