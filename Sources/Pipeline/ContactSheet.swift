import SystemSupport
import Raster

/// A contact sheet: the frames of a sequence as thumbnails in a grid, each labelled with its
/// scene time and frame number, under a one-line title, on a dark neutral background. Frames are
/// added one by one as they are rendered (only the sheet is kept, never the full frames).
///
/// Layout, in sheet pixels (the constants below): a `margin` all round; the title (`PixelFont` at
/// `textScale`, `titleHeight` tall), then `titleGap`; then `rows` × `columns` cells, `gutter` apart
/// across and `rowGap` down. A cell is the thumbnail — the frame box-filtered down to at most
/// `maxThumbnailWidth` wide, keeping its aspect ratio, never enlarged — over a label strip
/// (`labelGap` + `textHeight`); a cell is as wide as its thumbnail, or its label where that is
/// wider. The sheet is as wide as its grid, or its title where that is wider (a single small
/// frame under a long file name), so the title is never cut; the grid then stays on the left, under
/// the title's start. Transparent frame pixels show a checkerboard.
public struct ContactSheet {
    public static let maxThumbnailWidth = 240
    public static let margin = 20
    /// Space between columns.
    public static let gutter = 12
    /// Space between rows (under a label).
    public static let rowGap = 20
    public static let textScale = 2
    public static let textHeight = PixelFont.cellHeight * textScale      // 16
    public static let titleHeight = textHeight
    public static let titleGap = 14
    public static let labelGap = 8
    /// Horizontal space between a label's time (left) and frame number (right).
    public static let labelSpace = 12
    public static let maxSide = 16384

    /// One cell's label: the time on the left, the frame number on the right.
    public struct Label: Sendable { public var time: String; public var frame: String
        public init(time: String, frame: String) { self.time = time; self.frame = frame } }

    public let frameWidth: Int, frameHeight: Int
    public let thumbnailWidth: Int, thumbnailHeight: Int
    public let columns: Int, rows: Int
    public let cellWidth: Int, cellHeight: Int
    public let width: Int, height: Int
    public let labels: [Label]
    /// The line above the grid.
    public let title: String
    public private(set) var pixels: [UInt8] = []

    /// Why a sheet cannot be made.
    public struct TooLarge: Error, CustomStringConvertible {
        public var width: Int, height: Int
        public var description: String {
            "the contact sheet would be \(width)×\(height) pixels; each side must be at most \(ContactSheet.maxSide) (use fewer frames or another --sheet-columns)"
        }
    }

    /// The layout for `labels.count` frames of `frameWidth`×`frameHeight`; `columns` nil =
    /// ⌈√n⌉ (a square-ish grid). Throws `TooLarge` before allocating anything when a side would
    /// exceed 16384 pixels.
    public init(frameWidth: Int, frameHeight: Int, labels: [Label], columns: Int? = nil, title: String = "") throws {
        precondition(frameWidth >= 1 && frameHeight >= 1 && !labels.isEmpty)
        let n = labels.count
        self.frameWidth = frameWidth; self.frameHeight = frameHeight; self.labels = labels; self.title = title
        let c = min(max(columns ?? Int(Double(n).squareRoot().rounded(.up)), 1), n)
        self.columns = c
        rows = (n + c - 1) / c
        thumbnailWidth = min(frameWidth, Self.maxThumbnailWidth)
        thumbnailHeight = max(1, Int((Double(frameHeight) * Double(thumbnailWidth) / Double(frameWidth)).rounded()))
        let labelWidth = labels.map {
            PixelFont.width(of: $0.time, scale: Self.textScale) + Self.labelSpace + PixelFont.width(of: $0.frame, scale: Self.textScale)
        }.max()!
        cellWidth = max(thumbnailWidth, labelWidth)
        cellHeight = thumbnailHeight + Self.labelGap + Self.textHeight
        let gridWidth = c * cellWidth + (c - 1) * Self.gutter
        width = 2 * Self.margin + max(gridWidth, PixelFont.width(of: title, scale: Self.textScale))
        height = 2 * Self.margin + Self.titleHeight + Self.titleGap + rows * cellHeight + (rows - 1) * Self.rowGap
        if width > Self.maxSide || height > Self.maxSide { throw TooLarge(width: width, height: height) }
    }

    // Colours (opaque, so premultiplied = straight): iOS dark-mode greys.
    static let background: (UInt8, UInt8, UInt8, UInt8) = (0x1C, 0x1C, 0x1E, 255)
    static let checkerDark: (UInt8, UInt8, UInt8, UInt8) = (0x2C, 0x2C, 0x2E, 255)
    static let checkerLight: (UInt8, UInt8, UInt8, UInt8) = (0x3A, 0x3A, 0x3C, 255)
    static let titleColor: (UInt8, UInt8, UInt8, UInt8) = (0xF2, 0xF2, 0xF7, 255)
    static let timeColor: (UInt8, UInt8, UInt8, UInt8) = (0xE5, 0xE5, 0xEA, 255)
    static let frameColor: (UInt8, UInt8, UInt8, UInt8) = (0x8E, 0x8E, 0x93, 255)
    static let checkerSize = 8

    /// Allocates the sheet and draws the background and the title.
    public mutating func begin() {
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        fill(x: 0, y: 0, w: width, h: height, Self.background)
        PixelFont.draw(title, into: &pixels, width: width, height: height, x: Self.margin, y: Self.margin,
                       scale: Self.textScale, color: Self.titleColor)
    }

    /// The top-left corner of cell `slot` (row-major).
    public func cellOrigin(_ slot: Int) -> (x: Int, y: Int) {
        let col = slot % columns, row = slot / columns
        return (Self.margin + col * (cellWidth + Self.gutter),
                Self.margin + Self.titleHeight + Self.titleGap + row * (cellHeight + Self.rowGap))
    }

    /// Draws frame `slot` (premultiplied RGBA8 of `frameWidth`×`frameHeight`) and its label.
    public mutating func add(frame: [UInt8], slot: Int) {
        precondition(!pixels.isEmpty, "ContactSheet.begin() first")
        precondition(frame.count == frameWidth * frameHeight * 4, "ContactSheet: frame size does not match the layout")
        let thumb = thumbnailWidth == frameWidth && thumbnailHeight == frameHeight ? frame
            : boxDownscale(frame, width: frameWidth, height: frameHeight, toWidth: thumbnailWidth, toHeight: thumbnailHeight)
        let (cx, cy) = cellOrigin(slot)
        let tx = cx + (cellWidth - thumbnailWidth) / 2
        // Checkerboard under the thumbnail, then the thumbnail source-over.
        for y in 0..<thumbnailHeight {
            for x in 0..<thumbnailWidth {
                let light = ((x / Self.checkerSize) + (y / Self.checkerSize)) % 2 == 1
                let bg = light ? Self.checkerLight : Self.checkerDark
                let s = (y * thumbnailWidth + x) * 4, d = ((cy + y) * width + tx + x) * 4
                let inv = 255 - Int(thumb[s + 3])
                pixels[d] = UInt8(min(255, Int(thumb[s]) + (Int(bg.0) * inv + 127) / 255))
                pixels[d + 1] = UInt8(min(255, Int(thumb[s + 1]) + (Int(bg.1) * inv + 127) / 255))
                pixels[d + 2] = UInt8(min(255, Int(thumb[s + 2]) + (Int(bg.2) * inv + 127) / 255))
                pixels[d + 3] = 255
            }
        }
        let label = labels[slot]
        let ly = cy + thumbnailHeight + Self.labelGap
        PixelFont.draw(label.time, into: &pixels, width: width, height: height, x: cx, y: ly,
                       scale: Self.textScale, color: Self.timeColor)
        let fw = PixelFont.width(of: label.frame, scale: Self.textScale)
        PixelFont.draw(label.frame, into: &pixels, width: width, height: height, x: cx + cellWidth - fw, y: ly,
                       scale: Self.textScale, color: Self.frameColor)
    }

    private mutating func fill(x: Int, y: Int, w: Int, h: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) {
        pixels.withUnsafeMutableBufferPointer { p in
            for row in y..<(y + h) {
                var i = (row * width + x) * 4
                for _ in 0..<w { p[i] = c.0; p[i + 1] = c.1; p[i + 2] = c.2; p[i + 3] = c.3; i += 4 }
            }
        }
    }
}
