#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a path written inside a package (`.ca` bundles, `.lottie` archives unpacked, a bare
/// `.caml` file's folder) leads: a package never reads outside itself, whatever its paths say.
public enum PackagePath: Equatable, Sendable {
    /// The file, inside the package (the path as given, joined to the package's root).
    case inside(String)
    /// An absolute path (`/var/mobile/…`), which names a file on some device, not in the package.
    case absolute
    /// A relative path whose `..` components climb above the package's root (`../outside.png`).
    case climbsOut
    /// A path inside the package that is, or passes through, a symbolic link leading outside it.
    case linksOut
    /// Nothing is there (or it cannot be resolved).
    case missing

    /// Resolves `relative` against the package rooted at `root`: first by its components alone
    /// (`a/../b` stays inside; `a/../../b` climbs out), then, when the file exists, by the real
    /// path of the file and of the root (`realpath(3)`), so a symbolic link in the package cannot
    /// lead outside it either.
    public static func resolve(_ relative: String, inside root: String) -> PackagePath {
        if relative.hasPrefix("/") { return .absolute }
        var depth = 0
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
            if component == ".." {
                depth -= 1
                if depth < 0 { return .climbsOut }
            } else if component != "." {
                depth += 1
            }
        }
        let joined = root.appendingPathComponent(relative)
        guard let real = realPath(joined) else { return .missing }
        guard let realRoot = realPath(root.isEmpty ? "." : root) else { return .missing }
        let prefix = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
        return real == realRoot || real.hasPrefix(prefix) ? .inside(joined) : .linksOut
    }

    /// `realpath(3)`: absolute, with every symbolic link, `.` and `..` resolved; nil when the
    /// path does not exist.
    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
