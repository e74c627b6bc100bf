import LayerModel

/// Key paths into filters: `filters.NAME.INPUT` and `backgroundFilters.NAME.INPUT` (a blur whose
/// radius animates: `filters.blur.inputRadius`). A filter is addressed by its `name` (default: its
/// type); the input decides the value type. Each such key path is a `LayerProperty` of its own,
/// built on demand, so animations, transactions and presentation evaluation use them as they use
/// `KeyPathTable`'s properties.
///
/// Decisions where Core Animation is silent: a key path naming no filter of the layer reads the
/// input's zero and writing it changes nothing (as a KVC write to a filter that is not there has no
/// visible effect); the first filter with the name is the one addressed.
public enum FilterKeyPaths {
    /// The layer properties that hold filters.
    public static let lists = ["filters", "backgroundFilters"]

    /// The type of an input's values in scene files and animations.
    public static func valueType(_ input: FilterInput) -> ValueType {
        switch input {
        case .inputRadius, .inputAmount, .inputAngle: return .number
        case .inputNormalizeEdges: return .bool
        case .inputMaskImage: return .image
        case .inputColor: return .color
        case .inputColorMatrix: return .numberArray
        }
    }

    /// Animatable inputs: numbers, colours and the matrix (CAFilter inputs are animatable by key path).
    public static func isAnimatable(_ input: FilterInput) -> Bool {
        input != .inputNormalizeEdges && input != .inputMaskImage
    }

    /// Splits `filters.NAME.INPUT` (NAME may contain dots: the input is after the last one).
    public static func parse(_ keyPath: String) -> (list: String, name: String, input: FilterInput)? {
        guard let firstDot = keyPath.firstIndex(of: "."), let lastDot = keyPath.lastIndex(of: "."), firstDot < lastDot else {
            return nil
        }
        let list = String(keyPath[..<firstDot])
        guard lists.contains(list) else { return nil }
        let name = String(keyPath[keyPath.index(after: firstDot)..<lastDot])
        guard !name.isEmpty, let input = FilterInput(rawValue: String(keyPath[keyPath.index(after: lastDot)...])) else { return nil }
        return (list, name, input)
    }

    static func resolve(_ keyPath: String) -> ResolvedKeyPath? {
        guard let p = parse(keyPath) else { return nil }
        return ResolvedKeyPath(keyPath: keyPath, property: keyPath, field: nil, valueType: valueType(p.input))
    }

    /// The layer property for a full filter key path.
    public static func property(named keyPath: String) -> LayerProperty? {
        guard let (list, name, input) = parse(keyPath) else { return nil }
        let type = valueType(input)
        let background = list == "backgroundFilters"
        return LayerProperty(
            name: keyPath, valueType: type, nullable: input == .inputMaskImage, layerClass: nil,
            animatable: isAnimatable(input), implicitAction: isAnimatable(input) ? .basic : .none,
            domain: nil, summary: "The \(input.rawValue) of the filter named \(name) in \(list).",
            get: { layer in
                let filters = background ? layer.backgroundFilters : layer.filters
                guard let f = filters.first(where: { $0.name == name }), let v = f.value(input) else {
                    return ValueInterpolation.zero(of: type)
                }
                return animationValue(v)
            },
            set: { layer, value in
                guard let v = filterValue(value, input) else { return false }
                let filters = background ? layer.backgroundFilters : layer.filters
                guard let i = filters.firstIndex(where: { $0.name == name }) else { return true }
                if background { layer.backgroundFilters[i].set(input, v) } else { layer.filters[i].set(input, v) }
                return true
            })
    }

    public static func animationValue(_ v: FilterValue) -> AnimationValue {
        switch v {
        case .number(let x): return .number(x)
        case .bool(let b): return .bool(b)
        case .color(let c): return .color(c)
        case .numbers(let m): return .numberArray(m)
        case .image(let i): return i.map { .image($0) } ?? .null
        }
    }

    public static func filterValue(_ v: AnimationValue, _ input: FilterInput) -> FilterValue? {
        switch (valueType(input), v) {
        case (.number, .number(let x)): return .number(x)
        case (.bool, .bool(let b)): return .bool(b)
        case (.color, .color(let c)): return .color(c)
        case (.numberArray, .numberArray(let m)): return m.count == 20 ? .numbers(m) : nil
        case (.image, .image(let i)): return .image(i)
        case (.image, .null): return .image(nil)
        default: return nil
        }
    }
}
