import Geometry
import LayerModel

/// A blend mode computed in a shader from the flattened layer and what lies beneath it
/// (`OffscreenPass.Operation.blend`, Shaders/blend_mode.frag). The raw values are the shader's
/// mode codes. Every formula is W3C Compositing and Blending Level 1's on sRGB-encoded colour,
/// composited with the general formula
///
///     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs),   αo = αs + αb·(1 − αs)
///
/// (= Cs' = (1 − αb)·Cs + αb·B(Cb, Cs), then source-over), except `plusDarker`.
public enum BlendFormula: Int, Sendable, CaseIterable {
    case multiply = 0, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference, exclusion
    // Non-separable (W3C §10.2: Lum, ClipColor, SetLum, Sat, SetSat).
    case hue, saturation, color, luminosity
    /// Core Graphics' kCGBlendModePlusDarker, R = MAX(0, 1 − ((1 − D) + (1 − S))), read on
    /// premultiplied components with 1 taken as the result's alpha αo (so a transparent source
    /// leaves the destination as it is and a transparent destination takes the source):
    /// co = max(0, αo − (αs − cs) − (αb − cb)) = max(0, cs + cb − αs·αb), αo = αs + αb·(1 − αs).
    /// For opaque colours it is Apple's formula exactly.
    case plusDarker
    /// Core Image's separable modes (Core Animation's compositingFilter takes them by the Core
    /// Image names). Apple describes them in words only ("darkens the background to reflect the
    /// source while increasing contrast"); B is the common (Photoshop) definition, per channel on
    /// un-premultiplied colour, composited with the general formula above like W3C's modes:
    /// - linear burn: max(0, Cb + Cs − 1); linear dodge: min(1, Cb + Cs);
    /// - linear light: clamp(Cb + 2·Cs − 1, 0, 1) (linear burn with 2·Cs, linear dodge with 2·Cs − 1);
    /// - pin light: Cs ≤ 0.5 ? min(Cb, 2·Cs) : max(Cb, 2·Cs − 1);
    /// - vivid light: Cs ≤ 0.5 ? colorBurn(Cb, 2·Cs) : colorDodge(Cb, 2·Cs − 1) (W3C's burn and dodge);
    /// - subtract: max(0, Cb − Cs);
    /// - divide: Cb / Cs capped at 1, and 1 where Cs = 0 (white, our choice for a division by zero),
    ///   except 0 where Cb = 0 too.
    case linearBurn, linearDodge, linearLight, pinLight, vividLight, subtract, divide
}

/// How a compositingFilter is executed: decided here, in the plan, so the profiler counts it.
public enum CompositingExecution: Equatable, Sendable {
    /// normalBlendMode: plain source-over.
    case sourceOver
    /// A blend state computes the mode exactly on premultiplied colour (screen, plusL and the
    /// Porter-Duff operators). `confined`: the operator changes the destination where the source
    /// is transparent (sourceIn, sourceOut, destinationIn), so the layer is always flattened and
    /// the operator applies within its image's bounds (its device bounding box), never beyond.
    case fixedFunction(DrawItem.Blend, confined: Bool)
    /// The mode needs the destination's colour in arithmetic a blend state cannot express.
    case shader(BlendFormula)

    public init(_ filter: CompositingFilter) {
        switch filter {
        case .normalBlendMode: self = .sourceOver
        // Screen: cs + cb − cs·cb = cs·1 + cb·(1 − cs), which is the general formula for B = screen.
        case .screenBlendMode: self = .fixedFunction(.screen, confined: false)
        case .sourceAtop: self = .fixedFunction(.sourceAtop, confined: false)
        case .sourceIn: self = .fixedFunction(.sourceIn, confined: true)
        case .sourceOut: self = .fixedFunction(.sourceOut, confined: true)
        case .destinationOver: self = .fixedFunction(.destinationOver, confined: false)
        case .destinationIn: self = .fixedFunction(.layerDestinationIn, confined: true)
        case .destinationOut: self = .fixedFunction(.destinationOut, confined: false)
        case .xor: self = .fixedFunction(.xor, confined: false)
        case .plusL: self = .fixedFunction(.plusLighter, confined: false)
        case .multiplyBlendMode: self = .shader(.multiply)
        case .overlayBlendMode: self = .shader(.overlay)
        case .darkenBlendMode: self = .shader(.darken)
        case .lightenBlendMode: self = .shader(.lighten)
        case .colorDodgeBlendMode: self = .shader(.colorDodge)
        case .colorBurnBlendMode: self = .shader(.colorBurn)
        case .softLightBlendMode: self = .shader(.softLight)
        case .hardLightBlendMode: self = .shader(.hardLight)
        case .differenceBlendMode: self = .shader(.difference)
        case .exclusionBlendMode: self = .shader(.exclusion)
        case .hueBlendMode: self = .shader(.hue)
        case .saturationBlendMode: self = .shader(.saturation)
        case .colorBlendMode: self = .shader(.color)
        case .luminosityBlendMode: self = .shader(.luminosity)
        case .plusD: self = .shader(.plusDarker)
        case .linearBurnBlendMode: self = .shader(.linearBurn)
        case .linearDodgeBlendMode: self = .shader(.linearDodge)
        case .linearLightBlendMode: self = .shader(.linearLight)
        case .pinLightBlendMode: self = .shader(.pinLight)
        case .vividLightBlendMode: self = .shader(.vividLight)
        case .subtractBlendMode: self = .shader(.subtract)
        case .divideBlendMode: self = .shader(.divide)
        }
    }
}

/// compositingFilter (reference §1.11b): the layer with its subtree is flattened, then composited
/// onto what lies beneath it with the mode.
///
/// The layer is first planned as usual (its own offscreen effects, opacity and ancestors' clips
/// included) into a list of its own, the source. Then:
/// - a fixed-function mode over one draw sets that item's blend state (no pass); over more draws,
///   or for an operator confined to the layer's bounds, the source is flattened into a pass
///   (`filter`) whose result is drawn back with the blend state;
/// - a shader mode needs what lies beneath. Its three passes (all `filter`, the size of the
///   source's device bounding box): the source flattened; the destination, i.e. the items of the
///   current target drawn so far, drawn again into a target of that box (on the canvas, over the
///   canvas's background colour: `fillCanvasBackground`); the blend of both. The blend's result
///   holds the final colour of every pixel of the box and replaces it (`DrawItem.Blend.replace`).
///
/// Why the destination is drawn again rather than read in place: reading the target's own pixel
/// in the fragment shader needs a VkRenderPass subpass self-dependency (the backend renders with
/// dynamic rendering throughout) or VK_KHR_dynamic_rendering_local_read (not in lavapipe 22.3), and
/// a copy of the target mid-draw would split the target's list, which the graph's model (passes
/// run before the list that samples them) does not express yet. Drawing it again keeps the graph
/// as it is, at the price of what lies beneath in the box (measured in Benchmarks'
/// OffscreenBenchmarks); once targets can be captured mid-list (backdrops need it too), the
/// destination pass can become such a copy without changing what the plan reports.
extension Builder {
    /// Called by `visit` for a layer whose compositingFilter is not source-over; `snapshot` is the
    /// transition flag the visit consumed.
    mutating func visitCompositingFilter(_ layer: Layer, parentSublayerToDevice: Transform3D, clips: [ActiveClip],
                                         opacity: Double, flippedAncestors: Int, path: [Int], snapshot: Bool) {
        var plain = layer
        plain.compositingFilter = .normalBlendMode
        let beneath = items
        let beneathIsTarget = listIsWholeTarget
        items = []
        listIsWholeTarget = true
        forceSnapshot = snapshot
        // The layer is flattened before it is blended: a backdrop inside reads that flattened
        // layer, not what lies beneath it (Builder+Backdrop.swift).
        offscreenDepth += 1
        offscreenLevels.append(OffscreenLevel(layer: layer.id, saved: beneath, savedWhole: beneathIsTarget, rasterized: false))
        visit(plain, parentSublayerToDevice: parentSublayerToDevice, clips: clips, opacity: opacity,
              flippedAncestors: flippedAncestors, path: path)
        offscreenDepth -= 1
        offscreenLevels.removeLast()
        let source = items
        items = beneath
        listIsWholeTarget = beneathIsTarget
        if source.allSatisfy({ $0.role == .unsupported }) { items += source; return }

        switch CompositingExecution(layer.compositingFilter) {
        case .sourceOver:
            items += source
        case .fixedFunction(let blend, let confined):
            if source.count == 1, !confined, source[0].blend == .sourceOver {
                var item = source[0]
                item.blend = blend
                items.append(item)
                return
            }
            guard let (pass, r) = flatten(source, layer) else { return }
            var item = composite(.pass(pass), layer, r, at: Point(Double(r.x), Double(r.y)), role: .offscreen)
            item.blend = blend
            items.append(item)
        case .shader(let formula):
            // Every blend mode draws what lies beneath it again: without a bound, n blend-mode
            // siblings would copy n²/2 items.
            if blendDestinationItems + beneath.count > Self.maxBlendDestinationItems {
                report(.blendBudget, layer, path)
                items += source
                return
            }
            blendDestinationItems += beneath.count
            guard let (pass, r) = flatten(source, layer) else { return }
            let space: Transform3D? = cullToCanvas ? .identity : nil
            let destination = addPass([.filter], layer.id, r, space: space,
                                      .draw(Self.moved(beneath, by: -Double(r.x), -Double(r.y))))
            // When everything beneath lies within the box the result replaces, it is drawn only
            // once, in the destination pass (a full-screen blend over content draws the content
            // once, not twice). Only when the list is the target's own (not a dissolve's two
            // states, whose first is faded by its position in the list) and every item reached the
            // pass (`placeable`): the profiler finds them again there by count. Never on a canvas
            // that a backdrop has captured after some of them (`capturesCanvasItems`): its capture
            // counts them on the canvas, where the backend cuts the canvas's draws.
            if !beneath.isEmpty, beneathIsTarget, offscreenPasses[destination].items.count == beneath.count,
               !(offscreenDepth == 0 && capturesCanvasItems), beneath.allSatisfy({ Self.lies(within: r, $0) }) {
                items = []
                movedBeneath[destination] = (layer.id, beneath.count)
            }
            let blended = addPass([.filter], layer.id, r, space: space,
                                  .blend(source: pass, destination: destination, formula: formula))
            var item = composite(.pass(blended), layer, r, at: Point(Double(r.x), Double(r.y)), role: .offscreen)
            item.blend = .replace
            items.append(item)
        }
    }

    /// Whether a backdrop captures the canvas after one of its items or more. Such a capture counts
    /// the canvas's list as it was planned (`BackdropCapture.canvasItemCount`), so no item it counts
    /// may leave that list: taken off into a blend's destination, the count would point past the
    /// canvas's items, or at the blend's result, which itself reads the capture (a backdrop
    /// blended with its own mode captures after everything beneath it).
    var capturesCanvasItems: Bool {
        offscreenPasses.contains { pass in
            if case .backdrop(let c) = pass.operation { return c.canvasItemCount > 0 }
            return false
        }
    }

    /// Whether every pixel `item` can paint lies within `r`. An item without a shape paints only
    /// pixels whose centre is in its quad. A shape's coverage ramps half a device pixel beyond the
    /// shape (Shaders/corners.glsl), and the backend grows its quad to shade that ramp, by more
    /// than a pixel where the matrix stretches unevenly: the shape's bounds, grown by a pixel,
    /// hold it whatever the quad. A blurred shape's quad holds its blur (3σ + 2 px: the tail beyond
    /// rounds to 0), grown by a pixel for the backend's growth.
    static func lies(within r: PixelRect, _ item: DrawItem) -> Bool {
        var painted = item
        var m = 0.0
        if let s = item.shape {
            m = 1
            if case .blurredShape = item.paint {} else { painted.quad = s.rect }
        }
        guard let b = bounds(of: [painted]) else { return true }   // nothing in front of the eye
        return b.minX - m >= Double(r.x) && b.minY - m >= Double(r.y)
            && b.maxX + m <= Double(r.x + r.width) && b.maxY + m <= Double(r.y + r.height)
    }

    /// The logical items a blend took off its target into its destination pass (in the target's
    /// space, through the item drawing the blend's result back), or none.
    func beneathMoved(into destination: Int, drawnBackBy item: DrawItem) -> [DrawItem] {
        guard let m = movedBeneath[destination], destination < offscreenPasses.count,
              offscreenPasses[destination].layer == m.layer, offscreenPasses[destination].items.count >= m.count else { return [] }
        return logicalItems(Array(offscreenPasses[destination].items.suffix(m.count))).map { x in
            var x = x
            x.transform = x.transform * item.transform
            return x
        }
    }

    /// The most items one frame's blend modes draw again as their destinations.
    static let maxBlendDestinationItems = 100_000

    /// The source drawn into a pass the size of its device bounding box (whole pixels, clipped to
    /// the canvas; inside a raster-cache bitmap, the bitmap's space).
    private mutating func flatten(_ source: [DrawItem], _ layer: Layer) -> (Int, PixelRect)? {
        guard let box = Self.bounds(of: source),
              let r = cullToCanvas ? targetRect(box, grownBy: 0) : Self.rasterRect(box) else { return nil }
        let pass = addPass([.filter], layer.id, r, space: cullToCanvas ? .identity : nil,
                           .draw(Self.moved(source, by: -Double(r.x), -Double(r.y))))
        return (pass, r)
    }

    /// A blend mode on the canvas reads the canvas's background colour beneath everything: its
    /// destination pass (cleared to transparent, as every pass) gets it as its first item. Run once
    /// the canvas's list is complete (only then is it known which blends landed on the canvas).
    mutating func fillCanvasBackground() {
        guard let bg = canvas.backgroundColor else { return }
        let fill = RGBA(premultiplying: bg)
        if fill.a <= 0 { return }
        // A blend result taken off the canvas into a later blend's destination still lies on the
        // canvas: its own destination reads the background too.
        var onCanvas = items[...]
        while let item = onCanvas.popFirst() {
            guard item.blend == .replace, case .offscreen(.pass(let k), _, _) = item.paint, k < offscreenPasses.count,
                  case .blend(_, let d, _) = offscreenPasses[k].operation,
                  case .draw(let drawn) = offscreenPasses[d].operation else { continue }
            if let m = movedBeneath[d], offscreenPasses[d].layer == m.layer {
                onCanvas += drawn.suffix(m.count)
            }
            let p = offscreenPasses[d]
            let background = DrawItem(layer: p.layer, role: .background, paint: .solid(fill), transform: .identity,
                                      quad: Rect(0, 0, Double(p.width), Double(p.height)))
            offscreenPasses[d].operation = .draw([background] + drawn)
        }
    }
}
