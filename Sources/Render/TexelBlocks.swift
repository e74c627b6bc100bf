/// How a texture holds its image's pixels.
///
/// `.rows` is the image as it is, row after row: every texture a sampler filters is one.
///
/// `.blocks` is for the image layers of flattened regions on CPU devices, which read them with
/// texelFetch only. The image is cut into 4×4-pixel blocks. Each block is one 64-byte row
/// segment (one cache line) of a texture 16 × ⌈w/4⌉ texels wide and ⌈h/4⌉ high. Pixel (x, y)
/// lies at texel (16·⌊x/4⌋ + 4·(y mod 4) + x mod 4, ⌊y/4⌋). Shaders/flatten.frag computes that
/// for layers in `FlattenVariant.blockMask`.
///
/// Why: lavapipe shades eight fragments at once, a 4×2 pixel group, and stores images row by
/// row. A group reads two rows of every layer: 16 full-screen layers make 64 row streams per
/// tile row, more than the prefetchers follow. In 4×4 blocks a group reads 32 bytes of one line,
/// and a layer is one stream. Measured on 16 full-screen 1170×2532 layers: 0.64× the GPU time of
/// row textures (`CAPROF_TEXEL_BLOCKS=off` to compare; docs/performance.md). GPUs tile their images
/// themselves, so there textures stay `.rows`.
enum TexelLayout: Hashable {
    case rows
    case blocks
}

enum TexelBlocks {
    static let side = 4

    /// The texture extent that holds a `width`×`height` image in blocks.
    static func extent(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + side - 1) / side * side * side, (height + side - 1) / side)
    }

    /// Whether the device can hold the image in blocks (the texture is four times as wide).
    static func fits(width: Int, height: Int, maxDimension: Int) -> Bool {
        let e = extent(width: width, height: height)
        return e.width <= maxDimension && e.height <= maxDimension
    }

    /// Writes `pixels` (RGBA8 rows, `width`×`height`) into `destination` in block order:
    /// `extent(width:height:)` texels of 4 bytes. Texels outside the image (the last block
    /// column or row of a size that is not a multiple of 4) are zero; nothing reads them.
    static func write(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, to destination: UnsafeMutableRawPointer) {
        let e = extent(width: width, height: height)
        let rowBytes = width * 4, blockRowBytes = e.width * 4
        let fullColumns = width / side, tail = width % side
        for blockRow in 0..<e.height {
            let out = destination + blockRow * blockRowBytes
            for dy in 0..<side {
                let y = blockRow * side + dy
                if y >= height {
                    // Below the image: zero this row of every block.
                    for bx in 0..<e.width / 16 { (out + bx * 64 + dy * 16).initializeMemory(as: UInt8.self, repeating: 0, count: 16) }
                    continue
                }
                var src = pixels.baseAddress! + y * rowBytes
                var dst = out + dy * 16
                // 16 bytes (4 pixels) per block: one unaligned 128-bit load and store.
                for _ in 0..<fullColumns {
                    dst.storeBytes(of: src.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
                    src += 16
                    dst += 64
                }
                if tail > 0 {
                    dst.initializeMemory(as: UInt8.self, repeating: 0, count: 16)
                    dst.copyMemory(from: src, byteCount: tail * 4)
                }
            }
        }
    }
}
