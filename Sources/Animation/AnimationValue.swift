import Geometry
import LayerModel

/// A property value typed by its key path: `fromValue`/`toValue`/`byValue`, keyframe `values`, a
/// transaction's `set` value, and what `KeyPathTable` getters return.
public enum AnimationValue: Equatable, Sendable {
    case number(Double)
    case bool(Bool)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case color(Color)
    /// Boxed (indirect): 16 doubles inline would make every value 129 bytes, and values are copied
    /// several times per animation per frame.
    indirect case transform(Transform3D)
    case path(Path)
    indirect case image(ImageSource)
    case numberArray([Double])
    case colorArray([Color])
    case string(String)
    case cornerMask(CornerMask)
    /// A Core Animation constant by its scene spelling (`"evenOdd"`, `"resizeAspectFill"`).
    case enumeration(String)
    /// nil (a nil CGColor, CGPath, contents, colors array …), for nullable properties only.
    case null

    /// The number inside `.number`, for sub-field key paths and scalar properties.
    public var number: Double? {
        if case .number(let v) = self { return v }
        return nil
    }
}
