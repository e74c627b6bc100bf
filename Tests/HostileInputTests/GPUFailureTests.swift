import XCTest
import CVulkan
@testable import Render

/// A Vulkan failure on a working setup says what happened and what to do (the CLI prints it with
/// exit 70). Out of memory is simulated end to end in HostileInputCLITests (an address-space cap
/// under which lavapipe's vkAllocateMemory fails); a lost device cannot be provoked on lavapipe,
/// so its message is checked here.
final class GPUFailureTests: XCTestCase {
    func testOutOfMemoryAdvisesASmallerCanvasOrAnotherDevice() {
        for r in [VK_ERROR_OUT_OF_DEVICE_MEMORY, VK_ERROR_OUT_OF_HOST_MEMORY] {
            let e = VulkanError(call: "vkAllocateMemory", result: r)
            XCTAssertTrue(e.advice.hasPrefix("the Vulkan device ran out of memory."), e.advice)
            XCTAssertTrue(e.advice.contains("--scale") && e.advice.contains("CAPROF_DEVICE"), e.advice)
        }
    }

    func testADeviceLostSaysWhatWasSavedAndWhatToTry() {
        let e = VulkanError(call: "vkQueueSubmit", result: VK_ERROR_DEVICE_LOST)
        XCTAssertEqual(e.description, "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST (-4)")
        XCTAssertTrue(e.advice.contains("was lost during the run") && e.advice.contains("Run again"), e.advice)
    }

    func testAnUnknownFailureAsksForAReport() {
        XCTAssertTrue(VulkanError(call: "vkCreateImage", result: VK_ERROR_UNKNOWN).advice.contains("please report it"))
    }
}
