import Foundation
import XCTest

/// Lottie playback from the command line: `--progress`, `--marker`, `--animation`, and
/// `snapshot --progress/--markers`, end to end on small animations (40×40, lavapipe).
final class LottiePlaybackCLITests: CLITestCase {
    static var corpus: String { repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path }

    /// A 40×40 red solid at 10 fps, frames 0…20 (2 s), its opacity 0 → 100 % linearly over the
    /// 20 frames; markers "intro" (frames 5…10) and "outro" (10…20, its `cm` an old exporter's
    /// JSON string), unless `markers` replaces them.
    static func animation(markers: String = #"[{"tm": 5, "cm": "intro", "dr": 5}, {"tm": 10, "cm": "{\"name\":\"outro\"}", "dr": 10}]"#) -> String {
        """
        {"v": "5.7.4", "fr": 10, "ip": 0, "op": 20, "w": 40, "h": 40, "nm": "fade", "ddd": 0, "assets": [],
         "layers": [{"ddd": 0, "ind": 1, "ty": 1, "nm": "red", "sr": 1,
                     "ks": {"o": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 20, "s": [100]}]},
                            "r": {"a": 0, "k": 0}, "p": {"a": 0, "k": [20, 20, 0]},
                            "a": {"a": 0, "k": [20, 20, 0]}, "s": {"a": 0, "k": [100, 100, 100]}},
                     "ao": 0, "sw": 40, "sh": 40, "sc": "#ff0000", "ip": 0, "op": 20, "st": 0, "bm": 0}],
         "markers": \(markers)}
        """
    }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    func render(_ args: [String]) throws -> Run { try caprof(["render"] + args, env: ["NO_COLOR": "1"]) }

    func bytes(_ p: String) throws -> Data { try XCTUnwrap(FileManager.default.contents(atPath: p), "no file \(p)") }

    /// The RGBA (straight alpha) of one pixel of a PNG, decoded by Python's zlib with every
    /// filter type undone (8-bit RGBA, not interlaced: what caprof writes).
    func rgba(_ png: String, x: Int, y: Int) throws -> [Int] {
        let script = """
        import sys, zlib, struct
        d = open(sys.argv[1], 'rb').read(); x, y = int(sys.argv[2]), int(sys.argv[3])
        i, idat, w = 8, b'', 0
        while i < len(d):
            n, t = struct.unpack('>I4s', d[i:i+8]); c = d[i+8:i+8+n]; i += 12 + n
            if t == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', c[:10]); assert depth == 8 and ctype == 6
            if t == b'IDAT': idat += c
        raw, bpp, stride, prev = zlib.decompress(idat), 4, w * 4, bytearray(w * 4)
        for row in range(y + 1):
            f = raw[row * (stride + 1)]; line = bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
            for k in range(stride):
                a = line[k - bpp] if k >= bpp else 0; b = prev[k]; c = prev[k - bpp] if k >= bpp else 0
                if f == 1: line[k] = (line[k] + a) & 255
                elif f == 2: line[k] = (line[k] + b) & 255
                elif f == 3: line[k] = (line[k] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[k] = (line[k] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            prev = line
        print(' '.join(str(v) for v in prev[x * 4:x * 4 + 4]))
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script, png, String(x), String(y)]
        let out = Pipe(); p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func testProgressIsAShareOfTheTimeline() throws {
        let a = try write("fade.json", Self.animation())
        let half = try render([a, "-o", path("half.png"), "--progress", "0.5"])
        XCTAssertEqual(half.code, 0, half.stderr)
        XCTAssertTrue(half.stderr.contains("at 1 s (progress 0.5)"), half.stderr)
        let second = try render([a, "-o", path("t1.png"), "--time", "1"])
        XCTAssertEqual(second.code, 0, second.stderr)
        // 0.5 of ip 0 … op 20 at 10 fps is frame 10, scene time 1 s: the same bytes.
        XCTAssertEqual(try bytes(path("half.png")), try bytes(path("t1.png")))

        // Frame 5 of 20: the linear opacity is 25 %, alpha 0.25 × 255 = 63.75 ≈ 64.
        let quarter = try render([a, "-o", path("q.png"), "--progress", "0.25"])
        XCTAssertEqual(quarter.code, 0, quarter.stderr)
        let px = try rgba(path("q.png"), x: 20, y: 20)
        XCTAssertEqual(px.count, 4)
        XCTAssertEqual(px[0], 255, "red: \(px)")
        XCTAssertLessThanOrEqual(abs(px[3] - 64), 1, "alpha at progress 0.25: \(px)")
        // The ends: transparent at 0, opaque at 1.
        XCTAssertEqual(try render([a, "-o", path("p0.png"), "--progress", "0"]).code, 0)
        XCTAssertEqual(try rgba(path("p0.png"), x: 5, y: 5)[3], 0)
        XCTAssertEqual(try render([a, "-o", path("p1.png"), "--progress", "1"]).code, 0)
        XCTAssertEqual(try rgba(path("p1.png"), x: 5, y: 5)[3], 255)
    }

    func testProgressConflictsAndRange() throws {
        let a = try write("fade.json", Self.animation())
        let withTime = try render([a, "-o", path("x.png"), "--progress", "0.5", "--time", "1"])
        XCTAssertEqual(withTime.code, 64)
        XCTAssertTrue(withTime.stderr.contains("--progress and --time cannot be used together"), withTime.stderr)
        let withFrames = try render([a, "-o", path("dir"), "--progress", "0.5", "--frames", "0:1"])
        XCTAssertEqual(withFrames.code, 64)
        XCTAssertTrue(withFrames.stderr.contains("--progress and --frames cannot be used together"), withFrames.stderr)
        let withMarker = try render([a, "-o", path("x.png"), "--progress", "0.5", "--marker", "intro"])
        XCTAssertEqual(withMarker.code, 64)
        XCTAssertTrue(withMarker.stderr.contains("--progress and --marker cannot be used together"), withMarker.stderr)
        for bad in ["1.5", "-0.1", "nan", "x"] {
            let r = try render([a, "-o", path("x.png"), "--progress", bad])
            XCTAssertEqual(r.code, 64, bad)
            XCTAssertTrue(r.stderr.contains("--progress"), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.png")))
        // A still scene has no duration to take a share of.
        let still = try write("still.json", """
            {"caprof": 1, "canvas": {"width": 10, "height": 10, "scale": 1},
             "root": {"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000"}}
            """)
        let r = try render([still, "-o", path("x.png"), "--progress", "0.5"])
        XCTAssertEqual(r.code, 64)
        XCTAssertTrue(r.stderr.contains("has no duration"), r.stderr)
    }

    func testMarkerPicksItsStartAndItsSegment() throws {
        let a = try write("fade.json", Self.animation())
        // "intro" starts at frame 5 = 0.5 s.
        let m = try render([a, "-o", path("intro.png"), "--marker", "intro"])
        XCTAssertEqual(m.code, 0, m.stderr)
        XCTAssertTrue(m.stderr.contains("at 0.5 s (marker \"intro\")"), m.stderr)
        XCTAssertEqual(try render([a, "-o", path("t.png"), "--time", "0.5"]).code, 0)
        XCTAssertEqual(try bytes(path("intro.png")), try bytes(path("t.png")))
        // The name inside an old exporter's JSON-string "cm": frame 10 = 1 s.
        XCTAssertEqual(try render([a, "-o", path("outro.png"), "--marker", "outro"]).code, 0)
        XCTAssertEqual(try bytes(path("outro.png")), try bytes(rendered("t1.png", time: 1, a)))

        // --frames 0: is the whole segment: frames 5…9 of "intro".
        let seg = try render([a, "-o", path("seg"), "--marker", "intro", "--frames", "0:"])
        XCTAssertEqual(seg.code, 0, seg.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("seg")).sorted(),
                       (5...9).map { String(format: "frame-%05d.png", $0) })
        // Bounds count from the marker's start, END clipped to its end: 2f:9f of "intro" is 7…9.
        let part = try render([a, "-o", path("part"), "--marker", "intro", "--frames", "2f:9f"])
        XCTAssertEqual(part.code, 0, part.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("part")).sorted(),
                       (7...9).map { String(format: "frame-%05d.png", $0) })
        XCTAssertEqual(try bytes(path("seg/frame-00007.png")), try bytes(path("part/frame-00007.png")))
    }

    /// Renders `--time time` into `name` and returns its path.
    func rendered(_ name: String, time: Double, _ scene: String) throws -> String {
        let r = try render([scene, "-o", path(name), "--time", String(time)])
        XCTAssertEqual(r.code, 0, r.stderr)
        return path(name)
    }

    func testUnknownMarkerListsTheMarkers() throws {
        let a = try write("fade.json", Self.animation())
        let r = try render([a, "-o", path("x.png"), "--marker", "middle"])
        XCTAssertEqual(r.code, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("no marker \"middle\"; its markers are \"intro\" (0.5–1 s), \"outro\" (1–2 s)"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.png")))
        let none = try write("none.json", Self.animation(markers: "[]"))
        let n = try render([none, "-o", path("x.png"), "--marker", "intro"])
        XCTAssertEqual(n.code, 65, n.stderr)
        XCTAssertTrue(n.stderr.contains("no marker \"intro\": the scene has no markers"), n.stderr)
        // A negative duration is refused where the file has it.
        let bad = try write("bad.json", Self.animation(markers: #"[{"tm": 5, "cm": "x", "dr": -1}]"#))
        let b = try render([bad, "-o", path("x.png")])
        XCTAssertEqual(b.code, 65, b.stderr)
        XCTAssertTrue(b.stderr.contains("/markers/0/dr"), b.stderr)
        XCTAssertTrue(b.stderr.contains("'dr' (the marker's duration in frames) must be a finite number ≥ 0"), b.stderr)
    }

    func testProfileMarkerProfilesItsSegment() throws {
        let a = try write("fade.json", Self.animation())
        let r = try caprof(["profile", a, "--no-gpu", "--marker", "outro", "--format", "json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.compactMap { $0["index"] as? Int }, Array(10...19))
        let unknown = try caprof(["profile", a, "--no-gpu", "--marker", "nope"])
        XCTAssertEqual(unknown.code, 65)
        XCTAssertTrue(unknown.stderr.contains("no marker \"nope\""), unknown.stderr)
    }

    func testAnimationOption() throws {
        _ = try write("fade.json", Self.animation())
        let a = "fade.json"
        // Refused for anything but a .lottie package, in every command that loads a scene.
        for args in [["render", a, "-o", "x.png"], ["profile", a, "--no-gpu"], ["convert", a],
                     ["snapshot", a, "--goldens", "g", "--record"], ["gate", a]] {
            let r = try caprof(args + ["--animation", "Main Scene"], directory: tmp)
            XCTAssertNotEqual(r.code, 0, args[0])
            XCTAssertTrue(r.stderr.contains("--animation picks one animation of a .lottie package; this is not one"), "\(args[0]): \(r.stderr)")
        }
        let package = Self.corpus + "/lottie-ios/samples/DotLottie/zen_lottiev2.lottie"
        guard FileManager.default.fileExists(atPath: package) else { throw CorpusMissing(message: "corpus not found at \(Self.corpus)") }
        let ok = try render([package, "--animation", "Main Scene", "-o", path("zen.png"), "-q"])
        XCTAssertEqual(ok.code, 0, ok.stderr)
        XCTAssertEqual(try pngSize(path("zen.png")).0, 500)
        let unknown = try render([package, "--animation", "Side Scene", "-o", path("zen2.png")])
        XCTAssertEqual(unknown.code, 65, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no animation 'Side Scene' in the package; its animations are 'Main Scene'"), unknown.stderr)
    }

    func testSnapshotProgressAndMarkers() throws {
        _ = try write("fade.json", Self.animation())
        func snapshot(_ args: [String]) throws -> Run { try caprof(["snapshot", "fade.json", "--goldens", "g"] + args, env: ["NO_COLOR": "1"], directory: tmp) }
        let rec = try snapshot(["--progress", "0,0.25", "--markers", "--record"])
        XCTAssertEqual(rec.code, 0, rec.stdout + rec.stderr)
        // 0 and 0.25 × 2 s; the markers' starts 0.5 s and 1 s.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("g")).sorted(),
                       ["fade.json@0ms.png", "fade.json@1000ms.png", "fade.json@500ms.png"])
        XCTAssertEqual(try snapshot(["--progress", "0,0.25", "--markers"]).code, 0)
        // --progress 0.5 is the golden at 1 s.
        XCTAssertEqual(try snapshot(["--progress", "0.5"]).code, 0)
        let both = try snapshot(["--progress", "0.5", "--times", "1"])
        XCTAssertEqual(both.code, 64)
        XCTAssertTrue(both.stderr.contains("--times and --progress cannot be used together"), both.stderr)
        XCTAssertEqual(try snapshot(["--progress", "0.5,2"]).code, 64)
    }
}
