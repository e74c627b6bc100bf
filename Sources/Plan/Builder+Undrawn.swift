import Geometry
import LayerModel

extension Builder {
    /// A placeholder for subclass content caprof does not draw yet: the layer's rounded bounds
    /// (a gradient fills them; a shape's or a text's extent is not known without rasterising, so
    /// the bounds stand for it). It takes part in shaded pixels, overdraw, alignment and offscreen
    /// decisions; it raises no blending finding (its opacity is unknown) and is never drawn.
    mutating func undrawnContent(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip]) {
        guard undrawn.contains(layer.id), !layer.bounds.isEmpty else { return }
        let rect = layer.bounds.standardized
        if !isVisible(rect, world) { return }
        items.append(DrawItem(layer: layer.id, role: .unsupported, paint: .solid(.clear), transform: world, quad: rect,
                              shape: RoundedShape(rect: rect, radii: layer.cornerRadii, curve: layer.cornerCurve), clips: clips))
    }
}
