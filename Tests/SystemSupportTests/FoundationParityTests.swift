import XCTest
import Foundation
import SystemSupport

/// What SystemSupport stands in for gives Foundation's results: Foundation is the reference here
/// (the test process links it; caprof does not). Inputs cover what caprof formats and escapes,
/// and the cases where matching by characters or by scalars would differ.
final class FoundationParityTests: XCTestCase {
    func testCFormatMatchesStringFormat() {
        let doubles: [Double] = [0, 1, -1, 0.05, 0.5, 1.5, 2.5, 12.345, 99.95, 1e6 / 3, 1234567.891, 1e-7, -0.0, 1e21]
        for d in doubles {
            for f in ["%.0f", "%.1f", "%.2f", "%.3f", "%.6g", "%.3g", "%g", "%.1f ms", "%.0f %%", "%.2f×", "%.1f µs"] {
                XCTAssertEqual(String(cFormat: f, d), String(format: f, d), "\(f) of \(d)")
            }
        }
        for u: UInt64 in [0, 7, 1000, 123_456_789_012] {
            XCTAssertEqual(String(cFormat: "%llu.%03llu", u / 1000, u % 1000), String(format: "%llu.%03llu", u / 1000, u % 1000))
        }
        for v: UInt32 in [0, 0x1F, 0xFFFF] { XCTAssertEqual(String(cFormat: "\\u%04x", v), String(format: "\\u%04x", v)) }
        XCTAssertEqual(String(cFormat: "%.1f", 0.25), "0.2", "round half to even, as printf rounds")
        let long = String(repeating: "x", count: 300)
        XCTAssertEqual(String(cFormat: long + " %.2f", 1.0), long + " 1.00", "longer than the first buffer")
    }

    func testReplacingEveryMatchesReplacingOccurrences() {
        let inputs = ["", "a|b", "a\r\nb", "line\nnext\r\n", "%25%", "a.b.c", "::,,", "<&>", "\\|\\", "日本|語", "x"]
        let pairs = [("|", "\\|"), ("\n", " "), ("\r", "%0D"), ("%", "%25"), (".", "_"), (":", "%3A"), (",", "%2C"),
                     ("&", "&amp;"), ("<", "&lt;"), ("\\", "\\\\"), ("ab", "X"), ("\r\n", "¶")]
        for s in inputs {
            for (a, b) in pairs {
                XCTAssertEqual(s.replacingEvery(a, with: b), s.replacingOccurrences(of: a, with: b), "\(s.debugDescription): \(a.debugDescription) → \(b.debugDescription)")
            }
        }
        // Deliberately scalar by scalar where Foundation compares canonically: a "|" before a
        // combining mark is still a column separator to a Markdown reader, so it is escaped.
        XCTAssertEqual("|\u{301}x".replacingEvery("|", with: "\\|"), "\\|\u{301}x")
        XCTAssertEqual("|\u{301}x".replacingOccurrences(of: "|", with: "\\|"), "|\u{301}x")
    }

    func testTrimmingMatchesTrimmingCharacters() {
        let inputs = ["", " ", " a ", "\ta b\t", "\n x \r\n", "\u{A0}a\u{2003}", "\u{2028}a\u{85}", " \u{301}a", "a\u{200B}", "  \n  "]
        for s in inputs {
            XCTAssertEqual(s.trimmingWhitespace(), s.trimmingCharacters(in: .whitespaces), s.debugDescription)
            XCTAssertEqual(s.trimmingWhitespaceAndNewlines(), s.trimmingCharacters(in: .whitespacesAndNewlines), s.debugDescription)
            XCTAssertEqual(s.dropFirst(0).trimmingWhitespace(), s.trimmingCharacters(in: .whitespaces))
        }
    }

    func testPathsMatchNSString() {
        // "c" and "/a/b//" are left out: Foundation on Linux traps on them in
        // deletingLastPathComponent. Apple's documentation gives "" for "scratch.tiff".
        XCTAssertEqual("c".deletingLastPathComponent, "")
        XCTAssertEqual("c".lastPathComponent, "c")
        let paths = ["/a/b/c", "/a/b/c/", "/c", "/", "a/b", "", "./x", "../a/", "Examples/cards.json"]
        for p in paths {
            XCTAssertEqual(p.deletingLastPathComponent, (p as NSString).deletingLastPathComponent, p)
            XCTAssertEqual(p.lastPathComponent, (p as NSString).lastPathComponent, p)
            for c in ["x", "x/y", "x.png", "images/a.png"] {
                XCTAssertEqual(p.appendingPathComponent(c), (p as NSString).appendingPathComponent(c), "\(p) + \(c)")
            }
        }
        // Deliberately one slash where Foundation on Linux keeps two (the same file either way).
        XCTAssertEqual("/a/b".appendingPathComponent("/x"), "/a/b/x")
        XCTAssertEqual("/a/b//".deletingLastPathComponent, "/a")
    }
}
