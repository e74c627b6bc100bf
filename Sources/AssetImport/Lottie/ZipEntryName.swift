/// The rules for names inside a package, shared by the archive's own entries and the image names
/// an animation asks for. A zip stores names as bytes: nothing stops `../../etc/passwd`, `/etc/x`
/// or `C:\x`, which extract outside the folder they are extracted to. caprof never extracts, but a
/// caller may (or may resolve a name against a folder), so such names are refused, not looked up.
enum ZipEntryName {
    /// Why `name` is not a safe relative name (nil: it is). Backslashes are refused outright:
    /// Windows tools treat them as separators, so `..\x` climbs out there.
    static func problem(_ name: String) -> String? {
        if name.isEmpty { return "the name is empty; expected a relative path such as 'images/img_0.png'" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the name contains a control character; expected a relative path"
        }
        if name.contains("\\") { return "the name contains a backslash; expected '/' as the only separator" }
        if name.hasPrefix("/") { return "the name is absolute; expected a path relative to the package" }
        if hasDriveLetter(name) { return "the name is absolute (a drive letter); expected a path relative to the package" }
        if name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return "the name climbs out of the package ('..'); expected a path inside it"
        }
        return nil
    }

    /// `C:x`, `c:/x`: a drive-relative or absolute Windows path.
    static func hasDriveLetter(_ name: String) -> Bool {
        let u = Array(name.utf8.prefix(2))
        return u.count == 2 && u[1] == UInt8(ascii: ":")
            && ((u[0] >= UInt8(ascii: "a") && u[0] <= UInt8(ascii: "z")) || (u[0] >= UInt8(ascii: "A") && u[0] <= UInt8(ascii: "Z")))
    }
}
