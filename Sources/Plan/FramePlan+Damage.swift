extension FramePlan {
    /// The part of this plan a damaged frame must execute: the canvas items whose bounds meet a
    /// damaged rectangle (the others would be scissored away whole), and the offscreen passes
    /// they need, directly or through other passes, plus every pass that stores into the raster
    /// cache (a later frame's hit reads it). Pass indices are renumbered in order; `kept` maps each
    /// new pass to its index in `offscreenPasses`. Everything else is this plan's.
    ///
    /// Pure: the backend executes the result literally on top of the previous frame (its frame
    /// cache), so skipping a pass whose result no damaged pixel shows changes no pixel.
    ///
    /// `retaining`: passes (indices into `offscreenPasses`) whose results the backend takes from
    /// the previous frame (`RetainedPasses`): kept when needed, but not rendered, so the passes
    /// they read are not needed for them. `retained` lists them in the new numbering.
    public func restricted(to damage: FrameDamage) -> (plan: FramePlan, kept: [Int]) {
        let r = restricted(to: damage, retaining: [])
        return (r.plan, r.kept)
    }

    public func restricted(to damage: FrameDamage, retaining: Set<Int>) -> (plan: FramePlan, kept: [Int], retained: Set<Int>) {
        let w = pixelWidth, h = pixelHeight
        let keptCanvas = canvasItems.indices.filter { i in
            let item = canvasItems[i]
            guard item.role != .unsupported, let b = DamageBounds.of(item, width: w, height: h) else { return false }
            return damage.rects.contains { DamageRegion.overlap($0, b) }
        }
        let canvas = keptCanvas.map { canvasItems[$0] }
        var needed = Set<Int>()
        func need(_ items: [DrawItem]) {
            for item in items { if case .offscreen(.pass(let i), _, _) = item.paint { needed.insert(i) } }
        }
        need(canvas)
        for (i, pass) in offscreenPasses.enumerated() where pass.rasterCacheKey != nil { needed.insert(i) }
        // A pass only reads earlier passes: one walk from the last pass back closes the set.
        for i in offscreenPasses.indices.reversed() where needed.contains(i) && !retaining.contains(i) {
            switch offscreenPasses[i].operation {
            case .draw(let items): need(items)
            case .blur(let source, _, _, _, _): needed.insert(source)
            case .filter(let op): needed.formUnion(op.sources)
            case .backdrop: break   // reads the canvas, not a pass
            case .blend(let source, let destination, _): needed.insert(source); needed.insert(destination)
            }
        }
        let kept = offscreenPasses.indices.filter { needed.contains($0) }
        var newIndex: [Int: Int] = [:]
        for (n, i) in kept.enumerated() { newIndex[i] = n }
        func renumber(_ item: DrawItem) -> DrawItem {
            guard case .offscreen(.pass(let i), let sampling, let opacity) = item.paint, let n = newIndex[i] else { return item }
            var item = item
            item.paint = .offscreen(.pass(n), sampling: sampling, opacity: opacity)
            return item
        }
        var plan = self
        plan.offscreenPasses = kept.map { i in
            var pass = offscreenPasses[i]
            switch pass.operation {
            case .draw(let items): pass.operation = .draw(items.map(renumber))
            case .blur(let source, let sigma, let horizontal, let tint, let downsample):
                pass.operation = .blur(source: newIndex[source] ?? source, sigma: sigma, horizontal: horizontal,
                                       tint: tint, downsample: downsample)
            case .filter(var op):
                op.source = newIndex[op.source] ?? op.source
                op.coarse = op.coarse.map { newIndex[$0] ?? $0 }
                pass.operation = .filter(op)
            case .backdrop(var capture):
                // The canvas items kept before the capture (the renderer never draws a damaged
                // frame that captures; this keeps the plan consistent all the same).
                capture.canvasItemCount = keptCanvas.filter { $0 < capture.canvasItemCount }.count
                pass.operation = .backdrop(capture)
            case .blend(let source, let destination, let formula):
                pass.operation = .blend(source: newIndex[source] ?? source, destination: newIndex[destination] ?? destination,
                                        formula: formula)
            }
            return pass
        }
        plan.canvasItems = canvas.map(renumber)
        return (plan, kept, Set(kept.indices.filter { retaining.contains(kept[$0]) }))
    }
}
