import XCTest
@testable import SceneFormat
import LayerModel
import Animation

/// `filters`, `backgroundFilters` and CABackdropLayer in scene files (scene-format.md "Filters"):
/// types, names, inputs with their defaults, and located errors for bad input.
final class FilterDecodingTests: XCTestCase {
    func testFiltersWithNamesInputsAndDefaults() throws {
        let root = try decodeRoot(#"""
        {"filters": [{"type": "gaussianBlur", "name": "blur", "inputRadius": 12, "inputNormalizeEdges": true},
                     {"type": "colorSaturate", "inputAmount": 0},
                     {"type": "colorMatrix", "inputColorMatrix": [0,0,1,0,0, 0,1,0,0,0, 1,0,0,0,0, 0,0,0,1,0]},
                     {"type": "colorMonochrome"}],
         "backgroundFilters": [{"type": "gaussianBlur"}]}
        """#)
        XCTAssertEqual(root.filters.map(\.type), [.gaussianBlur, .colorSaturate, .colorMatrix, .colorMonochrome])
        XCTAssertEqual(root.filters[0].name, "blur")
        XCTAssertEqual(root.filters[0].inputRadius, 12)
        XCTAssertTrue(root.filters[0].inputNormalizeEdges)
        XCTAssertEqual(root.filters[1].name, "colorSaturate", "the name defaults to the type")
        XCTAssertEqual(root.filters[1].inputAmount, 0)
        XCTAssertEqual(root.filters[2].inputColorMatrix[2], 1)
        // CIColorMonochrome's defaults: inputColor (0.6, 0.45, 0.3), intensity 1.
        XCTAssertEqual(root.filters[3].inputColor, Color(0.6, 0.45, 0.3))
        XCTAssertEqual(root.filters[3].inputAmount, 1)
        // CIGaussianBlur's default radius, 10; edges transparent black by default.
        XCTAssertEqual(root.backgroundFilters[0].inputRadius, 10)
        XCTAssertFalse(root.backgroundFilters[0].inputNormalizeEdges)
    }

    func testBackdropLayerKeys() throws {
        let root = try decodeRoot(#"{"sublayers": [{"class": "CABackdropLayer", "scale": 0.25, "groupName": "bar"}, {"class": "CABackdropLayer"}]}"#)
        XCTAssertEqual(root.sublayers[0].layerClass, .backdrop)
        XCTAssertEqual(root.sublayers[0].backdrop.scale, 0.25)
        XCTAssertEqual(root.sublayers[0].backdrop.groupName, "bar")
        XCTAssertEqual(root.sublayers[1].backdrop.scale, 1, "default scale 1")
        XCTAssertNil(root.sublayers[1].backdrop.groupName)
    }

    func testUnknownFilterTypeIsLocatedWithASuggestion() {
        assertSceneError(sceneJSON(root: #"{"filters": [{"type": "gausianBlur"}]}"#), .invalidValue, pointer: "/root/filters/0/type",
                         message: "unknown filter type 'gausianBlur'")
        do {
            _ = try decodeRoot(#"{"filters": [{"type": "gausianBlur"}]}"#)
        } catch let e as SceneError {
            XCTAssertEqual(e.suggestion, "gaussianBlur")
        } catch { XCTFail("\(error)") }
    }

    func testInputTheTypeDoesNotTakeIsAnUnknownKey() {
        assertSceneError(sceneJSON(root: #"{"filters": [{"type": "colorInvert", "inputRadius": 3}]}"#), .unknownKey,
                         pointer: "/root/filters/0/inputRadius", message: "unknown input 'inputRadius' for a colorInvert filter (it takes no inputs)")
        assertSceneError(sceneJSON(root: #"{"filters": [{"type": "gaussianBlur", "inputRadus": 3}]}"#), .unknownKey,
                         pointer: "/root/filters/0/inputRadus", message: "for a gaussianBlur filter (it takes inputRadius, inputNormalizeEdges)")
    }

    func testWrongInputTypesAndValues() {
        assertSceneError(sceneJSON(root: #"{"filters": [{"type": "gaussianBlur", "inputRadius": "big"}]}"#), .wrongType,
                         pointer: "/root/filters/0/inputRadius", message: "expected a number, found a string")
        assertSceneError(sceneJSON(root: #"{"filters": [{"type": "gaussianBlur", "inputRadius": -1}]}"#), .outOfRange,
                         pointer: "/root/filters/0/inputRadius")
        assertSceneError(sceneJSON(root: #"{"filters": [{"type": "colorMatrix", "inputColorMatrix": [1, 0, 0]}]}"#), .invalidValue,
                         pointer: "/root/filters/0/inputColorMatrix", message: "inputColorMatrix needs 20 numbers")
        assertSceneError(sceneJSON(root: #"{"filters": {"type": "gaussianBlur"}}"#), .wrongType, pointer: "/root/filters",
                         message: "expected an array of filters")
        assertSceneError(sceneJSON(root: #"{"filters": [{"inputRadius": 2}]}"#), .missingKey, pointer: "/root/filters/0",
                         message: "missing required key 'type'")
    }

    func testBackdropKeysOnlyOnBackdropLayers() {
        assertSceneError(sceneJSON(root: #"{"groupName": "bar"}"#), .unknownKey, pointer: "/root/groupName")
        assertSceneError(sceneJSON(root: #"{"class": "CABackdropLayer", "scale": 0}"#), .outOfRange, pointer: "/root/scale")
    }

    func testFilterKeyPathsResolve() throws {
        let kp = try XCTUnwrap(KeyPathTable.resolve("filters.blur.inputRadius"))
        XCTAssertEqual(kp.valueType, .number)
        XCTAssertTrue(kp.layerProperty.animatable)
        XCTAssertEqual(KeyPathTable.resolve("backgroundFilters.tint.inputColor")?.valueType, .color)
        XCTAssertEqual(KeyPathTable.resolve("filters.my.dotted.name.inputAmount")?.valueType, .number)
        XCTAssertNil(KeyPathTable.resolve("filters.blur"))
        XCTAssertNil(KeyPathTable.resolve("filters.blur.inputWobble"))
        var layer = Layer()
        layer.filters = [Filter(.gaussianBlur, name: "blur")]
        XCTAssertTrue(layer.setValue(.number(4), forKeyPath: kp))
        XCTAssertEqual(layer.filters[0].inputRadius, 4)
        XCTAssertEqual(layer.value(forKeyPath: kp), .number(4))
    }
}
