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

extension CaprofExit {
    /// The exit code of an error: one mapping for `fail` and for a catalog's failed scene.
    static func code(for error: Error) -> Int32 {
        switch error {
        case let e as SceneError:
            return e.kind == .missingFile || e.kind == .io ? noInput : dataError
        case let e as SceneImages.Failure:
            return e.error.kind == .io ? noInput : dataError
        case is PNGError:
            return cantCreate
        case let e as RenderError:
            switch e {
            case .noVulkanDriver, .noSuitableDevice, .preferredDeviceNotFound, .validationLayerMissing:
                return unavailable
            case .offscreenMemory:
                return dataError   // a scene beyond a documented limit, as the decoder's
            default:
                return software
            }
        case let e as ShapeRasterError where e.libraryUnavailable:
            return unavailable
        case let e as TextRasterError where e.libraryUnavailable:
            return unavailable
        default:
            // VulkanError included: a failed call on a working setup is a tool error.
            return software
        }
    }
}

/// Prints an error the way compilers do (`file:line:col: error: …`) and maps it to an exit code.
func fail(_ error: Error) -> ExitCode {
    let text: String
    switch error {
    case let e as SceneError: text = e.description
    case let e as SceneImages.Failure: text = e.description
    case let e as PNGError: text = "error: \(e.message)"
    // A failed call on a working setup: say what happened and what to try.
    case let e as VulkanError: text = "error: \(e): \(e.advice)"
    default: text = "error: \(error)"
    }
    Terminal.stderr.error(text)
    return ExitCode(CaprofExit.code(for: error))
}
