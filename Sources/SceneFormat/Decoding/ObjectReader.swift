import Animation

/// Reads one JSON object of the scene: checks its keys against the keys the format defines there
/// and fetches members, with errors that name the object.
struct ObjectReader {
    let object: JSONValue
    let members: JSONMembers
    let ctx: DecodingContext
    /// How messages name the object ("canvas", "CALayer", "CABasicAnimation").
    let owner: String

    init(_ v: JSONValue, _ ctx: DecodingContext, owner: String, expected: String) throws {
        guard let members = v.objectMembers else { throw ctx.typeMismatch(v, expected: expected) }
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

    // By index: `first(where:)` copied each member it looked at, value and all.
    subscript(key: String) -> JSONValue? { members.firstIndex { $0.key == key }.map { members[$0].value } }

    func member(_ key: String) -> JSONMember? { members.firstIndex { $0.key == key }.map { members[$0] } }

    func required(_ key: String) throws -> JSONValue {
        guard let v = self[key] else {
            throw SceneError(.missingKey, at: ctx.location(object), "missing required key '\(key)' in \(owner)")
        }
        return v
    }
}
