/// The names UIKit gives to what Core Animation calls otherwise: an iOS developer writes
/// `clipsToBounds` for `masksToBounds` out of habit. An unknown key, enum value or key path that
/// is a UIKit name is answered with the Core Animation name, whatever its edit distance (the
/// generic `Suggestion` would find `alpha` nowhere near `opacity`). Consulted by
/// `Suggestion.nearest` before the edit-distance search, and only when the Core Animation name is
/// one of the candidates there (so `alpha` suggests `opacity` as a key and as a key path, never
/// as a gravity).
enum UIKitHabits {
    /// UIKit spelling → Core Animation spelling.
    static let names: [String: String] = [
        // UIView properties and their layer counterparts.
        "clipsToBounds": "masksToBounds",
        "alpha": "opacity",
        "isHidden": "hidden",
        "isOpaque": "opaque",
        "contentMode": "contentsGravity",
        "contentScaleFactor": "contentsScale",
        "layer.cornerRadius": "cornerRadius",
        "transform3D": "transform",
        "center": "position",
        "isDoubleSided": "doubleSided",
        "isGeometryFlipped": "geometryFlipped",
        // UIView.ContentMode cases and their contentsGravity values.
        "scaleToFill": "resize",
        "scaleAspectFit": "resizeAspect",
        "scaleAspectFill": "resizeAspectFill",
        "aspectFit": "resizeAspect",
        "aspectFill": "resizeAspectFill",
        // UIView.animate options' curve names and timing functions.
        "curveEaseIn": "easeIn",
        "curveEaseOut": "easeOut",
        "curveEaseInOut": "easeInEaseOut",
        "curveLinear": "linear",
        "easeInOut": "easeInEaseOut",
    ]

    /// The Core Animation name for `word` when it is a UIKit habit and that name is a candidate.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        guard let name = names[word], candidates.contains(name) else { return nil }
        return name
    }
}
