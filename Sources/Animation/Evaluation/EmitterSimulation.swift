import Geometry
import Geometry
import LayerModel

/// CAEmitterLayer's particles at one time, computed from the layer's properties and that time
/// alone (reference §2.5): no state is carried from frame to frame, so frame N rendered alone is
/// frame N of a sequence, and frames can be rendered in any order.
///
/// - **Birth.** A cell emits at R = cell.birthRate × layer.birthRate per second during its window:
///   from its `beginTime` for `duration` seconds (0 = for ever) in the emitter's time; a sub-cell's
///   window starts at its parent particle's birth + its `beginTime` and ends at the parent's death
///   at the latest (a particle is the emitter of its sub-cells). Particle i is born at
///   τᵢ = start + (i + jᵢ)/R, jᵢ ∈ [0, 1) its `birth` draw (`ParticleRandom`): one particle per
///   1/R slot, jittered inside it. So by time start + n/R exactly n particles have been born.
/// - **Draws** (`ParticleRandom`, uniform in mean ± range/2): lifetime (× layer.lifetime), velocity
///   (× layer.velocity), scale, spin, colour components.
/// - **Motion**, closed form at age a = t − τ: p = p₀ + v·d·a + ½·(x, y, zAcceleration)·a²;
///   angle = spin × layer.spin × a; scale = layer.scale × (scale + scaleSpeed·a) (≥ 0); colour =
///   clamp(color + ranges) + (red, green, blue, alphaSpeed)·a, clamped to 0…1.
/// - **Direction** d: the unit vector at emissionLongitude in the x-y plane (0 = +x; y is down, so
///   π/2 points down the screen), raised by emissionLatitude toward +z; emissionRange is the full
///   angle of a cone around it, d uniform over the cone's solid angle (caprof's reading of
///   "a cone around the emission angle").
/// - **Birth position** (`EmitterGeometry`): emitterShape × emitterMode around
///   (emitterPosition, emitterZPosition), sized by emitterSize and emitterDepth.
/// - **Order** (renderMode): unordered and additive draw cells in order, each cell's particles
///   oldest first, then its sub-cells'; oldestFirst by birth time (oldest at the back), oldestLast
///   the reverse, backToFront by z (farthest first). Ties keep the unordered order.
///
/// Bounded: the decoder refuses an emitter whose estimate (`estimatedParticles`) exceeds the
/// scene limit; at run time (animated rates) at most `maxParticles` are produced and at most
/// `maxCandidates` birth slots examined per frame, newest first, so nothing can run away.
public enum EmitterSimulation {
    /// Mirrors `SceneLimits.maxEmitterParticles` (Animation does not depend on SceneFormat).
    public static let maxParticles = 100_000
    static let maxCandidates = 400_000
    /// Sub-cells nested deeper than this emit nothing (the scene limit on cells bounds them too).
    static let maxDepth = 8

    /// Live particles of `emitter` at `time` in the emitter layer's own time.
    public static func particles(_ emitter: EmitterProperties, time t: Double) -> [Particle] {
        guard t.isFinite else { return [] }
        var run = Run(layer: emitter, time: t)
        for (c, cell) in emitter.emitterCells.enumerated() {
            run.emit(cell, key: ParticleRandom.cellKey(seed: emitter.seed, cell: c), depth: 0,
                     windowStart: cell.beginTime,
                     windowEnd: cell.duration > 0 ? cell.beginTime + cell.duration : .infinity, parent: nil)
        }
        return run.ordered()
    }

    /// Σ over cells of births per second × longest lifetime, the particles alive at once at steady
    /// state (the limit `SceneLimits.maxEmitterParticles` applies to it). A sub-cell's births per
    /// second are its parent's × the seconds each parent emits (its duration, else the parent's
    /// longest lifetime) × its rate.
    public static func estimatedParticles(_ emitter: EmitterProperties) -> Double {
        func walk(_ cells: [EmitterCell], parentBirths: Double?, parentLifetime: Double, depth: Int) -> Double {
            guard depth <= maxDepth else { return 0 }
            var n = 0.0
            for c in cells where c.enabled {
                let rate = max(c.birthRate * emitter.birthRate, 0)
                let births: Double
                if let pb = parentBirths {
                    let window = c.duration > 0 ? min(c.duration, parentLifetime) : parentLifetime
                    births = pb * window * rate
                } else {
                    births = rate
                }
                let life = maxLifetime(c, emitter)
                n += births * life + walk(c.emitterCells, parentBirths: births, parentLifetime: life, depth: depth + 1)
            }
            return n
        }
        return walk(emitter.emitterCells, parentBirths: nil, parentLifetime: 0, depth: 0)
    }

    static func maxLifetime(_ c: EmitterCell, _ e: EmitterProperties) -> Double {
        max(0, (c.lifetime + abs(c.lifetimeRange) / 2) * e.lifetime)
    }

    /// The longest time after its birth that a particle of `c`, or a descendant, is alive.
    static func horizon(_ c: EmitterCell, _ e: EmitterProperties, depth: Int) -> Double {
        let own = maxLifetime(c, e)
        guard depth < maxDepth else { return own }
        var h = own
        for s in c.emitterCells where s.enabled {
            // A sub-particle is born within the parent's life and lives its own horizon.
            h = max(h, own + horizon(s, e, depth: depth + 1))
        }
        return h
    }

    /// One particle's motion, kept for its sub-cells (their birth position is the parent's
    /// position at their birth).
    struct Motion {
        var origin: (x: Double, y: Double, z: Double)
        var velocity: (x: Double, y: Double, z: Double)
        var acceleration: (x: Double, y: Double, z: Double)
        var birth: Double
        func position(at time: Double) -> (x: Double, y: Double, z: Double) {
            let a = time - birth
            return (origin.x + velocity.x * a + 0.5 * acceleration.x * a * a,
                    origin.y + velocity.y * a + 0.5 * acceleration.y * a * a,
                    origin.z + velocity.z * a + 0.5 * acceleration.z * a * a)
        }
    }

    struct Run {
        let layer: EmitterProperties
        let time: Double
        var out: [Particle] = []
        var candidates = 0

        init(layer: EmitterProperties, time: Double) { self.layer = layer; self.time = time }

        mutating func emit(_ cell: EmitterCell, key: UInt64, depth: Int, windowStart: Double, windowEnd: Double,
                           parent: Motion?) {
            guard cell.enabled, depth <= maxDepth else { return }
            let rate = cell.birthRate * layer.birthRate
            guard rate > 0, rate.isFinite, windowStart.isFinite, time >= windowStart else { return }
            let reach = horizon(cell, layer, depth: depth)
            // Slots whose particle (or descendants) may be alive: τ in (t − reach, min(t, end)].
            let last = (min(time, windowEnd) - windowStart) * rate
            let first = (time - reach - windowStart) * rate
            guard last >= 0, last.isFinite else { return }
            let hi = Int(min(last.rounded(.down), Double(Int.max / 2)))
            // Clamped as `hi` is: a rate of 1e300 makes `first` finite but past Int.max (a trap,
            // found by fuzzing archives whose emitter rates are extreme).
            let lo = max(0, first.isFinite ? Int(min(max(first.rounded(.down), -1), Double(Int.max / 2))) : 0)
            guard hi >= lo else { return }
            // Newest first, so a capped frame drops the oldest; the cell's own particles are then
            // put back in birth order, ahead of its sub-cells' (appended to `out` meanwhile).
            let start = out.count
            var mine: [Particle] = []
            var i = hi
            while i >= lo {
                candidates += 1
                if candidates > maxCandidates || out.count + mine.count >= maxParticles { break }
                let p = ParticleRandom.particleKey(cell: key, index: i)
                let birth = windowStart + (Double(i) + ParticleRandom.unit(p, .birth)) / rate
                i -= 1
                guard birth <= time, birth < windowEnd else { continue }
                let motion = self.motion(cell, particle: p, birth: birth, parent: parent)
                let lifetime = max(0, ParticleRandom.value(p, .lifetime, mean: cell.lifetime, range: cell.lifetimeRange)) * layer.lifetime
                let age = time - birth
                if age < lifetime, let contents = cell.contents {
                    mine.append(particle(cell, contents, p, motion, age: age))
                }
                for (s, sub) in cell.emitterCells.enumerated() {
                    let begin = birth + sub.beginTime
                    var end = birth + lifetime
                    if sub.duration > 0 { end = min(end, begin + sub.duration) }
                    guard end > begin else { continue }
                    emit(sub, key: ParticleRandom.subCellKey(parent: p, cell: s), depth: depth + 1,
                         windowStart: begin, windowEnd: end, parent: motion)
                }
            }
            out.insert(contentsOf: mine.reversed(), at: start)
        }

        func motion(_ cell: EmitterCell, particle p: UInt64, birth: Double, parent: Motion?) -> Motion {
            let origin = parent.map { $0.position(at: birth) }
                ?? EmitterGeometry.birthPosition(layer, particle: p)
            let speed = ParticleRandom.value(p, .velocity, mean: cell.velocity, range: cell.velocityRange) * layer.velocity
            let d = EmitterGeometry.direction(longitude: cell.emissionLongitude, latitude: cell.emissionLatitude,
                                              range: cell.emissionRange, particle: p)
            return Motion(origin: origin, velocity: (d.x * speed, d.y * speed, d.z * speed),
                          acceleration: (cell.xAcceleration, cell.yAcceleration, cell.zAcceleration), birth: birth)
        }

        func particle(_ cell: EmitterCell, _ contents: ImageSource, _ p: UInt64, _ m: Motion, age: Double) -> Particle {
            let pos = m.position(at: time)
            let scale0 = ParticleRandom.value(p, .scale, mean: cell.scale, range: cell.scaleRange)
            let spin = ParticleRandom.value(p, .spin, mean: cell.spin, range: cell.spinRange) * layer.spin
            func channel(_ mean: Double, _ range: Double, _ speed: Double, _ d: ParticleRandom.Draw) -> Double {
                let born = min(max(ParticleRandom.value(p, d, mean: mean, range: range), 0), 1)
                return min(max(born + speed * age, 0), 1)
            }
            let c = cell.color
            let color = Color(channel(c.red, cell.redRange, cell.redSpeed, .red),
                              channel(c.green, cell.greenRange, cell.greenSpeed, .green),
                              channel(c.blue, cell.blueRange, cell.blueSpeed, .blue),
                              channel(c.alpha, cell.alphaRange, cell.alphaSpeed, .alpha))
            return Particle(contents: contents, contentsRect: cell.contentsRect, contentsScale: cell.contentsScale,
                            minificationFilter: cell.minificationFilter, magnificationFilter: cell.magnificationFilter,
                            position: Point(pos.x, pos.y), z: pos.z, angle: spin * age,
                            scale: max(0, layer.scale * (scale0 + cell.scaleSpeed * age)), color: color,
                            age: age, birthTime: m.birth)
        }

        /// The particles in renderMode's order.
        func ordered() -> [Particle] {
            switch layer.renderMode {
            case .unordered, .additive: return out
            case .oldestFirst: return stable(out) { $0.birthTime < $1.birthTime }
            case .oldestLast: return stable(out) { $0.birthTime > $1.birthTime }
            case .backToFront: return stable(out) { $0.z < $1.z }
            }
        }

        func stable(_ a: [Particle], _ before: (Particle, Particle) -> Bool) -> [Particle] {
            a.enumerated().sorted { x, y in
                before(x.element, y.element) ? true : before(y.element, x.element) ? false : x.offset < y.offset
            }.map(\.element)
        }
    }
}
