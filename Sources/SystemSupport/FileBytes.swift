/// Reading a file's bytes straight into an array, without `FileHandle` (full Foundation).
public enum FileBytes {
    /// Up to `limit` bytes of the file at `path`, read straight into the array the caller takes.
    /// `expected` (the size seen before opening, if known) sizes the first read; a file that grew
    /// since is read on to `limit`. nil when the file cannot be opened; a read error gives no bytes.
    public static func read(path: String, upTo limit: Int, expected: Int? = nil) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var capacity = max(1, min(limit, (expected ?? 64 << 10) + 1))
        guard var bytes = read(fd, count: capacity) else { return [] }
        // As many bytes as asked for: the file may go on (it grew), up to the limit.
        while bytes.count == capacity && capacity < limit {
            let more = min(limit, capacity * 2) - capacity
            guard let next = read(fd, count: more) else { return [] }
            bytes += next
            capacity += more
        }
        return bytes
    }

    /// Up to `count` bytes from `fd` (fewer at the end of the file); nil on a read error.
    private static func read(_ fd: Int32, count: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            filled = 0
            while filled < buffer.count {
                let n = systemRead(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failed = true; return }
                if n == 0 { return }
                filled += n
            }
        }
        return failed ? nil : bytes
    }
}

/// read(2), named apart from `FileBytes.read`, which would shadow it inside the type.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
