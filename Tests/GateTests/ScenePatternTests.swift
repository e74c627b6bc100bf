import XCTest
@testable import Gate

/// Scene patterns (.gitignore-like globs) that scope budget rules.
final class ScenePatternTests: XCTestCase {
    func testPatternsWithoutASlashMatchTheFileName() {
        XCTAssertTrue(ScenePattern.matches("cards.json", "Examples/cards.json"))
        XCTAssertTrue(ScenePattern.matches("*.json", "Examples/cards.json"))
        XCTAssertTrue(ScenePattern.matches("card?.json", "./Examples/cards.json"))
        XCTAssertFalse(ScenePattern.matches("flip*.json", "Examples/cards.json"))
    }

    func testPatternsWithASlashMatchTheWholePath() {
        XCTAssertTrue(ScenePattern.matches("Examples/*.json", "Examples/cards.json"))
        XCTAssertTrue(ScenePattern.matches("Examples/*.json", "./Examples/cards.json"))
        XCTAssertFalse(ScenePattern.matches("Examples/*.json", "Examples/sub/cards.json"), "* stops at /")
        XCTAssertTrue(ScenePattern.matches("Examples/**/*.json", "Examples/sub/deep/cards.json"))
        XCTAssertTrue(ScenePattern.matches("Examples/**/*.json", "Examples/cards.json"), "**/ matches no directory too")
        XCTAssertTrue(ScenePattern.matches("**/cards.json", "a/b/cards.json"))
        XCTAssertFalse(ScenePattern.matches("Other/*.json", "Examples/cards.json"))
    }

    /// Many stars that cannot match: backtracking would try every split of the name (14 stars
    /// over 40 characters: about 10^10 paths); remembered failures evaluate each (pattern,
    /// subject) position at most once, so at most (pattern + 1) × (subject + 1) of them: 31 × 46
    /// for the first case (a 30-character pattern, a 45-character name), where unmemoised
    /// backtracking would try billions.
    func testManyStarsThatCannotMatchAreDecidedWithoutBacktracking() {
        let name = String(repeating: "a", count: 40) + ".json"
        let cases: [(String, String, Bool)] = [
            (String(repeating: "*a", count: 14) + "*b", name, false),
            (String(repeating: "*a", count: 14) + "*.json", name, true),
            ("**/" + String(repeating: "*a", count: 10) + "**", "x/y/" + name, true),
        ]
        for (pattern, subject, expected) in cases {
            let r = ScenePattern.evaluate(pattern, subject)
            XCTAssertEqual(r.matched, expected, pattern)
            XCTAssertLessThanOrEqual(r.positionsTried, r.bound, pattern)
        }
        XCTAssertEqual(ScenePattern.evaluate(String(repeating: "*a", count: 14) + "*b", name).bound, 31 * 46)
        // Small enough to finish without memoisation, which tries 58,876 positions here (counted
        // by a transcription of the same matcher without its memo), against the bound of
        // (10 + 1) × (25 + 1) = 286.
        let small = ScenePattern.evaluate("*a*a*a*a*b", String(repeating: "a", count: 20) + ".json")
        XCTAssertFalse(small.matched)
        XCTAssertLessThanOrEqual(small.positionsTried, 11 * 26)
    }
}
