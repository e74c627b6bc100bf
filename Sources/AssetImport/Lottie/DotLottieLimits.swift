extension DotLottiePackage {
    /// What a dotLottie package may declare before anything is inflated. A zip's sizes are only
    /// declarations (a bomb of a few kilobytes inflates to gigabytes), so every limit is checked on
    /// the central directory at open, and every read is still capped at the declared size + 1.
    public struct Limits: Sendable {
        /// Entries in the archive (libzip keeps a record per entry: checked before libzip opens it).
        public var maxEntries = 10_000
        /// One entry's uncompressed size (an animation or an image).
        public var maxEntryBytes = 64 << 20
        /// The uncompressed sizes of all entries together.
        public var maxTotalBytes = 256 << 20
        /// Uncompressed / compressed size, for entries larger than `ratioCheckedAbove`. Deflate
        /// reaches about 1032:1 at most, so only runs of one byte (a bomb's zeros) pass 1000.
        public var maxCompressionRatio = 1000
        /// Small entries may compress as they like: their size is bounded anyway.
        public var ratioCheckedAbove = 1 << 20
        /// `manifest.json`'s uncompressed size (real ones are a few hundred bytes).
        public var maxManifestBytes = 1 << 20
        /// The `.lottie` file itself, held in memory while the package is open.
        public var maxPackageBytes = 256 << 20

        public init() {}

        public static let standard = Limits()
    }
}
