import Geometry

/// The string grammars inside scene values, reachable on their own: the fuzz harness drives them
/// directly (through the decoder a mutated string rarely survives the JSON around it) and other
/// tools may validate a value without a scene around it.
public enum ValueGrammars {
    /// A syntax error at a 0-based offset (in Unicode scalars) of the string.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public var description: String { "at character \(offset + 1): \(message)" }
    }

    /// SVG path data (`"M0 0 L10 10 Z"`) with the scene's per-path element limit.
    public static func svgPath(_ s: String, maxElements: Int = SceneLimits.maxPathElements) throws -> Path {
        do { return try SVGPathParser.parse(s, maxElements: maxElements) } catch let g as GrammarError {
            throw SyntaxError(offset: g.offset, message: g.message)
        }
    }

    /// A transform-function list (`"translate(10, 20) rotate(45deg)"`).
    public static func transformFunctions(_ s: String) throws -> Transform3D {
        do { return try TransformFunctionParser.parse(s) } catch let g as GrammarError {
            throw SyntaxError(offset: g.offset, message: g.message)
        }
    }
}
