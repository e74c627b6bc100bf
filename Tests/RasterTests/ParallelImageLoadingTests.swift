import Foundation
import XCTest
@testable import Raster

/// `ImageLoader.load(paths:)` decodes on all cores but answers as loading the files one by one:
/// the same bitmaps in order, the same failures at the same images, the limits on the same image.
final class ParallelImageLoadingTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-parallel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A w×h PNG whose pixels depend on `seed`.
    func png(_ name: String, _ w: Int, _ h: Int, seed: Int) throws -> String {
        var px = [UInt8](repeating: 255, count: w * h * 4)
        for i in 0..<(w * h) { px[i * 4] = UInt8((i * 7 + seed * 31) & 0xFF); px[i * 4 + 1] = UInt8(seed & 0xFF) }
        let path = dir.appendingPathComponent(name).path
        try PNGCodec.write(premultiplied: px, width: w, height: h, to: path)
        return path
    }

    func testTheSameBitmapsInOrderAsOneByOne() throws {
        let paths = try (0..<6).map { try png("i\($0).png", 20 + $0, 10, seed: $0) }
        let asked = paths + [paths[2]]
        let parallel = ImageLoader().load(paths: asked)
        let serial = ImageLoader()
        XCTAssertEqual(parallel.count, 7)
        for (p, r) in zip(asked, parallel) {
            let expected = try serial.load(path: p)
            let got = try r.get()
            XCTAssertEqual(got.width, expected.width)
            XCTAssertEqual(got.pixels, expected.pixels)
        }
        let loader = ImageLoader()
        _ = loader.load(paths: paths)
        XCTAssertEqual(loader.decodedBytes, (0..<6).reduce(0) { $0 + (20 + $1) * 10 * 4 }, "each file counted once")
    }

    func testFailuresAndLimitsLandOnTheSameImages() throws {
        let a = try png("a.png", 10, 10, seed: 1), b = try png("b.png", 10, 10, seed: 2)
        let missing = dir.appendingPathComponent("missing.png").path
        let results = ImageLoader().load(paths: [a, missing, b])
        XCTAssertNoThrow(try results[0].get())
        XCTAssertThrowsError(try results[1].get()) { XCTAssertEqual(($0 as? PNGError)?.kind, .io) }
        XCTAssertNoThrow(try results[2].get())
        // A total of 600 decoded bytes: a (400) fits, b (400 more) does not — as one by one.
        var limits = ImageLimits.standard
        limits.maxTotalDecodedBytes = 600
        let limited = ImageLoader(limits: limits).load(paths: [a, b])
        XCTAssertNoThrow(try limited[0].get())
        XCTAssertThrowsError(try limited[1].get()) { XCTAssertEqual(($0 as? PNGError)?.kind, .tooLarge) }
        let serial = ImageLoader(limits: limits)
        XCTAssertNoThrow(try serial.load(path: a))
        XCTAssertThrowsError(try serial.load(path: b))
    }
}
