#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver (compiler-rt, linked by `swiftc -sanitize=fuzzer`). SwiftPM gives each
/// executable its own entry symbol, which keeps libFuzzer's `main` out of the link, so each target's
/// main.swift hands its arguments to the driver explicitly.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

nonisolated(unsafe) private var body: (([UInt8]) -> Void)?

/// Runs libFuzzer with the process's arguments, calling `test` with each input; returns its status.
public func runFuzzer(_ test: @escaping ([UInt8]) -> Void) -> Int32 {
    body = test
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        body?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
}

/// Ends the process with `status` (libFuzzer returns only when a run is over).
public func exit(_ status: Int32) -> Never { Glibc.exit(status) }
