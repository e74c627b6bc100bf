import Benchmark
import Foundation
import Geometry
import Plan
import Raster

/// caprof against a CPU peer, pixman (Debian's libpixman-1, through Benchmarks/PixmanPeer), on the
/// same 16-layer stacks as caprof's composite benchmarks: premultiplied OVER with a constant
/// opacity mask (0.8) over white into a 1170×2532 target, identity (pixman's unscaled path, exact)
/// and rotated ±2.5° scaled ±2% (pixman's bilinear path, the transforms taken from caprof's plan).
/// pixman runs on one thread (as a program calling it does) and, as a second peer, split into two
/// horizontal bands on the VM's two cores (lavapipe uses both).
///
/// The ratio benchmarks time one caprof frame (Vulkan on lavapipe, textures resident, readback
/// included) and one pixman frame per iteration, alternating which goes first, and record each
/// pair's ratio, as `composite.ratio.caprof-over-peer.identity-16` does; they also record the
/// largest per-channel difference between the two frames (checked once per process: ≤ 2 for the
/// identity stack or the benchmark fails; reported only for the rotated one, whose edges and
/// bilinear weights differ).
func pixmanBenchmarks() {
    for rotated in [false, true] {
        let stack = rotated ? "rotated-16" : "identity-16"
        for threads in [1, 2] {
            let peerName = threads == 1 ? "pixman" : "pixman-2threads"
            Benchmark("composite.peer.\(peerName).\(stack)") { benchmark in
                let peer = try PixmanFixture.get(rotated: rotated, threads: threads).peer
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { blackHole(peer.frame()) }
            }
            Benchmark("composite.ratio.caprof-over-\(peerName).\(stack)",
                      configuration: .init(metrics: [.wallClock] + PairedFrames.metrics + [PixmanFixture.maxDifference, PixmanFixture.differing, PixmanFixture.maxInterior],
                                           warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 20)) { benchmark in
                let f = try PixmanFixture.get(rotated: rotated, threads: threads)
                let c = f.caprof
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    f.pairs += 1
                    let pair = try PairedFrames.measure(caprofFirst: f.pairs % 2 == 0,
                                                        caprof: { blackHole(try c.renderer.render(c.plan, images: c.images)) },
                                                        peer: { blackHole(f.peer.frame()) })
                    pair.record(in: benchmark)
                    benchmark.measurement(PixmanFixture.maxDifference, f.maxChannelDifference)
                    benchmark.measurement(PixmanFixture.maxInterior, f.maxInteriorDifference)
                    benchmark.measurement(PixmanFixture.differing, f.bytesOver8 * 1_000_000 / max(f.byteCount, 1))
                }
            }
        }
    }
}

/// A pixman compositor for one stack, beside caprof's fixture for the same stack, made once per
/// process (the closure runs once per sample) and checked against caprof's frame once.
final class PixmanFixture {
    let caprof: CompositeFixture
    let peer: PixmanCompositor
    /// max over pixels and channels of |caprof − pixman| in the first frames.
    let maxChannelDifference: Int
    /// Bytes differing by more than 8 (reported for the rotated stack).
    let bytesOver8: Int, byteCount: Int
    /// max |caprof − pixman| at least `interiorMargin` pixels from the target's edges, where no
    /// layer edge passes (the rotated layers' edges stay within ≈ 90 px of the border).
    let maxInteriorDifference: Int
    static let interiorMargin = 128
    var pairs = 0

    static let maxDifference = BenchmarkMetric.custom("max |caprof − pixman| per channel", polarity: .prefersSmaller,
                                                      useScalingFactor: false)
    static let maxInterior = BenchmarkMetric.custom("max |caprof − pixman| ≥ 128 px from the border", polarity: .prefersSmaller,
                                                    useScalingFactor: false)
    static let differing = BenchmarkMetric.custom("bytes differing by > 8 (ppm)", polarity: .prefersSmaller,
                                                  useScalingFactor: false)
    /// The 16 source images at stable addresses, shared by every pixman compositor.
    static let images = StableImages(FullScreenStack.bitmaps)
    nonisolated(unsafe) private static var made: [String: Result<PixmanFixture, Error>] = [:]

    static func get(rotated: Bool, threads: Int) throws -> PixmanFixture {
        let key = "\(rotated)-\(threads)"
        if let r = made[key] { return try r.get() }
        let r = Result { try PixmanFixture(rotated: rotated, threads: threads) }
        made[key] = r
        return try r.get()
    }

    private init(rotated: Bool, threads: Int) throws {
        caprof = try (rotated ? CompositeFixture.rotated : CompositeFixture.identity).get()
        // The layers in the plan's order, each with its image and (rotated) its transform.
        let plan = caprof.plan
        var transforms: [[Double]] = []
        var order: [UInt64] = []
        for item in plan.items {
            guard case .image(let index, _, _) = item.paint else {
                throw PixmanCompositor.Failure(description: "unexpected non-image item in the 16-layer plan")
            }
            order.append(plan.images[index].key)
            transforms.append(try Self.deviceToTexel(item))
        }
        let byKey = Dictionary(uniqueKeysWithValues: FullScreenStack.bitmaps.map { ($0.contentHash, $0) })
        guard order == FullScreenStack.bitmaps.map(\.contentHash), order.allSatisfy({ byKey[$0] != nil }) else {
            throw PixmanCompositor.Failure(description: "the plan draws the layers in another order than the stack")
        }
        peer = try PixmanCompositor(layers: Self.images, opacity: 0.8, transforms: rotated ? transforms : nil,
                                    threads: threads)
        let a = try caprof.renderer.render(plan, images: caprof.images).pixels
        let b = peer.frame()
        var maxDiff = 0, over8 = 0
        for i in 0..<min(a.count, b.count) {
            let d = abs(Int(a[i]) - Int(b[i]))
            if d > maxDiff { maxDiff = d }
            if d > 8 { over8 += 1 }
        }
        maxChannelDifference = maxDiff; bytesOver8 = over8; byteCount = a.count
        var interior = 0
        let w = peer.width, h = peer.height, m = Self.interiorMargin
        for y in m..<max(m, h - m) { for x in m..<max(m, w - m) { for c in 0..<4 {
            let i = (y * w + x) * 4 + c
            interior = max(interior, abs(Int(a[i]) - Int(b[i])))
        } } }
        maxInteriorDifference = interior
        FileHandle.standardError.write(Data(("pixman \(PixmanCompositor.version), \(rotated ? "rotated" : "identity"), \(threads) thread(s): "
            + "max |caprof − pixman| per channel = \(maxDiff) (\(interior) ≥ \(m) px from the border), bytes differing by > 8: \(over8) of \(a.count)\n").utf8))
        if !rotated && maxDiff > 2 {
            throw PixmanCompositor.Failure(description: "pixman's identity frame differs from caprof's by up to \(maxDiff) per channel (> 2)")
        }
    }

    /// The affine map from a device point to a texel point for an image item: the inverse of
    /// texel → local (quad ↔ uv) → device (the item's transform, row-vector, affine here).
    static func deviceToTexel(_ item: DrawItem) throws -> [Double] {
        let m = item.transform
        // Points with z = 0: only the x, y and w columns of rows 1, 2 and 4 matter.
        guard m.m14 == 0, m.m24 == 0, m.m44 == 1 else { throw PixmanCompositor.Failure(description: "projective transform") }
        let q = item.quad, uv = item.uv
        let sx = q.size.width / uv.size.width, sy = q.size.height / uv.size.height
        let tx = q.origin.x - uv.origin.x * sx, ty = q.origin.y - uv.origin.y * sy
        // texel (u, v) → device: x = A u + C v + E, y = B u + D v + F
        let A = m.m11 * sx, C = m.m21 * sy, E = m.m11 * tx + m.m21 * ty + m.m41
        let B = m.m12 * sx, D = m.m22 * sy, F = m.m12 * tx + m.m22 * ty + m.m42
        let det = A * D - B * C
        return [D / det, -B / det, -C / det, A / det, (C * F - D * E) / det, (B * E - A * F) / det]
    }
}
