import SystemSupport

/// One value of a parsed document, in preorder: a container's elements or members follow it, each
/// followed by its own subtree, and `end` is the index after the subtree (the next sibling).
struct JSONNode {
    enum Tag: UInt8 { case null, bool, number, string, array, object }
    /// bool: 0 or 1; number: the Double's bits; string: its index in `JSONDocument.strings`;
    /// array or object: how many elements or members.
    var payload: UInt64 = 0
    var end: Int32
    /// The containing value's index; -1 for the document.
    var parent: Int32
    /// In an object, the member key's index in `strings`; in an array, the element's index (one
    /// field: a node is 40 bytes, and the nodes are most of the memory a parse touches).
    var keyOrOrdinal: Int32
    var line: Int32
    var column: Int32
    var keyLine: Int32
    var keyColumn: Int32
    var tag: Tag
}

/// A parsed JSON document: every value in one flat array, every string (keys and values) in
/// another. What `JSONValue` handles point into; immutable once parsed, except for the cache of
/// pointer nodes (behind a lock).
final class JSONDocument: @unchecked Sendable {
    let nodes: JSONNodes
    let strings: [String]
    private let lock = Lock()
    /// The pointer nodes of the last container asked for and its ancestors, outermost first, so
    /// siblings share their parent's: 10,000 layers of one `sublayers` array keep one node for it,
    /// and a layer's location and its image's share the layer's. Decoders ask in document order,
    /// so this path is all the cache needs (a node per container, or a table of them, cost page
    /// faults and a release each when the document was freed).
    private var path: [(index: Int, node: JSONPointerNode)] = []

    init(nodes: JSONNodes, strings: [String]) { self.nodes = nodes; self.strings = strings }

    var root: JSONValue { JSONValue(self, 0) }

    /// The children of the container at `index`, in order, made by `make` from their indices.
    @inline(__always)
    func children<T>(of index: Int, count: Int, _ make: (Int) -> T) -> [T] {
        var out: [T] = []
        out.reserveCapacity(count)
        var c = index + 1
        for _ in 0..<count { out.append(make(c)); c = Int(nodes[c].end) }
        return out
    }

    func member(_ index: Int) -> JSONMember {
        let n = nodes[index]
        return JSONMember(key: strings[Int(n.keyOrOrdinal)], keyLine: Int(n.keyLine), keyColumn: Int(n.keyColumn), value: JSONValue(self, index))
    }

    func token(of index: Int) -> JSONToken? {
        Self.token(of: index, nodes: nodes, strings: strings)
    }

    static func token(of index: Int, nodes: JSONNodes, strings: [String]) -> JSONToken? {
        let n = nodes[index]
        if n.parent < 0 { return nil }
        return nodes[Int(n.parent)].tag == .object ? .key(strings[Int(n.keyOrOrdinal)]) : .index(Int(n.keyOrOrdinal))
    }

    func pointer(of index: Int) -> String { Self.pointer(of: index, nodes: nodes, strings: strings) }

    /// The RFC 6901 pointer of the value at `index` (the parser spells its errors' pointers with
    /// this too, before a document exists).
    static func pointer(of index: Int, nodes: JSONNodes, strings: [String]) -> String {
        var tokens: [String] = []
        var k = index
        while k >= 0, let t = token(of: k, nodes: nodes, strings: strings) {
            tokens.append(t.text)
            k = Int(nodes[k].parent)
        }
        return JSONPointerNode.spell(reversedTokens: tokens)
    }

    /// A speller of the pointer of the value at `index`: its own node if it is a container (the
    /// one its members' spellers share), else a node whose parent is its container's.
    func speller(of index: Int) -> JSONPointerNode {
        lock.lock(); defer { lock.unlock() }
        // The path is worked on as a local: each access to the stored property was a dynamic
        // exclusivity check (≈ 1/2 of making a layer's location).
        var path = self.path
        self.path = []
        defer { self.path = path }
        let n = nodes[index]
        let container = n.tag == .array || n.tag == .object ? index : Int(n.parent)
        if container >= 0 {
            // Entries that are not `container` or an ancestor of it (its subtree is not theirs) go.
            while let last = path.last, !(last.index <= container && container < Int(nodes[last.index].end)) { path.removeLast() }
        }
        let node = container < 0 ? nil : containerSpeller(container, &path)
        return container == index ? node! : JSONPointerNode(parent: node, token: token(of: index))
    }

    /// The node of the container at `index`, from `path` (which holds only its ancestors, or
    /// itself last) or made and added to it with those of its ancestors missing there.
    private func containerSpeller(_ index: Int, _ path: inout [(index: Int, node: JSONPointerNode)]) -> JSONPointerNode {
        if let last = path.last, last.index == index { return last.node }
        let parent = Int(nodes[index].parent)
        let node = JSONPointerNode(parent: parent < 0 ? nil : containerSpeller(parent, &path), token: token(of: index))
        path.append((index, node))
        return node
    }
}
