import Geometry
import LayerModel
import Animation

/// Builds an `AnimationSpec` from the keys an asset stores on a CAAnimation (archive coder keys
/// and CAML attributes/children have the same names), typing values by the key path against the
/// layer the animation is added to. Anything it cannot use is reported; an animation that cannot
/// run at all (unknown class or key path, values of the wrong type) is dropped with a warning.
struct AnimationBuilder {
    let ctx: ImportContext
    let layerClass: LayerClass

    /// Keys that change nothing caprof evaluates.
    static let noEffectKeys: Set<String> = ["delegate", "__CACodingContents", "class", "key", "frameInterval",
                                            "preferredFramesPerSecond", "preferredFrameRateRange", "discretizesTime"]

    /// - Parameters:
    ///   - className: the CAAnimation class (`CABasicAnimation`, or a private one to report).
    ///   - fields: stored keys with their values, in file order; `animations` (groups) already built.
    func build(className: String, key: String?, fields: [(String, ImportedValue)], children: [AnimationSpec] = [],
               at place: SourceLocation) -> AnimationSpec? {
        guard let cls = AnimationClass(rawValue: className) else {
            ctx.warn("\(className) is not supported (animation '\(key ?? "")' is not applied)", at: place)
            return nil
        }
        var spec = AnimationSpec(animationClass: cls, location: place)
        spec.key = key
        let f = Dictionary(fields, uniquingKeysWith: { a, _ in a })
        if let e = f["enabled"]?.number, e == 0 {
            ctx.warn("\(className) '\(key ?? "")' has enabled = NO; it is not applied", at: place)
            return nil
        }
        if cls.isPropertyAnimation {
            guard let kp = f["keyPath"]?.string else {
                ctx.warn("\(className) '\(key ?? "")' has no keyPath; it is not applied", at: place)
                return nil
            }
            guard let resolved = KeyPathTable.resolve(kp) else {
                ctx.warn("the key path '\(kp)' is not supported (animation '\(key ?? kp)' is not applied)", at: place)
                return nil
            }
            if let owner = resolved.layerProperty.layerClass, owner != layerClass {
                ctx.warn("'\(kp)' is a \(owner.rawValue) property; the animation on a \(layerClass.rawValue) is not applied", at: place)
                return nil
            }
            spec.keyPath = resolved
        }
        var spring = SpringSpec()
        var mass = 1.0, stiffness = 100.0, damping = 10.0, overdamping = false
        for (name, value) in fields {
            if Self.noEffectKeys.contains(name) || name == "enabled" || name == "keyPath" { continue }
            if !apply(name, value, to: &spec, spring: &spring, mass: &mass, stiffness: &stiffness, damping: &damping,
                      overdamping: &overdamping, at: place) {
                return nil
            }
        }
        if cls == .spring {
            spring.parameters = .physical(mass: mass, stiffness: stiffness, damping: damping, allowsOverdamping: overdamping)
            spec.spring = spring
            if f["mica_autorecalculatesDuration"]?.number.map({ $0 != 0 }) == true { spec.duration = .settlingDuration }
        }
        if cls == .group { spec.animations = children }
        validate(&spec, at: place)
        // Core Animation ignores a keyframe animation whose keyTimes and values differ in length
        // (outside the paced modes and without a path): so does the import, saying so.
        if let k = spec.keyframes, let times = k.keyTimes, let values = k.values, k.path == nil, !values.isEmpty,
           k.calculationMode != .paced, k.calculationMode != .cubicPaced, times.count != values.count {
            ctx.warn("\(className) of \(spec.keyPath.map { "\($0)" } ?? "a key path"): keyTimes has \(times.count) entries but values has \(values.count); Core Animation ignores such an animation, and so does caprof", at: place)
            return nil
        }
        return spec
    }

    /// Applies one key; false when the animation must be dropped (reported here).
    private func apply(_ name: String, _ value: ImportedValue, to spec: inout AnimationSpec, spring: inout SpringSpec,
                       mass: inout Double, stiffness: inout Double, damping: inout Double, overdamping: inout Bool,
                       at place: SourceLocation) -> Bool {
        func number() -> Double? {
            guard let n = value.number else {
                ctx.warn("\(name): expected a number, found \(value.kindDescription); the default is kept", at: place)
                return nil
            }
            return n
        }
        let label = spec.key ?? spec.keyPath?.keyPath ?? spec.animationClass.rawValue
        switch name {
        case "beginTime": if let n = number() { spec.beginTime = n }
        case "duration": if let n = number() { spec.duration = .seconds(max(0, n)) }
        case "speed": if let n = number() { spec.speed = n }
        case "timeOffset": if let n = number() { spec.timeOffset = n }
        case "repeatCount": if let n = number() { spec.repeatCount = max(0, n) }
        case "repeatDuration": if let n = number() { spec.repeatDuration = max(0, n) }
        case "autoreverses": if let n = number() { spec.autoreverses = n != 0 }
        case "removedOnCompletion": if let n = number() { spec.removedOnCompletion = n != 0 }
        case "additive": if let n = number() { spec.additive = n != 0 }
        case "cumulative": if let n = number() { spec.cumulative = n != 0 }
        case "fillMode":
            if let s = value.string, let m = FillMode(rawValue: s) { spec.fillMode = m }
            else { ctx.warn("fillMode: unknown value \(value.kindDescription); 'removed' is used", at: place) }
        case "timingFunction":
            if case .null = value { return true }
            if let t = ValueTyping.timingFunction(value) { spec.timingFunction = t }
            else { ctx.warn("timingFunction: \(value.kindDescription) is not a timing function; linear is used", at: place) }
        case "beginTimeMode":
            ctx.warn("the private beginTimeMode '\(value.string ?? value.kindDescription)' is not applied: beginTime is read in the layer's time", at: place)
        case "fromValue", "toValue", "byValue":
            guard let kp = spec.keyPath else { break }
            guard let v = typed(value, kp) else {
                ctx.warn("\(name) of '\(kp.keyPath)': expected \(kp.valueType.summary), found \(value.kindDescription); animation '\(label)' is not applied", at: place)
                return false
            }
            switch name {
            case "fromValue": spec.fromValue = v
            case "toValue": spec.toValue = v
            default: spec.byValue = v
            }
        case "values":
            guard let kp = spec.keyPath, spec.keyframes != nil else { break }
            guard let items = value.array else {
                ctx.warn("values: expected an array, found \(value.kindDescription); animation '\(label)' is not applied", at: place)
                return false
            }
            var out: [AnimationValue] = []
            for item in items {
                guard let v = typed(item, kp) else {
                    ctx.warn("values of '\(kp.keyPath)': expected \(kp.valueType.summary), found \(item.kindDescription); animation '\(label)' is not applied", at: place)
                    return false
                }
                out.append(v)
            }
            spec.keyframes?.values = out
        case "keyTimes":
            guard spec.keyframes != nil else { break }
            guard let items = value.array, let times = numbers(items) else {
                ctx.warn("keyTimes: expected numbers, found \(value.kindDescription); they are ignored", at: place)
                break
            }
            spec.keyframes?.keyTimes = times
        case "timingFunctions":
            guard spec.keyframes != nil, let items = value.array else { break }
            let fns = items.compactMap(ValueTyping.timingFunction)
            if fns.count == items.count { spec.keyframes?.timingFunctions = fns }
            else { ctx.warn("timingFunctions: not all are timing functions; they are ignored", at: place) }
        case "calculationMode":
            if let s = value.string, let m = CalculationMode(rawValue: s) { spec.keyframes?.calculationMode = m }
            else { ctx.warn("calculationMode: unknown value \(value.kindDescription); linear is used", at: place) }
        case "rotationMode":
            if case .null = value { break }
            if let s = value.string, let m = RotationMode(rawValue: s) { spec.keyframes?.rotationMode = m }
            else { ctx.warn("rotationMode: unknown value \(value.kindDescription); it is ignored", at: place) }
        case "path":
            if case .null = value { break }
            if case .path(let p) = value, spec.keyPath?.valueType == .point { spec.keyframes?.path = p }
            else { ctx.warn("path: a keyframe path needs a point key path; it is ignored", at: place) }
        case "tensionValues", "continuityValues", "biasValues":
            guard let items = value.array, let ns = numbers(items) else { break }
            switch name {
            case "tensionValues": spec.keyframes?.tensionValues = ns
            case "continuityValues": spec.keyframes?.continuityValues = ns
            default: spec.keyframes?.biasValues = ns
            }
        case "mass": if let n = number(), n > 0 { mass = n }
        case "stiffness": if let n = number(), n > 0 { stiffness = n }
        case "damping": if let n = number(), n >= 0 { damping = n }
        case "initialVelocity", "velocity": if let n = number() { spring.initialVelocity = n }
        case "allowsOverdamping": if let n = number() { overdamping = n != 0 }
        case "mica_autorecalculatesDuration": break
        case "animations": break
        case "type":
            // The CATransition type; CAML's type attribute (the class) is taken out by its decoder.
            if spec.animationClass == .transition {
                if let s = value.string, let t = TransitionType(rawValue: s) { spec.transition?.type = t }
                else { ctx.warn("transition type \(value.kindDescription) is not supported; fade is used", at: place) }
            }
        case "subtype":
            if let s = value.string, let t = TransitionSubtype(rawValue: s) { spec.transition?.subtype = t }
        case "startProgress": if let n = number() { spec.transition?.startProgress = min(max(n, 0), 1) }
        case "endProgress": if let n = number() { spec.transition?.endProgress = min(max(n, 0), 1) }
        default:
            if name.hasPrefix("mica_") { break }
            ctx.warn("unknown key '\(name)' on \(spec.animationClass.rawValue) '\(label)' (\(value.kindDescription)) is not applied", at: place)
        }
        return true
    }

    /// What Core Animation ignores or leaves undefined, made explicit so the scene is one a scene
    /// file can hold: keyTimes outside [0, 1] or decreasing are ignored (CA ignores "inappropriate"
    /// keyTimes arrays), Kochanek–Bartels parameters are clamped to [−1, 1], and of fromValue,
    /// toValue and byValue together byValue is dropped (the combination is undefined).
    private func validate(_ spec: inout AnimationSpec, at place: SourceLocation) {
        if let times = spec.keyframes?.keyTimes {
            let ordered = zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }
            if !ordered || times.contains(where: { !($0 >= 0 && $0 <= 1) }) {
                ctx.warn("keyTimes \(times) are not non-decreasing fractions in [0, 1]; they are ignored, as Core Animation ignores them", at: place)
                spec.keyframes?.keyTimes = nil
            }
        }
        func clamp(_ a: [Double]?) -> [Double]? { a?.map { $0.isFinite ? min(max($0, -1), 1) : 0 } }
        if var k = spec.keyframes {
            k.tensionValues = clamp(k.tensionValues)
            k.continuityValues = clamp(k.continuityValues)
            k.biasValues = clamp(k.biasValues)
            spec.keyframes = k
        }
        if spec.fromValue != nil, spec.toValue != nil, spec.byValue != nil {
            ctx.warn("fromValue, toValue and byValue together are undefined in Core Animation; byValue is ignored", at: place)
            spec.byValue = nil
        }
    }

    /// A value typed by the key path (nullable only where the whole property is).
    private func typed(_ v: ImportedValue, _ kp: ResolvedKeyPath) -> AnimationValue? {
        let nullable = kp.field == nil && kp.layerProperty.nullable
        return ValueTyping.typed(v, as: kp.valueType, nullable: nullable)
    }

    private func numbers(_ items: [ImportedValue]) -> [Double]? {
        var out: [Double] = []
        for i in items { guard let n = i.number else { return nil }; out.append(n) }
        return out
    }
}
