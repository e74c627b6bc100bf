import ArgumentParser
import Plan

/// The shouldRasterize cache's limits (Core Animation's documented numbers by default).
struct RasterCacheOptions: ParsableArguments {
    @Option(name: .customLong("raster-cache-idle"),
            help: ArgumentHelp("Evict a shouldRasterize bitmap unused for longer than this (milliseconds of scene time).", valueName: "ms"))
    var idleMilliseconds: Double = 100

    @Option(name: .customLong("raster-cache-screens"),
            help: ArgumentHelp("Cap the shouldRasterize cache at this many screens of pixels.", valueName: "n"))
    var screens: Double = 2.5

    func validate() throws {
        guard idleMilliseconds.isFinite, idleMilliseconds >= 0 else { throw ValidationError("--raster-cache-idle must be a number of milliseconds ≥ 0") }
        guard screens.isFinite, screens >= 0, screens <= 1_000 else {
            throw ValidationError("--raster-cache-screens must be a number from 0 to 1000 (screens of pixels)")
        }
    }

    var cache: RasterCache { RasterCache(maxIdleSeconds: idleMilliseconds / 1000, maxScreens: screens) }
}
