import Foundation

/// Wall-clock time per pipeline stage, in nanoseconds (measured around each stage, never read
/// inside evaluation or planning, which stay deterministic).
public struct StageTimings: Sendable {
    public var load: UInt64 = 0
    public var decodeImages: UInt64 = 0
    public var plan: UInt64 = 0
    public var render: UInt64 = 0
    public var encode: UInt64 = 0
    public init() {}

    public static func measure<T>(_ slot: inout UInt64, _ body: () throws -> T) rethrows -> T {
        let t0 = DispatchTime.now().uptimeNanoseconds
        defer { slot += DispatchTime.now().uptimeNanoseconds - t0 }
        return try body()
    }

    public var summary: String {
        func ms(_ ns: UInt64) -> String { String(format: "%.1f ms", Double(ns) / 1e6) }
        return "load \(ms(load)), images \(ms(decodeImages)), plan \(ms(plan)), render \(ms(render)), encode \(ms(encode))"
    }
}
