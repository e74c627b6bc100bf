/// The emitter's random numbers, as a pure hash (no generator state), so a particle's draws depend
/// only on (seed, cell, particle index) and the simulation is stateless in time.
///
/// The hash is SplitMix64's finaliser (Steele, Lea, Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014; the constants of Java's `SplittableRandom`): `mix(x)` adds the golden
/// gamma 0x9E3779B97F4A7C15 and applies the 64-bit variant-13 finaliser.
/// - A top-level cell at index c of a layer with seed s has key `mix(mix(s) &+ (c + 1))`.
/// - Particle i of a cell with key k has key `mix(k ^ mix(i))`.
/// - Sub-cell c of the particle with key p has key `mix(p &+ (c + 1) &* 0xD1B54A32D192ED03)`.
/// - Draw d of a particle with key p is `mix(p ^ mix(d + 0x100))`'s top 53 bits over 2⁵³, in [0, 1);
///   `Draw` numbers the draws, each independent of the others.
enum ParticleRandom {
    /// The independent uniform draws of one particle.
    enum Draw: UInt64 {
        /// Where in its 1/birthRate slot the particle is born.
        case birth
        case lifetime, velocity
        /// The emission direction in the cone: cos θ and the azimuth φ.
        case coneCos, coneAzimuth
        /// The birth position on the emitter shape (three coordinates and a choice of vertex/edge/face).
        case positionU, positionV, positionW, positionPick
        case scale, spin, red, green, blue, alpha
    }

    @inline(__always)
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static func cellKey(seed: Int, cell: Int) -> UInt64 { mix(mix(UInt64(truncatingIfNeeded: seed)) &+ UInt64(cell + 1)) }
    static func subCellKey(parent: UInt64, cell: Int) -> UInt64 { mix(parent &+ UInt64(cell + 1) &* 0xD1B5_4A32_D192_ED03) }
    static func particleKey(cell: UInt64, index: Int) -> UInt64 { mix(cell ^ mix(UInt64(truncatingIfNeeded: index))) }

    /// Uniform in [0, 1).
    @inline(__always)
    static func unit(_ particle: UInt64, _ d: Draw) -> Double {
        Double(mix(particle ^ mix(d.rawValue &+ 0x100)) >> 11) * 0x1p-53
    }

    /// Uniform in [mean − range/2, mean + range/2] (CAEmitterCell's ranges, reference §2.5).
    @inline(__always)
    static func value(_ particle: UInt64, _ d: Draw, mean: Double, range: Double) -> Double {
        range == 0 ? mean : mean + range * (unit(particle, d) - 0.5)
    }
}
