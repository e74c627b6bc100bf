import Foundation
import Gate
import Profile
import Report

/// What `caprof gate` was given, file by file: scenes to profile and reports to read.
enum GateInputs {
    enum Input {
        case scene(String)
        case report(ProfileReport, file: String)
    }

    /// Arguments → inputs in order: a directory stands for its *.json files (sorted, not
    /// recursive); a file holding `"caprofReport"` is a JSON profile report, any other a scene.
    /// The same path twice counts once.
    static func expand(_ args: [String]) throws -> [Input] {
        var seen = Set<String>()
        var out: [Input] = []
        for a in args {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: a, isDirectory: &isDir) else {
                throw GateError(file: a, "no such scene, report or directory")
            }
            var paths = [a]
            if isDir.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: a)) ?? []
                paths = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map { join(a, $0) }
                    .filter { p in var d: ObjCBool = false; return FileManager.default.fileExists(atPath: p, isDirectory: &d) && !d.boolValue }
                if paths.isEmpty { throw GateError(file: a, "the directory holds no .json file") }
            }
            for p in paths where seen.insert(ScenePattern.normalize(p)).inserted {
                out.append(try classify(p))
            }
        }
        return out
    }

    static func join(_ dir: String, _ name: String) -> String {
        dir == "." ? name : (dir.hasSuffix("/") ? dir + name : dir + "/" + name)
    }

    static func classify(_ path: String) throws -> Input {
        guard let h = FileHandle(forReadingAtPath: path) else { throw GateError(file: path, "cannot read the file") }
        defer { try? h.close() }
        let head = (try? h.read(upToCount: 4096)) ?? Data()
        guard head.range(of: Data("\"caprofReport\"".utf8)) != nil else { return .scene(path) }
        let data = FileManager.default.contents(atPath: path) ?? Data()
        do { return .report(try JSONReport.decode(data), file: path) } catch {
            throw GateError(file: path, "reads as a caprof JSON report (\"caprofReport\") but does not decode: \(error)")
        }
    }
}
