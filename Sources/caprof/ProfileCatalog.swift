import ArgumentParser
import AssetImport
import SystemSupport
import Dispatch
import Pipeline
import Profile
import Report
import SceneFormat

/// `caprof profile DIR|SCENE…` and `--shard I/N`: a catalog. Each scene is profiled as it would
/// be alone (same frames, same report) and the reports are written together with totals, in
/// catalog order whatever order they finished in.
///
/// Plan-only runs (`--no-gpu`) profile scenes concurrently, one per core; runs that draw profile
/// one scene at a time, each on a fresh Vulkan renderer (lavapipe already spreads a frame over
/// every core, and a fresh renderer keeps each scene's upload and texture numbers those of a run
/// of that scene alone).
extension ProfileCommand {
    /// A directory, several scenes, or a shard: anything but one scene file.
    var isCatalog: Bool {
        if scenes.count > 1 || shard != nil { return true }
        // A .ca package is a directory but one scene.
        return scenes.count == 1 && FileStatus.isDirectory(scenes[0])
            && AssetKind.of(path: scenes[0]) != .package
    }

    func validateCatalog() throws {
        switch format {
        case .html, .trace:
            throw ValidationError("--format \(format.rawValue) describes one scene; a catalog (\(scenes.count > 1 ? "several scenes" : shard != nil ? "--shard" : "a directory")) is written as text, json or markdown: run `caprof profile SCENE --format \(format.rawValue)` per scene")
        default: break
        }
        if overlays != nil || !overlayFrames.isEmpty {
            throw ValidationError("--overlays and --overlay-frame show one scene's frames: not with a catalog (run caprof profile SCENE --overlays DIR per scene)")
        }
    }

    func runCatalog(_ err: Terminal) throws {
        do {
            let all = try CatalogInputs.scenes(scenes)
            let positions = shard.map { $0.select(all) } ?? Array(all.indices)
            let picked = positions.map { all[$0] }
            if let o = output { try Self.checkWritable(o) }
            if let s = shard, !quiet {
                err.write(err.dim("shard \(s): \(Self.count(picked.count, "scene")) of \(all.count) (round-robin on the sorted paths)"))
            }
            let progress = ProgressBar(total: picked.count, terminal: err, enabled: !quiet && picked.count > 1 && err.isTerminal)
            let reports: [ProfileReport]
            var failures: [CatalogReport.SceneError] = []
            var firstError: Error?
            do {
                let results = try profileCatalog(picked) { progress.update(done: $0) }
                var ok: [ProfileReport] = []
                for (n, r) in results.enumerated() {
                    switch r {
                    case .success(let report): ok.append(report)
                    case .failure(let e):
                        if firstError == nil { firstError = e }
                        let (line, column) = Self.place(of: e)
                        failures.append(.init(file: picked[n], message: GateCommand.describe(e), line: line, column: column, position: n))
                    }
                }
                reports = ok
                progress.finish()
            } catch {
                progress.finish()
                throw error
            }
            if !quiet {
                for r in reports {
                    for w in r.warnings {
                        if let l = w.location { err.warning("\(l.file):\(l.line):\(l.column): warning: \(w.message)") }
                        else { err.warning("\(r.scene.file): warning: \(w.message)") }
                    }
                }
            }
            // Every scene that failed is said on stderr, as a single run would say it; the
            // catalog keeps an error entry for it and reports every other scene.
            for f in failures { err.error(f.message) }
            // A shard's positions cover its error entries too (`CatalogReport.entries` order), so
            // the shards still add up to the whole catalog when a scene failed.
            let catalog = CatalogReport(tool: .init(version: Caprof.configuration.version), scenes: reports,
                                        shard: shard.map { ShardInfo($0, catalogScenes: all.count, positions: positions) },
                                        errors: failures)
            let text: Data
            switch format {
            case .json: text = try CatalogReport.encode(catalog)
            case .markdown: text = Data(CatalogMarkdownReport().render(catalog).utf8)
            default: text = Data(CatalogTextReport(colors: output == nil && Terminal.stdout.colors).render(catalog).utf8)
            }
            if let o = output {
                try Self.writeAtomically(text, to: o)
                if !quiet {
                    err.write("\(err.green("wrote")) \(o) \(err.dim("(\(format.rawValue), \(Self.count(reports.count, "scene")), \(Self.count(catalog.totals.findings, "finding")), \(Self.count(catalog.totals.frames, "frame")))"))")
                }
            } else {
                StandardStreams.writeOut(text)
            }
            // A scene that failed fails the run with the code a single run of it would give.
            if let e = firstError { throw ExitCode(Self.exitCode(of: e)) }
        } catch let e as ValidationError {
            throw e
        } catch let e as ExitCode {
            throw e
        } catch let e as ReportWriteError {
            err.error("error: \(e.message)")
            throw ExitCode(CaprofExit.cantCreate)
        } catch let e as CatalogInputs.Failure {
            err.error("\(e.path): error: \(e.message)")
            throw ExitCode(CaprofExit.noInput)
        } catch {
            throw fail(error)
        }
    }

    /// Where a scene's error is (line, column), for error entries.
    static func place(of error: Error) -> (Int?, Int?) {
        if let e = error as? SceneError { return (e.location.line, e.location.column) }
        if let e = error as? SceneImages.Failure { return (e.source.location.line, e.source.location.column) }
        return (nil, nil)
    }

    /// The exit code a single run of the failed scene gives (`fail`'s mapping).
    static func exitCode(of error: Error) -> Int32 { CaprofExit.code(for: error) }

    /// Whether a scene's error is the scene's own (it becomes an error entry) rather than the
    /// machine's (no Vulkan device: the whole run stops).
    static func isSceneError(_ error: Error) -> Bool { error is SceneError || error is SceneImages.Failure }

    /// Results of `paths`, in their order: a report, or the scene's own error. Plan only:
    /// concurrently; drawn: one at a time. Errors that are not the scene's stop the run.
    func profileCatalog(_ paths: [String], progress: @escaping (Int) -> Void) throws -> [Result<ProfileReport, Error>] {
        var results = [Result<ProfileReport, Error>?](repeating: nil, count: paths.count)
        if noGPU {
            let lock = Lock()
            var done = 0
            DispatchQueue.concurrentPerform(iterations: paths.count) { n in
                let r = Result { try profileOne(paths[n], renderer: nil) }
                lock.lock(); results[n] = r; done += 1; progress(done); lock.unlock()
            }
        } else {
            // One Vulkan device and one set of pipelines for the whole catalog (about 80 of a small
            // scene's 103 ms on lavapipe were making them); each scene still gets empty caches.
            var first: SceneRenderer?
            for (n, p) in paths.enumerated() {
                let renderer = try first.map { try SceneRenderer(sharingDeviceOf: $0) } ?? SceneRenderer(preferredDevice: device)
                if first == nil { first = renderer }
                results[n] = Result { try profileOne(p, renderer: renderer) }
                progress(n + 1)
            }
        }
        // The first failure in catalog order that is not a scene's own stops the run.
        for r in results { if case .failure(let e)? = r, !Self.isSceneError(e) { throw e } }
        return results.map { $0! }
    }

    /// One scene's report, exactly as `caprof profile SCENE` computes it.
    func profileOne(_ path: String, renderer: SceneRenderer?) throws -> ProfileReport {
        // Catalog scenes run on worker threads: give each the stack a maximum-depth tree needs.
        try LargeStack.run { try profileOneOnThisStack(path, renderer: renderer) }
    }

    private func profileOneOnThisStack(_ path: String, renderer: SceneRenderer?) throws -> ProfileReport {
        let limits = try limitOptions.resolved()
        let animated = try limits.load(path, drawn: renderer != nil)
        let fps = self.fps ?? animated.fps
        let list = try (frames ?? FrameRange(start: nil, end: nil)).frames(fps: fps, duration: animated.duration, limit: limits.decoding.framesPerRun)
        let runner = ProfileRunner(scene: animated, renderer: renderer)
        runner.measuresSavings = !noSavings
        return try runner.run(frames: list, fps: fps, file: path, toolVersion: Caprof.configuration.version).report
    }
}

/// The scene files of a catalog's arguments: a file stands for itself, a directory for its
/// `*.json` scene files (sorted by name, not recursive; hidden files and caprof's own outputs —
/// reports, catalogs, gate results, baselines, budgets — skipped). In argument order, each path once.
enum CatalogInputs {
    struct Failure: Error { var path: String; var message: String }

    /// The markers of caprof's own JSON files, which a directory's scenes exclude.
    static let outputMarkers = ["\"caprofReport\"", "\"caprofCatalog\"", "\"caprofGate\"", "\"caprofBaseline\"", "\"caprofBudget\"", "\"caprofSnapshot\""]

    static func scenes(_ args: [String]) throws -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for a in args {
            guard let status = FileStatus(path: a) else {
                throw Failure(path: a, message: "no such scene file or directory")
            }
            var paths = [a]
            if status.isDirectory && AssetKind.of(path: a) != .package {
                paths = jsonFiles(in: a).filter { marker(of: $0) == nil }
                if paths.isEmpty { throw Failure(path: a, message: "the directory holds no scene file (*.json)") }
            }
            for p in paths where seen.insert(CatalogShard.normalize(p)).inserted { out.append(p) }
        }
        return out
    }

    /// The regular `*.json` files of a directory (not hidden), sorted by name.
    static func jsonFiles(in dir: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        // Core Animation assets (.caar, .caml, .ca package directories) are scenes too.
        return names.filter { ($0.hasSuffix(".json") || AssetKind.isAsset(name: $0)) && !$0.hasPrefix(".") }.sorted().map { GateInputs.join(dir, $0) }
            .filter { p in FileStatus(path: p).map { !$0.isDirectory || p.lowercased().hasSuffix(".ca") } ?? false }
    }

    /// Which of caprof's own formats the file's first 4 KiB name first ("\"caprofReport\"" …: a
    /// catalog names "caprofCatalog" before its scenes' "caprofReport"), nil for anything else (a
    /// scene).
    static func marker(of path: String) -> String? {
        // Opening a FIFO or a device would block: only regular files are peeked at (the scene
        // loader then refuses the others with a clear error).
        guard FileStatus.isRegularFile(path), let bytes = FileBytes.read(path: path, upTo: 4096, expected: 4096) else { return nil }
        return outputMarkers.compactMap { m in bytes.firstRange(of: Array(m.utf8)).map { (m, $0.lowerBound) } }
            .min { $0.1 < $1.1 }?.0
    }
}
