/// Fuzz bytes → a CAML document (`<caml xmlns="http://www.apple.com/CoreAnimation/1.0">` around a
/// layer tree) with the XML that random byte mutations rarely build: a DOCTYPE with an external ID,
/// or an internal subset of element, attribute-list (with default and fixed values, some long, on
/// the elements the body repeats), notation and comment declarations, and in about one document in
/// four entity declarations — internal general entities (nested in each other, holding markup or
/// character references), parameter entities referenced in the subset, external SYSTEM/PUBLIC ones
/// and unparsed NDATA ones — referenced from attribute values, text and `<sublayers>`. The body is
/// ordinary CAML: CALayer, CAShapeLayer, CATextLayer, CAGradientLayer, CAReplicatorLayer,
/// CATransformLayer and CAEmitterLayer elements with geometry, style and contents attributes,
/// `<sublayers>`, `<mask>`, `<animations>` (basic, keyframe with `<values>`/`<keyTimes>`, spring,
/// group), states and state transitions; some elements repeated many times (so that declared
/// defaults would multiply), character references, CDATA sections and comments.
///
/// Deterministic: the same bytes always give the same document; it ends when the bytes do.
public struct CAMLDocumentGenerator {
    /// The largest document written (repeats stop short of it).
    public static let maxBytes = 1 << 20
    public static let maxLayers = 64

    private var b: FuzzBytes
    private var out = ""
    private var layers = 0
    private var ids: [String] = []
    /// Declared general entities (referencable in the body).
    private var entities: [String] = []
    private var notation = false

    public init(_ bytes: [UInt8]) { b = FuzzBytes(bytes) }

    public static func generate(_ bytes: [UInt8]) -> [UInt8] {
        var g = CAMLDocumentGenerator(bytes)
        return g.generate()
    }

    public mutating func generate() -> [UInt8] {
        if b.byte() == 255 { out += "\u{FEFF}" }
        switch b.byte() % 4 {
        case 0: break
        case 1: out += "<?xml version=\"1.0\"?>\n"
        case 2: out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        default: out += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"\(b.flag() ? "yes" : "no")\"?>\n"
        }
        doctype()
        out += "<caml xmlns=\"http://www.apple.com/CoreAnimation/1.0\">"
        if b.oneIn(16) { out += "<!-- \(b.byte()) -->" }
        layer(depth: 1, root: true)
        out += "</caml>\n"
        return Array(out.utf8)
    }

    private var room: Bool { out.utf8.count < Self.maxBytes }

    // MARK: DTD

    private mutating func doctype() {
        switch b.byte() % 8 {
        case 0, 1, 2: return
        case 3:
            out += b.flag() ? "<!DOCTYPE caml SYSTEM \"caml.dtd\">\n"
                            : "<!DOCTYPE caml PUBLIC \"-//Apple//DTD CAML 1.0//EN\" \"http://www.apple.com/DTDs/CAML-1.0.dtd\">\n"
            return
        default: break
        }
        let withEntities = b.oneIn(4)
        out += b.oneIn(8) ? "<!DOCTYPE caml SYSTEM \"caml.dtd\" [\n" : "<!DOCTYPE caml [\n"
        let n = 1 + Int(b.byte() % 6)
        for _ in 0..<n {
            if withEntities, b.flag() { entityDeclaration(); continue }
            switch b.byte() % 6 {
            case 0: out += "<!ELEMENT \(b.pick(["caml", "CALayer", "sublayers", "animations"])) \(b.pick(["ANY", "EMPTY", "(#PCDATA)", "(CALayer)*", "(sublayers|animations)*"]))>\n"
            case 1, 2, 3:
                // A default (or fixed) attribute value: applied to every element of that name.
                let element = b.pick(["CALayer", "CALayer", "sublayers", "caml", "animation", "CAShapeLayer"])
                let attribute = b.pick(["name", "bounds", "opacity", "backgroundColor", "hidden", "position", "xmlns:x", "path"])
                switch b.byte() % 8 {
                case 0: out += "<!ATTLIST \(element) \(attribute) CDATA #IMPLIED>\n"
                case 1: out += "<!ATTLIST \(element) key ID #IMPLIED \(attribute) CDATA \"\(defaultValue(for: attribute))\">\n"
                case 2: out += "<!ATTLIST \(element) \(attribute) CDATA #FIXED \"\(defaultValue(for: attribute))\">\n"
                default: out += "<!ATTLIST \(element) \(attribute) CDATA \"\(defaultValue(for: attribute))\">\n"
                }
            case 4:
                if !notation { out += "<!NOTATION png SYSTEM \"image/png\">\n" }
                notation = true
            default: out += "<!-- a comment in the internal subset -->\n"
            }
        }
        out += "]>\n"
    }

    private mutating func defaultValue(for attribute: String) -> String {
        switch attribute {
        case "bounds": return b.pick(["0 0 10 10", "0 0 1e308 1e308", "", "0 0 100 100"])
        case "opacity": return b.pick(["0.5", "1", "-1", "nan"])
        case "backgroundColor": return "1 0 0"
        case "hidden": return b.pick(["0", "1"])
        case "position": return "5 5"
        case "path": return "0 0 m 10 10 l h"
        default:
            let n = b.pick([0, 1, 16, 1000, 4096, 65_536])
            return String(repeating: b.pick(["x", "é", "&#233;", "&amp;"]), count: out.utf8.count + n * 2 < Self.maxBytes ? n : 1)
        }
    }

    private mutating func entityDeclaration() {
        let name = "e\(entities.count)"
        switch b.byte() % 8 {
        case 0, 1:
            // Internal, nested: its text references earlier entities several times.
            var text = b.pick(["ha", "0.5", "<CALayer bounds='0 0 1 1'/>", "&#233;&#x1F600;", "&amp;&lt;"])
            if let prev = entities.last { text += String(repeating: "&\(prev);", count: b.pick([2, 4, 10, 100])) }
            out += "<!ENTITY \(name) \"\(text)\">\n"
            entities.append(name)
        case 2:
            out += "<!ENTITY \(name) SYSTEM \"\(b.pick(["file:///etc/hostname", "/dev/zero", "http://example.invalid/x", "x.caml"]))\">\n"
            entities.append(name)
        case 3:
            out += "<!ENTITY \(name) PUBLIC \"-//X//EN\" \"http://example.invalid/x.dtd\">\n"
            entities.append(name)
        case 4:
            // A parameter entity, referenced in the subset (it declares a general entity).
            out += "<!ENTITY % p\(name) \"<!ENTITY \(name) 'via a parameter entity'>\">\n%p\(name);\n"
            entities.append(name)
        case 5:
            out += "<!ENTITY % x\(name) SYSTEM \"\(b.pick(["file:///etc/passwd", "http://example.invalid/x.dtd"]))\">\n%x\(name);\n"
        case 6:
            if !notation { out += "<!NOTATION png SYSTEM \"image/png\">\n" }
            notation = true
            out += "<!ENTITY \(name) SYSTEM \"a.png\" NDATA png>\n"
        default:
            // Exponential nesting (each level twice the one below): what libxml2 itself refuses.
            var prev = "ha"
            for k in 0..<b.pick([2, 8, 20]) {
                let n = "\(name)l\(k)"
                out += "<!ENTITY \(n) \"\(prev)\(prev)\">\n"
                prev = "&\(n);"
            }
            entities.append(String(prev.dropFirst().dropLast()))
        }
    }

    /// Text for an attribute value or content: mostly `plain`, sometimes with character references
    /// or (when any is declared) entity references.
    private mutating func text(_ plain: String) -> String {
        switch b.byte() % 16 {
        case 0: return plain.split(separator: " ", omittingEmptySubsequences: false).joined(separator: "&#32;")
        case 1:
            // Character references, the predefined entities, and rarely one that is not allowed.
            let c = b.byte()
            if c >= 252 { return plain + ["&#0;", "&#xD800;", "&#x110000;", "&undeclared;"][Int(c - 252)] }
            return plain + ["&#233;", "&#x1F600;", "&amp;", "&lt;", "&#x20;", "&quot;"][Int(c) % 6]
        case 2, 3: return entities.isEmpty ? plain : "&\(b.pick(entities));"
        default: return plain
        }
    }

    // MARK: layers

    private mutating func number(_ typical: ClosedRange<Double>) -> String {
        let c = b.byte()
        if c < 224 {
            let v = typical.lowerBound + (typical.upperBound - typical.lowerBound) * Double(c) / 223
            return v == v.rounded() ? String(Int(v)) : String(v)
        }
        return ["0", "-0", "1e-300", "1e300", "-1e300", "inf", "-inf", "nan", "1e6", "0.5", "1.7976931348623157e308", "yes", "", "1 2"][Int(c - 224) % 14]
    }

    /// An emitter rate: `number(typical)`, without the extremes past 1e6 unless
    /// `ArchiveGraphGenerator.extremeEmitterRates` (on).
    private mutating func rate(_ typical: ClosedRange<Double>) -> String {
        let v = number(typical)
        guard !ArchiveGraphGenerator.extremeEmitterRates, let d = Double(v), d.isFinite, abs(d) > 1e6 else { return v }
        return "1e6"
    }

    private mutating func attributes(_ cls: String, root: Bool) -> String {
        var a: [(String, String)] = []
        let id = "L\(layers)"
        ids.append(id)
        a.append(("id", id))
        if root {
            a.append(("bounds", "0 0 \(b.pick([1, 10, 64, 100, 256, 390])) \(b.pick([1, 10, 64, 100, 256, 844]))"))
        } else {
            a.append(("bounds", "\(number(-50...50)) \(number(-50...50)) \(number(0...400)) \(number(0...400))"))
        }
        a.append(("position", "\(number(-100...500)) \(number(-100...500))"))
        for _ in 0..<Int(b.byte() % 6) {
            switch b.byte() % 14 {
            case 0: a.append(("anchorPoint", "\(number(-1...2)) \(number(-1...2))"))
            case 1: a.append(("transform", b.pick(["rotate(30deg)", "scale(2, 0.5, 1)", "translate(10, 20) rotateY(1)", "perspective(500) rotateX(0.7)",
                                                     "matrix(1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1)", "scale(1e308)", "bogus(1)"])))
            case 2: a.append(("opacity", number(-0.5...1.5)))
            case 3: a.append(("backgroundColor", "\(number(0...1)) \(number(0...1)) \(number(0...1))"))
            case 4: a.append(("cornerRadius", number(0...80)))
            case 5: a.append(("masksToBounds", b.pick(["0", "1", "true"])))
            case 6: a.append(("hidden", b.pick(["0", "1"])))
            case 7: a.append(("name", b.pick(["Layer", "é", "a b", String(repeating: "n", count: 300)])))
            case 8: a.append(("zPosition", number(-10...10)))
            case 9: a.append(("borderWidth", number(0...40))); a.append(("borderColor", "0 0 1"))
            case 10: a.append(("shadowOpacity", number(0...1))); a.append(("shadowRadius", number(0...60)))
            case 11: a.append(("transform.rotation.z", number(-7...7)))
            case 12: a.append(("geometryFlipped", b.pick(["0", "1"])))
            default: a.append(("sublayerTransform", "scale(\(number(-2...2)))"))
            }
        }
        switch cls {
        case "CAShapeLayer":
            a.append(("path", b.pick(["0 0 m 100 0 l 100 100 l h", "0 0 50 50 re", "0 0 m 10 0 20 20 0 20 c z", "", "1 m"])))
            a.append(("fillColor", "\(number(0...1)) 0.5 0.5"))
            if b.flag() { a.append(("strokeColor", "0 0 0")); a.append(("lineWidth", number(0...30))) }
        case "CATextLayer":
            a.append(("string", b.pick(["Hi", "", "ﬁ ‹› ٣ 日本"]))); a.append(("fontSize", number(0...200)))
        case "CAReplicatorLayer":
            a.append(("instanceCount", b.pick(["0", "2", "5", "100", "10001"]))); a.append(("instanceTransform", "translate(10, 0)"))
        case "CAEmitterLayer":
            a.append(("birthRate", rate(0...2)))
        default: break
        }
        // An attribute once (a later one of the same name is dropped); the root's bounds as written.
        var seen = Set<String>()
        a = a.filter { seen.insert($0.0).inserted }
        return a.map { " \($0.0)=\"\(root && $0.0 == "bounds" ? $0.1 : text($0.1))\"" }.joined()
    }

    private mutating func layer(depth: Int, root: Bool = false) {
        layers += 1
        let cls = root ? b.pick(["CALayer", "CALayer", "CATransformLayer", "CAShapeLayer"])
                       : b.pick(["CALayer", "CALayer", "CAShapeLayer", "CATextLayer", "CAGradientLayer", "CAReplicatorLayer",
                                 "CATransformLayer", "CAEmitterLayer", "CABackdropLayer"])
        // The class as the element's name, or (as some editors write) as its type.
        let element = b.oneIn(6) ? "CALayer" : cls
        out += "<\(element)\(element != cls ? " type=\"\(cls)\"" : "")\(attributes(cls, root: root))>"
        if b.oneIn(4) { out += "<contents type=\"CGImage\" src=\"\(b.pick(["assets/a.png", "/nonexistent.png", "", "../x.png"]))\"/>" }
        if cls == "CAGradientLayer" {
            out += "<colors>" + (0..<Int(b.byte() % 4)).map { _ in "<CGColor value=\"\(number(0...1)) 0 1\"/>" }.joined() + "</colors>"
        }
        if cls == "CAEmitterLayer" {
            out += "<emitterCells><CAEmitterCell birthRate=\"\(rate(0...20))\" lifetime=\"\(rate(0...3))\" velocity=\"\(number(0...50))\"/></emitterCells>"
        }
        if depth < 8, layers < Self.maxLayers, b.byte() > 120 {
            out += "<sublayers>"
            if b.oneIn(8) { out += text(b.pick([" ", "\n  ", "<![CDATA[ text ]]>", "<!-- c -->"])) }
            for _ in 0..<Int(b.byte() % 4) where layers < Self.maxLayers && room { layer(depth: depth + 1) }
            if b.oneIn(4) {
                // One small layer repeated: what declared default attributes would multiply.
                let n = b.pick([2, 10, 100, 1000, 10_000, 30_000])
                let small = b.flag() ? "<CALayer/>" : "<CALayer bounds=\"0 0 1 1\"/>"
                out += String(repeating: small, count: max(0, min(n, (Self.maxBytes - out.utf8.count) / small.utf8.count - 64)))
            }
            if !entities.isEmpty, b.flag() { out += "&\(b.pick(entities));" }
            out += "</sublayers>"
        }
        if depth < 8, layers < Self.maxLayers, b.byte() > 240 {
            out += "<mask>"
            layer(depth: depth + 1)
            out += "</mask>"
        }
        if b.byte() > 150 { animations() }
        if root, b.oneIn(4) { states() }
        out += "</\(element)>"
    }

    private static let keyPaths: [(String, [String])] = [
        ("opacity", ["0", "1", "0.5", "nan"]), ("position", ["0 0", "100 50", "1e300 0"]), ("transform", ["rotate(1)", "scale(2)", ""]),
        ("transform.rotation.z", ["0", "6.28"]), ("bounds", ["0 0 10 10", "0 0 100 100"]), ("backgroundColor", ["1 0 0", "0 0 1 0.5"]),
        ("cornerRadius", ["0", "40"]), ("position.x", ["0", "300"]), ("bounds.size", ["10 10", "0 0"]), ("zPosition", ["0", "5"]),
    ]

    private mutating func animations() {
        out += "<animations>"
        for _ in 0..<Int(1 + b.byte() % 3) {
            let (keyPath, samples) = b.pick(Self.keyPaths)
            let timing = " duration=\"\(number(0...10))\"" + (b.flag() ? " repeatCount=\"\(b.pick(["inf", "2", "0.5", "1e9"]))\"" : "")
                + (b.flag() ? " autoreverses=\"1\"" : "") + (b.flag() ? " fillMode=\"\(b.pick(["both", "forwards", "removed"]))\"" : "")
                + (b.oneIn(4) ? " beginTime=\"\(number(-2...5))\"" : "") + (b.oneIn(4) ? " timingFunction=\"\(b.pick(["easeIn", "0 0 1 1", "linear"]))\"" : "")
            switch b.byte() % 4 {
            case 0:
                out += "<animation type=\"CABasicAnimation\" key=\"k\(b.byte() % 4)\" keyPath=\"\(keyPath)\" fromValue=\"\(text(b.pick(samples)))\" toValue=\"\(b.pick(samples))\"\(timing)/>"
            case 1:
                let n = room ? b.pick([0, 1, 2, 3, 5, 100, 10_001]) : 1
                let valueElement = keyPath == "opacity" || keyPath.hasPrefix("transform.") || keyPath == "cornerRadius" || keyPath == "position.x" || keyPath == "zPosition"
                    ? "real" : keyPath == "position" ? "CGPoint" : keyPath == "backgroundColor" ? "CGColor" : keyPath == "bounds" ? "CGRect" : "value"
                let values = (0..<n).map { i in "<\(valueElement) value=\"\(samples[i % samples.count])\"/>" }.joined()
                var keyTimes = ""
                if b.flag() {
                    keyTimes = "<keyTimes>" + (0..<n).map { i in "<real value=\"\(n <= 1 ? 0 : Double(i) / Double(n - 1))\"/>" }.joined() + "</keyTimes>"
                }
                out += "<animation type=\"CAKeyframeAnimation\" keyPath=\"\(keyPath)\" calculationMode=\"\(b.pick(["linear", "discrete", "paced", "cubic"]))\"\(timing)><values>\(values)</values>\(keyTimes)</animation>"
            case 2:
                out += "<animation type=\"CASpringAnimation\" keyPath=\"\(keyPath)\" mass=\"\(number(0...5))\" stiffness=\"\(number(0...500))\" damping=\"\(number(0...50))\" toValue=\"\(b.pick(samples))\"\(timing)/>"
            default:
                out += "<animation type=\"CAAnimationGroup\"\(timing)><animations><animation type=\"CABasicAnimation\" keyPath=\"\(keyPath)\" toValue=\"\(b.pick(samples))\" duration=\"1\"/></animations></animation>"
            }
        }
        out += "</animations>"
    }

    private mutating func states() {
        let target = ids.isEmpty ? "L0" : b.pick(ids)
        out += "<states><LKState name=\"A\"><elements><LKStateSetValue targetId=\"\(target)\" keyPath=\"opacity\"><value type=\"real\" value=\"\(number(0...1))\"/></LKStateSetValue></elements></LKState>"
        out += "<LKState name=\"B\" basedOn=\"\(b.pick(["A", "B", "C"]))\"/></states>"
        if b.flag() {
            out += "<stateTransitions><LKStateTransition fromState=\"*\" toState=\"A\"><elements><LKStateTransitionElement targetId=\"\(target)\" key=\"opacity\"><animation type=\"CASpringAnimation\" damping=\"10\" mass=\"1\" stiffness=\"100\"/></LKStateTransitionElement></elements></LKStateTransition></stateTransitions>"
        }
    }
}
