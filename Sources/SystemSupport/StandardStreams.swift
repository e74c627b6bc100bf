#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole writes to a file descriptor: `write(2)` until every byte is out, retried on EINTR.
/// A closed pipe or a full disk ends the write silently, as `FileHandle.write` on standard output
/// did for the reports (the exit code is decided elsewhere).
public enum StandardStreams {
    public static func writeOut<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 { write(bytes, to: 1) }
    public static func writeError<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 { write(bytes, to: 2) }

    /// Writes all of `bytes` to `fd`; false when the system refused some (EPIPE, ENOSPC, EBADF),
    /// with `errno` saying why.
    @discardableResult
    public static func write<Bytes: Collection>(_ bytes: Bytes, to fd: Int32) -> Bool where Bytes.Element == UInt8 {
        if let done = bytes.withContiguousStorageIfAvailable({ write(UnsafeRawBufferPointer($0), to: fd) }) { return done }
        return Array(bytes).withUnsafeBytes { write($0, to: fd) }
    }

    @discardableResult
    public static func write(_ raw: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var offset = 0
        while offset < raw.count {
            let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }
}

/// write(2), named apart from `StandardStreams.write`, which would shadow it inside the type.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
