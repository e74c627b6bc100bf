import Geometry
import LayerModel
import SceneFormat

/// Layer effects (`ef`): lottie-ios's Core Animation engine draws the drop shadow (as the
/// layer's shadow) and drops the others, each reported.
enum LottieEffects {
    static func apply(_ l: JSONValue, to layer: inout Layer, clock: LottieClock, ctx: LottieContext) throws {
        guard let list = l["ef"]?.array else { return }
        let name = l["nm"]?.string ?? "layer"
        for effect in list {
            if effect["en"]?.number == 0 { continue }
            let ty = effect["ty"]?.number ?? -1
            guard ty == 25 else {
                ctx.warn("layer '\(name)': the effect '\(effect["nm"]?.string ?? "?")' is not drawn by lottie-ios's Core Animation engine, as the device shows", at: effect, layer: layer.id)
                continue
            }
            // Drop shadow: colour, opacity (0…255), direction (degrees clockwise from up), distance, softness.
            let values = effect["ef"]?.array ?? []
            func value(_ i: Int) -> JSONValue? { i < values.count ? values[i]["v"] : nil }
            var animated = false
            func number(_ i: Int, _ fallback: Double) throws -> Double {
                guard let v = value(i) else { return fallback }
                let p = try LottieValues.scalar(v, ctx, what: "drop shadow")
                if p.isAnimated { animated = true }
                return p.initial
            }
            let color = try value(0).map { try LottieValues.color($0, ctx, what: "drop shadow colour").initial } ?? .black
            let opacity = try number(1, 255), direction = try number(2, 135), distance = try number(3, 5), softness = try number(4, 0)
            let angle = direction * .pi / 180
            layer.shadowColor = color
            layer.shadowOpacity = min(max(opacity / 255, 0), 1)
            layer.shadowOffset = Size(LottieMath.sin(angle) * distance, -LottieMath.cos(angle) * distance)
            layer.shadowRadius = max(softness, 0) / 5
            if animated {
                ctx.warn("layer '\(name)': an animated drop shadow keeps its first keyframe's values", at: effect, layer: layer.id)
            }
        }
    }
}
