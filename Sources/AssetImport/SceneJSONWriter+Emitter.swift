import Animation
import LayerModel

extension SceneJSONWriter {
    /// A CAEmitterLayer's `emitterCells` in the scene format: each cell's keys that differ from
    /// CAEmitterCell's defaults, then its sub-cells.
    static func emitterCells(_ cells: [EmitterCell], indent: String) -> String {
        let inner = indent + "  "
        let defaults = EmitterCell()
        let items = cells.map { cell -> String in
            var members: [String] = []
            for p in EmitterCellKeyPaths.properties {
                let v = p.get(cell)
                if v == p.get(defaults) { continue }
                if let text = value(v) { members.append("\(str(p.name)): \(text)") }
            }
            if !cell.emitterCells.isEmpty {
                members.append("\"emitterCells\": " + emitterCells(cell.emitterCells, indent: inner))
            }
            return inner + "{ " + members.joined(separator: ", ") + " }"
        }
        return "[\n" + items.joined(separator: ",\n") + "\n" + indent + "]"
    }
}
