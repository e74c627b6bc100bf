import CHostMemory
import SystemSupport
import LayerModel
import SceneFormat

/// The host memory a canvas needs, checked before the first frame: a 16384² canvas is within
/// `Canvas.maxPixelSide` but a frame of it costs gigabytes, and an allocation that fails in Swift
/// aborts the process ("failed to allocate …", SIGABRT). Refusing it up front gives a clear error.
public enum HostMemory {
    /// Host bytes per canvas pixel while a frame is drawn and written, measured on lavapipe
    /// (docs/decisions.md, "Limits": peak RSS grows by ≈ 16 B per pixel from 2048² to 4096² in `render`, 12 in
    /// `profile`, when the frame still went through a readback buffer and a straight-alpha copy):
    /// the device's target and, on GPUs, its readback buffer (CPU devices read the target in
    /// place), the frame read back, and libpng's rows. Kept at 16 as a margin.
    public static let drawnBytesPerPixel = 16
    /// Host bytes per canvas pixel for plan-only work (`--no-gpu`, gate): the profiler's
    /// per-pixel coverage and overdraw maps (measured ≈ 1 B per pixel).
    public static let plannedBytesPerPixel = 4
    /// Kept free for the rest of the process when the Vulkan driver is not started yet: lavapipe
    /// maps ≈ 600 MiB of address space (thread stacks, JIT), which counts against `ulimit -v`.
    public static let driverReserveBytes = 640 << 20
    /// Kept free once the driver is up (its mappings are then in VmSize already).
    public static let runningReserveBytes = 32 << 20

    /// Makes glibc map every allocation of 1 MiB or more on its own, so freeing it returns it to
    /// the system. Its default threshold rises to the size of the largest mapped block freed, after
    /// which blocks of that size come from the heap and stay in the process once freed: a decoded
    /// image let go after its upload (`DecodedImages`) then still counted in the peak memory (16
    /// full-screen layers: 346 MB instead of 331 MB before the PNG was written). Call once, first.
    public static func returnLargeBlocksWhenFreed() {
        _ = caprof_map_large_blocks(1 << 20)
    }

    /// What this process can still allocate, in bytes: the least of the memory the kernel says is
    /// available (MemAvailable), the address-space and data limits (RLIMIT_AS, RLIMIT_DATA) less what
    /// is mapped now, and the cgroup's memory.max less its current use. nil when none is known.
    public static func available() -> Int? {
        var candidates: [Int] = []
        if let kib = field("/proc/meminfo", "MemAvailable:") { candidates.append(kib << 10) }
        let mapped = (field("/proc/self/status", "VmSize:") ?? 0) << 10
        for resource in [RLIMIT_AS, RLIMIT_DATA] {
            var r = rlimit()
            #if os(Linux)
            let got = getrlimit(__rlimit_resource_t(resource.rawValue), &r) == 0
            #else
            let got = getrlimit(resource, &r) == 0
            #endif
            if got, r.rlim_cur < UInt64(Int.max) {   // RLIM_INFINITY is all ones
                candidates.append(max(0, Int(r.rlim_cur) - mapped))
            }
        }
        if let max = number("/sys/fs/cgroup/memory.max"), let current = number("/sys/fs/cgroup/memory.current") {
            candidates.append(Swift.max(0, max - current))
        }
        return candidates.min()
    }

    /// Refuses `canvas` when a frame needs more than `available` bytes at `bytesPerPixel`.
    /// `driverStarted`: whether the Vulkan driver is loaded already (checked before and after, so a
    /// hopeless canvas fails fast and the driver's own mappings are counted once known).
    public static func check(_ scene: Scene, scale: Double? = nil, bytesPerPixel: Int, driverStarted: Bool = false,
                             available: Int? = HostMemory.available()) throws {
        var canvas = scene.canvas
        if let scale { canvas.scale = scale }
        let reserve = bytesPerPixel == plannedBytesPerPixel ? runningReserveBytes : driverStarted ? runningReserveBytes : driverReserveBytes
        let needed = canvas.pixelWidth * canvas.pixelHeight * bytesPerPixel + reserve
        guard let available, needed > available else { return }
        throw SceneError(.limitExceeded, at: SourceLocation(file: scene.sourceFile, pointer: "/canvas", line: 0, column: 0),
                         "a \(canvas.pixelWidth)×\(canvas.pixelHeight)-pixel canvas needs about \(String.gibibytes(needed)) of host memory per frame, "
                         + "and this process can get \(String.gibibytes(available)) (MemAvailable, ulimit -v, cgroup memory.max); lower canvas.scale (or --scale) or run with more memory")
    }

    /// A "Key:  N kB" field of a /proc file, in KiB.
    private static func field(_ path: String, _ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }) else { return nil }
        return Int(line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }

    /// A file holding one number ("max" or unreadable: nil).
    private static func number(_ path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingWhitespaceAndNewlines())
    }
}
