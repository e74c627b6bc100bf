import XCTest
import Foundation
@testable import AssetImport
import SceneFormat
#if canImport(Glibc)
import Glibc
#endif

/// dotLottie packages (`.lottie` zip archives) through libzip: the two corpus packages (v1 with an
/// image, v2), then hostile archives built in memory, each refused with its kind and a message
/// naming the file and the entry.
final class DotLottiePackageTests: XCTestCase {
    static let folder = CorpusImportTests.corpus + "/lottie-ios/samples/DotLottie"

    func corpus(_ name: String) throws -> String {
        let p = Self.folder + "/" + name
        guard FileManager.default.fileExists(atPath: p) else { throw CorpusMissing(message: "corpus not found at \(Self.folder)") }
        return p
    }

    /// A v1 package: manifest + `animations/<id>.json` (+ more entries).
    static func v1(_ ids: [String] = ["a"], extra: [(String, [UInt8])] = []) -> [(String, [UInt8])] {
        let manifest = "{\"version\": \"1\", \"animations\": [" + ids.map { "{\"id\": \"\($0)\"}" }.joined(separator: ", ") + "]}"
        return [("manifest.json", Array(manifest.utf8))] + ids.map { ("animations/\($0).json", Array("{\"v\": \"5.7.0\"}".utf8)) } + extra
    }

    func refusal(_ kind: SceneError.Kind, _ words: [String], file: StaticString = #filePath, line: UInt = #line,
                 _ body: () throws -> Any?) {
        do {
            let value = try body()
            XCTFail("expected a \(kind) refusal, got \(String(describing: value))", file: file, line: line)
        } catch let e as SceneError {
            XCTAssertEqual(e.kind, kind, e.description, file: file, line: line)
            for w in words { XCTAssertTrue(e.description.contains(w), "'\(w)' not in: \(e.description)", file: file, line: line) }
        } catch {
            XCTFail("not a SceneError: \(error)", file: file, line: line)
        }
    }

    func open(_ bytes: [UInt8], limits: DotLottiePackage.Limits = .standard) throws -> DotLottiePackage {
        try DotLottiePackage.open(bytes: bytes, file: "t.lottie", limits: limits)
    }

    // MARK: the corpus

    /// animation_inline_image.lottie (unzip -l): manifest.json ("version": "1.0", one animation
    /// "lf20_I2I090"), images/image_0.png (852 693 bytes), animations/lf20_I2I090.json (131 544
    /// bytes, whose one image asset is "u": "", "p": "image_0.png").
    func testVersion1PackageWithAnImage() throws {
        let p = try DotLottiePackage.open(path: try corpus("animation_inline_image.lottie"))
        XCTAssertEqual(p.version, 1)
        XCTAssertEqual(p.animationIDs, ["lf20_I2I090"])
        let a = try p.animation(nil)
        XCTAssertEqual(a.id, "lf20_I2I090")
        XCTAssertEqual(a.entry, "animations/lf20_I2I090.json")
        XCTAssertEqual(a.bytes.count, 131_544)
        XCTAssertEqual(a.bytes.first, UInt8(ascii: "{"))
        XCTAssertEqual(try p.animation("lf20_I2I090").bytes, a.bytes)
        XCTAssertEqual(p.imageNames, ["images/image_0.png"])
        let png = try XCTUnwrap(try p.image("image_0.png"))
        XCTAssertEqual(png.count, 852_693)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertEqual(try p.image("images/image_0.png")?.count, 852_693)
        XCTAssertEqual(try p.image("/images/image_0.png")?.count, 852_693)
        XCTAssertNil(try p.image("image_1.png"))
        XCTAssertNil(try p.image(""))
    }

    /// zen_lottiev2.lottie: manifest.json ("version": "2", one animation "Main Scene") and
    /// "a/Main Scene.json" (46 611 bytes); no images.
    func testVersion2Package() throws {
        let p = try DotLottiePackage.open(path: try corpus("zen_lottiev2.lottie"))
        XCTAssertEqual(p.version, 2)
        XCTAssertEqual(p.animationIDs, ["Main Scene"])
        let a = try p.animation(nil)
        XCTAssertEqual(a.entry, "a/Main Scene.json")
        XCTAssertEqual(a.bytes.count, 46_611)
        XCTAssertEqual(a.bytes.first, UInt8(ascii: "{"))
        XCTAssertEqual(p.imageNames, [])
        XCTAssertEqual(p.entryNames, ["manifest.json", "a/Main Scene.json"])
    }

    func testVersion2ImagesAreFoundInTheIFolder() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        let zip = ZipFixtures.libzip([("manifest.json", Array("{\"version\":\"2\",\"animations\":[{\"id\":\"m\"}]}".utf8)),
                                      ("a/m.json", Array("{}".utf8)), ("i/img_0.png", png)])
        let p = try open(zip)
        XCTAssertEqual(p.version, 2)
        XCTAssertEqual(try p.image("/i/img_0.png"), png)
        XCTAssertEqual(try p.image("img_0.png"), png)
        XCTAssertEqual(p.imageNames, ["i/img_0.png"])
    }

    func testVersionFromTheLayoutWhenTheManifestHasNone() throws {
        let zip = ZipFixtures.stored([("manifest.json", Array("{\"animations\":[{\"id\":\"m\"}]}".utf8)), ("a/m.json", Array("{}".utf8))])
        XCTAssertEqual(try open(zip).version, 2)
        refusal(.unsupportedVersion, ["t.lottie", "entry 'manifest.json'", "/version", "'3'", "versions 1 and 2"]) {
            try self.open(ZipFixtures.stored([("manifest.json", Array("{\"version\":\"3\",\"animations\":[{\"id\":\"m\"}]}".utf8))]))
        }
    }

    // MARK: the file itself

    func testMissingDirectoryAndFIFOPathsAreRefusedUnopened() throws {
        refusal(.io, ["/nonexistent/x.lottie", "does not exist"]) { try DotLottiePackage.open(path: "/nonexistent/x.lottie") }
        refusal(.io, ["directory"]) { try DotLottiePackage.open(path: Self.folder) }
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-fifo-\(getpid()).lottie").path
        unlink(fifo)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        refusal(.io, ["not a regular file"]) { try DotLottiePackage.open(path: fifo) }
        var small = DotLottiePackage.Limits(); small.maxPackageBytes = 1000
        refusal(.limitExceeded, ["animation_inline_image.lottie", "limit is 1000"]) {
            try DotLottiePackage.open(path: try self.corpus("animation_inline_image.lottie"), limits: small)
        }
    }

    func testNotAZipEmptyAndTruncatedArchivesAreRefused() throws {
        refusal(.invalidValue, ["t.lottie", "not a zip archive"]) { try self.open(Array("{\"v\": \"5.7.0\"}".utf8)) }
        refusal(.invalidValue, ["not a zip archive"]) { try self.open([]) }
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try corpus("zen_lottiev2.lottie"))))
        // Cut in the data: the end of central directory record is gone.
        refusal(.invalidValue, ["zip archive"]) { try self.open(Array(whole.prefix(whole.count / 2))) }
        // Cut in the central directory: its records disagree with the end record.
        refusal(.invalidValue, ["zip archive"]) { try self.open(Array(whole.prefix(whole.count - 30)) + Array(whole.suffix(22))) }
    }

    func testCorruptDataIsACRCError() throws {
        var zip = ZipFixtures.stored(Self.v1())
        let data = Array("{\"v\": \"5.7.0\"}".utf8)
        let at = try XCTUnwrap(Self.find(data, in: zip))
        zip[at + 3] ^= 0x20
        let p = try open(zip)
        refusal(.invalidValue, ["t.lottie", "entry 'animations/a.json'", "CRC"]) { try p.animation("a") }
    }

    // MARK: names

    func testEntriesThatClimbOutOrAreAbsoluteAreRefused() {
        for (name, words) in [("../evil.json", ["climbs out"]), ("animations/../../evil.json", ["climbs out"]),
                              ("/etc/x", ["absolute"]), ("C:/x", ["absolute", "drive letter"]), ("C:\\x", ["backslash"]),
                              ("images\\..\\x.png", ["backslash"])] {
            let zip = ZipFixtures.stored(Self.v1(extra: [(name, [1, 2, 3])]))
            refusal(.invalidValue, ["t.lottie", "entry '\(name)'"] + words) { try self.open(zip) }
        }
    }

    func testDuplicateNamesAreRefused() {
        let zip = ZipFixtures.stored(Self.v1(extra: [("animations/a.json", Array("{}".utf8))]))
        refusal(.invalidValue, ["t.lottie", "entry 'animations/a.json'", "two entries", "unique names"]) { try self.open(zip) }
    }

    func testEncryptedEntriesAreRefused() {
        let zip = ZipFixtures.stored(Self.v1(), flags: 1)
        refusal(.invalidValue, ["t.lottie", "entry 'manifest.json'", "encrypted"]) { try self.open(zip) }
    }

    func testImageNamesThatLeaveThePackageAreErrors() throws {
        let p = try open(ZipFixtures.stored(Self.v1(extra: [("images/x.png", [1])])))
        XCTAssertEqual(try p.image("x.png"), [1])
        for (name, word) in [("../x.png", "climbs out"), ("images/../../x", "climbs out"), ("//etc/passwd", "absolute"),
                             ("C:\\x.png", "backslash"), ("c:x.png", "absolute")] {
            refusal(.invalidValue, ["t.lottie", "image '\(name)'", word]) { try p.image(name) }
        }
    }

    // MARK: sizes

    /// 100 MiB of zeros deflate to about 100 KB: refused on the declared size, before inflating.
    func testABombIsRefusedBeforeInflating() {
        let zeros = [UInt8](repeating: 0, count: 100 << 20)
        let zip = ZipFixtures.libzip(Self.v1(extra: [("images/bomb.png", zeros)]), level: 1)
        XCTAssertLessThan(zip.count, 1 << 20)
        refusal(.limitExceeded, ["t.lottie", "entry 'images/bomb.png'", "declares 104857600 bytes", "limit is 67108864"]) { try self.open(zip) }
    }

    /// Under the size limit but compressed past 1000:1.
    func testACompressionRatioOverTheLimitIsRefused() {
        let zip = ZipFixtures.libzip(Self.v1(extra: [("images/bomb.png", [UInt8](repeating: 0, count: 8 << 20))]), level: 9)
        refusal(.limitExceeded, ["entry 'images/bomb.png'", "ratio over 1000:1"]) { try self.open(zip) }
        var strict = DotLottiePackage.Limits(); strict.maxCompressionRatio = 10
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20)
        refusal(.limitExceeded, ["ratio over 10:1"]) {
            try self.open(ZipFixtures.libzip(Self.v1(extra: [("images/a.png", text)]), level: 1), limits: strict)
        }
    }

    /// A small entry whose headers claim 4 GiB: refused on the claim, nothing inflated.
    func testAHugeDeclaredSizeIsRefused() {
        var zip = ZipFixtures.libzip(Self.v1())
        ZipFixtures.patchSize(&zip, entry: "animations/a.json", to: 0xFFFF_FFF0)
        refusal(.limitExceeded, ["entry 'animations/a.json'", "declares 4294967280 bytes"]) { try self.open(zip) }
    }

    /// Headers that claim 10 bytes for 1 MiB: the read stops at 11 bytes and says so.
    func testAnEntryLargerThanDeclaredIsRefusedAfterTheDeclaredSize() throws {
        var zip = ZipFixtures.libzip(Self.v1(extra: [("images/liar.png", [UInt8](repeating: 7, count: 1 << 20))]))
        ZipFixtures.patchSize(&zip, entry: "images/liar.png", to: 10)
        let p = try open(zip)
        refusal(.invalidValue, ["t.lottie", "entry 'images/liar.png'", "declared 10 bytes"]) { try p.image("liar.png") }
    }

    func testTooManyEntriesAreRefusedBeforeLibzipReadsThem() {
        var limits = DotLottiePackage.Limits(); limits.maxEntries = 3
        let zip = ZipFixtures.stored(Self.v1(["a", "b", "c"]))
        refusal(.limitExceeded, ["t.lottie", "declares 4 entries", "limit is 3"]) { try self.open(zip, limits: limits) }
    }

    func testAManifestOverItsLimitIsRefused() {
        // JSON whitespace in a pseudo-random order: it compresses too little to be a bomb.
        var state: UInt32 = 1
        let kinds: [UInt8] = [0x20, 0x0A, 0x09, 0x0D]
        let blanks = [UInt8](unsafeUninitializedCapacity: (1 << 20) + 4096) { b, n in
            for i in 0..<b.count { state = state &* 1_664_525 &+ 1_013_904_223; b[i] = kinds[Int(state >> 30)] }
            n = b.count
        }
        let padded = Array("{\"version\": \"1\", \"animations\": [{\"id\": \"a\"}]}".utf8) + blanks
        let zip = ZipFixtures.libzip([("manifest.json", padded), ("animations/a.json", Array("{}".utf8))], level: 1)
        refusal(.limitExceeded, ["entry 'manifest.json'", "limit is 1048576"]) { try self.open(zip) }
    }

    // MARK: the manifest

    func testAMissingManifestIsRefused() {
        let zip = ZipFixtures.stored([("animations/a.json", Array("{}".utf8))])
        refusal(.missingFile, ["t.lottie", "entry 'manifest.json'", "no manifest", "'animations/a.json'"]) { try self.open(zip) }
    }

    func testAManifestThatIsNotJSONIsReportedAtItsLineAndColumn() {
        let zip = ZipFixtures.stored([("manifest.json", Array("{\"version\": \"1\",\n  \"animations\": [oops]}".utf8))])
        refusal(.malformedJSON, ["t.lottie:2:18:", "entry 'manifest.json'"]) { try self.open(zip) }
    }

    func testAManifestWithoutAnimationsIsRefused() {
        refusal(.missingKey, ["t.lottie", "entry 'manifest.json'", "\"animations\""]) {
            try self.open(ZipFixtures.stored([("manifest.json", Array("{\"version\": \"1\"}".utf8))]))
        }
        refusal(.invalidValue, ["/animations", "entry 'manifest.json'", "no animations"]) {
            try self.open(ZipFixtures.stored([("manifest.json", Array("{\"version\": \"1\", \"animations\": []}".utf8))]))
        }
        refusal(.wrongType, ["/animations/0/id", "expected a non-empty string id, found a number"]) {
            try self.open(ZipFixtures.stored([("manifest.json", Array("{\"version\": \"1\", \"animations\": [{\"id\": 3}]}".utf8))]))
        }
        refusal(.wrongType, ["expected an object"]) {
            try self.open(ZipFixtures.stored([("manifest.json", Array("[1]".utf8))]))
        }
    }

    func testAnIdWithoutItsEntryIsRefused() {
        let zip = ZipFixtures.stored(Self.v1(["a"]).map { $0.0 == "manifest.json" ? ($0.0, Array("{\"version\":\"1\",\"animations\":[{\"id\":\"a\"},{\"id\":\"gone\"}]}".utf8)) : $0 })
        refusal(.missingFile, ["t.lottie", "/animations/1/id", "entry 'manifest.json'", "'animations/gone.json'"]) { try self.open(zip) }
    }

    func testAnUnknownAnimationIdListsTheIds() throws {
        let p = try open(ZipFixtures.stored(Self.v1(["a", "b"])))
        XCTAssertEqual(p.animationIDs, ["a", "b"])
        XCTAssertEqual(try p.animation("b").entry, "animations/b.json")
        refusal(.unresolvedReference, ["t.lottie", "entry 'manifest.json'", "no animation 'zz'", "'a', 'b'"]) { try p.animation("zz") }
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard needle.count <= hay.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
