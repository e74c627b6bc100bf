import Geometry

/// A Core Animation filter (`CAFilter`, private; what `filters` and `backgroundFilters` hold), as
/// archives, `.ca` packages and scene files write it: a type, a name that addresses it in key
/// paths (`filters.blur.inputRadius`), and typed inputs.
///
/// Defaults: Core Animation does not document CAFilter's defaults; where a Core Image filter
/// does the same thing its default is taken (`CIGaussianBlur.inputRadius` 10,
/// `CIColorMonochrome.inputColor` (0.6, 0.45, 0.3) with intensity 1); otherwise the input's
/// identity (saturation and contrast 1, brightness 0, angle 0, white, the identity matrix).
public struct Filter: Sendable, Equatable, Hashable {
    public var type: FilterType
    /// Addresses the filter in key paths; defaults to the type's name.
    public var name: String
    /// gaussianBlur, variableBlur: the Gaussian's standard deviation σ in points.
    public var inputRadius: Double = 10
    /// gaussianBlur, variableBlur: renormalise by the kernel weight inside the content instead of
    /// reading transparent black beyond its edges.
    public var inputNormalizeEdges = false
    /// variableBlur: an image whose alpha scales the radius (stretched over the layer's bounds).
    public var inputMaskImage: ImageSource?
    /// colorSaturate (1 = unchanged), colorBrightness (added, 0 = unchanged), colorContrast
    /// (1 = unchanged), colorMonochrome (intensity, 1 = fully tinted).
    public var inputAmount: Double
    /// colorHueRotate: radians.
    public var inputAngle: Double = 0
    /// colorMonochrome (the tint), multiplyColor (the factor).
    public var inputColor: Color
    /// colorMatrix: 20 numbers, rows R G B A of [r g b a bias], on non-premultiplied colour.
    public var inputColorMatrix: [Double] = Filter.identityMatrix

    public init(_ type: FilterType, name: String? = nil) {
        self.type = type
        self.name = name ?? type.rawValue
        switch type {
        case .colorBrightness: inputAmount = 0
        default: inputAmount = 1
        }
        inputColor = type == .colorMonochrome ? Color(0.6, 0.45, 0.3) : .white
    }

    /// The identity colour matrix (rows R G B A of [r g b a bias]).
    public static let identityMatrix: [Double] = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]

    /// The value of `input` (nil when the filter's type does not take it).
    public func value(_ input: FilterInput) -> FilterValue? {
        guard type.inputs.contains(input) else { return nil }
        switch input {
        case .inputRadius: return .number(inputRadius)
        case .inputNormalizeEdges: return .bool(inputNormalizeEdges)
        case .inputMaskImage: return .image(inputMaskImage)
        case .inputAmount: return .number(inputAmount)
        case .inputAngle: return .number(inputAngle)
        case .inputColor: return .color(inputColor)
        case .inputColorMatrix: return .numbers(inputColorMatrix)
        }
    }

    /// Sets `input`; false when the type does not take it or the value has the wrong type.
    @discardableResult
    public mutating func set(_ input: FilterInput, _ v: FilterValue) -> Bool {
        guard type.inputs.contains(input) else { return false }
        switch (input, v) {
        case (.inputRadius, .number(let x)): inputRadius = x
        case (.inputNormalizeEdges, .bool(let b)): inputNormalizeEdges = b
        case (.inputMaskImage, .image(let i)): inputMaskImage = i
        case (.inputAmount, .number(let x)): inputAmount = x
        case (.inputAngle, .number(let x)): inputAngle = x
        case (.inputColor, .color(let c)): inputColor = c
        case (.inputColorMatrix, .numbers(let m)) where m.count == 20: inputColorMatrix = m
        default: return false
        }
        return true
    }
}

/// The filter types of the scene format ("Filters"), by their CAFilter names.
public enum FilterType: String, CaseIterable, Sendable, Hashable {
    case gaussianBlur, variableBlur
    case colorSaturate, colorBrightness, colorContrast, colorHueRotate, colorInvert, colorMonochrome
    case colorMatrix, luminanceToAlpha, multiplyColor

    /// The inputs the type takes.
    public var inputs: [FilterInput] {
        switch self {
        case .gaussianBlur: return [.inputRadius, .inputNormalizeEdges]
        case .variableBlur: return [.inputRadius, .inputMaskImage, .inputNormalizeEdges]
        case .colorSaturate, .colorBrightness, .colorContrast: return [.inputAmount]
        case .colorHueRotate: return [.inputAngle]
        case .colorInvert, .luminanceToAlpha: return []
        case .colorMonochrome: return [.inputColor, .inputAmount]
        case .colorMatrix: return [.inputColorMatrix]
        case .multiplyColor: return [.inputColor]
        }
    }

    /// A per-pixel colour transform (one colour-matrix pass), as opposed to a blur.
    public var isColorFilter: Bool { self != .gaussianBlur && self != .variableBlur }
}

/// A filter input, by its CAFilter key.
public enum FilterInput: String, CaseIterable, Sendable, Hashable {
    case inputRadius, inputNormalizeEdges, inputMaskImage, inputAmount, inputAngle, inputColor, inputColorMatrix
}

/// A filter input's value.
public enum FilterValue: Sendable, Equatable, Hashable {
    case number(Double)
    case bool(Bool)
    case color(Color)
    case numbers([Double])
    case image(ImageSource?)
}

/// CABackdropLayer's own properties (private class; UIVisualEffectView's blur).
public struct BackdropProperties: Sendable, Equatable {
    /// The resolution the backdrop is sampled at, relative to the screen's (1 = full).
    public var scale: Double = 1
    /// Backdrop layers with the same group name share one capture; nil = a capture of its own.
    public var groupName: String?
    public init() {}
}
