import Foundation
import XCTest

/// Runs the built `caprof` binary as a user would, capturing exit code, stdout and stderr.
class CLITestCase: XCTestCase {
    struct Run { var code: Int32; var stdout: String; var stderr: String }

    static var binary: URL {
        // XCTest on Linux runs from the build products directory, beside the caprof executable.
        let dir = Bundle.main.bundleURL.hasDirectoryPath ? Bundle.main.bundleURL : Bundle.main.bundleURL.deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let u = candidate.appendingPathComponent("caprof")
            if FileManager.default.isExecutableFile(atPath: u.path) { return u }
        }
        return dir.appendingPathComponent("caprof")
    }
    static var repoRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    static func example(_ name: String) -> String { repoRoot.appendingPathComponent("Examples/\(name)").path }

    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    /// Runs the built caprof; `directory`: its working directory (else this process's).
    func caprof(_ args: [String], env: [String: String] = [:], directory: URL? = nil) throws -> Run {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = args
        if let d = directory { p.currentDirectoryURL = d }
        var e = ProcessInfo.processInfo.environment
        // Pin lavapipe for determinism unless a test overrides the driver.
        if e["VK_DRIVER_FILES"] == nil { e["VK_DRIVER_FILES"] = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json" }
        for (k, v) in env { e[k] = v }
        p.environment = e
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), r = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(code: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: r, as: UTF8.self))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let u = tmp.appendingPathComponent(name)
        try text.write(to: u, atomically: false, encoding: .utf8)
        return u.path
    }

    /// Validates a JSON file against a JSON Schema file with an independent validator
    /// (Debian's python3-jsonschema, draft 2020-12); fails the test with its message otherwise.
    func assertValidates(_ instance: String, against schema: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let v = Process()
        v.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        v.arguments = ["-c", "import jsonschema,json,sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), cls=jsonschema.Draft202012Validator)", instance, schema]
        let err = Pipe(); v.standardError = err
        try v.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        v.waitUntilExit()
        XCTAssertEqual(v.terminationStatus, 0, message, file: file, line: line)
    }

    /// Width and height from a PNG's IHDR chunk.
    func pngSize(_ path: String) throws -> (Int, Int) {
        let d = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertEqual(Array(d.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be32(_ o: Int) -> Int { d[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }
}
