import Animation

extension SceneSchema {
    /// A CAEmitterLayer's `emitterCells`.
    static var emitterCells: SchemaJSON {
        SchemaJSON.arrayOf(.ref("emitterCell"), max: SceneLimits.maxEmitterCells)
            .described("The emitter's cells (CAEmitterCell), each with its own emitterCells (CAEmitterLayer).")
    }

    /// A CAEmitterCell object: the keys of `EmitterCellKeyPaths` and its sub-cells.
    static var emitterCell: SchemaJSON {
        var props: [(String, SchemaJSON)] = EmitterCellKeyPaths.properties.map { p in
            var s: SchemaJSON
            switch p.valueType {
            case .number: s = .number(p.domain)
            case .bool: s = .type("boolean")
            case .rect: s = .ref("rect")
            case .color: s = .ref("color")
            case .image: s = .ref("image")
            case .string: s = .type("string")
            case .enumeration(let cases): s = .strings(cases)
            default: s = .type("number")
            }
            if p.nullable { s = .anyOf([s, .null]) }
            return (p.name, s.described(p.summary))
        }
        props.append(("emitterCells", SchemaJSON.arrayOf(.ref("emitterCell"), max: SceneLimits.maxEmitterCells).described("Sub-cells: every particle of this cell emits them.")))
        return .object([
            ("type", .string("object")),
            ("description", .string("A CAEmitterCell: one kind of particle, with CAEmitterCell's names and defaults.")),
            ("properties", .object(props)),
            ("additionalProperties", .bool(false)),
        ])
    }
}
