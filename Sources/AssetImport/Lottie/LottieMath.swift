#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum LottieMath {
    static func cos(_ x: Double) -> Double { Glibc.cos(x) }
    static func sin(_ x: Double) -> Double { Glibc.sin(x) }
}
