import Foundation
import XCTest
@testable import Geometry

/// The continuous-corner profile (reference/core-animation.md §1.8) and its copy in the shader.
final class ContinuousCornerTests: XCTestCase {
    func testTheShaderTableEqualsTheSwiftComputation() throws {
        // Shaders/corners.glsl embeds the table; parse it so the two can never drift apart.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Shaders/corners.glsl").standardizedFileURL
        let source = try String(contentsOf: url, encoding: .utf8)
        let header = "const float CONTINUOUS_CORNER_PROFILE[\(ContinuousCorner.tableSize)] = float[\(ContinuousCorner.tableSize)]("
        let start = try XCTUnwrap(source.range(of: header), "table not found in \(url.path)")
        let end = try XCTUnwrap(source.range(of: ");", range: start.upperBound..<source.endIndex))
        let values = source[start.upperBound..<end.lowerBound]
            .split(whereSeparator: { $0 == "," || $0.isWhitespace })
            .map { Double($0) }
        XCTAssertEqual(values.count, ContinuousCorner.tableSize)
        for (i, (glsl, swift)) in zip(values, ContinuousCorner.radialTable).enumerated() {
            XCTAssertEqual(try XCTUnwrap(glsl), swift, accuracy: 1e-8, "entry \(i)")
        }
    }

    func testProfileMeetsTheEdgesAtTheExpansionFactorAndIsSymmetric() {
        let table = ContinuousCorner.radialTable
        XCTAssertEqual(table.first!, 1.528665, accuracy: 1e-9)
        XCTAssertEqual(table.last!, 1.528665, accuracy: 1e-9)
        for i in table.indices { XCTAssertEqual(table[i], table[table.count - 1 - i], accuracy: 1e-9) }
        // On the diagonal the curve passes 0.4125 r from the corner (a circle of radius r: √2 − 1 ≈ 0.4142 r).
        let k = ContinuousCorner.expansionFactor
        XCTAssertEqual(k * 2.squareRoot() - table[16], 0.4125, accuracy: 1e-3)
    }

    func testEveryControlPointLiesOnTheCurveEnds() {
        // The cubics join end to start, and the profile passes through each joint.
        let cubics = ContinuousCorner.cubics
        XCTAssertEqual(cubics[0][3], cubics[1][0])
        XCTAssertEqual(cubics[1][3], cubics[2][0])
        let k = ContinuousCorner.expansionFactor
        let joint = cubics[0][3]
        let rho = ((k - joint.x) * (k - joint.x) + (k - joint.y) * (k - joint.y)).squareRoot()
        XCTAssertEqual(ContinuousCorner.radialProfile(at: ContinuousCorner.angle(of: joint)), rho, accuracy: 1e-9)
    }

    func testCornerProfilesClampAndBlendTowardACircle() {
        // Circular: clamped to half the shorter side.
        XCTAssertEqual(CornerProfile.circular(radius: 30, limit: 10), CornerProfile(inset: 10, profileScale: 0, circularRadius: 10))
        // Continuous that fits: the exact curve, starting 1.528665 r from the corner.
        let fits = CornerProfile.continuous(radius: 10, limit: 20)
        XCTAssertEqual(fits.inset, 15.28665, accuracy: 1e-9)
        XCTAssertEqual(fits.radius(at: 0), 15.28665, accuracy: 1e-6)
        // At r = l/k the blend starts (t = 0): the same curve as the unclamped rule gives.
        let l = 20.0, k = ContinuousCorner.expansionFactor
        let edge = CornerProfile.continuous(radius: l / k, limit: l)
        XCTAssertEqual(edge.inset, l, accuracy: 1e-9)
        XCTAssertEqual(edge.circularRadius, 0, accuracy: 1e-9)
        // Halfway, the corner still meets the edges tangentially (ρ(0) = e = l).
        let half = CornerProfile.continuous(radius: (l / k + l) / 2, limit: l)
        XCTAssertEqual(half.radius(at: 0), l, accuracy: 1e-6)
        XCTAssertEqual(half.radius(at: Double.pi / 2), l, accuracy: 1e-6)
        // At r = l and beyond: a circle of radius l.
        XCTAssertEqual(CornerProfile.continuous(radius: l, limit: l), CornerProfile(inset: l, profileScale: 0, circularRadius: l))
        XCTAssertEqual(CornerProfile.continuous(radius: 3 * l, limit: l), CornerProfile(inset: l, profileScale: 0, circularRadius: l))
        XCTAssertEqual(CornerProfile.continuous(radius: 0, limit: l), .square)
    }
}
