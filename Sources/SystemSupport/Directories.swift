/// A call to the system that failed, in the system's words (`strerror`): "Permission denied".
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public init(code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
}

public enum Directories {
    /// Creates `path` and any missing parents (`mkdir -p`; new directories get 0777 less the
    /// umask); nothing when it is a directory already. Throws the system's reason otherwise.
    public static func create(_ path: String) throws(SystemError) {
        if FileStatus.isDirectory(path) { return }
        let parent = path.deletingLastPathComponent
        if !parent.isEmpty, parent != path, parent != "/" { try create(parent) }
        if mkdir(path, 0o777) != 0 {
            let code = errno
            if code == EEXIST, FileStatus.isDirectory(path) { return }   // made meanwhile by another process
            // A file where a directory should be: "Not a directory" says what is wrong.
            throw SystemError(code: code == EEXIST ? ENOTDIR : code)
        }
    }
}
