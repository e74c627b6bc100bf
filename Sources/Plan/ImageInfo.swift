import LayerModel

/// What the planner needs to know about a decoded contents image: its pixel identity and size.
/// The caller decodes images (Raster) and hands the planner this table, so the plan stays pure.
public struct ImageInfo: Sendable, Hashable {
    public var key: UInt64
    public var width: Int
    public var height: Int
    public init(key: UInt64, width: Int, height: Int) { self.key = key; self.width = width; self.height = height }
}

/// Looks up decoded images by their source.
public typealias ImageTable = [ImageSource.Origin: ImageInfo]
