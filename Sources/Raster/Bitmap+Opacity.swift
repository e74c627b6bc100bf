extension Bitmap {
    /// Every pixel has alpha 255: the image hides whatever lies beneath it (the profiler's
    /// `blended` analysis). Scans the alpha bytes, stopping at the first translucent one.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count { if p[i] != 255 { return false }; i += 4 }
            return true
        }
    }
}
