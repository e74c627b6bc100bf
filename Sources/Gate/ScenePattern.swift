/// Scene patterns of budget rules, as .gitignore reads them: a pattern with a `/` matches the
/// scene's whole path (as given on the command line, `./` dropped), one without matches its file
/// name. `*` matches any run of characters but `/`, `**` any run including `/`, `?` one character
/// but `/`; everything else matches itself.
public enum ScenePattern {
    public static func matches(_ pattern: String, _ scene: String) -> Bool {
        let path = normalize(scene)
        let subject = pattern.contains("/") ? path : String(path.split(separator: "/").last ?? Substring(path))
        let p = Array(normalize(pattern)), s = Array(subject)
        var failed = Set<Int>()
        return glob(p, 0, s, 0, &failed)
    }

    /// "./a//b.json" → "a/b.json".
    public static func normalize(_ path: String) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.isEmpty { return path }
        let absolute = path.hasPrefix("/")
        parts = parts.map { $0 }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// `failed` remembers the (pattern, subject) positions already known not to match, so a
    /// pattern of many stars costs O(pattern × subject²), not exponential backtracking.
    private static func glob(_ p: [Character], _ i: Int, _ s: [Character], _ j: Int, _ failed: inout Set<Int>) -> Bool {
        let key = i * (s.count + 1) + j
        if failed.contains(key) { return false }
        let matched = globFrom(p, i, s, j, &failed)
        if !matched { failed.insert(key) }
        return matched
    }

    private static func globFrom(_ p: [Character], _ i: Int, _ s: [Character], _ j: Int, _ failed: inout Set<Int>) -> Bool {
        var i = i, j = j
        while i < p.count {
            switch p[i] {
            case "*":
                let doubleStar = i + 1 < p.count && p[i + 1] == "*"
                var next = i + (doubleStar ? 2 : 1)
                // "**/" also matches no directory at all.
                if doubleStar, next < p.count, p[next] == "/", glob(p, next + 1, s, j, &failed) { return true }
                if doubleStar { next = i + 2 }
                var k = j
                while true {
                    if glob(p, next, s, k, &failed) { return true }
                    if k >= s.count || (!doubleStar && s[k] == "/") { return false }
                    k += 1
                }
            case "?":
                if j >= s.count || s[j] == "/" { return false }
                i += 1; j += 1
            default:
                if j >= s.count || s[j] != p[i] { return false }
                i += 1; j += 1
            }
        }
        return j == s.count
    }
}
