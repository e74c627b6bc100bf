import ArgumentParser
import Pipeline
import Raster
import Render
import SceneFormat

/// caprof's exit codes (sysexits.h values, documented in the README and `caprof --help`).
enum CaprofExit {
    static let usage: Int32 = 64        // EX_USAGE: bad arguments
    static let dataError: Int32 = 65    // EX_DATAERR: invalid scene or image
    static let noInput: Int32 = 66      // EX_NOINPUT: scene or image file missing/unreadable
    static let unavailable: Int32 = 69  // EX_UNAVAILABLE: no Vulkan driver or usable device, or a
                                        // library caprof opens when needed (cairo, Pango) missing
    static let software: Int32 = 70     // EX_SOFTWARE: internal or Vulkan failure
    static let cantCreate: Int32 = 73   // EX_CANTCREAT: output not written
}

/// Prints an error the way compilers do (`file:line:col: error: …`) and maps it to an exit code.
func fail(_ error: Error) -> ExitCode {
    let (code, text): (Int32, String)
    switch error {
    case let e as SceneError:
        code = e.kind == .missingFile || e.kind == .io ? CaprofExit.noInput : CaprofExit.dataError
        text = e.description
    case let e as SceneImages.Failure:
        code = e.error.kind == .io ? CaprofExit.noInput : CaprofExit.dataError
        text = e.description
    case let e as PNGError:
        code = CaprofExit.cantCreate
        text = "error: \(e.message)"
    case let e as RenderError:
        switch e {
        case .noVulkanDriver, .noSuitableDevice, .preferredDeviceNotFound, .validationLayerMissing:
            code = CaprofExit.unavailable
        case .offscreenMemory:
            code = CaprofExit.dataError   // a scene beyond a documented limit, as the decoder's
        default:
            code = CaprofExit.software
        }
        text = "error: \(e)"
    case let e as ShapeRasterError where e.libraryUnavailable:
        code = CaprofExit.unavailable
        text = "error: \(e)"
    case let e as TextRasterError where e.libraryUnavailable:
        code = CaprofExit.unavailable
        text = "error: \(e)"
    case let e as VulkanError:
        // A failed call on a working setup: say what happened and what to try (exit 70, a tool error).
        code = CaprofExit.software
        text = "error: \(e): \(e.advice)"
    default:
        code = CaprofExit.software
        text = "error: \(error)"
    }
    Terminal.stderr.error(text)
    return ExitCode(code)
}
