#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// `printf`-style formatting in the C locale (`%.1f`, `%g`, `%04x`, `%llu`, `%%`), what
    /// Foundation's `String(format:)` gives for those conversions, without loading Foundation's
    /// full library (see README). Arguments must match their conversions, as with `printf`.
    public init(cFormat format: String, _ arguments: CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 64)
        let needed = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        if needed < 0 { self = ""; return }
        if Int(needed) >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// A byte count in GiB with one decimal ("1.5 GiB"), as the memory limits' messages give it.
    /// A static function, not an `init(gibibytes:)`: an unlabelled `map(String.init)` over `Int`s
    /// resolved to such an initialiser ahead of the generic `init(_:)`, and printed line numbers
    /// and JSON-pointer indices as "0.0 GiB".
    public static func gibibytes(_ bytes: Int) -> String {
        String(cFormat: "%.1f GiB", Double(bytes) / Double(1 << 30))
    }
}
