import AssetImport
import SystemSupport
import Gate
import Profile
import Report

/// What `caprof gate` was given, file by file: scenes to profile and reports to read (catalog
/// reports, sharded or not, opened into their scenes' reports), or gate results to merge.
enum GateInputs {
    enum Input {
        case scene(String)
        case report(ProfileReport, file: String)
        /// A scene a catalog report could not profile (its error entry): gated as an error.
        case failure(scene: String, SceneFailure)

        /// The scene's key (its path as given, normalised).
        var key: String {
            switch self {
            case .scene(let p): return ScenePattern.normalize(p)
            case .report(let r, _): return ScenePattern.normalize(r.scene.file)
            case .failure(let s, _): return ScenePattern.normalize(s)
            }
        }

        /// A catalog entry as an input.
        static func entry(_ e: CatalogReport.Entry, file: String) -> Input {
            switch e {
            case .scene(let r): return .report(r, file: file)
            case .error(let e): return .failure(scene: e.file, SceneFailure(message: e.message, line: e.line, column: e.column))
            }
        }
    }

    struct Expanded {
        /// Scenes and reports, in order (a sharded catalog's scenes back in catalog order, where
        /// its first shard was given).
        var inputs: [Input] = []
        /// Gate results (`"caprofGate"`) to merge as they are; never mixed with inputs.
        var results: [GateResult.Part] = []
    }

    /// Arguments → inputs in order: a directory stands for its *.json files (sorted, not
    /// recursive; budget and baseline files skipped); a file holding `"caprofReport"` is a JSON
    /// profile report, one holding `"caprofCatalog"` a catalog report (its scenes' reports; the
    /// shards of one sharded catalog must all be there, and are put back in catalog order), one
    /// holding `"caprofGate"` a gate result; any other a scene. The same path twice counts once.
    static func expand(_ args: [String]) throws -> Expanded {
        var seen = Set<String>()
        var out = Expanded()
        var shards: [(info: ShardInfo, catalog: CatalogReport, file: String)] = []
        var shardSlot: Int?
        for a in args {
            guard let status = FileStatus(path: a) else {
                throw GateError(file: a, "no such scene, report or directory")
            }
            var paths = [a]
            if status.isDirectory && AssetKind.of(path: a) != .package {
                paths = CatalogInputs.jsonFiles(in: a).filter {
                    let m = CatalogInputs.marker(of: $0)
                    return m != "\"caprofBudget\"" && m != "\"caprofBaseline\""
                }
                if paths.isEmpty { throw GateError(file: a, "the directory holds no .json file") }
            }
            for p in paths where seen.insert(ScenePattern.normalize(p)).inserted {
                // A FIFO or a device would block or never end: refused before it is opened.
                guard FileStatus.isRegularFile(p) else {
                    throw GateError(file: p, "cannot read the file: it is not a regular file (a FIFO, socket or device); save it to a file first")
                }
                let data = { () throws -> Data in
                    guard let d = FileManager.default.contents(atPath: p) else { throw GateError(file: p, "cannot read the file") }
                    return d
                }
                switch CatalogInputs.marker(of: p) {
                case "\"caprofReport\""?:
                    let bytes = try data()
                    do { out.inputs.append(.report(try JSONReport.decode(bytes), file: p)) } catch let e as GateError { throw e } catch {
                        throw GateError.decoding(error, data: bytes, file: p, what: "a caprof JSON report (\"caprofReport\")")
                    }
                case "\"caprofCatalog\""?:
                    let c: CatalogReport
                    let bytes = try data()
                    do { c = try CatalogReport.decode(bytes) } catch let e as GateError { throw e } catch {
                        throw GateError.decoding(error, data: bytes, file: p, what: "a caprof catalog report (\"caprofCatalog\")")
                    }
                    guard c.caprofCatalog == CatalogReport.currentVersion else {
                        throw GateError(file: p, pointer: "/caprofCatalog", "unsupported catalog version \(c.caprofCatalog); this caprof reads \(CatalogReport.currentVersion)")
                    }
                    if let s = c.shard {
                        let entries = c.scenes.count + (c.errors?.count ?? 0)
                        guard s.positions.count == entries else {
                            throw GateError(file: p, pointer: "/shard/positions", "lists \(s.positions.count) positions for \(entries) scenes")
                        }
                        if shardSlot == nil { shardSlot = out.inputs.count }
                        shards.append((s, c, p))
                    } else {
                        out.inputs += c.entries.map { Input.entry($0, file: p) }
                    }
                case "\"caprofGate\""?:
                    out.results.append((try GateResult.decode(try data(), file: p), p))
                case "\"caprofBudget\""?:
                    throw GateError(file: p, "is a budget file (\"caprofBudget\"): pass it with --budget")
                case "\"caprofBaseline\""?:
                    throw GateError(file: p, "is a baseline file (\"caprofBaseline\"): pass it with --baseline")
                default:
                    out.inputs.append(.scene(p))
                }
            }
        }
        if let slot = shardSlot {
            do { try CatalogShard.checkComplete(shards.map(\.info)) } catch let e as CatalogShard.ParseError {
                throw GateError(file: shards[0].file, e.description)
            }
            let placed = shards.flatMap { s in zip(s.info.positions, s.catalog.entries).map { ($0, Input.entry($1, file: s.file)) } }
            out.inputs.insert(contentsOf: placed.sorted { $0.0 < $1.0 }.map(\.1), at: slot)
        }
        if let r = out.results.first, !out.inputs.isEmpty {
            throw GateError(file: r.file, "is a gate result (\"caprofGate\"), to be merged with other gate results only: give scenes and profile reports, or gate results, not both")
        }
        return out
    }

    static func join(_ dir: String, _ name: String) -> String {
        dir == "." ? name : (dir.hasSuffix("/") ? dir + name : dir + "/" + name)
    }

    /// Shard `shard` of the inputs: the catalog is their scenes (each key once, in order), and
    /// the inputs of the scenes the shard takes are kept (all runs of a scene stay together).
    static func shard(_ inputs: [Input], _ shard: CatalogShard) -> (inputs: [Input], info: ShardInfo) {
        var keys: [String] = []
        var seen = Set<String>()
        for i in inputs where seen.insert(i.key).inserted { keys.append(i.key) }
        let positions = shard.select(keys)
        let chosen = Set(positions.map { keys[$0] })
        return (inputs.filter { chosen.contains($0.key) }, ShardInfo(shard, catalogScenes: keys.count, positions: positions))
    }
}
