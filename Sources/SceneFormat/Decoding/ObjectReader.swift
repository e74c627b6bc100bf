import Animation

/// Reads one JSON object of the scene: checks its keys against the keys the format defines there
/// and fetches members, with errors that name the object.
struct ObjectReader {
    let object: JSONValue
    let members: [JSONMember]
    let ctx: DecodingContext
    /// How messages name the object ("canvas", "CALayer", "CABasicAnimation").
    let owner: String

    init(_ v: JSONValue, _ ctx: DecodingContext, owner: String, expected: String) throws {
        guard let members = v.members else { throw ctx.typeMismatch(v, expected: expected) }
        self.object = v; self.members = members; self.ctx = ctx; self.owner = owner
    }

    /// Refuses the first key not in `allowed`, suggesting the nearest allowed one.
    func rejectUnknownKeys(_ allowed: [String]) throws {
        for m in members where !allowed.contains(m.key) {
            throw unknownKey(m, among: allowed)
        }
    }

    func unknownKey(_ m: JSONMember, among allowed: [String]) -> SceneError {
        SceneError(.unknownKey, at: ctx.keyLocation(m), "unknown key \(Echo.quoted(m.key)) for \(owner)",
                   suggestion: Suggestion.nearest(to: m.key, among: allowed))
    }

    subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    func member(_ key: String) -> JSONMember? { members.first { $0.key == key } }

    func required(_ key: String) throws -> JSONValue {
        guard let v = self[key] else {
            throw SceneError(.missingKey, at: ctx.location(object), "missing required key '\(key)' in \(owner)")
        }
        return v
    }
}
