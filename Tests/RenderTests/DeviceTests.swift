import Foundation
import Geometry
import Plan
import Raster
import Render
import XCTest

/// Device selection, the no-driver error and a frame under the validation layer.
final class DeviceTests: GPUTestCase {
    func testSurveyListsLavapipeAsAccepted() throws {
        RenderTestSupport.pinLavapipe()
        let reports = try VulkanDevice.survey()
        let lavapipe = try XCTUnwrap(reports.first { $0.name.contains("llvmpipe") }, "devices: \(reports)")
        XCTAssertTrue(lavapipe.accepted, lavapipe.reason)
        XCTAssertEqual(lavapipe.kind, .cpu)
        XCTAssertTrue(lavapipe.apiVersion.hasPrefix("1.3"), lavapipe.apiVersion)
        XCTAssertFalse(lavapipe.driver.isEmpty)
        XCTAssertEqual(try RenderTestSupport.renderer().deviceName, lavapipe.name)
    }

    func testPreferredDeviceThatMatchesNothingIsATypedError() throws {
        RenderTestSupport.pinLavapipe()
        XCTAssertThrowsError(try Renderer(preferredDevice: "no-such-gpu-name")) { error in
            guard case .preferredDeviceNotFound(let name, let reports)? = error as? RenderError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(name, "no-such-gpu-name")
            XCTAssertFalse(reports.isEmpty)
        }
    }

    func testNoDriverErrorNamesThePackageToInstall() throws {
        // Point the loader at a driver manifest that does not exist, as on a machine without drivers.
        let names: [String] = ["VK_DRIVER_FILES", "VK_ICD_FILENAMES"]
        let saved: [(String, String?)] = names.map { name in (name, getenv(name).map { String(cString: $0) }) }
        defer { for (k, v) in saved { if let v { setenv(k, v, 1) } else { unsetenv(k) } } }
        setenv("VK_DRIVER_FILES", "/nonexistent.json", 1)
        setenv("VK_ICD_FILENAMES", "/nonexistent.json", 1)
        XCTAssertThrowsError(try Renderer()) { error in
            guard case .noVulkanDriver? = error as? RenderError else { return XCTFail("unexpected \(error)") }
            let message = "\(error)"
            XCTAssertTrue(message.contains("No Vulkan driver was found"), message)
            XCTAssertTrue(message.contains("mesa-vulkan-drivers"), message)
        }
        XCTAssertThrowsError(try VulkanDevice.survey())
    }

    func testAFrameWithEveryVariantIsCleanUnderTheValidationLayer() throws {
        // CAPROF_VALIDATION=1 turns validation errors into thrown errors; render every pipeline variant
        // (solid/texelFetch/linear, shape, inner shape, clips; the AFFINE fragment shaders and, for
        // the two items whose w varies, the perspective-correct ones) with a fresh renderer.
        RenderTestSupport.pinLavapipe()
        let saved = getenv("CAPROF_VALIDATION").map { String(cString: $0) }
        defer { if let saved { setenv("CAPROF_VALIDATION", saved, 1) } else { unsetenv("CAPROF_VALIDATION") } }
        setenv("CAPROF_VALIDATION", "1", 1)
        let renderer = try Renderer()
        let shape = RoundedShape(rect: Rect(0, 0, 16, 16), radii: [4, 4, 4, 4], curve: .continuous)
        let inner = RoundedShape(rect: Rect(2, 2, 12, 12), radii: [2, 2, 2, 2])
        let clip = Clip(transform: .rotation(0.3, 0, 0, 1), shape: shape, layer: 3)
        let bitmap = Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16))
        var tilted = Transform3D.translation(4, 22, 0)
        tilted.m14 = 0.001   // w varies across the item: perspective-correct interpolation
        let plan = FramePlan(pixelWidth: 32, pixelHeight: 32, clearColor: RGBA(0, 0, 0, 1),
                             images: [PlannedImage(key: 1, pixelWidth: 2, pixelHeight: 2)], items: [
            solid(Rect(0, 0, 16, 16), RGBA(1, 0, 0, 1), shape: shape, inner: inner, clips: [clip, clip]),
            image(0, Rect(0, 0, 2, 2), uv: Rect(0, 0, 2, 2), transform: .translation(20, 0)),
            image(0, Rect(0, 0, 8, 8), uv: Rect(0, 0, 2, 2), sampling: .linear, transform: .translation(20, 20)),
            solid(Rect(0, 16, 4, 4), RGBA(0, 1, 0, 1)),
            solid(Rect(0, 0, 8, 8), RGBA(0, 0, 1, 1), transform: tilted, shape: shape, clips: [clip]),
            image(0, Rect(0, 0, 8, 8), uv: Rect(0, 0, 2, 2), sampling: .linear, transform: tilted),
        ])
        XCTAssertEqual(plan.items.filter(\.interpolatesAffinely).count, 4)
        let frame = try renderer.render(plan, images: [1: bitmap])
        XCTAssertEqual(frame.stats.drawCalls, 6)
        _ = try renderer.render(plan, images: [1: bitmap])
    }
}

/// A catalog's scenes after the first draw on the first scene's device and pipelines, with empty
/// caches of their own: the same pixels, the same device, nothing resident from the other.
final class SharedDeviceTests: GPUTestCase {
    func testARendererSharingADeviceDrawsTheSamePixelsFromEmptyCaches() throws {
        let first = try RenderTestSupport.renderer()
        let second = try Renderer(sharingDeviceOf: first)
        XCTAssertTrue(second.sharesDevice(with: first))
        XCTAssertEqual(second.deviceName, first.deviceName)
        // A half-covered pixel at x = 10.5 as well as an exact one: the pipelines' antialiasing too.
        let plan = FramePlan(pixelWidth: 32, pixelHeight: 32, clearColor: .clear,
                             items: [solid(Rect(10.5, 10, 10, 10), RGBA(0, 1, 0, 1)), solid(Rect(2, 2, 4, 4), RGBA(1, 0, 0, 0.5))])
        let a = try first.render(plan, images: [:]), b = try second.render(plan, images: [:])
        XCTAssertEqual(a.pixels, b.pixels)
        // A renderer of its own shares nothing.
        XCTAssertFalse(try Renderer().sharesDevice(with: first))
    }
}
