/// Fuzz bytes read front to back as the generators' decisions. Bytes past the end read as zero, so
/// every input gives a file and the same input always gives the same file; `exhausted` tells a
/// generator's loop to stop (it never reads more than the input's length in decisions).
struct FuzzBytes {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var exhausted: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }
    mutating func flag() -> Bool { byte() & 1 == 1 }
    /// True once in `n` (by the next byte).
    mutating func oneIn(_ n: Int) -> Bool { Int(byte()) % n == 0 }
    mutating func pick<T>(_ options: [T]) -> T { options[Int(byte()) % options.count] }
    /// A number in 0..<n (n ≥ 1), from one or two bytes.
    mutating func below(_ n: Int) -> Int {
        precondition(n >= 1)
        if n <= 256 { return Int(byte()) % n }
        return (Int(byte()) << 8 | Int(byte())) % n
    }
    mutating func uint16() -> Int { Int(byte()) << 8 | Int(byte()) }
}
