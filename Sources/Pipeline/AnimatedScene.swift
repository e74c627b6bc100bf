import Animation
import LayerModel
import Raster
import SceneFormat

/// A loaded scene ready to be rendered at any time: the document, its one `PresentationTimeline`
/// (built once, whatever the number of frames), and the images decoded so far. Images are cached
/// by source across frames: a source is decoded the first time a presentation tree shows it.
///
/// A class because the image cache fills as frames are rendered; use one per document.
public final class AnimatedScene {
    public let document: SceneDocument
    public let timeline: PresentationTimeline
    public private(set) var images: SceneImages

    /// `imageLimits` bound each image and all of them together (checked from headers before decoding).
    public init(_ document: SceneDocument, imageLimits: ImageLimits = .standard) {
        self.document = document
        images = SceneImages(loader: ImageLoader(limits: imageLimits))
        timeline = PresentationTimeline(scene: document.scene, animations: document.animations,
                                        transactions: document.transactions)
    }

    public var canvas: Canvas { document.scene.canvas }
    /// The span of scene time a whole-timeline run samples (`PresentationTimeline.duration`).
    public var duration: Double { timeline.duration }
    /// The scene's frame rate (`timeline.fps`).
    public var fps: Double { document.scene.timeline.fps }

    /// The presentation tree at scene time `time` (seconds).
    public func presentation(at time: Double) -> Layer { timeline.presentation(at: time) }
    /// The layers an animation animates, and moves, at `time` (`PresentationTimeline.animatedLayers`).
    public func animatedLayers(at time: Double) -> (animating: Set<LayerID>, moving: Set<LayerID>) { timeline.animatedLayers(at: time) }

    /// Decodes the images of `tree` not decoded yet; returns the table covering it.
    public func images(for tree: Layer) throws -> SceneImages {
        try images.add(root: tree)
        return images
    }
}
