#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says of a path (following symbolic links), nil where it cannot be read.
public struct FileStatus: Sendable {
    public let isDirectory: Bool
    public let isRegularFile: Bool
    /// The size in bytes (0 for anything but a regular file, whose size `stat` does not mean).
    public let size: Int

    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let kind = st.st_mode & S_IFMT
        isDirectory = kind == S_IFDIR
        isRegularFile = kind == S_IFREG
        size = isRegularFile ? Int(st.st_size) : 0
    }

    /// Whether `path` names a directory (false where it names nothing or cannot be read).
    public static func isDirectory(_ path: String) -> Bool { FileStatus(path: path)?.isDirectory ?? false }
    /// Whether `path` names a regular file (false where it names nothing or cannot be read).
    public static func isRegularFile(_ path: String) -> Bool { FileStatus(path: path)?.isRegularFile ?? false }
}
