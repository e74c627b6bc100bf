import Foundation
import XCTest

/// docs/scene-format.md against `caprof schema` and `caprof profile --schema`: the reference lists
/// exactly the keys the schema accepts, the finding ids the reports write and the colour names the
/// decoder accepts, so the two cannot drift. And no doc in the repository points outside it.
final class SceneFormatDocCLITests: CLITestCase {
    var doc: String { get throws { try String(contentsOf: Self.repoRoot.appendingPathComponent("docs/scene-format.md"), encoding: .utf8) } }

    func schema(_ args: [String]) throws -> [String: Any] {
        let r = try caprof(args)
        XCTAssertEqual(r.code, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    /// The keys in the first column (`key`) of the first table after `heading`.
    func tableKeys(after heading: String, in doc: String) throws -> Set<String> {
        let lines = doc.components(separatedBy: "\n")
        let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(heading) }, "no heading \(heading)")
        var keys = Set<String>(), inTable = false
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            if line.hasPrefix("| `") {
                inTable = true
                let cell = line.dropFirst(3)
                keys.insert(String(cell.prefix { $0 != "`" }))
            } else if inTable && !line.hasPrefix("|") { break }
        }
        return keys
    }

    func testEveryKeyOfTheSchemaIsDocumentedAndNoOther() throws {
        let s = try schema(["schema"])
        let defs = try XCTUnwrap(s["$defs"] as? [String: Any])
        func keys(_ def: String) throws -> Set<String> {
            Set(try XCTUnwrap((defs[def] as? [String: Any])?["properties"] as? [String: Any]).keys)
        }
        let doc = try doc
        XCTAssertEqual(try tableKeys(after: "## Top level", in: doc), Set(try XCTUnwrap(s["properties"] as? [String: Any]).keys))
        for (heading, def) in [("### `canvas`", "canvas"), ("### `timeline`", "timeline"), ("### `snapshots`", "snapshots"), ("## Layers", "layer"),
                               ("## Animations", "animation"), ("## Transactions", "transaction")] {
            let documented = try tableKeys(after: heading, in: doc), accepted = try keys(def)
            XCTAssertEqual(accepted.subtracting(documented).sorted(), [], "\(def): keys the schema accepts but docs/scene-format.md does not document")
            XCTAssertEqual(documented.subtracting(accepted).sorted(), [], "\(def): keys documented that the schema does not accept")
        }
    }

    func testTheFindingVocabularyIsTheReportsOne() throws {
        let report = try schema(["profile", "--schema"])
        let finding = try XCTUnwrap(((report["$defs"] as? [String: Any])?["finding"] as? [String: Any])?["properties"] as? [String: Any])
        let ids = Set(try XCTUnwrap((finding["id"] as? [String: Any])?["enum"] as? [String]))
        XCTAssertEqual(try tableKeys(after: "## Reports: the finding vocabulary", in: doc), ids)
        XCTAssertTrue(try doc.contains("| `offscreen.rasterize` |") && doc.contains("| `raster-cache.miss` |"), "the reserved ids")
    }

    /// Links and paths in the README, docs and module READMEs stay inside the repository.
    func testDocsPointOnlyInsideTheRepository() throws {
        let root = Self.repoRoot
        var files = ["README.md", "Benchmarks/README.md"]
        files += try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        XCTAssertTrue(files.contains("docs/scene-format.md") && files.contains("docs/findings.md"))
        let sources = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
        files += sources.map { "Sources/\($0)/README.md" }.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        for f in files {
            let text = try String(contentsOf: root.appendingPathComponent(f), encoding: .utf8)
            for bad in ["../shared", "/work/", "reference/core-animation.md", "reference §"] {
                XCTAssertFalse(text.contains(bad), "\(f) points outside the repository: \(bad)")
            }
            // Every relative Markdown link resolves to a file in the repository.
            let dir = root.appendingPathComponent(f).deletingLastPathComponent()
            let regex = try NSRegularExpression(pattern: #"\]\(([^)#:]+)(#[^)]*)?\)"#)
            for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(m.range(at: 1), in: text)!])
                XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent(target).path), "\(f): broken link \(target)")
            }
        }
    }

    /// The README lists every example scene.
    func testTheReadmeListsEveryExample() throws {
        let readme = try String(contentsOf: Self.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let examples = try FileManager.default.contentsOfDirectory(atPath: Self.repoRoot.appendingPathComponent("Examples").path)
            .filter { $0.hasSuffix(".json") }
        XCTAssertFalse(examples.isEmpty)
        for e in examples { XCTAssertTrue(readme.contains("`Examples/\(e)`"), "README does not list Examples/\(e)") }
        XCTAssertTrue(readme.contains("swiftly"), "the README says how to install Swift 6 on Debian")
    }
}

extension SceneFormatDocCLITests {
    /// The colour names documented (UIKit's list and the system colour table, with their values)
    /// are exactly the names the schema accepts.
    func testColourNamesMatchTheSchema() throws {
        let s = try schema(["schema"])
        let color = try XCTUnwrap(((s["$defs"] as? [String: Any])?["color"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        let accepted = Set(color.compactMap { $0["enum"] as? [String] }.flatMap { $0 })
        let doc = try doc
        let table = try tableKeys(after: "### Colour names", in: doc)
        let uikit = ["black", "darkGray", "lightGray", "white", "gray", "red", "green", "blue", "cyan", "yellow", "magenta",
                     "orange", "purple", "brown", "clear"]
        for n in uikit { XCTAssertTrue(doc.contains("`\(n)` ("), "UIKit colour \(n) documented") }
        XCTAssertEqual(table.union(uikit), accepted)
        XCTAssertTrue(doc.contains("| `systemBlue` | 0, 122, 255 | `#007AFFFF` |"))
    }
}
