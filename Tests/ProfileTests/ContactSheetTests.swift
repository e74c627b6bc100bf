import Pipeline
import XCTest

/// The contact sheet's layout where the title is wider than the grid.
final class ContactSheetTests: XCTestCase {
    let label = ContactSheet.Label(time: "0.000s", frame: "0f")
    let background: [UInt8] = [0x1C, 0x1C, 0x1E, 255]

    /// The columns of the title's rows that hold something other than the background.
    func inkedColumns(_ sheet: ContactSheet) -> [Int] {
        let top = ContactSheet.margin, bottom = ContactSheet.margin + ContactSheet.titleHeight
        return (0..<sheet.width).filter { x in
            (top..<bottom).contains { y in
                let i = (y * sheet.width + x) * 4
                return Array(sheet.pixels[i..<(i + 4)]) != background
            }
        }
    }

    /// One small frame under a long file name: a 240 px grid, but the sheet is as wide as the
    /// title, whose last glyph ends at the right margin (it is not cut at the grid's edge).
    func testALongTitleWidensTheSheet() throws {
        let title = "a-scene-with-a-rather-long-file-name.json · 1 frame at 60 fps · 400×200"
        var sheet = try ContactSheet(frameWidth: 400, frameHeight: 200, labels: [label], title: title)
        let grid = 2 * ContactSheet.margin + ContactSheet.maxThumbnailWidth   // 280 px
        XCTAssertGreaterThan(sheet.width, grid)
        sheet.begin()
        let ink = inkedColumns(sheet)
        XCTAssertEqual(ink.first, ContactSheet.margin)
        // The last inked column is the last column before the right margin: the title fills the
        // width it was given, and nothing lies in the margin.
        XCTAssertEqual(ink.last, sheet.width - ContactSheet.margin - 1)
    }

    /// A short title leaves the grid's width alone (400×200 frames, 3 columns: 784 px, as the CLI
    /// test computes by hand).
    func testAShortTitleKeepsTheGridWidth() throws {
        let labels = Array(repeating: label, count: 5)
        var sheet = try ContactSheet(frameWidth: 400, frameHeight: 200, labels: labels, title: "s.json")
        XCTAssertEqual(sheet.width, 784)
        sheet.begin()
        XCTAssertLessThan(inkedColumns(sheet).last ?? 0, 200)
    }
}
