import SystemSupport
import Report

/// Merging gate results (`caprof gate --shard I/N --format json` of every shard, or results of
/// disjoint sets of scenes) into one decision: the scenes put back in catalog order, the counts,
/// outcome and exit code recomputed over all of them. Pure: no file is read here.
extension GateResult {
    public typealias Part = (result: GateResult, file: String)

    public static func merging(_ parts: [Part]) throws -> GateResult {
        guard let first = parts.first else { throw GateError(file: "-", "no gate result to merge") }
        for p in parts where p.result.caprofGate != currentVersion {
            throw GateError(file: p.file, pointer: "/caprofGate", "unsupported gate result version \(p.result.caprofGate); this caprof reads \(currentVersion)")
        }
        for p in parts.dropFirst() where p.result.budget != first.result.budget || p.result.baseline != first.result.baseline {
            throw GateError(file: p.file, "was gated with \(describe(p.result)), but \(first.file) with \(describe(first.result)): merge the results of one gate command")
        }
        let sharded = parts.filter { $0.result.shard != nil }
        var scenes: [SceneResult]
        if !sharded.isEmpty {
            if let whole = parts.first(where: { $0.result.shard == nil }) {
                throw GateError(file: whole.file, "is not a shard's result, but \(sharded[0].file) is: merge the results of every shard (--shard I/N) of one catalog")
            }
            let infos = parts.map { $0.result.shard! }
            do { try CatalogShard.checkComplete(infos) } catch let e as CatalogShard.ParseError {
                throw GateError(file: first.file, e.description)
            }
            var placed: [(Int, SceneResult)] = []
            for p in parts {
                let s = p.result.shard!
                guard s.positions.count == p.result.scenes.count else {
                    throw GateError(file: p.file, pointer: "/shard/positions", "lists \(s.positions.count) positions for \(p.result.scenes.count) scenes")
                }
                placed += zip(s.positions, p.result.scenes).map { ($0, $1) }
            }
            scenes = placed.sorted { $0.0 < $1.0 }.map(\.1)
        } else {
            scenes = []
            var from: [String: String] = [:]
            for p in parts {
                for s in p.result.scenes {
                    if let other = from[s.scene] {
                        throw GateError(file: p.file, "gates \(s.scene) again (\(other) gates it too): merge results of disjoint scenes")
                    }
                    from[s.scene] = p.file
                    scenes.append(s)
                }
            }
        }
        return GateResult(budget: first.result.budget, baseline: first.result.baseline, scenes: scenes)
    }

    static func describe(_ r: GateResult) -> String {
        "\(r.budget)" + (r.baseline.map { " against \($0)" } ?? " and no baseline")
    }

    /// Reads a gate result written by `caprof gate --format json`.
    public static func decode(_ data: Data, file: String) throws -> GateResult {
        do { return try JSONDecoder().decode(GateResult.self, from: data) } catch let e as DecodingError {
            throw GateError(file: file, pointer: Baseline.pointer(e), "reads as a caprof gate result (\"caprofGate\") but does not decode: " + Baseline.describe(e))
        }
    }
}
