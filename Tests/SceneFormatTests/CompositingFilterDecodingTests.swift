import XCTest
import LayerModel
@testable import SceneFormat

/// `compositingFilter` in scene files (scene-format.md "Filters"): the CAFilter names of the blend
/// modes and Porter-Duff operators; absent (or normalBlendMode) is source-over.
final class CompositingFilterDecodingTests: XCTestCase {
    func testEveryNameOfTheSceneFormatDecodes() throws {
        // The list as scene-format.md gives it, written out here rather than taken from the enum.
        let names = ["normalBlendMode", "multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "darkenBlendMode",
                     "lightenBlendMode", "colorDodgeBlendMode", "colorBurnBlendMode", "softLightBlendMode",
                     "hardLightBlendMode", "differenceBlendMode", "exclusionBlendMode",
                     "linearBurnBlendMode", "linearDodgeBlendMode", "linearLightBlendMode", "pinLightBlendMode",
                     "vividLightBlendMode", "subtractBlendMode", "divideBlendMode", "hueBlendMode",
                     "saturationBlendMode", "colorBlendMode", "luminosityBlendMode", "sourceAtop", "sourceIn",
                     "sourceOut", "destinationOver", "destinationIn", "destinationOut", "xor", "plusL", "plusD"]
        XCTAssertEqual(CompositingFilter.allCases.map(\.rawValue), names)
        for n in names {
            let l = try decodeRoot(#"{"compositingFilter": ""# + n + #""}"#)
            XCTAssertEqual(l.compositingFilter.rawValue, n)
        }
        XCTAssertEqual(try decodeRoot("{}").compositingFilter, .normalBlendMode, "absent = source-over")
    }

    func testAnUnknownNameIsALocatedErrorListingTheValidOnes() {
        assertSceneError(sceneJSON(root: #"{"compositingFilter": "multiply"}"#), .invalidValue, pointer: "/root/compositingFilter",
                         message: #"unknown compositingFilter 'multiply', expected one of "normalBlendMode", "multiplyBlendMode", "screenBlendMode""#)
        assertSceneError(sceneJSON(root: #"{"compositingFilter": 3}"#), .wrongType, pointer: "/root/compositingFilter",
                         message: #"expected one of "normalBlendMode""#)
    }
}
