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
}
