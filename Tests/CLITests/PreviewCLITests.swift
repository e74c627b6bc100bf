import Foundation
import XCTest

/// `caprof render --frames A:B -o x.gif|x.apng|x.webp`: one animated file, parsed here block by block.
final class PreviewCLITests: CLITestCase {
    /// 40×40 points at scale 1: a flat background, a flat square that moves right for 0.2 s (then
    /// stays), and, with `gradients`, two crossed gradients on the right: more than 256 colours,
    /// so the GIF's palette is quantised.
    func scene(gradients: Bool = false, background: String = "\"#F2F2F7\"") throws -> String {
        let extra = gradients ? """
            ,{"class": "CAGradientLayer", "frame": [16, 0, 24, 40], "colors": ["#000000", "#FF2020"], "startPoint": [0, 0.5], "endPoint": [1, 0.5]},
             {"class": "CAGradientLayer", "frame": [16, 0, 24, 40], "colors": [[0, 0, 1, 0], [0, 0.8, 1, 0.9]], "startPoint": [0.5, 0], "endPoint": [0.5, 1]}
            """ : ""
        return try write("preview.json", """
        {"caprof": 1, "canvas": {"width": 40, "height": 40, "scale": 1, "backgroundColor": \(background)},
         "timeline": {"fps": 10, "duration": 0.4},
         "root": {"frame": [0, 0, 40, 40], "sublayers": [
           {"frame": [2, 2, 10, 10], "backgroundColor": "#0A84FF",
            "animations": [{"class": "CABasicAnimation", "keyPath": "position.y", "fromValue": 7, "toValue": 27, "duration": 0.2, "timingFunction": "linear", "fillMode": "forwards", "removedOnCompletion": false}]}
           \(extra)]}}
        """)
    }

    // MARK: GIF

    func testGIFHasLoopExtensionFramesAndAccumulatedDelays() throws {
        let out = tmp.appendingPathComponent("p.gif").path
        let r = try caprof(["render", try scene(), "--frames", "0:0.2", "--fps", "30", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("encoding"), r.stderr)
        let gif = try GIF(Data(contentsOf: URL(fileURLWithPath: out)))
        XCTAssertEqual(gif.version, "GIF89a")
        XCTAssertEqual(gif.loop, 0, "NETSCAPE2.0 loop count 0: forever")
        XCTAssertEqual(gif.frames.count, 6)
        // 1/30 s is 3.33 cs: accumulated, frame i ends at round((i + 1) · 100 / 30) cs.
        XCTAssertEqual(gif.frames.map(\.delay), [3, 4, 3, 3, 4, 3])
        XCTAssertEqual(gif.frames.map(\.delay).reduce(0, +), 20)
        XCTAssertEqual(gif.width, 40); XCTAssertEqual(gif.height, 40)
        // Exact flat colours: the background and the square.
        let first = gif.canvas(after: 0)
        XCTAssertEqual(first.rgb(0, 39), [0xF2, 0xF2, 0xF7])
        XCTAssertEqual(first.rgb(6, 6), [0x0A, 0x84, 0xFF])
        // Later frames are the changed region only, composited over the frame before.
        XCTAssertLessThan(gif.frames[1].w * gif.frames[1].h, 40 * 40)
        let last = gif.canvas(after: 5)
        XCTAssertEqual(last.rgb(0, 39), [0xF2, 0xF2, 0xF7])
        XCTAssertEqual(last.rgb(6, 6), [0xF2, 0xF2, 0xF7], "the square moved down")

        let three = tmp.appendingPathComponent("three.gif").path
        XCTAssertEqual(try caprof(["render", try scene(), "--frames", "0:0.2", "--loop", "3", "-o", three]).code, 0)
        XCTAssertEqual(try GIF(Data(contentsOf: URL(fileURLWithPath: three))).loop, 2, "plays 3 times: 2 repeats")
    }

    func testGIFQuantisedFrameKeepsFlatColoursWithoutDithering() throws {
        let out = tmp.appendingPathComponent("q.gif").path
        let r = try caprof(["render", try scene(gradients: true), "--frames", "0:0.1", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("1 quantised"), r.stderr)
        let frame = try GIF(Data(contentsOf: URL(fileURLWithPath: out))).canvas(after: 0)
        // Every pixel of the flat regions is the source colour (no dithering, no off-by-one).
        for y in 14..<40 { for x in 0..<16 { XCTAssertEqual(frame.rgb(x, y), [0xF2, 0xF2, 0xF7], "(\(x), \(y))") } }
        for y in 3..<11 { for x in 3..<11 { XCTAssertEqual(frame.rgb(x, y), [0x0A, 0x84, 0xFF], "(\(x), \(y))") } }
        // --dither: libimagequant remaps (and dithers) every pixel; the file is still a GIF of one frame.
        let dithered = tmp.appendingPathComponent("d.gif").path
        let d = try caprof(["render", try scene(gradients: true), "--frames", "0:0.1", "--dither", "-o", dithered])
        XCTAssertEqual(d.code, 0, d.stderr)
        XCTAssertTrue(d.stderr.contains("quantised with dithering"), d.stderr)
        XCTAssertEqual(try GIF(Data(contentsOf: URL(fileURLWithPath: dithered))).frames.count, 1)
    }

    func testGIFTransparentCanvasUsesATransparentIndex() throws {
        let out = tmp.appendingPathComponent("t.gif").path
        let r = try caprof(["render", try scene(background: "null"), "--frames", "0:0.3", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let gif = try GIF(Data(contentsOf: URL(fileURLWithPath: out)))
        XCTAssertNotNil(gif.frames[0].transparent)
        XCTAssertEqual(gif.canvas(after: 0).alpha(30, 30), 0)
        XCTAssertEqual(gif.canvas(after: 0).alpha(6, 6), 255)
        // The square moved away from (6, 6): transparent again in the composited last frame.
        XCTAssertEqual(gif.canvas(after: gif.frames.count - 1).alpha(6, 6), 0)
    }

    // MARK: APNG

    func testAPNGChunksSequenceAndFirstFrameEqualsTheRenderedFrame() throws {
        let out = tmp.appendingPathComponent("p.apng").path
        let r = try caprof(["render", try scene(), "--frames", "0:0.4", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        XCTAssertEqual(Array(bytes[0..<8]), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let chunks = try pngChunks(bytes)
        XCTAssertEqual(chunks.map(\.type).first, "IHDR")
        XCTAssertEqual(chunks.map(\.type).last, "IEND")
        for c in chunks { XCTAssertTrue(c.crcValid, "CRC of \(c.type)") }
        let actl = try XCTUnwrap(chunks.first { $0.type == "acTL" })
        XCTAssertEqual(be32(actl.data, 0), 4, "frames"); XCTAssertEqual(be32(actl.data, 4), 0, "plays forever")
        // fcTL and fdAT share one sequence: 0, 1, 2, … in file order.
        let sequence = chunks.filter { $0.type == "fcTL" || $0.type == "fdAT" }.map { be32($0.data, 0) }
        XCTAssertEqual(sequence, Array(0..<sequence.count))
        let fctl = chunks.filter { $0.type == "fcTL" }
        XCTAssertEqual(fctl.count, 4)
        XCTAssertEqual(fctl.map { be32($0.data, 4) }.first, 40)
        // Frame 1 moved the square: its region is that change only; frame 3 is frame 2 again (1×1).
        XCTAssertLessThan(be32(fctl[1].data, 4) * be32(fctl[1].data, 8), 40 * 40)
        XCTAssertEqual([be32(fctl[3].data, 4), be32(fctl[3].data, 8)], [1, 1])
        XCTAssertEqual(fctl.map { [be32($0.data, 20) >> 16, be32($0.data, 20) & 0xFFFF] }, Array(repeating: [1, 10], count: 4), "delay 1/10 s")

        // The first frame (IHDR + IDAT) is the frame `render --time 0` writes, pixel for pixel.
        let still = tmp.appendingPathComponent("still.png").path
        XCTAssertEqual(try caprof(["render", try scene(), "--time", "0", "-o", still]).code, 0)
        XCTAssertEqual(try pixels(ofPNG: bytes), try pixels(ofPNG: [UInt8](Data(contentsOf: URL(fileURLWithPath: still)))))
    }

    // MARK: WebP

    /// RIFF/WEBP with VP8X (animation and alpha flags), ANIM (loop count) and one ANMF per frame;
    /// a frame identical to the one before is merged into it (its duration added), so the total
    /// stays exact. Pixels are not decoded here (VP8L): checked by hand against the APNG.
    func testWebPHasAnimChunkFramesAndExactTotalDuration() throws {
        let out = tmp.appendingPathComponent("p.webp").path
        let r = try caprof(["render", try scene(background: "null"), "--frames", "0:0.2", "--fps", "30", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("(WebP, 6 frames, 40×40 at 30 fps, loops forever"), r.stderr)
        let webp = try WebP([UInt8](Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(webp.chunks.first?.type, "VP8X")
        XCTAssertEqual(webp.flags & 0x12, 0x12, "animation and alpha flags")
        XCTAssertEqual([webp.canvasWidth, webp.canvasHeight], [40, 40])
        XCTAssertEqual(webp.loop, 0, "forever")
        XCTAssertEqual(webp.durations, [33, 34, 33, 33, 34, 33], "ms, accumulated")
        XCTAssertTrue(webp.frameKinds.allSatisfy { $0 == "VP8L" }, "lossless: \(webp.frameKinds)")

        // 0.4 s at 10 fps: the square stops after 0.2 s, so frame 3 repeats frame 2 (merged).
        let three = tmp.appendingPathComponent("three.webp").path
        let t = try caprof(["render", try scene(), "--frames", "0:0.4", "--loop", "3", "-o", three])
        XCTAssertEqual(t.code, 0, t.stderr)
        XCTAssertTrue(t.stderr.contains("1 unchanged frame merged"), t.stderr)
        let w = try WebP([UInt8](Data(contentsOf: URL(fileURLWithPath: three))))
        XCTAssertEqual(w.loop, 3, "WebP's loop count is the number of plays")
        XCTAssertEqual(w.durations, [100, 100, 200])
    }

    /// A WebP's RIFF chunks (and, for ANMF, the frame's header and its image chunk's type).
    struct WebP {
        var chunks: [(type: String, data: [UInt8])] = []
        var flags = 0, canvasWidth = 0, canvasHeight = 0, loop: Int?
        var durations: [Int] = [], frameKinds: [String] = []

        init(_ b: [UInt8]) throws {
            func le(_ o: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(b[o + $1]) << (8 * $1) } }
            guard b.count >= 12, String(decoding: b[0..<4], as: UTF8.self) == "RIFF",
                  String(decoding: b[8..<12], as: UTF8.self) == "WEBP" else {
                throw NSError(domain: "WebP", code: 1, userInfo: [NSLocalizedDescriptionKey: "not RIFF/WEBP"])
            }
            XCTAssertEqual(le(4, 4) + 8, b.count, "RIFF size")
            var o = 12
            while o + 8 <= b.count {
                let type = String(decoding: b[o..<(o + 4)], as: UTF8.self), n = le(o + 4, 4)
                chunks.append((type, Array(b[(o + 8)..<(o + 8 + n)])))
                switch type {
                case "VP8X": flags = Int(b[o + 8]); canvasWidth = le(o + 12, 3) + 1; canvasHeight = le(o + 15, 3) + 1
                case "ANIM": loop = le(o + 12, 2)
                case "ANMF":
                    durations.append(le(o + 8 + 12, 3))
                    frameKinds.append(String(decoding: b[(o + 24)..<(o + 28)], as: UTF8.self))
                    if frameKinds.last == "ALPH" { frameKinds[frameKinds.count - 1] = "VP8 +ALPH" }
                default: break
                }
                o += 8 + n + (n & 1)
            }
            XCTAssertEqual(o, b.count, "chunks end at the end of the file")
        }
    }

    // MARK: Size, limits, usage

    func testMaxWidthShrinksKeepingTheAspect() throws {
        let gif = tmp.appendingPathComponent("s.gif").path, apng = tmp.appendingPathComponent("s.apng").path
        XCTAssertEqual(try caprof(["render", try scene(), "--frames", "0:0.2", "--max-width", "20", "-o", gif]).code, 0)
        XCTAssertEqual(try caprof(["render", try scene(), "--frames", "0:0.2", "--max-width", "20", "-o", apng]).code, 0)
        let g = try GIF(Data(contentsOf: URL(fileURLWithPath: gif)))
        XCTAssertEqual([g.width, g.height], [20, 20])
        XCTAssertEqual(g.canvas(after: 0).rgb(0, 19), [0xF2, 0xF2, 0xF7], "box filter keeps a flat area's colour")
        let (w, h) = try pngSize(apng)
        XCTAssertEqual([w, h], [20, 20])
        // Never enlarged.
        XCTAssertEqual(try caprof(["render", try scene(), "--frames", "0:0.1", "--max-width", "400", "-o", apng]).code, 0)
        XCTAssertEqual(try pngSize(apng).0, 40)
    }

    func testTooManyFramesForAnAnimatedFileIsAUsageError() throws {
        let out = tmp.appendingPathComponent("long.gif").path
        let r = try caprof(["render", try scene(), "--frames", "0:11", "--fps", "100", "-o", out])
        XCTAssertEqual(r.code, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("1100 frames"), r.stderr)
        XCTAssertTrue(r.stderr.contains("at most 1000"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let files = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
        XCTAssertFalse(files.contains { $0.hasSuffix(".tmp") }, "\(files)")
    }

    /// The HTML report embeds the profiled range as a looping GIF beside its frame strip: every
    /// profiled frame up to 60 (here 4 frames at 10 fps), at the thumbnails' size; a single frame
    /// gets none.
    func testHTMLReportEmbedsTheProfiledRangeAnimated() throws {
        let html = tmp.appendingPathComponent("r.html").path
        let r = try caprof(["profile", try scene(), "--format", "html", "-o", html])
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOfFile: html, encoding: .utf8)
        let marker = "<figure class=\"preview\"><img src=\"data:image/gif;base64,"
        let start = try XCTUnwrap(text.range(of: marker)).upperBound
        let base64 = text[start...].prefix { $0 != "\"" }
        let gif = try GIF(try XCTUnwrap(Data(base64Encoded: String(base64))))
        XCTAssertEqual(gif.version, "GIF89a")
        XCTAssertEqual(gif.loop, 0)
        XCTAssertEqual(gif.frames.count, 4)
        XCTAssertEqual(gif.frames.map(\.delay), [10, 10, 10, 10], "10 fps")
        XCTAssertEqual(gif.canvas(after: 0).rgb(6, 6), [0x0A, 0x84, 0xFF], "the square at its first place")
        XCTAssertTrue(text.contains("The profiled range, animated: 4 frames (every frame) at 10 fps, looping; GIF"), text)

        let single = tmp.appendingPathComponent("one.html").path
        XCTAssertEqual(try caprof(["profile", try scene(), "--frames", "0:1f", "--format", "html", "-o", single]).code, 0)
        XCTAssertFalse(try String(contentsOfFile: single, encoding: .utf8).contains("class=\"preview\""))
    }

    func testPreviewOptionsOutsideAPreviewAreUsageErrors() throws {
        let s = try scene()
        let gif = tmp.appendingPathComponent("x.gif").path, png = tmp.appendingPathComponent("x.png").path
        for args in [["-o", gif], ["--frames", "0:0.1", "--sheet", png, "-o", gif], ["--time", "0", "--loop", "2", "-o", png],
                     ["--frames", "0:0.1", "--max-width", "0", "-o", gif], ["--frames", "0:0.1", "--dither", "-o", tmp.appendingPathComponent("x.apng").path],
                     ["--frames", "0:0.1", "--dither", "-o", tmp.appendingPathComponent("x.webp").path]] {
            let r = try caprof(["render", s] + args)
            XCTAssertEqual(r.code, 64, "\(args): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: gif))
    }

    // MARK: Parsers

    struct Chunk { var type: String; var data: [UInt8]; var crcValid: Bool }

    func be32(_ b: [UInt8], _ o: Int) -> Int { b[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) } }

    func pngChunks(_ b: [UInt8]) throws -> [Chunk] {
        var o = 8, out: [Chunk] = []
        while o + 12 <= b.count {
            let n = be32(b, o)
            let type = String(decoding: b[(o + 4)..<(o + 8)], as: UTF8.self)
            let data = Array(b[(o + 8)..<(o + 8 + n)])
            out.append(Chunk(type: type, data: data, crcValid: crc32(Array(b[(o + 4)..<(o + 8 + n)])) == UInt32(be32(b, o + 8 + n))))
            o += 12 + n
        }
        XCTAssertEqual(o, b.count, "chunks end at the end of the file")
        return out
    }

    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    /// The default image's scanlines (IHDR + IDAT, any APNG chunks ignored), inflated by Python's
    /// zlib, filter bytes removed (both writers use filter type 0, checked).
    func pixels(ofPNG b: [UInt8]) throws -> [UInt8] {
        let chunks = try pngChunks(b)
        let ihdr = try XCTUnwrap(chunks.first { $0.type == "IHDR" })
        let w = be32(ihdr.data, 0)
        let idat = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        let file = tmp.appendingPathComponent("idat-\(UUID().uuidString)")
        try Data(idat).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import sys,zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1],'rb').read()))", file.path]
        let pipe = Pipe(); p.standardOutput = pipe
        try p.run()
        let raw = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        var out: [UInt8] = []
        let stride = 1 + w * 4
        for row in 0..<(raw.count / stride) {
            XCTAssertEqual(raw[row * stride], 0, "filter type 0")
            out += raw[(row * stride + 1)..<((row + 1) * stride)]
        }
        return out
    }

    struct Canvas {
        var width: Int, pixels: [UInt8]
        func rgb(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * width + x) * 4; return Array(pixels[i..<(i + 3)]) }
        func alpha(_ x: Int, _ y: Int) -> UInt8 { pixels[(y * width + x) * 4 + 3] }
    }

    /// A GIF89a's blocks: the loop extension, and each frame's region, delay, disposal,
    /// transparent index, local palette and LZW-decoded indices.
    struct GIF {
        struct Frame { var x = 0, y = 0, w = 0, h = 0, delay = 0, disposal = 0, transparent: Int?, palette: [UInt8] = [], indices: [UInt8] = [] }
        var version = "", width = 0, height = 0, loop: Int?
        var frames: [Frame] = []

        init(_ data: Data) throws {
            let b = [UInt8](data)
            func le16(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 }
            version = String(decoding: b[0..<6], as: UTF8.self)
            width = le16(6); height = le16(8)
            var o = 13
            if b[10] & 0x80 != 0 { o += 3 * (2 << Int(b[10] & 7)) }
            var gce: (delay: Int, disposal: Int, transparent: Int?)?
            func subBlocks() -> [[UInt8]] {
                var blocks: [[UInt8]] = []
                while b[o] != 0 { blocks.append(Array(b[(o + 1)..<(o + 1 + Int(b[o]))])); o += 1 + Int(b[o]) }
                o += 1
                return blocks
            }
            while o < b.count {
                let introducer = b[o]; o += 1
                if introducer == 0x3B { break }
                if introducer == 0x21 {
                    let label = b[o]; o += 1
                    let blocks = subBlocks()
                    if label == 0xF9, let g = blocks.first {
                        gce = (Int(g[1]) | Int(g[2]) << 8, Int(g[0] >> 2) & 7, g[0] & 1 != 0 ? Int(g[3]) : nil)
                    }
                    if label == 0xFF, blocks.count == 2, blocks[0] == Array("NETSCAPE2.0".utf8) {
                        loop = Int(blocks[1][1]) | Int(blocks[1][2]) << 8
                    }
                } else if introducer == 0x2C {
                    var f = Frame()
                    f.x = le16(o); f.y = le16(o + 2); f.w = le16(o + 4); f.h = le16(o + 6)
                    let flags = b[o + 8]; o += 9
                    if flags & 0x80 != 0 {
                        let n = 2 << Int(flags & 7)
                        f.palette = Array(b[o..<(o + 3 * n)]); o += 3 * n
                    }
                    let minCodeSize = Int(b[o]); o += 1
                    f.indices = Self.lzw(subBlocks().flatMap { $0 }, minCodeSize: minCodeSize, count: f.w * f.h)
                    if let g = gce { f.delay = g.delay; f.disposal = g.disposal; f.transparent = g.transparent }
                    gce = nil
                    frames.append(f)
                } else {
                    throw NSError(domain: "GIF", code: 1, userInfo: [NSLocalizedDescriptionKey: "bad block \(introducer) at \(o - 1)"])
                }
            }
        }

        /// The canvas shown after frame `n` (RGBA; transparent where nothing is drawn).
        func canvas(after n: Int) -> Canvas {
            var px = [UInt8](repeating: 0, count: width * height * 4)
            for (k, f) in frames[0...n].enumerated() {
                for j in 0..<f.h {
                    for i in 0..<f.w {
                        let c = Int(f.indices[j * f.w + i])
                        if c == f.transparent { continue }
                        let p = ((f.y + j) * width + f.x + i) * 4
                        px[p] = f.palette[3 * c]; px[p + 1] = f.palette[3 * c + 1]; px[p + 2] = f.palette[3 * c + 2]; px[p + 3] = 255
                    }
                }
                if k < n && f.disposal == 2 {
                    for j in 0..<f.h { for i in 0..<f.w { let p = ((f.y + j) * width + f.x + i) * 4; for c in 0..<4 { px[p + c] = 0 } } }
                }
            }
            return Canvas(width: width, pixels: px)
        }

        static func lzw(_ data: [UInt8], minCodeSize: Int, count: Int) -> [UInt8] {
            let clear = 1 << minCodeSize, end = clear + 1
            var size = minCodeSize + 1
            var table: [[UInt8]] = (0..<clear).map { [UInt8($0)] } + [[], []]
            var out: [UInt8] = [], previous: [UInt8]?
            var bits = 0, nbits = 0, i = 0
            while out.count < count {
                while nbits < size {
                    guard i < data.count else { return out }
                    bits |= Int(data[i]) << nbits; nbits += 8; i += 1
                }
                let code = bits & ((1 << size) - 1)
                bits >>= size; nbits -= size
                if code == clear { table.removeSubrange((clear + 2)...); size = minCodeSize + 1; previous = nil; continue }
                if code == end { break }
                let entry: [UInt8]
                if code < table.count { entry = table[code] } else if let p = previous { entry = p + [p[0]] } else { break }
                out += entry
                if let p = previous, table.count < 4096 {
                    table.append(p + [entry[0]])
                    if table.count == 1 << size && size < 12 { size += 1 }
                }
                previous = entry
            }
            return out
        }
    }
}
