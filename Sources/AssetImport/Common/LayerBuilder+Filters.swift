import LayerModel
import Animation

/// CAFilter objects (archives' `CAFilterType`/`CAFilterName`/`CAFilterInputs`, CAML `<filter>`)
/// into the scene model's `Filter`s. A filter type caprof does not know and an input of the wrong
/// type are reported and left out (the rest of the list is kept); inputs a filter type does not
/// take are reported and ignored.
extension LayerBuilder {
    /// Inputs that only tune how a device computes the filter (dithering, quality, bit depth, an
    /// identifier): caprof computes the exact result, so they change nothing and are not reported.
    static let noEffectFilterInputs: Set<String> = ["inputDither", "inputQuality", "inputIntermediateBitDepth", "identifier"]

    func filters(_ key: String, _ value: ImportedValue, at place: SourceLocation) -> [Filter] {
        let items: [ImportedValue]
        switch value {
        case .null: return []
        case .array(let a): items = a
        case .filter: items = [value]
        default:
            ctx.warn("\(key): expected an array of CAFilters, found \(value.kindDescription); not applied", at: place)
            return []
        }
        return items.compactMap { item -> Filter? in
            guard case .filter(let typeName, let name, let inputs) = item else {
                ctx.warn("\(key): \(item.kindDescription) is not a CAFilter; left out", at: place)
                return nil
            }
            guard let type = FilterType(rawValue: typeName) else {
                ctx.warn("\(key): the \(typeName) filter is not drawn; left out", at: place)
                return nil
            }
            var f = Filter(type, name: name)
            for (inputName, raw) in inputs where !Self.noEffectFilterInputs.contains(inputName) {
                guard let input = FilterInput(rawValue: inputName), type.inputs.contains(input) else {
                    ctx.warn("\(key): input \(inputName) of \(typeName) is not applied", at: place)
                    continue
                }
                guard let typed = ValueTyping.typed(raw, as: FilterKeyPaths.valueType(input), nullable: input == .inputMaskImage),
                      let v = FilterKeyPaths.filterValue(typed, input), f.set(input, v) else {
                    ctx.warn("\(key): \(typeName).\(inputName) \(raw.kindDescription) is not applied; the default is kept", at: place)
                    continue
                }
            }
            return f
        }
    }
}
