import Geometry
import LayerModel
import Animation

/// A value as a Core Animation asset stores it, before it is typed by the property it is set on:
/// what an archive's coding proxies and a CAML element or attribute both decode to, so one set of
/// rules (`LayerBuilder`, `AnimationBuilder`) turns either into the scene model.
public indirect enum ImportedValue: Sendable {
    case number(Double)
    case string(String)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case point3(Point3)
    case transform(Transform3D)
    case color(Color)
    case path(Path)
    case image(ImageSource)
    case timingFunction(TimingFunctionSpec)
    case array([ImportedValue])
    case dictionary([(String, ImportedValue)])
    /// A private CAFilter: its type (`gaussianBlur`), the name key paths address and its inputs.
    case filter(type: String, name: String?, inputs: [(String, ImportedValue)])
    /// NSFont (archives) or a font name (CAML): name and size when stored.
    case font(name: String, size: Double?)
    /// An object the importer builds elsewhere (a layer, an animation, an emitter cell) or does not
    /// know: its class and where it is (`$objects[n]` or an XML line), for messages.
    case object(className: String, reference: Int)
    /// Raw bytes that are not an image (NSData in an unexpected place).
    case data([UInt8])
    case null

    /// What the value is, for messages ("a colour", "a CGPoint").
    public var kindDescription: String {
        switch self {
        case .number: return "a number"
        case .string(let s): return "the string '\(s.prefix(40))'"
        case .point: return "a CGPoint"
        case .size: return "a CGSize"
        case .rect: return "a CGRect"
        case .point3: return "a 3D point"
        case .transform: return "a CATransform3D"
        case .color: return "a CGColor"
        case .path: return "a CGPath"
        case .image: return "an image"
        case .timingFunction: return "a timing function"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        case .filter(let t, _, _): return "a \(t) CAFilter"
        case .font: return "a font"
        case .object(let c, _): return "a \(c)"
        case .data(let d): return "\(d.count) bytes of data"
        case .null: return "nil"
        }
    }

    /// Numbers, NaN excepted (no Core Animation value is NaN; infinity is one: "forever").
    public var number: Double? { if case .number(let n) = self, !n.isNaN { return n }; return nil }
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var array: [ImportedValue]? { if case .array(let a) = self { return a }; return nil }
}
