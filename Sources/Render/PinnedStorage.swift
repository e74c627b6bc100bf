#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// C strings (and an array of pointers to them) that live as long as this object, for Vulkan
/// create-info structs that hold `const char*` / `const char* const*` beyond a single expression.
final class CStringArray {
    private(set) var pointers: [UnsafePointer<CChar>?]
    private let owned: [UnsafeMutablePointer<CChar>]

    init(_ strings: [String]) {
        owned = strings.map { strdup($0)! }
        pointers = owned.map { UnsafePointer($0) }
    }
    deinit { owned.forEach { free($0) } }

    var count: UInt32 { UInt32(owned.count) }
    subscript(i: Int) -> UnsafePointer<CChar> { UnsafePointer(owned[i]) }
}

/// Reads a fixed-size C char array imported as a tuple (e.g. VkPhysicalDeviceProperties.deviceName).
func string<T>(fromCCharTuple tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// An environment variable, nil when unset or empty.
func environment(_ name: String) -> String? {
    guard let v = getenv(name) else { return nil }
    let s = String(cString: v)
    return s.isEmpty ? nil : s
}

/// Storage for values whose addresses Vulkan create-infos hold (pNext chains, arrays, nested
/// structs): each `pin` copies a value to the heap and the arena frees everything when it goes away.
/// Keeping the arena alive across the Vulkan call replaces pyramids of `withUnsafePointer`.
final class PinnedArena {
    private var frees: [() -> Void] = []
    deinit { frees.forEach { $0() } }

    func pin<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
        p.initialize(to: value)
        frees.append { p.deinitialize(count: 1); p.deallocate() }
        return p
    }

    func pin<T>(array: [T]) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(array.count, 1))
        p.initialize(from: array, count: array.count)
        frees.append { p.deinitialize(count: array.count); p.deallocate() }
        return p
    }
}
