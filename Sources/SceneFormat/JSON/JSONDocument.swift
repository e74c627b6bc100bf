import Foundation

/// One value of a parsed document, in preorder: a container's elements or members follow it, each
/// followed by its own subtree, and `end` is the index after the subtree (the next sibling).
struct JSONNode {
    enum Tag: UInt8 { case null, bool, number, string, array, object }
    /// bool: 0 or 1; number: the Double's bits; string: its index in `JSONDocument.strings`.
    var payload: UInt64 = 0
    var end: Int32
    /// The containing value's index; -1 for the document.
    var parent: Int32
    /// The place in the parent: element or member index.
    var ordinal: Int32
    /// The member key's index in `strings`; -1 for an array element or the document.
    var key: Int32
    /// Elements or members of a container.
    var count: Int32 = 0
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
    let nodes: [JSONNode]
    let strings: [String]
    private let lock = NSLock()
    /// Pointer nodes of containers made so far, so siblings share their parent's (a layer's
    /// location keeps one; 10,000 layers of one `sublayers` array keep one node for it).
    private var containerSpellers: [Int: JSONPointerNode] = [:]
    private var lastSpeller: (index: Int, node: JSONPointerNode)?

    init(nodes: [JSONNode], strings: [String]) { self.nodes = nodes; self.strings = strings }

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
        return JSONMember(key: strings[Int(n.key)], keyLine: Int(n.keyLine), keyColumn: Int(n.keyColumn), value: JSONValue(self, index))
    }

    func token(of index: Int) -> JSONToken? {
        Self.token(of: index, nodes: nodes, strings: strings)
    }

    static func token(of index: Int, nodes: [JSONNode], strings: [String]) -> JSONToken? {
        let n = nodes[index]
        if n.parent < 0 { return nil }
        return n.key >= 0 ? .key(strings[Int(n.key)]) : .index(Int(n.ordinal))
    }

    func pointer(of index: Int) -> String { Self.pointer(of: index, nodes: nodes, strings: strings) }

    /// The RFC 6901 pointer of the value at `index` (the parser spells its errors' pointers with
    /// this too, before a document exists).
    static func pointer(of index: Int, nodes: [JSONNode], strings: [String]) -> String {
        var tokens: [String] = []
        var k = index
        while k >= 0, let t = token(of: k, nodes: nodes, strings: strings) {
            tokens.append(t.text)
            k = Int(nodes[k].parent)
        }
        return JSONPointerNode.spell(reversedTokens: tokens)
    }

    /// A speller of the pointer of the value at `index`: a node of its own whose parent is its
    /// container's shared node.
    func speller(of index: Int) -> JSONPointerNode {
        let parent = Int(nodes[index].parent)
        lock.lock(); defer { lock.unlock() }
        return JSONPointerNode(parent: parent < 0 ? nil : containerSpeller(parent), token: token(of: index))
    }

    /// Call with `lock` held.
    private func containerSpeller(_ index: Int) -> JSONPointerNode {
        if let last = lastSpeller, last.index == index { return last.node }
        let node: JSONPointerNode
        if let cached = containerSpellers[index] {
            node = cached
        } else {
            let parent = Int(nodes[index].parent)
            node = JSONPointerNode(parent: parent < 0 ? nil : containerSpeller(parent), token: token(of: index))
            containerSpellers[index] = node
        }
        lastSpeller = (index, node)
        return node
    }
}
