extension ProfileReport {
    /// The worst frame: the one shading the most pixels (the highest overdraw: every item's covered
    /// pixels summed), ties broken by the most blended pixels, then by the earliest frame. Decided
    /// from the plan's counters alone, so it is the same with and without the GPU and from run to
    /// run (GPU time would be neither). It is `totals.worstFrame`, the frame overlays show unless
    /// another is asked for.
    public static func worstFrame(in frames: [FrameRecord]) -> Int? {
        frames.min { a, b in
            if a.counters.shadedPixels != b.counters.shadedPixels { return a.counters.shadedPixels > b.counters.shadedPixels }
            if a.counters.blendedPixels != b.counters.blendedPixels { return a.counters.blendedPixels > b.counters.blendedPixels }
            return a.index < b.index
        }?.index
    }
}
