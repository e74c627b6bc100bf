import XCTest
import Foundation
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
    /// over 40 characters: about 10^10 paths); remembered failures make it immediate.
    func testManyStarsThatCannotMatchAreDecidedQuickly() {
        let name = String(repeating: "a", count: 40) + ".json"
        let pattern = String(repeating: "*a", count: 14) + "*b"
        let start = Date()
        XCTAssertFalse(ScenePattern.matches(pattern, name))
        XCTAssertTrue(ScenePattern.matches(String(repeating: "*a", count: 14) + "*.json", name))
        XCTAssertTrue(ScenePattern.matches("**/" + String(repeating: "*a", count: 10) + "**", "x/y/" + name))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "decided without exponential backtracking")
    }
}
