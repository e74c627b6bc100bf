/// The members of an object, read from the document in place: what decoders walk (`ObjectReader`),
/// where `JSONValue.members` makes an array of them (one allocation per layer object, ≈ 1/30 of
/// decoding 10,000 layers). A forward collection: a member's index is its node's, opaque.
struct JSONMembers: Collection {
    struct Index: Comparable {
        fileprivate let node: Int
        static func < (a: Index, b: Index) -> Bool { a.node < b.node }
    }

    private let document: JSONDocument
    private let object: Int

    /// The members of the object at `object` (the caller checked it is one).
    init(_ document: JSONDocument, object: Int) { self.document = document; self.object = object }

    var startIndex: Index { Index(node: object + 1) }
    var endIndex: Index { Index(node: Int(document.nodes[object].end)) }
    func index(after i: Index) -> Index { Index(node: Int(document.nodes[i.node].end)) }
    subscript(i: Index) -> JSONMember { document.member(i.node) }
    var count: Int { Int(document.nodes[object].payload) }
    var isEmpty: Bool { count == 0 }
}

extension JSONValue {
    /// The members of an object in place (see `JSONMembers`); nil for anything else.
    var objectMembers: JSONMembers? {
        document.nodes[index].tag == .object ? JSONMembers(document, object: index) : nil
    }
}

/// The elements of an array, read from the document in place (see `JSONMembers`).
struct JSONElements: Collection {
    struct Index: Comparable {
        fileprivate let node: Int
        static func < (a: Index, b: Index) -> Bool { a.node < b.node }
    }

    private let document: JSONDocument
    private let array: Int

    /// The elements of the array at `array` (the caller checked it is one).
    init(_ document: JSONDocument, array: Int) { self.document = document; self.array = array }

    var startIndex: Index { Index(node: array + 1) }
    var endIndex: Index { Index(node: Int(document.nodes[array].end)) }
    func index(after i: Index) -> Index { Index(node: Int(document.nodes[i.node].end)) }
    subscript(i: Index) -> JSONValue { JSONValue(document, i.node) }
    var count: Int { Int(document.nodes[array].payload) }
    var isEmpty: Bool { count == 0 }
}

extension JSONValue {
    /// The elements of an array in place (see `JSONElements`); nil for anything else.
    var arrayElements: JSONElements? {
        document.nodes[index].tag == .array ? JSONElements(document, array: index) : nil
    }
}
