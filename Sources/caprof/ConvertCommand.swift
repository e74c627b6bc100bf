import ArgumentParser
import AssetImport
import Raster
import SystemSupport
import Dispatch
import SceneFormat

/// `caprof convert`: a Core Animation asset (or a scene file) as an equivalent caprof scene file,
/// or its layer tree for a first look.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a .caar archive, .ca package or .caml file into a caprof scene file, or print its layer tree.",
        discussion: """
        --format json (default) writes an equivalent scene file (format 1): rendering it gives the \
        same pixels as rendering the asset. Embedded images become data: URIs; package images stay \
        files, named relative to the -o file's folder (by absolute path on standard output). --format tree prints the layer tree with classes, names, \
        sizes and animations. What the asset holds that caprof does not draw is listed as warnings \
        on stderr. With --state or --transition the tree is taken in that state.
        """)

    enum Format: String, ExpressibleByArgument { case json, tree }

    @Argument(help: "The asset: a .caar archive, a .ca package directory, a .caml file (or a scene .json).")
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (atomically) instead of stdout.", valueName: "file"))
    var output: String?

    @Option(help: "json (a scene file) or tree (the layer tree as text).")
    var format: Format = .json

    @OptionGroup var stateOptions: StateOptions

    @OptionGroup var animationOption: AnimationOption

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func run() throws {
        let doc: SceneDocument
        let t0 = DispatchTime.now().uptimeNanoseconds
        do {
            doc = try AssetLoader.load(path: input, states: stateOptions.selection, animation: animationOption.animation)
        } catch {
            throw fail(error)
        }
        let importMS = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        let text: String
        switch format {
        // Image files relative to the written scene's folder, so the pair can move together;
        // on standard output (the destination unknown), by absolute path.
        case .json:
            text = output.map { o in
                let folder = o.lastIndex(of: "/").map { String(o[..<$0]) } ?? "."
                return SceneJSONWriter.write(doc, imagesRelativeTo: folder.isEmpty ? "/" : folder)
            } ?? SceneJSONWriter.write(doc)
        case .tree:
            var t = LayerTreeDescription.describe(doc)
            if let (states, transitions) = try? AssetLoader.states(path: input), !states.isEmpty || !transitions.isEmpty {
                t += "states: " + (states.isEmpty ? "none" : states.joined(separator: ", ")) + "\n"
                t += "transitions: " + (transitions.isEmpty ? "none" : transitions.joined(separator: ", ")) + "\n"
            }
            text = t
        }
        if let o = output {
            do {
                try AtomicFile.write(Data(text.utf8), to: o)
            } catch {
                Terminal.stderr.error("error: cannot write \(o): \(error)")
                throw ExitCode(CaprofExit.cantCreate)
            }
        } else {
            StandardStreams.writeOut(Data(text.utf8))
        }
        if !quiet {
            for w in doc.warnings {
                if let l = w.location, l.line > 0 { Terminal.stderr.warning("\(l.file):\(l.line):\(l.column): warning: \(w.feature)") }
                else { Terminal.stderr.warning("\(w.location?.file ?? input): warning: \(w.feature)") }
            }
            let err = Terminal.stderr
            err.write(err.dim("\(input): \(doc.scene.root.subtreeCount) layers, \(doc.animations.values.reduce(0) { $0 + $1.count }) animations, \(doc.warnings.count) warnings; imported in \(String(cFormat: "%.2f", importMS)) ms"))
        }
    }
}
