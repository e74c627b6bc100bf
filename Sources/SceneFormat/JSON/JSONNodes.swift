import CHostMemory
import SystemSupport

/// The storage of a document's nodes: one block, grown by doubling. A large document's block is
/// mapped with transparent huge pages asked for (`MADV_HUGEPAGE`): its nodes are megabytes written
/// once, and on these machines each first touch of a 4 KiB page costs ≈ 2 µs (a 10,000-layer
/// scene's 3 MB of nodes: ≈ 1/10 of loading it), where a 2 MiB page costs ≈ 0.1 ms. Where the
/// kernel gives no huge pages (THP off) the block is ordinary memory. Small documents use malloc.
final class JSONNodes {
    private(set) var base: UnsafeMutablePointer<JSONNode>
    private(set) var count = 0
    private var capacity: Int
    /// The mapping to unmap; nil for a malloc'd block.
    private var mapping: (start: UnsafeMutableRawPointer, length: Int)?

    /// Blocks from this size on are mapped with huge pages asked for.
    static let hugeBlockBytes = 1 << 20
    private static let hugePage = 2 << 20

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        (base, mapping) = Self.allocate(self.capacity)
    }

    deinit { Self.free(base, mapping) }

    /// Checked as an array's subscript is: an index past the nodes traps rather than reads memory.
    subscript(i: Int) -> JSONNode {
        unsafeAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "JSON node index out of range")
            return UnsafePointer(base + i)
        }
        unsafeMutableAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "JSON node index out of range")
            return base + i
        }
    }

    func append(_ node: JSONNode) {
        if count == capacity { grow() }
        (base + count).initialize(to: node)
        count += 1
    }

    private func grow() {
        let newCapacity = capacity * 2
        let (newBase, newMapping) = Self.allocate(newCapacity)
        newBase.moveInitialize(from: base, count: count)  // JSONNode is trivial: a copy
        Self.free(base, mapping)
        (base, mapping, capacity) = (newBase, newMapping, newCapacity)
    }

    private static func allocate(_ capacity: Int) -> (UnsafeMutablePointer<JSONNode>, (UnsafeMutableRawPointer, Int)?) {
        let bytes = capacity * MemoryLayout<JSONNode>.stride
        #if canImport(Glibc)
        if bytes >= hugeBlockBytes {
            // One huge page more, to start the block on a huge-page boundary.
            let length = bytes + hugePage
            if let start = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), start != MAP_FAILED {
                let aligned = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: start) + hugePage - 1) & ~(hugePage - 1))!
                caprof_advise_huge_pages(aligned, bytes)
                return (aligned.bindMemory(to: JSONNode.self, capacity: capacity), (start, length))
            }
        }
        #endif
        return (UnsafeMutablePointer<JSONNode>.allocate(capacity: capacity), nil)
    }

    private static func free(_ base: UnsafeMutablePointer<JSONNode>, _ mapping: (start: UnsafeMutableRawPointer, length: Int)?) {
        #if canImport(Glibc)
        if let (start, length) = mapping { munmap(start, length); return }
        #endif
        base.deallocate()
    }
}
