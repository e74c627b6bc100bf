import XCTest
import AssetImport
import SceneFormat
import FuzzHarness
import LayerModel
import Geometry

/// The structure-aware generators of the `plist-dag`, `archive-dag` and `caml-dtd` fuzz targets
/// (issue #43: inputs that expand were out of the mutators' reach) and their expansion oracle.
final class FuzzGeneratorTests: XCTestCase {
    /// 200 byte strings of 1…200 bytes from a fixed seed (SplitMix64), the same on every run.
    static let inputs: [[UInt8]] = {
        var state: UInt64 = 0x43_43_44
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (0..<200).map { _ in (0..<(1 + Int(next() % 200))).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }()

    /// Imports a generated archive, with at most 4096 layers: a generated layer DAG near the
    /// standard 100 000 costs seconds to import in a debug build.
    static func importArchive(_ file: [UInt8]) -> SceneDocument? {
        var limits = DecodingLimits()
        limits.layers = 4096
        return try? ArchiveImporter.decode(data: file, file: "g.caar", limits: limits)
    }

    func testTheGeneratorsAreDeterministic() {
        for bytes in Self.inputs.prefix(40) {
            XCTAssertEqual(PlistDAGGenerator.generate(bytes).file, PlistDAGGenerator.generate(bytes).file)
            XCTAssertEqual(ArchiveGraphGenerator.generate(bytes).file, ArchiveGraphGenerator.generate(bytes).file)
            XCTAssertEqual(CAMLDocumentGenerator.generate(bytes), CAMLDocumentGenerator.generate(bytes))
        }
        // Every input gives a file, the empty one too.
        XCTAssertTrue(BinaryPlistReader.isBinaryPlist(PlistDAGGenerator.generate([]).file))
        XCTAssertTrue(BinaryPlistReader.isBinaryPlist(ArchiveGraphGenerator.generate([]).file))
        XCTAssertTrue(String(decoding: CAMLDocumentGenerator.generate([]), as: UTF8.self).contains("<caml "))
    }

    func testMostGeneratedFilesParse() {
        var plists = 0, archives = 0, archivePlists = 0, caml = 0
        for bytes in Self.inputs {
            if (try? BinaryPlistReader.parse(PlistDAGGenerator.generate(bytes).file)) != nil { plists += 1 }
            let archive = ArchiveGraphGenerator.generate(bytes).file
            if (try? BinaryPlistReader.parse(archive)) != nil { archivePlists += 1 }
            if Self.importArchive(archive) != nil { archives += 1 }
            if (try? CAMLImporter.decode(data: CAMLDocumentGenerator.generate(bytes), file: "g.caml", bundle: "/nonexistent",
                                         index: nil)) != nil { caml += 1 }
        }
        print("of \(Self.inputs.count) inputs: \(plists) plists, \(archivePlists) archive plists, \(archives) archives, \(caml) CAML documents read")
        XCTAssertGreaterThanOrEqual(plists, 100)
        XCTAssertGreaterThanOrEqual(archivePlists, 180)
        XCTAssertGreaterThanOrEqual(archives, 100)
        XCTAssertGreaterThanOrEqual(caml, 100)
    }

    func testGeneratedPlistsShareObjects() throws {
        let plists = Self.inputs.map(PlistDAGGenerator.generate)
        XCTAssertGreaterThanOrEqual(plists.filter { $0.maxReferenceCount >= 2 }.count, 100)
        XCTAssertTrue(plists.contains { $0.maxReferenceCount >= 100 })
        let archives = Self.inputs.map(ArchiveGraphGenerator.generate)
        XCTAssertTrue(archives.allSatisfy { $0.maxReferenceCount >= 2 })
        // In the archive graph too: some $objects entry (a layer, a value) is named by UIDs from
        // several objects.
        var sharedEntries = 0
        for a in archives {
            let objects = try XCTUnwrap(BinaryPlistReader.parse(a.file)["$objects"]?.array)
            var named = [Int](repeating: 0, count: objects.count)
            func visit(_ v: PlistValue) {
                switch v {
                case .uid(let u) where u < named.count: named[u] += 1
                case .array(let items): items.forEach(visit)
                case .dictionary(let pairs): pairs.forEach { if $0.0 != "$class" { visit($0.1) } }
                default: break
                }
            }
            objects.forEach(visit)
            if named.dropFirst().contains(where: { $0 >= 2 }) { sharedEntries += 1 }
        }
        XCTAssertGreaterThanOrEqual(sharedEntries, 150)
    }

    func testGeneratedCAMLDeclaresEntitiesAndTheyAreRefused() {
        let docs = Self.inputs.map { String(decoding: CAMLDocumentGenerator.generate($0), as: UTF8.self) }
        XCTAssertTrue(docs.contains { $0.contains("<!DOCTYPE") })
        XCTAssertTrue(docs.contains { $0.contains("<!ATTLIST") })
        XCTAssertTrue(docs.contains { $0.contains("<!ENTITY %") })
        XCTAssertTrue(docs.contains { $0.contains("SYSTEM") && $0.contains("<!ENTITY") })
        // Every document that declares an entity is refused, nearly all at the declaration (a few
        // by an error libxml2 finds before it).
        // An attribute-list declaration before the entity is refused first, at its own place.
        let withEntities = docs.filter { $0.contains("<!ENTITY") }
        XCTAssertGreaterThanOrEqual(withEntities.count, 10)
        var atTheDeclaration = 0
        for d in withEntities {
            XCTAssertThrowsError(try XMLTree.parse(Array(d.utf8)), String(d.prefix(600))) { error in
                if "\(error)".contains("declares the entity") || "\(error)".contains("declares an attribute list") { atTheDeclaration += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(atTheDeclaration * 10, withEntities.count * 8)
    }

    /// A chain of 40 arrays each holding the one below twice (2^40 values from a 120-byte file), and
    /// a 300 000-byte string reached 1024 times through a chain of 10: refused with the reader's
    /// budgets, never returned; the target reports nothing, since refusing is right.
    func testAGeneratedDAGPastTheBudgetIsRefused() throws {
        // refPad, offsetPad; a chain (11) of 40 levels (11), fan-out 2 (0), arrays (1), over object 0 (0, 0).
        let chain: [UInt8] = [0, 0, 11, 11, 0, 1, 0]
        let g = PlistDAGGenerator.generate(chain)
        XCTAssertEqual(g.maxReferenceCount, 2)
        XCTAssertLessThan(g.file.count, 400)
        XCTAssertThrowsError(try BinaryPlistReader.parse(g.file)) { error in
            XCTAssertTrue("\(error)".contains("BinaryPlistReader.maxValues"), "\(error)")
        }
        XCTAssertEqual(FuzzTarget.plistDAG.run(chain), [])

        // A leaf (1): a long string (1) of 300 000 bytes (11); a chain (11) of 10 levels (6), fan-out 2,
        // arrays, over the last object (1, 0).
        let strings: [UInt8] = [0, 0, 1, 1, 11, 0, 11, 6, 0, 1, 1, 0]
        let s = PlistDAGGenerator.generate(strings)
        XCTAssertThrowsError(try BinaryPlistReader.parse(s.file)) { error in
            XCTAssertTrue("\(error)".contains("BinaryPlistReader.maxExpandedBytes"), "\(error)")
        }
        XCTAssertEqual(FuzzTarget.plistDAG.run(strings), [])

        // One level less (2^39 values) or a shorter chain of the string (512 × 300 000 bytes) is
        // refused too; 12 levels of 2 (8191 values) come back whole, as they should.
        let small = PlistDAGGenerator.generate([0, 0, 11, 7, 0, 1, 0])
        let value = try BinaryPlistReader.parse(small.file)
        XCTAssertEqual(ExpansionCheck.measure(value).values, 8191)
    }

    /// The oracle itself: values that came back past the budgets are violations; shared storage
    /// keeps building them cheap.
    func testTheExpansionCheckFlagsWhatCameBackPastTheBudgets() {
        let mib = PlistValue.string(String(repeating: "a", count: 1 << 20))
        XCTAssertEqual(ExpansionCheck.check(.array(Array(repeating: mib, count: 100)), fileBytes: 10), [])
        let bytes = ExpansionCheck.check(.array(Array(repeating: mib, count: 300)), fileBytes: 10)
        XCTAssertEqual(bytes.count, 1)
        XCTAssertTrue(bytes[0].contains("maxExpandedBytes"), bytes.joined())
        let level = PlistValue.array(Array(repeating: .integer(1), count: 2048))
        let values = ExpansionCheck.check(.array(Array(repeating: level, count: 2048)), fileBytes: 10)
        XCTAssertTrue(values.first?.contains("maxValues") == true, values.joined())

        // An XML tree is measured by its names, attributes and text, against its document's size.
        let root = try! XMLTree.parse(Array("<caml><a b='cd'/></caml>".utf8))
        XCTAssertEqual(ExpansionCheck.measure(root, budget: 1000), 2 + 4 + 1 + 3)
        XCTAssertEqual(ExpansionCheck.check(root, fileBytes: 24), [])
    }

    /// The layer instances the oracle counts saturate: six nested replicators of 10 000 instances
    /// (what an archive imports before `SceneLimitCheck` refuses it) are 10²⁴, past `Int.max`; the
    /// wrapped product added to the count trapped (archive-dag's `nested-replicators-past-int-max`).
    func testTheExpansionCheckCountsNestedReplicatorsPastIntMaxWithoutTrapping() {
        var leaf = Layer(); leaf.setFrame(Rect(0, 0, 1, 1))
        var level = leaf
        for _ in 0..<6 {
            var r = Layer(.replicator); r.replicator.instanceCount = 10_000
            r.sublayers = [level, level, level]
            level = r
        }
        var scene = Scene(canvas: Canvas(width: 10, height: 10, scale: 1), root: level); scene.assignIDs()
        let size = ExpansionCheck.measure(SceneDocument(scene: scene))
        XCTAssertEqual(size.layers, 1 + 3 + 9 + 27 + 81 + 243 + 729)
        XCTAssertEqual(size.instances, Int.max / 2, "saturated, not wrapped")
        // One replicator of 10 000 over three layers: itself 10 000 times, each layer 10 000 times.
        var one = Layer(.replicator); one.replicator.instanceCount = 10_000; one.sublayers = [leaf, leaf, leaf]
        var small = Scene(canvas: Canvas(width: 10, height: 10, scale: 1), root: one); small.assignIDs()
        XCTAssertEqual(ExpansionCheck.measure(SceneDocument(scene: small)).instances, 40_000)
    }
}
