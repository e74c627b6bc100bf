/// "Did you mean …?": the nearest known spelling by edit distance, offered only when it is close
/// enough to be a probable typo (a suggestion that is far off is noise).
///
/// Linear in the word whatever its length: a word longer than every candidate by more than the
/// distance limit cannot be within it, so it is refused from its UTF-8 length (O(1)) before any
/// case folding or character splitting; a word that passes is at most a few characters longer than
/// the longest candidate, and it is folded once, not once per candidate.
public enum Suggestion {
    /// The largest edit distance ever accepted.
    static let maxDistance = 3

    public static func nearest(to word: String, among candidates: [String]) -> String? {
        if let habit = UIKitHabits.suggestion(for: word, among: candidates) { return habit }
        guard let longest = candidates.map({ $0.count }).max() else { return nil }
        // Characters ≤ UTF-8 bytes ≤ 4 × characters: a word this long in bytes is too long in characters.
        if word.utf8.count > 4 * (longest + maxDistance) { return nil }
        let chars = Array(word.lowercased())
        if chars.count > longest + maxDistance { return nil }
        let folded = candidates.map { Array($0.lowercased()) }
        if let same = folded.firstIndex(of: chars) { return candidates[same] }
        let limit = max(1, min(maxDistance, (chars.count + 2) / 4))
        var best: (String, Int)?
        for (c, f) in zip(candidates, folded) {
            let d = distance(chars, f, limit: limit)
            if d <= limit, d < (best?.1 ?? Int.max) { best = (c, d) }
        }
        return best?.0
    }

    /// Levenshtein distance (adjacent transpositions count 1), stopping early above `limit`.
    static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            var rowMin = cur[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, prev2[j - 2] + 1) }
                cur[j] = v
                rowMin = min(rowMin, v)
            }
            if rowMin > limit { return limit + 1 }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count]
    }
}
