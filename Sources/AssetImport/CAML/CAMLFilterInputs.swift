import Animation
import LayerModel

/// A CAML `<filter>` element's inputs: attributes (`inputRadius="10"`) and child elements
/// (`<inputColor value="1 0 0"/>`, typed by the input's value type), in document order for
/// children and name order for attributes (XML attributes have no order).
extension CAMLTreeReader {
    func filterInputs(_ n: XMLNode) -> [(String, ImportedValue)] {
        var out: [(String, ImportedValue)] = []
        for key in n.attributes.keys.sorted() where key.hasPrefix("input") {
            guard let text = n[key] else { continue }
            let type = FilterInput(rawValue: key).map(FilterKeyPaths.valueType) ?? .number
            out.append((key, CAMLValues.value(text, as: type) ?? .string(text)))
        }
        for c in n.children where c.name.hasPrefix("input") {
            let type = FilterInput(rawValue: c.name).map(FilterKeyPaths.valueType)
            if let v = nodes.value(c, hint: type) { out.append((c.name, v)) }
        }
        return out
    }
}
