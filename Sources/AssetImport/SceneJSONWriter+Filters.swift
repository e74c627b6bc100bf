import LayerModel
import Animation

/// `filters`, `backgroundFilters` and CABackdropLayer's keys in a converted scene: each filter
/// with its type, its name when it is not the type, and the inputs that differ from the defaults.
extension SceneJSONWriter {
    static func filterMembers(_ l: Layer) -> [String] {
        var m: [String] = []
        if !l.filters.isEmpty { m.append("\"filters\": " + filterList(l.filters)) }
        if !l.backgroundFilters.isEmpty { m.append("\"backgroundFilters\": " + filterList(l.backgroundFilters)) }
        if l.layerClass == .backdrop {
            if l.backdrop.scale != 1 { m.append("\"scale\": \(num(l.backdrop.scale))") }
            if let g = l.backdrop.groupName { m.append("\"groupName\": \(str(g))") }
        }
        return m
    }

    static func filterList(_ filters: [Filter]) -> String {
        "[" + filters.map { f in
            var parts = ["\"type\": \(str(f.type.rawValue))"]
            if f.name != f.type.rawValue { parts.append("\"name\": \(str(f.name))") }
            let defaults = Filter(f.type)
            for input in f.type.inputs {
                guard let v = f.value(input), v != defaults.value(input),
                      let text = value(FilterKeyPaths.animationValue(v)) else { continue }
                parts.append("\(str(input.rawValue)): \(text)")
            }
            return "{ " + parts.joined(separator: ", ") + " }"
        }.joined(separator: ", ") + "]"
    }
}
