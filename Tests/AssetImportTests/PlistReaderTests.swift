import XCTest
@testable import AssetImport
import SceneFormat
import LayerModel
import Geometry

/// The binary plist reader and the keyed-archive resolver on archives the tests build themselves.
final class PlistReaderTests: XCTestCase {
    func testScalarsNestedContainersAndUIDs() throws {
        var b = BinaryPlistBuilder()
        let i = b.add(.int(-7)), r = b.add(.real(.infinity)), s = b.add(.string("CALayer")), u = b.add(.uid(300))
        let t = b.add(.bool(true)), d = b.add(.data([1, 2, 3]))
        let inner = b.add(.array([i, r]))
        let k1 = b.add(.string("a")), k2 = b.add(.string("b"))
        let dict = b.add(.dict([(k1, inner), (k2, s)]))
        let top = b.add(.array([dict, u, t, d, inner]))
        let v = try BinaryPlistReader.parse(b.build(top: top))
        XCTAssertEqual(v, .array([
            .dictionary([("a", .array([.integer(-7), .real(.infinity)])), ("b", .string("CALayer"))]),
            .uid(300), .bool(true), .data([1, 2, 3]), .array([.integer(-7), .real(.infinity)]),
        ]))
    }

    /// A 4-byte real is read as the shortest decimal that rounds to the same float32: 179.2 was
    /// stored as 179.1999969482421875 and reads back as 179.2; 0.5 (exact) stays 0.5; the two
    /// differ from the stored value by less than half a float32 ulp.
    func testFloat32RealsReadAsTheirShortestDecimal() throws {
        func plist(_ f: Float) -> [UInt8] {
            let bits = f.bitPattern
            var p = Array("bplist00".utf8) + [0x22, UInt8(bits >> 24), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF)]
            p += [8]                                   // offset table: the one object at byte 8
            p += [0, 0, 0, 0, 0, 0, 1, 1]              // trailer: offset and reference sizes
            p += [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, 13]
            return p
        }
        for (stored, read) in [(Float(179.2), 179.2), (Float(0.7), 0.7), (Float(0.5), 0.5), (Float(-0.024), -0.024), (Float(1e-8), 1e-8)] {
            XCTAssertEqual(try BinaryPlistReader.parse(plist(stored)), .real(read))
            XCTAssertLessThanOrEqual(abs(read - Double(stored)), Double(stored.ulp) / 2)
        }
        XCTAssertEqual(try BinaryPlistReader.parse(plist(.infinity)), .real(.infinity))
        guard case .real(let nan) = try BinaryPlistReader.parse(plist(.nan)) else { return XCTFail("not a real") }
        XCTAssertTrue(nan.isNaN)
    }

    func testEmptyTruncatedAndCorruptFilesAreClearErrors() throws {
        XCTAssertThrowsError(try BinaryPlistReader.parse([])) { XCTAssertEqual(($0 as? PlistError)?.message, "the file is empty (0 bytes)") }
        var b = BinaryPlistBuilder()
        let s = b.add(.string("hello")), top = b.add(.array([s, s]))
        let good = b.build(top: top)
        // Cut in the middle: the trailer is gone, what is left at the end is not a trailer.
        XCTAssertThrowsError(try BinaryPlistReader.parse(Array(good.prefix(good.count - 20)))) { e in
            XCTAssertTrue("\(e)".contains("trailer") || "\(e)".contains("truncated"), "\(e)")
        }
        XCTAssertThrowsError(try BinaryPlistReader.parse(Array("not a plist at all, really".utf8))) { e in
            XCTAssertTrue("\(e)".contains("does not start with 'bplist'"), "\(e)")
        }
        // An object offset pointing past the object area.
        var bad = good
        let tableOffset = good.count - 32 - 2 * 4
        bad[tableOffset + 3] = 0xFF
        XCTAssertThrowsError(try BinaryPlistReader.parse(bad)) { e in XCTAssertTrue("\(e)".contains("outside the object area"), "\(e)") }
    }

    func testAContainerThatContainsItselfIsRefused() throws {
        var b = BinaryPlistBuilder()
        // Object 0 is an array whose only element is object 0.
        _ = b.add(.array([0]))
        XCTAssertThrowsError(try BinaryPlistReader.parse(b.build(top: 0))) { e in XCTAssertTrue("\(e)".contains("contains itself"), "\(e)") }
    }

    /// Shared objects are decoded once and shared; what a file expands to is still counted each
    /// time a shared object is reached. A 1,000-byte string, an array of 32 references to it, an
    /// array of 32 references to that array, and so on six levels: 1.5 KB that stand for 10¹²
    /// bytes (such a file took 4.2 GB and 9–13 s), refused once 256 MiB is passed. The archive's
    /// error names the file and the limit.
    func testSharedObjectsThatExpandPastTheBudgetAreRefused() throws {
        var b = BinaryPlistBuilder()
        var level = b.add(.string(String(repeating: "a", count: 1_000)))
        for _ in 0..<6 { level = b.add(.array(Array(repeating: level, count: 32))) }
        let data = b.build(top: level)
        XCTAssertLessThan(data.count, 1_600)
        XCTAssertThrowsError(try BinaryPlistReader.parse(data)) { e in
            XCTAssertTrue("\(e)".contains("expands to more than 256 MiB of strings and data through shared references"), "\(e)")
            XCTAssertTrue("\(e)".contains("the file is \(data.count) bytes; BinaryPlistReader.maxExpandedBytes"), "\(e)")
        }
        XCTAssertThrowsError(try ArchiveImporter.decode(data: data, file: "dag.caar")) { e in
            XCTAssertTrue("\(e)".hasPrefix("dag.caar: error: cannot read the Core Animation archive: binary property list expands to more than 256 MiB"), "\(e)")
        }
        // Within the budget the same shape reads as the tree it stands for.
        var small = BinaryPlistBuilder()
        let t = small.add(.string("ab"))
        let pair = small.add(.array([t, t]))
        let top = small.add(.array([pair, pair, pair]))
        let v = try BinaryPlistReader.parse(small.build(top: top))
        XCTAssertEqual(v, .array(Array(repeating: .array([.string("ab"), .string("ab")]), count: 3)))
    }

    /// Values, not only bytes: five levels of 40 references stand for 40⁵ ≈ 10⁸ integers.
    func testSharedObjectsThatExpandPastTheValueCountAreRefused() throws {
        var b = BinaryPlistBuilder()
        var level = b.add(.int(1))
        for _ in 0..<5 { level = b.add(.array(Array(repeating: level, count: 40))) }
        XCTAssertThrowsError(try BinaryPlistReader.parse(b.build(top: level))) { e in
            XCTAssertTrue("\(e)".contains("expands to more than 4000000 values through shared references"), "\(e)")
        }
    }

    /// The keyed-archive resolver budgets the graph too: archived objects are memoised (one
    /// NSArray object decoded once), but each reference counts what the object decoded to. Six
    /// levels of NSArray objects, each listing the one below 40 times, over a 1,000-byte NSString:
    /// a plist with no shared plist object (only UIDs) whose values stand for 4 × 10⁹ values and
    /// 4 TB, refused as a limit (the 4 M values are reached first) with the archive path where.
    func testArchivedObjectsReferencedInADAGAreBudgeted() throws {
        var a = ArchiveBuilder()
        let text = a.object(["NSString", "NSObject"], [("NS.string", .string(String(repeating: "a", count: 1_000)))])
        var level = text
        for _ in 0..<6 { level = a.object(["NSArray", "NSObject"], [("NS.objects", .array(Array(repeating: a.b.add(.uid(level)), count: 40)))]) }
        let rect = a.object(["LKNSValueCodingProxy", "CACodingProxy", "NSObject"],
                            [("kind", .int(2)), ("x", .real(0)), ("y", .real(0)), ("width", .real(10)), ("height", .real(10))])
        let root = a.object(["CALayer", "NSObject"], [("bounds", .uid(rect)), ("name", .uid(level))])
        let data = a.build(root: root)
        XCTAssertThrowsError(try ArchiveImporter.decode(data: data, file: "graph.caar")) { e in
            XCTAssertEqual((e as? SceneError)?.kind, .limitExceeded, "\(e)")
            XCTAssertTrue("\(e)".hasPrefix("graph.caar: error: the Core Animation archive is refused: the archive's values expand to more than 4000000 values through shared references (at /rootLayer/name/"), "\(e)")
        }
    }

    /// A layer that is its own delegate (as Kite writes), a sublayer of an unknown private class,
    /// a colour proxy, an NSValue rect and an empty image: the import terminates, builds the tree and
    /// reports the unknowns with their object paths.
    func testCyclicDelegateUnknownClassesAndEmptyImage() throws {
        var a = ArchiveBuilder()
        let rect = a.object(["LKNSValueCodingProxy", "CACodingProxy", "NSObject"],
                            [("kind", .int(2)), ("x", .real(0)), ("y", .real(0)), ("width", .real(40)), ("height", .real(30))])
        let color = a.object(["LKCGColorCodingProxy", "CACodingProxy", "NSObject"],
                             [("r", .real(1)), ("g", .real(0.5)), ("b", .real(-0.024)), ("a", .real(1))])
        let emptyData = a.object(["NSMutableData", "NSData", "NSObject"], [("NS.data", .data([]))])
        let image = a.object(["LKCGImageCodingProxy", "CACodingProxy", "NSObject"], [("data", .uid(emptyData))])
        _ = a.classEntry(["CAPortalLayer", "CALayer", "NSObject"])
        _ = a.classEntry(["CALayer", "NSObject"])
        let privateIndex = a.nextIndex
        let portal = a.object(["CAPortalLayer", "CALayer", "NSObject"], [("bounds", .uid(rect)), ("hidesSourceLayer", .bool(true))])
        XCTAssertEqual(portal, privateIndex)
        let subs = a.object(["NSArray", "NSObject"], [("NS.objects", .array([]))])
        _ = subs
        let list = a.b.add(.uid(portal))
        let arr = a.object(["NSMutableArray", "NSArray", "NSObject"], [("NS.objects", .array([list]))])
        let proxy = a.object(["LKNSArrayCodingProxy", "CACodingProxy", "NSObject"], [("array", .uid(arr))])
        let rootIndex = a.nextIndex
        let root = a.object(["CALayer", "NSObject"], [("bounds", .uid(rect)), ("backgroundColor", .uid(color)), ("delegate", .uid(rootIndex)),
                                                      ("sublayers", .uid(proxy)), ("contents", .uid(image)), ("rimWidth", .real(2))])
        XCTAssertEqual(root, rootIndex)
        let data = a.build(root: root)
        let doc = try ArchiveImporter.decode(data: data, file: "t.caar")
        let l = doc.scene.root
        XCTAssertEqual(l.bounds, Rect(0, 0, 40, 30))
        XCTAssertEqual(l.backgroundColor, Color(1, 0.5, -0.024, 1), "extended sRGB is kept, not clamped")
        XCTAssertNil(l.contents)
        XCTAssertEqual(l.sublayers.count, 1)
        XCTAssertEqual(doc.scene.canvas.width, 40)
        let text = doc.warnings.map(\.feature).joined(separator: "\n")
        XCTAssertTrue(text.contains("/rootLayer/sublayers/0: CAPortalLayer is not drawn yet"), text)
        XCTAssertTrue(text.contains("hidesSourceLayer"), text)
        XCTAssertTrue(text.contains("/rootLayer/contents: the image is empty (0 bytes)"), text)
        XCTAssertTrue(text.contains("unknown key 'rimWidth'"), text)
    }

    /// An image embedded in an archive is kept when it is a PNG or a JPEG (the formats the
    /// renderer decodes), and left out with a warning naming its format otherwise.
    func testEmbeddedJPEGIsKeptAndGIFIsNamed() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0]
        let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        func archive(contents bytes: [UInt8]) throws -> SceneDocument {
            var a = ArchiveBuilder()
            let rect = a.object(["LKNSValueCodingProxy", "CACodingProxy", "NSObject"],
                                [("kind", .int(2)), ("x", .real(0)), ("y", .real(0)), ("width", .real(8)), ("height", .real(8))])
            let data = a.object(["NSMutableData", "NSData", "NSObject"], [("NS.data", .data(bytes))])
            let image = a.object(["LKCGImageCodingProxy", "CACodingProxy", "NSObject"], [("data", .uid(data))])
            _ = a.classEntry(["CALayer", "NSObject"])
            let root = a.object(["CALayer", "NSObject"], [("bounds", .uid(rect)), ("contents", .uid(image))])
            return try ArchiveImporter.decode(data: a.build(root: root), file: "t.caar")
        }
        let kept = try archive(contents: jpeg)
        XCTAssertEqual(kept.scene.root.contents?.origin, .data(jpeg))
        XCTAssertTrue(kept.warnings.isEmpty, "\(kept.warnings.map(\.feature))")
        // caprof convert writes it as a JPEG data URI, which reads back as the same bytes.
        let json = SceneJSONWriter.write(kept)
        XCTAssertTrue(json.contains("\"data:image/jpeg;base64,"), json)
        let back = try SceneDecoder.decode(data: Array(json.utf8), file: "converted.json", baseDirectory: "/")
        XCTAssertEqual(back.scene.root.contents?.origin, .data(jpeg))
        let named = try archive(contents: gif)
        XCTAssertNil(named.scene.root.contents)
        let text = named.warnings.map(\.feature).joined(separator: "\n")
        XCTAssertTrue(text.contains("/rootLayer/contents: GIF image (13 bytes) cannot be decoded (caprof reads PNG and JPEG)"), text)
    }

    /// Found by fuzzing: a binary plist can hold NaN, which no Core Animation value is; it is
    /// ignored with a warning (the layer keeps its default) and never reaches a plan.
    func testNaNIsIgnoredWithAWarning() throws {
        var a = ArchiveBuilder()
        let rect = a.object(["LKNSValueCodingProxy", "CACodingProxy", "NSObject"],
                            [("kind", .int(2)), ("x", .real(0)), ("y", .real(0)), ("width", .real(40)), ("height", .real(30))])
        _ = a.classEntry(["CALayer", "NSObject"])
        let root = a.object(["CALayer", "NSObject"], [("bounds", .uid(rect)), ("opacity", .real(.nan)),
                                                      ("cornerRadius", .real(-.nan))])
        let doc = try ArchiveImporter.decode(data: a.build(root: root), file: "t.caar")
        XCTAssertEqual(doc.scene.root.opacity, 1)
        XCTAssertEqual(doc.scene.root.cornerRadius, 0)
        let text = doc.warnings.map(\.feature).joined(separator: "\n")
        XCTAssertTrue(text.contains("/rootLayer/opacity: NaN is no Core Animation value"), text)
        XCTAssertTrue(text.contains("/rootLayer/cornerRadius"), text)
    }

    func testNotAnArchiveNamesTheFile() {
        var b = BinaryPlistBuilder()
        let top = b.add(.array([]))
        XCTAssertThrowsError(try ArchiveImporter.decode(data: b.build(top: top), file: "x.caar")) { e in
            let s = "\(e)"
            XCTAssertTrue(s.hasPrefix("x.caar: error:"), s)
            XCTAssertTrue(s.contains("not a keyed archive"), s)
        }
        XCTAssertThrowsError(try ArchiveImporter.decode(data: [], file: "empty.caar")) { e in
            XCTAssertEqual("\(e)", "empty.caar: error: cannot read the Core Animation archive: the file is empty (0 bytes)")
        }
    }
}

/// Hostile archives: every single-byte corruption and every truncation of a real archive either
/// imports or throws a `SceneError` naming the file, never crashes or hangs.
final class CorruptArchiveTests: XCTestCase {
    func testMutationsAndTruncationsNeverCrash() throws {
        let path = CorpusImportTests.corpus + "/caar/CheckmarkDemo_Checkmark.caar"
        guard let data = FileManager.default.contents(atPath: path) else { throw CorpusMissing(message: "corpus not found") }
        let bytes = [UInt8](data)
        // Deterministic: every 11th byte set to 0xFF, 0x00 and a flipped value; every 97th truncation.
        var errors = 0, imports = 0
        for i in stride(from: 0, to: bytes.count, by: 11) {
            for v: UInt8 in [0xFF, 0x00, bytes[i] ^ 0x5A] {
                var b = bytes; b[i] = v
                do { _ = try ArchiveImporter.decode(data: b, file: "m.caar"); imports += 1 } catch let e as SceneError {
                    XCTAssertEqual(e.file, "m.caar"); errors += 1
                }
            }
        }
        for n in stride(from: 0, to: bytes.count, by: 97) {
            XCTAssertThrowsError(try ArchiveImporter.decode(data: Array(bytes.prefix(n)), file: "t.caar")) { e in
                XCTAssertTrue(e is SceneError, "\(e)")
            }
        }
        XCTAssertGreaterThan(errors, 0); XCTAssertGreaterThan(imports, 0)
    }
}
