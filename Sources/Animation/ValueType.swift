/// The type of a layer property or key-path sub-field, which decides how a scene encodes its values
/// and how an animation interpolates them (reference/core-animation.md §5).
public enum ValueType: Hashable, Sendable {
    case number
    /// A whole number (`instanceCount`).
    case integer
    case bool
    case point
    case size
    case rect
    case color
    /// CATransform3D.
    case transform
    /// CGPath.
    case path
    /// Layer `contents`.
    case image
    case numberArray
    case colorArray
    case string
    /// `maskedCorners`: a set of corner names.
    case cornerMask
    /// A Core Animation constant; the payload lists the accepted spellings.
    case enumeration([String])

    /// What a scene author reads in messages and schema tooltips ("a point [x, y]").
    public var summary: String {
        switch self {
        case .number: return "a number"
        case .integer: return "a whole number"
        case .bool: return "true or false"
        case .point: return "a point [x, y]"
        case .size: return "a size [width, height]"
        case .rect: return "a rect [x, y, width, height]"
        case .color: return "a color (\"#RRGGBB\", [r, g, b(, a)] or a UIKit name)"
        case .transform: return "a transform (16 numbers or a string such as \"translate(10, 20) rotate(45deg)\")"
        case .path: return "a path (SVG path data or {\"rect\"}, {\"roundedRect\"}, {\"ellipseIn\"})"
        case .image: return "an image (a PNG or JPEG path relative to the scene file, or a data:image/png;base64 or data:image/jpeg;base64 URI)"
        case .numberArray: return "an array of numbers"
        case .colorArray: return "an array of colors"
        case .string: return "a string"
        case .cornerMask: return "an array of corner names (\"minXMinY\", \"maxXMinY\", \"minXMaxY\", \"maxXMaxY\")"
        case .enumeration(let cases): return "one of " + cases.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }
}
