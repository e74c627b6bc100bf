import SystemSupport

/// Outputs are written atomically: to `.NAME.PID.tmp` beside the destination, then renamed over
/// it, so a reader sees the old file or the whole new one. A run killed mid-write (SIGKILL, power)
/// leaves its temporary file behind; the next run writing into the same directory removes every
/// `.NAME.PID.tmp` there whose process no longer exists, so nothing is left to be mistaken for output.
public enum AtomicFile {
    /// The temporary path beside `path` for this process.
    public static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
    }

    /// Whether `path` is written in place rather than through a temporary file renamed over it:
    /// an existing special file (a character device, FIFO or socket: `/dev/null`, a named pipe)
    /// or a symbolic link (`/dev/stdout`, which links to the redirected file or pipe). A rename
    /// would replace the node or the link itself (as root, `/dev/null` or `/dev/stdout`), and
    /// their directories are rarely writable. Writing in place is not atomic; a regular file is.
    public static func writesInPlace(_ path: String) -> Bool {
        var st = stat()
        if lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK { return true }
        guard let status = FileStatus(path: path) else { return false }
        return !status.isRegularFile && !status.isDirectory
    }

    /// Writes `data` to `path`: atomically through a temporary file for a regular file, in place
    /// for a special file or a symbolic link (`writesInPlace`). Throws the system's reason.
    public static func write(_ data: Data, to path: String) throws {
        try write(to: path, descriptor: { fd in
            guard data.withUnsafeBytes({ StandardStreams.write($0, to: fd) }) else {
                throw AtomicFileError(reason: String(cString: strerror(errno)))
            }
        })
    }

    /// Writes `path` through `body`, which writes the whole file to the open descriptor it is
    /// given, as `write(_:to:)` does: atomically, or in place for a special file or a link (a file
    /// behind a link is truncated; a pipe or a device cannot be, and need not be). A failed close
    /// (a late write error) throws.
    public static func write(to path: String, descriptor body: (Int32) throws -> Void) throws {
        try write(to: path) { target in
            // New files get 0666 less the umask, as `Data.write` gives them. In place, O_CREAT
            // makes the file a dangling link names (as fopen's "wb" did for PNGs); truncation is
            // asked of regular files only (a pipe cannot be truncated).
            let inPlace = target == path
            let fd = open(target, (inPlace ? O_WRONLY | O_CREAT : O_WRONLY | O_CREAT | O_TRUNC) | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw AtomicFileError(reason: String(cString: strerror(errno))) }
            if inPlace { _ = ftruncate(fd, 0) }
            do {
                try body(fd)
            } catch {
                close(fd)
                throw error
            }
            if close(fd) != 0 { throw AtomicFileError(reason: String(cString: strerror(errno))) }
        }
    }

    /// Writes `path` through `produce`, which writes a whole file at the path it is given: `path`
    /// itself where it is written in place (`writesInPlace`), otherwise a temporary file beside it
    /// that is then renamed over it. An error from `produce` removes the temporary file and is
    /// rethrown; a failed rename throws the system's reason.
    public static func write(to path: String, _ produce: (String) throws -> Void) throws {
        if writesInPlace(path) { try produce(path); return }
        let tmp = temporaryPath(for: path)
        removeStaleTemporaries(besides: path)
        do {
            try produce(tmp)
        } catch {
            unlink(tmp)
            throw error
        }
        if rename(tmp, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(tmp)
            throw AtomicFileError(reason: reason)
        }
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var cleaned: Set<String> = []

    /// Removes, once per directory and process, the temporaries of dead processes in the directory
    /// of `path`. Only names of the exact form `.NAME.PID.tmp` are touched, and only when no process
    /// PID exists (`kill(PID, 0)` fails with ESRCH); a live process's file is in use and kept.
    public static func removeStaleTemporaries(besides path: String) {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        lock.lock()
        let first = cleaned.insert(dir).inserted
        lock.unlock()
        guard first, let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names {
            guard let pid = stalePID(name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(dir + "/" + name)
        }
    }

    /// The PID in a `.NAME.PID.tmp` name, nil for any other name.
    static func stalePID(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts.dropLast().joined(separator: ".").isEmpty,
              let pid = pid_t(parts.last!), pid > 0 else { return nil }
        return pid
    }
}

/// Why `AtomicFile.write` failed (the system's words).
public struct AtomicFileError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
