import SystemSupport
import SceneFormat

/// Reads a budget file (README "Budget file") into a `Budget`, strictly: unknown keys, wrong types,
/// values out of range and rules that cannot be checked are errors naming the file, the JSON
/// pointer and line:column. JSON syntax is read by SceneFormat's parser (strict RFC 8259, with
/// positions), the one place caprof parses JSON by hand.
public enum BudgetParser {
    /// Budget files are small; anything larger is refused before it is parsed.
    public static let maxFileBytes = 1 << 20
    /// Timing rules need at least this many runs (a median of fewer is no noise rule).
    public static let minRuns = 3
    public static let maxRuns = 100

    public static func load(path: String) throws -> Budget {
        // Not opened unless it is a regular file within the size limit (a FIFO would block).
        if let status = FileStatus(path: path) {
            if !status.isRegularFile { throw GateError(file: path, "cannot read the budget file: it is not a regular file") }
            if status.size > maxFileBytes { throw GateError(file: path, "the budget file is \(status.size) bytes; the limit is \(maxFileBytes)") }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GateError(file: path, "cannot read the budget file: it does not exist or is not accessible")
        }
        if data.count > maxFileBytes {
            throw GateError(file: path, "the budget file is \(data.count) bytes; the limit is \(maxFileBytes)")
        }
        return try parse([UInt8](data), file: path)
    }

    public static func parse(_ bytes: [UInt8], file: String) throws -> Budget {
        let doc: JSONValue
        do { doc = try JSONParser.parse(bytes, file: file) } catch let e as SceneError {
            throw GateError(e, file: file)
        }
        let top = try object(doc, file: file, keys: ["caprofBudget", "extends", "rules", "description"])
        guard let version = top["caprofBudget"] else {
            throw err(doc, file, "missing \"caprofBudget\": 1 (the budget format's version)")
        }
        guard version.number == Double(Budget.currentVersion) else {
            throw err(version, file, "unsupported budget version \(describe(version)); this caprof reads \"caprofBudget\": \(Budget.currentVersion)")
        }
        if let d = top["description"], d.string == nil { throw err(d, file, "expected a string, found \(d.typeDescription)") }
        var rules: [Rule] = []
        if let ext = top["extends"] {
            guard ext.string == "default" else {
                throw err(ext, file, "\"extends\" can only be \"default\" (the default budget's rules come first), found \(describe(ext))")
            }
            rules = Budget.standard.rules
        }
        guard let list = top["rules"] else { throw err(doc, file, "missing \"rules\": an array of rules") }
        guard let items = list.array else { throw err(list, file, "expected an array of rules, found \(list.typeDescription)") }
        for item in items { rules.append(try rule(item, file: file)) }
        return Budget(rules: rules, source: file)
    }

    static let ruleKeys = ["metric", "finding", "level", "max", "maxIncrease", "scenes", "runs", "description"]

    static func rule(_ v: JSONValue, file: String) throws -> Rule {
        let o = try object(v, file: file, keys: ruleKeys)
        let target: RuleTarget
        switch (o["metric"], o["finding"]) {
        case (nil, nil): throw err(v, file, "a rule needs \"metric\" (one of \(Metric.allCases.map(\.rawValue).joined(separator: ", "))) or \"finding\" (a finding id)")
        case (.some, .some): throw err(o["finding"]!, file, "a rule has either \"metric\" or \"finding\", not both")
        case (let m?, nil):
            guard let s = m.string else { throw err(m, file, "expected a metric name (a string), found \(m.typeDescription)") }
            guard let metric = Metric(rawValue: s) else {
                throw err(m, file, "unknown metric \"\(s)\"\(suggest(s, Metric.allCases.map(\.rawValue))); metrics: \(Metric.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            target = .metric(metric)
        case (nil, let f?):
            guard let s = f.string else { throw err(f, file, "expected a finding id (a string), found \(f.typeDescription)") }
            guard KnownFindings.all.contains(s) else {
                throw err(f, file, "unknown finding id \"\(s)\"\(suggest(s, KnownFindings.all)); ids: \(KnownFindings.all.joined(separator: ", "))")
            }
            target = .finding(s)
        }
        guard let lv = o["level"] else { throw err(v, file, "missing \"level\": \"off\", \"warn\" or \"error\"") }
        guard let ls = lv.string, let level = Level(rawValue: ls) else {
            throw err(lv, file, "expected one of \"off\", \"warn\", \"error\", found \(describe(lv))")
        }
        var max: Double?
        if let m = o["max"] {
            guard let n = m.number, n >= 0 else { throw err(m, file, "expected a number ≥ 0, found \(describe(m))") }
            max = n
        }
        var increase: Increase?
        if let inc = o["maxIncrease"] {
            let io = try object(inc, file: file, keys: ["relative", "absolute"])
            switch (io["relative"], io["absolute"]) {
            case (let r?, nil):
                guard let n = r.number, n >= 0 else { throw err(r, file, "expected a fraction ≥ 0 (0.05 = 5 %), found \(describe(r))") }
                increase = .relative(n)
            case (nil, let a?):
                guard let n = a.number, n >= 0 else { throw err(a, file, "expected a number ≥ 0, found \(describe(a))") }
                increase = .absolute(n)
            default:
                throw err(inc, file, "expected {\"relative\": fraction} or {\"absolute\": number} (exactly one)")
            }
        }
        var scenes: [String] = []
        if let s = o["scenes"] {
            guard let arr = s.array else { throw err(s, file, "expected an array of scene patterns, found \(s.typeDescription)") }
            for p in arr {
                guard let t = p.string, !t.isEmpty else { throw err(p, file, "expected a scene pattern (a non-empty string), found \(describe(p))") }
                scenes.append(t)
            }
        }
        var runs: Int?
        if let r = o["runs"] {
            guard let n = r.number, n == n.rounded(), n >= Double(minRuns), n <= Double(maxRuns) else {
                throw err(r, file, "expected a whole number of runs from \(minRuns) to \(maxRuns), found \(describe(r))")
            }
            runs = Int(n)
        }
        if let d = o["description"], d.string == nil { throw err(d, file, "expected a string, found \(d.typeDescription)") }
        // What makes a rule checkable.
        if case .metric(let m) = target {
            if m.isTiming {
                guard runs != nil else {
                    throw err(v, file, "\(m.rawValue) is a timing metric: it needs a noise rule, \"runs\": N (\(minRuns)…\(maxRuns); the median of N runs is compared) and \"maxIncrease\": {\"relative\": fraction}")
                }
                guard case .relative? = increase else {
                    throw err(o["maxIncrease"] ?? v, file, "\(m.rawValue) is a timing metric: it needs \"maxIncrease\": {\"relative\": fraction} (timings are compared to the baseline, relatively)")
                }
            } else if let r = o["runs"] {
                throw err(r, file, "\"runs\" applies to timing metrics only (cpuMilliseconds, gpuMilliseconds); \(m.rawValue) is exact")
            }
            if max == nil && increase == nil {
                throw err(v, file, "a metric rule needs \"max\" or \"maxIncrease\" (or both)")
            }
        } else if let r = o["runs"] {
            throw err(r, file, "\"runs\" applies to timing metrics only")
        }
        return Rule(target: target, level: level, max: max, maxIncrease: increase, scenes: scenes, runs: runs,
                    origin: "\(file):\(v.line):\(v.column)")
    }

    // MARK: helpers

    static func object(_ v: JSONValue, file: String, keys: [String]) throws -> JSONValue {
        guard let members = v.members else { throw err(v, file, "expected an object, found \(v.typeDescription)") }
        for m in members where !keys.contains(m.key) {
            throw GateError(file: file, pointer: m.value.pointer, line: m.keyLine, column: m.keyColumn,
                            "unknown key \"\(m.key)\"\(suggest(m.key, keys)); keys here: \(keys.joined(separator: ", "))")
        }
        return v
    }

    static func err(_ v: JSONValue, _ file: String, _ message: String) -> GateError {
        GateError(file: file, pointer: v.pointer, line: v.line, column: v.column, message)
    }

    static func describe(_ v: JSONValue) -> String {
        switch v.kind {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return GateFormat.number(n, digits: 6)
        case .bool(let b): return String(b)
        default: return v.typeDescription
        }
    }

    /// "; did you mean 'x'?" for a near miss (edit distance ≤ 2, or a case-only difference).
    static func suggest(_ word: String, _ candidates: [String]) -> String {
        let w = Array(word.lowercased())
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased()))
            if d <= max(1, min(2, word.count / 4)), d < (best?.1 ?? .max) { best = (c, d) }
        }
        return best.map { " (did you mean \"\($0.0)\"?)" } ?? ""
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count { cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)) }
            prev = cur
        }
        return prev[b.count]
    }
}
