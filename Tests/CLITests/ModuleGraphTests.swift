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

    // MARK: Package.swift, parsed

    struct Target {
        var name: String
        /// `target`, `executableTarget`, `systemLibrary`, `testTarget`, `plugin` …
        var kind: String
        var path: String
        /// Targets of this package, as written (by name, `.target(name:)` or `.byName(name:)`).
        var dependencies: [String]
        /// Other packages' products.
        var products: [String]
        var isTest: Bool { kind == "testTarget" }
        /// A module other targets may depend on (not a test, not a plugin).
        var isModule: Bool { !isTest && kind != "plugin" }
    }

    enum ManifestError: Error, CustomStringConvertible {
        case unparsed(String)
        var description: String { switch self { case .unparsed(let m): return "Package.swift: \(m)" } }
    }

    /// The manifest's text with `//` comments blanked (string literals kept: URLs have `//`).
    static func strippingComments(_ s: [Character]) -> [Character] {
        var out = s, i = 0, inString = false
        while i < out.count {
            let c = out[i]
            if inString {
                if c == "\\" { i += 2; continue }
                if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "/", i + 1 < out.count, out[i + 1] == "/" {
                while i < out.count, out[i] != "\n" { out[i] = " "; i += 1 }
                continue
            }
            i += 1
        }
        return out
    }

    /// The index of the bracket closing the one at `open` (`(` or `[`), string literals skipped.
    static func closing(_ s: [Character], from open: Int) throws -> Int {
        var depth = 0, i = open, inString = false
        while i < s.count {
            let c = s[i]
            if inString {
                if c == "\\" { i += 2; continue }
                if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "(" || c == "[" {
                depth += 1
            } else if c == ")" || c == "]" {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        throw ManifestError.unparsed("unbalanced bracket at character \(open)")
    }

    /// `s` split at the commas outside brackets and string literals, each part trimmed.
    static func splitArguments(_ s: [Character]) -> [String] {
        var parts: [String] = [], current: [Character] = [], depth = 0, inString = false, i = 0
        while i < s.count {
            let c = s[i]
            if inString {
                if c == "\\", i + 1 < s.count { current += [c, s[i + 1]]; i += 2; continue }
                if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "(" || c == "[" {
                depth += 1
            } else if c == ")" || c == "]" {
                depth -= 1
            } else if c == ",", depth == 0 {
                parts.append(String(current)); current = []; i += 1; continue
            }
            current.append(c); i += 1
        }
        parts.append(String(current))
        return parts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// `label: value` arguments of a call's argument list (unlabelled ones under "").
    static func labelled(_ arguments: [String]) -> [(label: String, value: String)] {
        arguments.map { a in
            if let colon = a.firstIndex(of: ":"), a[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                return (String(a[..<colon]), a[a.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return ("", a)
        }
    }

    /// `"text"` → text.
    static func stringLiteral(_ s: String) throws -> String {
        guard s.count >= 2, s.first == "\"", s.last == "\"", !s.dropFirst().dropLast().contains("\"") else {
            throw ManifestError.unparsed("expected a string literal, found \(s)")
        }
        return String(s.dropFirst().dropLast())
    }

    /// `.name(arguments)` → (name, arguments split).
    static func call(_ s: String) throws -> (name: String, arguments: [String]) {
        let chars = Array(s)
        guard chars.first == ".", let open = chars.firstIndex(of: "("), try closing(chars, from: open) == chars.count - 1 else {
            throw ManifestError.unparsed("expected `.call(…)`, found \(s.prefix(80))")
        }
        return (String(chars[1..<open]), splitArguments(Array(chars[(open + 1)..<(chars.count - 1)])))
    }

    /// `[a, b]` → [a, b].
    static func arrayElements(_ s: String) throws -> [String] {
        let chars = Array(s)
        guard chars.first == "[", try closing(chars, from: 0) == chars.count - 1 else {
            throw ManifestError.unparsed("expected an array, found \(s.prefix(80))")
        }
        return splitArguments(Array(chars[1..<(chars.count - 1)]))
    }

    /// The `targets:` of `Package(…)`, in declaration order.
    static func targets() throws -> [Target] {
        let source = strippingComments(Array(try text("Package.swift")))
        let marker = Array("Package(")
        guard let start = (0...(source.count - marker.count)).first(where: { Array(source[$0..<($0 + marker.count)]) == marker }) else {
            throw ManifestError.unparsed("no `Package(` call")
        }
        let open = start + marker.count - 1, close = try closing(source, from: open)
        let package = labelled(splitArguments(Array(source[(open + 1)..<close])))
        guard let list = package.first(where: { $0.label == "targets" })?.value else { throw ManifestError.unparsed("Package has no `targets:`") }
        return try arrayElements(list).map { element in
            let (kind, arguments) = try call(element)
            let args = labelled(arguments)
            guard let name = try args.first(where: { $0.label == "name" }).map({ try stringLiteral($0.value) }) else {
                throw ManifestError.unparsed("a .\(kind) without `name:`")
            }
            let path = try args.first(where: { $0.label == "path" }).map { try stringLiteral($0.value) } ?? "Sources/\(name)"
            var target = Target(name: name, kind: kind, path: kind == "testTarget" && !args.contains { $0.label == "path" } ? "Tests/\(name)" : path,
                                dependencies: [], products: [])
            if let deps = args.first(where: { $0.label == "dependencies" })?.value {
                for d in try arrayElements(deps) {
                    if d.hasPrefix("\"") {
                        target.dependencies.append(try stringLiteral(d))
                        continue
                    }
                    let (how, depArgs) = try call(d)
                    guard let depName = try labelled(depArgs).first(where: { $0.label == "name" }).map({ try stringLiteral($0.value) }) else {
                        throw ManifestError.unparsed("\(name): a dependency without a name: \(d)")
                    }
                    switch how {
                    case "product": target.products.append(depName)
                    case "target", "byName": target.dependencies.append(depName)
                    default: throw ManifestError.unparsed("\(name): a dependency of a kind this test does not know: \(d)")
                    }
                }
            }
            return target
        }
    }

    /// The package's modules (tests and plugins aside) by name.
    static func modules() throws -> [String: Target] {
        Dictionary(try targets().filter(\.isModule).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// A cycle among the modules' dependencies, as a path `A → B → … → A`, or nil.
    static func cycle(in modules: [String: Target]) -> [String]? {
        var state: [String: Int] = [:] // 1 on the stack, 2 done
        var stack: [String] = []
        func visit(_ n: String) -> [String]? {
            if state[n] == 2 { return nil }
            if state[n] == 1 { return Array(stack[stack.firstIndex(of: n)!...]) + [n] }
            state[n] = 1; stack.append(n)
            for d in modules[n]?.dependencies ?? [] where modules[d] != nil {
                if let c = visit(d) { return c }
            }
            stack.removeLast(); state[n] = 2
            return nil
        }
        for n in modules.keys.sorted() { if let c = visit(n) { return c } }
        return nil
    }

    /// Each module's level (see the class comment). Only for an acyclic graph.
    static func levels(_ modules: [String: Target]) -> [String: Int] {
        var level: [String: Int] = [:]
        func of(_ n: String) -> Int {
            if let l = level[n] { return l }
            let deps = (modules[n]?.dependencies ?? []).filter { modules[$0] != nil }
            let l = deps.isEmpty ? 0 : 1 + deps.map(of).max()!
            level[n] = l
            return l
        }
        for n in modules.keys { _ = of(n) }
        return level
    }

    /// Names listed as `A, B and C` / `` `A`, `B` ``, backticks and a final "and" tolerated.
    static func names(_ list: String) -> [String] {
        list.replacingOccurrences(of: " and ", with: ", ")
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "`"))) }
            .filter { !$0.isEmpty }
    }

    /// "computed: 1 + LayerModel (1)" — why a module has its level.
    static func why(_ name: String, _ modules: [String: Target], _ level: [String: Int]) -> String {
        let deps = (modules[name]?.dependencies ?? []).filter { modules[$0] != nil }
        guard let top = deps.max(by: { (level[$0] ?? 0, $1) < (level[$1] ?? 0, $0) }) else { return "no dependency inside the package" }
        return "1 + \(top) (level \(level[top] ?? 0))"
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
