import LayerModel

/// iOS's semantic system colours (UIColor.systemBlue, .label, .secondarySystemBackground, …) by
/// their UIColor property names. They adapt to the appearance; a scene has none, so they take
/// their light-appearance, default-contrast values (iOS 15 and later, as
/// `resolvedColor(with: UITraitCollection(userInterfaceStyle: .light))` gives them; the table in
/// docs/scene-format.md, "Colour names", lists the same values, and a test compares the two).
enum SystemColors {
    static let light: [String: Color] = [
        "systemRed": Color(255 / 255, 59 / 255, 48 / 255, 1),
        "systemOrange": Color(255 / 255, 149 / 255, 0 / 255, 1),
        "systemYellow": Color(255 / 255, 204 / 255, 0 / 255, 1),
        "systemGreen": Color(52 / 255, 199 / 255, 89 / 255, 1),
        "systemMint": Color(0 / 255, 199 / 255, 190 / 255, 1),
        "systemTeal": Color(48 / 255, 176 / 255, 199 / 255, 1),
        "systemCyan": Color(50 / 255, 173 / 255, 230 / 255, 1),
        "systemBlue": Color(0 / 255, 122 / 255, 255 / 255, 1),
        "systemIndigo": Color(88 / 255, 86 / 255, 214 / 255, 1),
        "systemPurple": Color(175 / 255, 82 / 255, 222 / 255, 1),
        "systemPink": Color(255 / 255, 45 / 255, 85 / 255, 1),
        "systemBrown": Color(162 / 255, 132 / 255, 94 / 255, 1),
        "systemGray": Color(142 / 255, 142 / 255, 147 / 255, 1),
        "systemGray2": Color(174 / 255, 174 / 255, 178 / 255, 1),
        "systemGray3": Color(199 / 255, 199 / 255, 204 / 255, 1),
        "systemGray4": Color(209 / 255, 209 / 255, 214 / 255, 1),
        "systemGray5": Color(229 / 255, 229 / 255, 234 / 255, 1),
        "systemGray6": Color(242 / 255, 242 / 255, 247 / 255, 1),
        "label": Color(0 / 255, 0 / 255, 0 / 255, 1),
        "secondaryLabel": Color(60 / 255, 60 / 255, 67 / 255, 0.6),
        "tertiaryLabel": Color(60 / 255, 60 / 255, 67 / 255, 0.3),
        "quaternaryLabel": Color(60 / 255, 60 / 255, 67 / 255, 0.18),
        "placeholderText": Color(60 / 255, 60 / 255, 67 / 255, 0.3),
        "link": Color(0 / 255, 122 / 255, 255 / 255, 1),
        "separator": Color(60 / 255, 60 / 255, 67 / 255, 0.29),
        "opaqueSeparator": Color(198 / 255, 198 / 255, 200 / 255, 1),
        "systemBackground": Color(255 / 255, 255 / 255, 255 / 255, 1),
        "secondarySystemBackground": Color(242 / 255, 242 / 255, 247 / 255, 1),
        "tertiarySystemBackground": Color(255 / 255, 255 / 255, 255 / 255, 1),
        "systemGroupedBackground": Color(242 / 255, 242 / 255, 247 / 255, 1),
        "secondarySystemGroupedBackground": Color(255 / 255, 255 / 255, 255 / 255, 1),
        "tertiarySystemGroupedBackground": Color(242 / 255, 242 / 255, 247 / 255, 1),
        "systemFill": Color(120 / 255, 120 / 255, 128 / 255, 0.2),
        "secondarySystemFill": Color(120 / 255, 120 / 255, 128 / 255, 0.16),
        "tertiarySystemFill": Color(118 / 255, 118 / 255, 128 / 255, 0.12),
        "quaternarySystemFill": Color(116 / 255, 116 / 255, 128 / 255, 0.08),
    ]

    /// Every colour name a scene may use: UIKit's fixed colours and these, sorted.
    static var acceptedNames: [String] { (Array(Color.uiKitNames.keys) + Array(light.keys)).sorted() }

    static func named(_ s: String) -> Color? { Color.uiKitNames[s] ?? light[s] }
}
