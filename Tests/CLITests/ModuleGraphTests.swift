import Foundation
import XCTest

/// The module graph as Package.swift declares it, against what the module READMEs
/// (`Sources/*/README.md`), docs/architecture.md and the modules' own `import`s say, so none of
/// them can drift. CLITests link no module: everything is read from files.
///
/// **Levels.** A target with no dependency inside this package is level 0; any other target is
/// 1 + the highest level among its direct dependencies inside the package. C targets (system
/// libraries and C shims) follow the same rule as Swift modules: they are level 0, except a shim
/// that sits on another C target (CXMLShim on CXML, CPangoABICheck on CPango and CCairoShim),
/// level 1. No Swift module's level comes from a C target. Test targets, plugins and other
/// packages' products have no level and are not counted.
///
/// **README convention.** Every Swift target has `Sources/NAME/README.md`; every README there
/// starts with `# NAME (level N)` (anything may follow the parenthesis) and has exactly one line
/// `Depends on: A, B, C.` naming exactly its direct dependencies inside the package, C targets
/// included, in any order (names may be in backticks); `Depends on: nothing.` when there are
/// none. Other packages' products (ArgumentParser) are not listed there.
///
/// **Imports.** A Swift module imports a module of this package exactly when Package.swift lists it
/// as a direct dependency: no leaning on what another dependency brings in, no unused arrows.
///
/// **docs/architecture.md.** Its table whose header starts `| level | module |` has one row per
/// target (tests and plugins aside): the level, the module in backticks, what it owns, and its
/// direct dependencies in backticks (`–` for none).
final class ModuleGraphTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: Tests

    func testThePackageGraphIsAcyclicAndRunsDownward() throws {
        let all = try Self.targets(), modules = try Self.modules()
        XCTAssertGreaterThanOrEqual(modules.count, 20, "parsed Package.swift's targets: \(modules.keys.sorted())")
        XCTAssertEqual(modules["caprof"]?.kind, "executableTarget")
        XCTAssertEqual(modules["caprof"]?.products, ["ArgumentParser"])
        XCTAssertEqual(Set(modules["Gate"]?.dependencies ?? []), ["Profile", "Report", "SceneFormat", "SystemSupport"])
        for t in all {
            XCTAssertEqual(Set(t.dependencies).count, t.dependencies.count, "Package.swift: \(t.name) lists a dependency twice: \(t.dependencies)")
            for d in t.dependencies where modules[d] == nil {
                XCTFail("Package.swift: \(t.name) depends on \(d), which is not a module of this package")
            }
        }
        if let c = Self.cycle(in: modules) {
            return XCTFail("Package.swift: the module graph has a cycle: \(c.joined(separator: " → "))")
        }
        let level = Self.levels(modules)
        for (name, t) in modules {
            for d in t.dependencies where (level[d] ?? 0) >= (level[name] ?? 0) {
                XCTFail("Package.swift: \(name) (level \(level[name]!)) → \(d) (level \(level[d]!)) does not run to a lower level")
            }
        }
    }

    func testEveryModuleReadmeStatesItsTrueLevelAndDependencies() throws {
        let modules = try Self.modules()
        guard Self.cycle(in: modules) == nil else { return XCTFail("the module graph has a cycle (see testThePackageGraphIsAcyclicAndRunsDownward)") }
        let level = Self.levels(modules)
        let fm = FileManager.default

        // Every Swift module has a README.
        for t in modules.values.sorted(by: { $0.name < $1.name }) {
            let dir = Self.root.appendingPathComponent(t.path).path
            let swift = (fm.enumerator(atPath: dir)?.allObjects as? [String] ?? []).contains { $0.hasSuffix(".swift") }
            if swift, !fm.fileExists(atPath: dir + "/README.md") { XCTFail("\(t.path)/README.md is missing: every Swift module has one") }
        }

        let readmes = try fm.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path).sorted()
            .filter { fm.fileExists(atPath: Self.root.appendingPathComponent("Sources/\($0)/README.md").path) }
        XCTAssertGreaterThanOrEqual(readmes.count, 15)
        for dir in readmes {
            let file = "Sources/\(dir)/README.md", text = try Self.text(file)
            guard let module = modules.values.first(where: { $0.path == "Sources/\(dir)" }) else {
                XCTFail("\(file): Sources/\(dir) is no module of Package.swift"); continue
            }
            let name = module.name, computed = level[name]!
            // `# NAME (level N)…`
            let title = text.components(separatedBy: "\n").first ?? ""
            let titleRE = try NSRegularExpression(pattern: #"^# (\S+) \(level (\d+)\)"#)
            if let m = titleRE.firstMatch(in: title, range: NSRange(title.startIndex..., in: title)) {
                let titled = String(title[Range(m.range(at: 1), in: title)!]), stated = Int(title[Range(m.range(at: 2), in: title)!])!
                XCTAssertEqual(titled, name, "\(file): the title names \(titled), Package.swift's module is \(name)")
                XCTAssertEqual(stated, computed, "\(file): \(name)'s title says level \(stated), Package.swift gives level \(computed) (\(Self.why(name, modules, level)))")
            } else {
                XCTFail("\(file): the first line must be `# \(name) (level \(computed))…`, found `\(title)`")
            }
            // Exactly one `Depends on: …` line, naming exactly the direct dependencies.
            let lines = text.components(separatedBy: "\n").filter { $0.hasPrefix("Depends on:") }
            guard lines.count == 1, let line = lines.first else {
                XCTFail("\(file): needs exactly one line `Depends on: A, B.` (or `Depends on: nothing.`) listing \(name)'s direct dependencies; found \(lines.count)")
                continue
            }
            guard line.hasSuffix(".") else { XCTFail("\(file): the `Depends on:` line ends with a full stop: `\(line)`"); continue }
            let listed = String(line.dropFirst("Depends on:".count).dropLast())
            let stated = listed.trimmingCharacters(in: .whitespaces) == "nothing" ? [] : Self.names(listed)
            let declared = Set(module.dependencies)
            XCTAssertEqual(Set(stated).count, stated.count, "\(file): `Depends on:` lists a module twice: \(stated)")
            let missing = declared.subtracting(stated).sorted(), extra = Set(stated).subtracting(declared).sorted()
            XCTAssertTrue(missing.isEmpty, "\(file): Package.swift gives \(name) dependencies its `Depends on:` line omits: \(missing.joined(separator: ", "))")
            XCTAssertTrue(extra.isEmpty, "\(file): its `Depends on:` line lists modules Package.swift does not give \(name): \(extra.joined(separator: ", "))")
        }
    }

    func testModulesImportOnlyTheirDeclaredDependencies() throws {
        let modules = try Self.modules(), fm = FileManager.default
        let importRE = try NSRegularExpression(pattern: #"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#, options: .anchorsMatchLines)
        var checked = 0
        for t in modules.values.sorted(by: { $0.name < $1.name }) {
            let dir = Self.root.appendingPathComponent(t.path)
            let files = (fm.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []).sorted().filter { $0.hasSuffix(".swift") }
            var used = Set<String>()
            for f in files {
                let source = try String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8)
                for m in importRE.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                    let imported = String(source[Range(m.range(at: 1), in: source)!])
                    guard modules[imported] != nil, imported != t.name else { continue }
                    checked += 1
                    used.insert(imported)
                    XCTAssertTrue(t.dependencies.contains(imported),
                                  "\(t.path)/\(f) imports \(imported), which Package.swift does not list among \(t.name)'s dependencies")
                }
            }
            // And a Swift module's declared dependencies are ones it imports.
            if !files.isEmpty {
                for d in t.dependencies.sorted() where !used.contains(d) {
                    XCTFail("Package.swift: \(t.name) depends on \(d), which no file of \(t.path) imports")
                }
            }
        }
        XCTAssertGreaterThan(checked, 100, "found the modules' imports")
    }

    func testTheArchitectureDocTableIsPackageSwifts() throws {
        let modules = try Self.modules()
        guard Self.cycle(in: modules) == nil else { return XCTFail("the module graph has a cycle") }
        let level = Self.levels(modules)
        let doc = try Self.text("docs/architecture.md")
        let lines = doc.components(separatedBy: "\n")
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("| level | module |") }, "docs/architecture.md: no table with the header `| level | module | … |`")
        var rows: [String: Int] = [:]
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let stated = Int(cells[0]) else { XCTFail("docs/architecture.md: a row that is not `| N | `Module` | owns | `A`, `B` |`: \(line)"); continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[name, default: 0] += 1
            guard let module = modules[name] else { XCTFail("docs/architecture.md: \(name) is no module of Package.swift"); continue }
            XCTAssertEqual(stated, level[name]!, "docs/architecture.md: \(name) is at level \(stated) in the table, Package.swift gives level \(level[name]!) (\(Self.why(name, modules, level)))")
            let depsCell = cells[cells.count - 1]
            let stateDeps = ["–", "-", "—", "nothing", ""].contains(depsCell) ? [] : Self.names(depsCell)
            let declared = Set(module.dependencies)
            XCTAssertEqual(Set(stateDeps).sorted(), declared.sorted(),
                           "docs/architecture.md: \(name)'s dependencies in the table (\(stateDeps.sorted().joined(separator: ", "))) are not Package.swift's (\(declared.sorted().joined(separator: ", ")))")
        }
        for name in modules.keys.sorted() {
            XCTAssertEqual(rows[name] ?? 0, 1, "docs/architecture.md: the module table has \(rows[name] ?? 0) rows for \(name), not one")
        }
    }

    /// The parser on this file's own style (comments, nested calls, products, URLs in strings), and
    /// the graph checks on small graphs: SwiftPM itself refuses a cyclic Package.swift before any
    /// test runs, so the cycle check is exercised here.
    func testTheParserAndTheGraphChecksOnSmallCases() throws {
        let text = Array(#"""
        .target(name: "A", dependencies: ["B", .target(name: "C"), .product(name: "P", package: "p")], exclude: ["README.md"]), // "D"
        .systemLibrary(name: "C", pkgConfig: "c", providers: [.apt(["libc-dev"])]),
        """#)
        let parts = Self.splitArguments(Self.strippingComments(text))
        XCTAssertEqual(parts.count, 2)
        let (kind, args) = try Self.call(parts[0])
        XCTAssertEqual(kind, "target")
        let deps = try Self.arrayElements(try XCTUnwrap(Self.labelled(args).first { $0.label == "dependencies" }?.value))
        XCTAssertEqual(deps, ["\"B\"", ".target(name: \"C\")", ".product(name: \"P\", package: \"p\")"])
        XCTAssertEqual(Self.names("`A`, `B` and C"), ["A", "B", "C"])
        XCTAssertEqual(String(Self.strippingComments(Array("x: \"https://a\" // c"))).trimmingCharacters(in: .whitespaces), "x: \"https://a\"")

        func graph(_ edges: [(String, [String])]) -> [String: Target] {
            Dictionary(uniqueKeysWithValues: edges.map { ($0.0, Target(name: $0.0, kind: "target", path: "Sources/\($0.0)", dependencies: $0.1, products: [])) })
        }
        XCTAssertEqual(Self.cycle(in: graph([("A", ["B"]), ("B", ["C"]), ("C", ["A"]), ("D", [])])), ["A", "B", "C", "A"])
        let ok = graph([("A", ["B", "C"]), ("B", ["C"]), ("C", []), ("D", ["C"])])
        XCTAssertNil(Self.cycle(in: ok))
        XCTAssertEqual(Self.levels(ok), ["A": 2, "B": 1, "C": 0, "D": 1])
        XCTAssertEqual(Self.why("A", ok, Self.levels(ok)), "1 + B (level 1)")
    }
}
