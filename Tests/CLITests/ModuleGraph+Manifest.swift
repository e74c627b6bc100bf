import Foundation

/// Package.swift read as text (CLITests link no module) and the graph computed from it: targets,
/// their dependencies inside the package, cycles and levels (the rules are ModuleGraphTests').
extension ModuleGraphTests {
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

    /// Which characters of `s` belong to a string literal, its quotes included (escapes skipped,
    /// `//` comments passed over): the scanners below look for comments, brackets and commas only
    /// outside them.
    static func inStringLiteral(_ s: [Character]) -> [Bool] {
        var mask = [Bool](repeating: false, count: s.count), inString = false, i = 0
        while i < s.count {
            if inString {
                mask[i] = true
                if s[i] == "\\", i + 1 < s.count { mask[i + 1] = true; i += 2; continue }
                if s[i] == "\"" { inString = false }
            } else if s[i] == "\"" {
                mask[i] = true; inString = true
            } else if s[i] == "/", i + 1 < s.count, s[i + 1] == "/" {
                // A comment's quotes open no literal ("// the \"library\" …").
                while i < s.count, s[i] != "\n" { i += 1 }
                continue
            }
            i += 1
        }
        return mask
    }

    /// The manifest's text with `//` comments blanked (string literals kept: URLs have `//`).
    static func strippingComments(_ s: [Character]) -> [Character] {
        var out = s, i = 0
        let literal = inStringLiteral(s)
        while i < out.count {
            if !literal[i], out[i] == "/", i + 1 < out.count, out[i + 1] == "/" {
                while i < out.count, out[i] != "\n" { out[i] = " "; i += 1 }
                continue
            }
            i += 1
        }
        return out
    }

    /// The index of the bracket closing the one at `open` (`(` or `[`), string literals skipped.
    static func closing(_ s: [Character], from open: Int) throws -> Int {
        let literal = inStringLiteral(s)
        var depth = 0
        for i in open..<s.count where !literal[i] {
            if s[i] == "(" || s[i] == "[" { depth += 1 }
            if s[i] == ")" || s[i] == "]" { depth -= 1; if depth == 0 { return i } }
        }
        throw ManifestError.unparsed("unbalanced bracket at character \(open)")
    }

    /// `s` split at the commas outside brackets and string literals, each part trimmed.
    static func splitArguments(_ s: [Character]) -> [String] {
        let literal = inStringLiteral(s)
        var parts: [String] = [], current: [Character] = [], depth = 0
        for (i, c) in s.enumerated() {
            if !literal[i] {
                if c == "(" || c == "[" { depth += 1 }
                if c == ")" || c == "]" { depth -= 1 }
                if c == ",", depth == 0 { parts.append(String(current)); current = []; continue }
            }
            current.append(c)
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
}
