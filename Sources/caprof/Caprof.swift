import ArgumentParser
import Pipeline

/// `caprof`: an offscreen Core Animation compositor and performance profiler.
@main
struct Caprof: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caprof",
        abstract: "Render and profile Core Animation layer trees offscreen, through Vulkan.",
        discussion: """
        Exit codes: 0 success; 64 bad command-line usage; 65 invalid scene or image data; \
        66 a scene or image file missing or unreadable; 69 no usable Vulkan driver or device, or cairo or Pango missing; \
        70 internal or Vulkan failure; 73 an output file could not be written. `caprof gate` uses \
        package-benchmark's codes instead: 0 pass, 2 regression, 4 only improvements, 1 error; \
        `caprof snapshot` the same: 0 pass, 2 a frame looks different, 1 error.
        """,
        version: "0.1.0",
        subcommands: [ProfileCommand.self, RenderCommand.self, ConvertCommand.self, GateCommand.self, SnapshotCommand.self, DevicesCommand.self, SchemaCommand.self],
        defaultSubcommand: ProfileCommand.self
    )

    static func main() {
        HostMemory.returnLargeBlocksWhenFreed()
        // `caprof` alone is someone finding their way: show the commands, not the default
        // subcommand's complaint that no scene was named.
        if CommandLine.arguments.count == 1 {
            print(helpMessage())
            return
        }
        main(nil)
    }
}
