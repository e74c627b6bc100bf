import Foundation
#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

extension SceneDecoder {
    /// Up to `limit` bytes of the file, read straight into the array the parser takes (through
    /// `Data` it was read once and copied once more: ≈ 1/25 of loading a 10,000-layer scene).
    /// `expected` (the size seen before opening) sizes the first read; a file that grew since is
    /// read on to `limit`. A read error gives no bytes, as `FileHandle.read` did.
    static func readBytes(_ handle: FileHandle, upTo limit: Int, expected: Int) -> [UInt8] {
        var capacity = max(1, min(limit, expected + 1))
        guard var bytes = read(handle.fileDescriptor, count: capacity) else { return [] }
        // As many bytes as asked for: the file may go on (it grew), up to the limit.
        while bytes.count == capacity && capacity < limit {
            let more = min(limit, capacity * 2) - capacity
            guard let next = read(handle.fileDescriptor, count: more) else { return [] }
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
