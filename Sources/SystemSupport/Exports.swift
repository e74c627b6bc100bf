// What every module takes from the platform, in one place: the C library, and FoundationEssentials
// (Data, URL, FileManager, JSONEncoder, Date) where the toolchain has it, which is Linux: there
// `import Foundation` would load the full swift-corelibs-foundation with ICU (docs/performance.md, "Memory"). Darwin has
// only the full Foundation, which is part of the system there.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
