import Animation
import LayerModel
import SceneFormat

/// Builds CAEmitterCells from an asset's stored keys (archives and CAML alike), typed as the scene
/// decoder types them (`EmitterCellKeyPaths`), and enforces the emitter limits of the scene format
/// (`SceneLimits.maxEmitterCells`, `maxEmitterCellDepth`, `maxEmitterParticles`).
/// Keys caprof does not draw (Core Animation's private `mass`, `rotation`, `rotationRange`,
/// `orientationLongitude` …) are reported once per cell and ignored.
final class EmitterCellBuilder {
    let ctx: ImportContext
    private var cells = 0

    init(ctx: ImportContext) { self.ctx = ctx }

    static let timingDefaults: [String: Double] = ["speed": 1, "timeOffset": 0, "repeatCount": 0, "repeatDuration": 0, "autoreverses": 0]

    /// Counts one more cell at `depth` (1 for the layer's own cells).
    func count(at place: SourceLocation, depth: Int) throws {
        cells += 1
        if cells > SceneLimits.maxEmitterCells {
            throw ctx.error(SceneLimits.Message.emitterCells, at: place, kind: .limitExceeded)
        }
        if depth > SceneLimits.maxEmitterCellDepth {
            throw ctx.error(SceneLimits.Message.emitterCellDepth, at: place, kind: .limitExceeded)
        }
    }

    /// Applies one stored key; a key that is not a CAEmitterCell property caprof reads goes to `ignored`.
    func apply(_ key: String, _ value: ImportedValue, to cell: inout EmitterCell, at place: SourceLocation, ignored: inout [String]) {
        if key == "name" { cell.name = value.string; return }
        if LayerBuilder.noEffectKeys.contains(key) || key == "minificationFilterBias" { return }
        // A cell's other CAMediaTiming keys, at their defaults, change nothing.
        if let d = Self.timingDefaults[key], value.number == d { return }
        if key == "fillMode" { return }
        // Archives write an endless emission as duration = inf; the scene format's "for ever" is 0.
        if key == "duration", let d = value.number, d.isInfinite, d > 0 { cell.duration = 0; return }   // the emission window (beginTime, duration) has no fill
        guard let p = EmitterCellKeyPaths.property(named: key) else { ignored.append(key); return }
        guard var typed = ValueTyping.typed(value, as: p.valueType, nullable: p.nullable) else {
            ctx.warn("CAEmitterCell \(key): expected \(p.valueType.summary), found \(value.kindDescription); the default is kept", at: place)
            return
        }
        if let domain = p.domain, case .number(let n) = typed, !domain.contains(n) {
            let clamped = min(max(n, domain.minimum ?? -.infinity), domain.maximum ?? .infinity)
            if abs(clamped - n) > 1e-6 || !domain.contains(clamped) {
                ctx.warn("CAEmitterCell \(key) \(n) is outside \(domain); the default is kept", at: place)
                return
            }
            typed = .number(clamped)
        }
        if !p.set(&cell, typed) { ctx.warn("CAEmitterCell \(key): the value could not be applied", at: place) }
    }

    func finish(_ cell: EmitterCell, ignored: [String], at place: SourceLocation) {
        guard !ignored.isEmpty else { return }
        ctx.warn("CAEmitterCell\(cell.name.map { " '\($0)'" } ?? ""): keys \(ignored.joined(separator: ", ")) are not drawn; they are ignored", at: place)
    }

    /// The live-particle estimate of a built emitter layer against the scene limit.
    func checkParticles(_ layer: Layer, at place: SourceLocation) throws {
        guard layer.layerClass == .emitter else { return }
        let n = EmitterSimulation.estimatedParticles(layer.emitter)
        guard n.isFinite, n <= Double(SceneLimits.maxEmitterParticles) else {
            throw ctx.error(SceneLimits.Message.particles(n, replicated: false), at: place, kind: .limitExceeded)
        }
    }
}
