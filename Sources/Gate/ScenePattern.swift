/// Scene patterns of budget rules, as .gitignore reads them: a pattern with a `/` matches the
/// scene's whole path (as given on the command line, `./` dropped), one without matches its file
/// name. `*` matches any run of characters but `/`, `**` any run including `/`, `?` one character
/// but `/`; everything else matches itself.
public enum ScenePattern {
    public static func matches(_ pattern: String, _ scene: String) -> Bool {
        evaluate(pattern, scene).matched
    }

    /// The answer and how many (pattern, subject) positions were tried, which memoisation bounds
    /// by (pattern length + 1) × (subject length + 1) (tests assert it, in place of a clock).
    static func evaluate(_ pattern: String, _ scene: String) -> (matched: Bool, positionsTried: Int, bound: Int) {
        let path = normalize(scene)
        let subject = pattern.contains("/") ? path : String(path.split(separator: "/").last ?? Substring(path))
        let p = Array(normalize(pattern)), s = Array(subject)
        var memo = Memo()
        let matched = glob(p, 0, s, 0, &memo)
        return (matched, memo.tried, (p.count + 1) * (s.count + 1))
    }

    /// Positions known not to match, and a count of positions evaluated.
    private struct Memo {
        var failed = Set<Int>()
        var tried = 0
    }

    /// "./a//b.json" → "a/b.json".
    public static func normalize(_ path: String) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if parts.isEmpty { return path }
        let absolute = path.hasPrefix("/")
        parts = parts.map { $0 }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// `memo.failed` remembers the (pattern, subject) positions already known not to match, so a
    /// pattern of many stars costs O(pattern × subject²), not exponential backtracking.
    private static func glob(_ p: [Character], _ i: Int, _ s: [Character], _ j: Int, _ memo: inout Memo) -> Bool {
        let key = i * (s.count + 1) + j
        if memo.failed.contains(key) { return false }
        memo.tried += 1
        let matched = globFrom(p, i, s, j, &memo)
        if !matched { memo.failed.insert(key) }
        return matched
    }

    private static func globFrom(_ p: [Character], _ i: Int, _ s: [Character], _ j: Int, _ memo: inout Memo) -> Bool {
        var i = i, j = j
        while i < p.count {
            switch p[i] {
            case "*":
                let doubleStar = i + 1 < p.count && p[i + 1] == "*"
                var next = i + (doubleStar ? 2 : 1)
                // "**/" also matches no directory at all.
                if doubleStar, next < p.count, p[next] == "/", glob(p, next + 1, s, j, &memo) { return true }
                if doubleStar { next = i + 2 }
                var k = j
                while true {
                    if glob(p, next, s, k, &memo) { return true }
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
