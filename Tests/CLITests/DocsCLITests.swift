import Foundation
import XCTest

/// The user docs against the code, so they cannot drift: docs/findings.md has one section per
/// finding id of `FindingID`; the CI recipes of docs/ci.md run as written (budget, baseline,
/// GitHub Actions matrix and merge, GitLab parallel jobs); the scene files of docs/from-uikit.md
/// and docs/capture.md are accepted and report what the pages say; the README stays short.
///
/// Blocks under test are marked in the Markdown by a comment on the line before their fence:
/// `<!-- docs-test: NAME [expects ID…] [rejects ID…] -->`.
final class DocsCLITests: CLITestCase {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: repoRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// `FindingID`'s raw values in declaration order, read from its source: CLITests link no
    /// module, so the enum's `case name` / `case name = "raw"` lines are parsed.
    static func findingIDs() throws -> [String] {
        let source = try text("Sources/Profile/FindingID.swift")
        let parts = source.components(separatedBy: "public enum FindingID")
        XCTAssertEqual(parts.count, 2, "FindingID.swift declares the enum once")
        let body = try XCTUnwrap(parts.last?.components(separatedBy: "public init(").first)
        let re = try NSRegularExpression(pattern: #"^\s*case\s+(\w+)(?:\s*=\s*"([^"]+)")?\s*$"#, options: .anchorsMatchLines)
        return re.matches(in: body, range: NSRange(body.startIndex..., in: body)).map { m in
            let raw = Range(m.range(at: 2), in: body) ?? Range(m.range(at: 1), in: body)!
            return String(body[raw])
        }
    }

    /// The fenced blocks marked `<!-- docs-test: … -->`: the comment's words and the block's text.
    static func markedBlocks(_ doc: String) -> [(words: [String], body: String)] {
        let lines = doc.components(separatedBy: "\n"), marker = "<!-- docs-test:"
        var blocks: [(words: [String], body: String)] = []
        var i = 0
        while i < lines.count {
            if lines[i].hasPrefix(marker), i + 1 < lines.count, lines[i + 1].hasPrefix("```") {
                let words = lines[i].dropFirst(marker.count).replacingOccurrences(of: "-->", with: "")
                    .split(separator: " ").map(String.init)
                var j = i + 2, body: [String] = []
                while j < lines.count, !lines[j].hasPrefix("```") { body.append(lines[j]); j += 1 }
                blocks.append((words, body.joined(separator: "\n") + "\n"))
                i = j
            }
            i += 1
        }
        return blocks
    }

    static func block(_ name: String, in doc: String) throws -> String {
        try XCTUnwrap(markedBlocks(doc).first { $0.words.first == name }?.body, "no block marked docs-test: \(name)")
    }

    /// The `caprof …` command lines of a block: shell lines, YAML `run:` steps, script items.
    static func caprofLines(_ block: String) -> [String] {
        block.components(separatedBy: "\n").compactMap { line in
            var l = Substring(line.trimmingCharacters(in: .whitespaces))
            if l.hasPrefix("- ") { l = l.dropFirst(2) }
            if l.hasPrefix("run: ") { l = l.dropFirst(5) }
            return l.hasPrefix("caprof ") ? String(l) : nil
        }
    }

    /// Runs one shell line with bash in `dir`, the built caprof first on the PATH.
    func sh(_ line: String, env: [String: String] = [:], in dir: URL) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", line]
        p.currentDirectoryURL = dir
        var e = ProcessInfo.processInfo.environment
        e["PATH"] = Self.binary.deletingLastPathComponent().path + ":" + (e["PATH"] ?? "/usr/bin:/bin")
        if e["VK_DRIVER_FILES"] == nil { e["VK_DRIVER_FILES"] = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json" }
        e["NO_COLOR"] = "1"
        for (k, v) in env { e[k] = v }
        p.environment = e
        let errFile = dir.appendingPathComponent(".stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let err = try FileHandle(forWritingTo: errFile), out = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        try err.close()
        let r = (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: errFile)
        return Run(code: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: r)
    }

    /// (root tag, number of <failure> elements) of an XML file, parsed by Python's ElementTree.
    func junit(_ path: String) throws -> (root: String, failures: Int) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.tag, len(r.findall('.//failure')))", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "\(path) is not well-formed XML")
        let parts = text.split(separator: " ")
        return (String(parts.first ?? ""), Int(parts.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1)
    }

    // MARK: docs/findings.md

    func testFindingsDocHasOneSectionPerFindingID() throws {
        let ids = try Self.findingIDs()
        XCTAssertGreaterThanOrEqual(ids.count, 15, "parsed FindingID's cases")
        XCTAssertEqual(Set(ids).count, ids.count, "FindingID raw values are unique")

        // The parsed ids are the ones the reports write.
        let schema = try caprof(["profile", "--schema"])
        XCTAssertEqual(schema.code, 0, schema.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(schema.stdout.utf8)) as? [String: Any])
        let finding = try XCTUnwrap(((report["$defs"] as? [String: Any])?["finding"] as? [String: Any])?["properties"] as? [String: Any])
        XCTAssertEqual(Set(try XCTUnwrap((finding["id"] as? [String: Any])?["enum"] as? [String])), Set(ids))

        let doc = try Self.text("docs/findings.md")
        let headings = doc.components(separatedBy: "\n").filter { $0.hasPrefix("## ") }
        let idHeadings = headings.compactMap { h -> String? in
            guard h.hasPrefix("## `"), h.hasSuffix("`") else { return nil }
            return String(h.dropFirst(4).dropLast())
        }
        for id in ids {
            XCTAssertEqual(idHeadings.filter { $0 == id }.count, 1, "docs/findings.md: exactly one section '## `\(id)`'")
        }
        XCTAssertEqual(idHeadings.count, ids.count, "docs/findings.md: a section per id and no other id sections: \(idHeadings)")
        XCTAssertEqual(Set(idHeadings).subtracting(ids).sorted(), [], "sections for ids FindingID does not have")
        // Each section says where the cost comes from and what to do.
        let sections = doc.components(separatedBy: "\n## `").dropFirst()
        for s in sections {
            XCTAssertTrue(s.contains("**Instruments:**"), "section \(s.prefix(30)) names Instruments' option")
            XCTAssertTrue(s.contains("**Fix.**") || s.contains("**Fix**"), "section \(s.prefix(30)) gives the fix")
            XCTAssertTrue(s.contains("**What caprof measures.**"), "section \(s.prefix(30)) says what caprof measures")
        }

        // The README's findings table links every id once.
        let readme = try Self.text("README.md")
        for id in ids {
            XCTAssertEqual(readme.components(separatedBy: "[`\(id)`](docs/findings.md#").count - 1, 1, "README links `\(id)` to docs/findings.md once")
        }
    }

    // MARK: docs/ci.md

    /// A card without a shadow; made costlier (a shadow without shadowPath) after the baseline.
    static let card = """
    {"caprof": 1, "canvas": {"width": 200, "height": 160, "scale": 2, "backgroundColor": "#F2F2F7"},
     "root": {"frame": [0, 0, 200, 160], "backgroundColor": "#F2F2F7", "sublayers": [
       {"name": "card", "frame": [20, 20, 160, 80], "backgroundColor": "#FFFFFF", "cornerRadius": 12}
     ]}}
    """
    static let costlierCard = card.replacingOccurrences(of: "\"cornerRadius\": 12}",
                                                       with: "\"cornerRadius\": 12, \"shadowOpacity\": 0.2, \"shadowRadius\": 6}")

    /// A repository as the recipes expect it: Scenes/ with copies of small examples and a card.
    func makeRepository() throws -> URL {
        let repo = tmp.appendingPathComponent("repo"), scenes = repo.appendingPathComponent("Scenes")
        let fm = FileManager.default
        try fm.createDirectory(at: scenes, withIntermediateDirectories: true)
        for name in ["flip3d.json", "gravity.json", "filters.json"] {
            try fm.copyItem(atPath: Self.example(name), toPath: scenes.appendingPathComponent(name).path)
        }
        try fm.copyItem(atPath: Self.example("assets"), toPath: scenes.appendingPathComponent("assets").path)
        try Self.card.write(to: scenes.appendingPathComponent("card.json"), atomically: false, encoding: .utf8)
        return repo
    }

    /// The gate's JSON result without its timings (profiling seconds differ from run to run).
    func decision(_ path: URL) throws -> NSDictionary {
        func strip(_ v: Any) -> Any {
            if let d = v as? [String: Any] {
                var r: [String: Any] = [:]
                for (k, x) in d where k != "seconds" { r[k] = strip(x) }
                return r
            }
            if let a = v as? [Any] { return a.map(strip) }
            return v
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: path))
        return try XCTUnwrap(strip(json) as? [String: Any]) as NSDictionary
    }

    func testCIRecipesRunAsWritten() throws {
        let doc = try Self.text("docs/ci.md")
        let repo = try makeRepository()
        let fm = FileManager.default

        // 1. The budget file and the baseline, recorded with the doc's commands.
        try Self.block("budget.json", in: doc).write(to: repo.appendingPathComponent("budget.json"), atomically: false, encoding: .utf8)
        let record = try Self.block("record", in: doc).components(separatedBy: "\n")
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("git ") }
        XCTAssertTrue(record.contains { $0.hasPrefix("caprof gate ") && $0.contains("--record") }, "the record block records")
        for line in record {
            let r = try sh(line, in: repo)
            XCTAssertEqual(r.code, 0, "\(line)\n\(r.stdout)\(r.stderr)")
        }
        let baseline = repo.appendingPathComponent("baselines/scenes.json")
        XCTAssertTrue(fm.fileExists(atPath: baseline.path), "the baseline is written where the recipes read it")

        // 2. GitHub Actions: the matrix's profile step, then the final job's gate steps.
        let github = Self.caprofLines(try Self.block("github-actions", in: doc))
        let profile = try XCTUnwrap(github.first { $0.hasPrefix("caprof profile ") })
        XCTAssertTrue(profile.contains("--no-gpu") && profile.contains("--shard \"$SHARD/$SHARDS\""), profile)
        let gates = github.filter { $0.hasPrefix("caprof gate ") }
        for format in ["github", "markdown", "junit"] {
            XCTAssertTrue(gates.contains { $0.contains("--format \(format)") }, "the workflow gates with --format \(format)")
        }

        // Unchanged scenes pass; then the card gets a shadow without shadowPath: a regression.
        let wholeGate = try XCTUnwrap(gates.first { $0.contains("--format github") })
            .replacingOccurrences(of: "shards/shard-*.json", with: "Scenes --no-gpu")
        XCTAssertEqual(try sh(wholeGate, in: repo).code, 0, "unchanged scenes pass the gate")
        try Self.costlierCard.write(to: repo.appendingPathComponent("Scenes/card.json"), atomically: false, encoding: .utf8)

        let shards = repo.appendingPathComponent("shards")
        try fm.createDirectory(at: shards, withIntermediateDirectories: true)
        for i in 1...2 {
            let r = try sh(profile, env: ["SHARD": "\(i)", "SHARDS": "2"], in: repo)
            XCTAssertEqual(r.code, 0, "\(profile) (shard \(i))\n\(r.stderr)")
            // upload-artifact + download-artifact (merge-multiple) into shards/
            try fm.moveItem(at: repo.appendingPathComponent("shard-\(i).json"), to: shards.appendingPathComponent("shard-\(i).json"))
        }
        let summary = tmp.appendingPathComponent("step-summary.md")
        fm.createFile(atPath: summary.path, contents: nil)
        for line in gates {
            let r = try sh(line, env: ["GITHUB_STEP_SUMMARY": summary.path], in: repo)
            XCTAssertEqual(r.code, 2, "a regression fails the step: \(line)\n\(r.stdout)\(r.stderr)")
            if line.contains("--format github") {
                let lines = r.stdout.split(separator: "\n")
                XCTAssertTrue(lines.contains { $0.hasPrefix("::error file=Scenes/card.json,line=") }, r.stdout)
                XCTAssertTrue(lines.last?.hasPrefix("caprof gate: regression") == true, r.stdout)
            }
        }
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(markdown.contains("Scenes/card.json") && markdown.contains("|"), markdown)
        let xml = try junit(repo.appendingPathComponent("caprof-gate.xml").path)
        XCTAssertTrue(xml.root == "testsuites" || xml.root == "testsuite", xml.root)
        XCTAssertGreaterThanOrEqual(xml.failures, 1, "the regression is a JUnit failure")

        // The merged shards decide exactly as the whole catalog on one machine.
        let merged = wholeGate.replacingOccurrences(of: "Scenes --no-gpu", with: "shards/shard-*.json")
            .replacingOccurrences(of: "--format github", with: "--format json -o merged.json")
        let whole = wholeGate.replacingOccurrences(of: "--format github", with: "--format json -o whole.json")
        XCTAssertEqual(try sh(merged, in: repo).code, 2)
        XCTAssertEqual(try sh(whole, in: repo).code, 2)
        let m = try decision(repo.appendingPathComponent("merged.json")), w = try decision(repo.appendingPathComponent("whole.json"))
        XCTAssertEqual(m["outcome"] as? String, "regression")
        XCTAssertEqual(m, w, "2 merged shards give the unsharded decision")

        // 3. GitLab: the parallel jobs' profile, then the gate job's JUnit report.
        let gitlab = Self.caprofLines(try Self.block("gitlab-ci", in: doc))
        let glProfile = try XCTUnwrap(gitlab.first { $0.hasPrefix("caprof profile ") })
        let glGate = try XCTUnwrap(gitlab.first { $0.hasPrefix("caprof gate ") })
        XCTAssertTrue(glGate.contains("--format junit"), glGate)
        try? fm.removeItem(at: repo.appendingPathComponent("caprof-gate.xml"))
        for i in 1...2 {
            let r = try sh(glProfile, env: ["CI_NODE_INDEX": "\(i)", "CI_NODE_TOTAL": "2"], in: repo)
            XCTAssertEqual(r.code, 0, "\(glProfile) (node \(i))\n\(r.stderr)")
        }
        let gl = try sh(glGate, in: repo)
        XCTAssertEqual(gl.code, 2, gl.stdout + gl.stderr)
        XCTAssertGreaterThanOrEqual(try junit(repo.appendingPathComponent("caprof-gate.xml").path).failures, 1)
        // A lost artifact does not pass as a smaller catalog.
        try fm.removeItem(at: repo.appendingPathComponent("shard-2.json"))
        XCTAssertEqual(try sh(glGate, in: repo).code, 1, "a missing shard is an error")
    }

    // MARK: docs/from-uikit.md, docs/capture.md

    func testGuideScenesAreAcceptedAndReportWhatTheGuidesSay() throws {
        for page in ["docs/from-uikit.md", "docs/capture.md"] {
            let scenes = Self.markedBlocks(try Self.text(page)).filter { $0.words.first == "scene" }
            XCTAssertFalse(scenes.isEmpty, "\(page) has a scene file under test")
            for s in scenes {
                let name = try XCTUnwrap(s.words.dropFirst().first)
                let path = try write(name, s.body)
                let report = tmp.appendingPathComponent("\(name).report.json").path
                // The first frames are enough for what the pages claim (the whole timeline is slow in a debug build).
                let r = try caprof(["profile", path, "--no-gpu", "--frames", "0:3f", "-q", "--format", "json", "-o", report])
                XCTAssertEqual(r.code, 0, "\(page) \(name): \(r.stderr)")
                let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
                let found = Set(try XCTUnwrap(json["findings"] as? [[String: Any]]).compactMap { $0["id"] as? String })
                var mode = "", expects: [String] = [], rejects: [String] = []
                for w in s.words.dropFirst(2) {
                    if w == "expects" || w == "rejects" { mode = w } else if mode == "expects" { expects.append(w) } else if mode == "rejects" { rejects.append(w) }
                }
                for id in expects { XCTAssertTrue(found.contains(id), "\(page) \(name) should report \(id): \(found.sorted())") }
                for id in rejects { XCTAssertFalse(found.contains(id), "\(page) \(name) should not report \(id)") }
            }
        }
    }

    // MARK: README

    func testReadmeIsShortAndLinksEveryDoc() throws {
        let readme = try Self.text("README.md")
        let lines = readme.components(separatedBy: "\n").count
        XCTAssertLessThanOrEqual(lines, 300, "the README is for users: at most ~300 lines (docs/ holds the rest)")
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.repoRoot.appendingPathComponent("docs").path).filter { $0.hasSuffix(".md") }
        for d in docs { XCTAssertTrue(readme.contains("](docs/\(d))"), "README links docs/\(d)") }
        // The commands CI takes from the README's quick start.
        XCTAssertTrue(readme.contains("\ntools/setup && swift test\n"))
        XCTAssertTrue(readme.contains("\ntools/setup && swift build -c release && .build/release/caprof Examples/motion.json --format html -o motion.html\n"))
        for product in ["../shared", "/work/"] {
            for d in docs { XCTAssertFalse(try Self.text("docs/\(d)").contains(product), "docs/\(d) points outside the repository") }
        }
    }
}
