import SceneFormat

/// `manifest.json`, the part of it a reader needs: the format version and the animations' ids, in
/// order. Parsed with the scene format's strict JSON parser, so a broken manifest is reported at
/// its line:column and JSON pointer. Everything else in it (author, themes, state machines,
/// per-animation playback settings) is left to the importer that wants it.
struct DotLottieManifest: Sendable {
    static let entry = "manifest.json"

    /// 1 or 2; nil when the manifest does not say (early v1 writers), then the layout decides.
    let version: Int?
    let animationIDs: [String]
    /// Each id's value, for errors at its place.
    let idValues: [JSONValue]

    init(bytes: [UInt8], errors: DotLottieErrors) throws {
        let entry = Self.entry
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, file: errors.file)
        } catch var e as SceneError {
            e.message = DotLottieErrors.prefix(entry) + e.message
            throw e
        }
        guard root.members != nil else {
            throw errors.error(.wrongType, at: root, entry: entry, "expected an object with \"version\" and \"animations\", found \(root.typeDescription)")
        }
        version = try Self.version(root["version"], errors: errors)
        guard let list = root["animations"] else {
            throw errors.error(.missingKey, at: root, entry: entry, "missing key \"animations\"; expected an array of animations ({\"id\": …})")
        }
        guard let items = list.array else {
            throw errors.error(.wrongType, at: list, entry: entry, "expected an array of animations ({\"id\": …}), found \(list.typeDescription)")
        }
        if items.isEmpty {
            throw errors.error(.invalidValue, at: list, entry: entry, "the manifest lists no animations; expected at least one")
        }
        var ids: [String] = [], values: [JSONValue] = []
        for item in items {
            guard item.members != nil else {
                throw errors.error(.wrongType, at: item, entry: entry, "expected an animation object with an \"id\", found \(item.typeDescription)")
            }
            guard let idValue = item["id"] else {
                throw errors.error(.missingKey, at: item, entry: entry, "missing key \"id\"; expected the animation's id (its entry's name without \".json\")")
            }
            guard let id = idValue.string, !id.isEmpty else {
                throw errors.error(idValue.string == nil ? .wrongType : .invalidValue, at: idValue, entry: entry,
                                   "expected a non-empty string id, found \(idValue.string == nil ? idValue.typeDescription : "an empty string")")
            }
            if ids.contains(id) {
                throw errors.error(.invalidValue, at: idValue, entry: entry, "animation id \(DotLottieErrors.quote(id)) appears twice; expected unique ids")
            }
            ids.append(id); values.append(idValue)
        }
        animationIDs = ids; idValues = values
    }

    /// "1", "1.0", "2" (dotLottie writes strings; a bare number is read too).
    static func version(_ value: JSONValue?, errors: DotLottieErrors) throws -> Int? {
        guard let value else { return nil }
        let text: String
        if let s = value.string { text = s } else if let n = value.number, n == n.rounded(), abs(n) < 1e9 { text = String(Int(n)) } else {
            throw errors.error(.wrongType, at: value, entry: entry, "expected the version as a string (\"1\" or \"2\"), found \(value.typeDescription)")
        }
        switch text {
        case "1", "1.0", "1.0.0": return 1
        case "2", "2.0", "2.0.0": return 2
        default:
            throw errors.error(.unsupportedVersion, at: value, entry: entry, "dotLottie version \(DotLottieErrors.quote(text)); this build reads versions 1 and 2")
        }
    }
}
