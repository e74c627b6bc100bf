import Foundation

/// Runs work on a thread with a stack of known size. Decoding, evaluating, planning and reporting
/// recurse once per level of the layer tree (at most `SceneLimits.maxLayerDepth` = 256; JSON nesting
/// at most 1024): a maximum-depth scene needs 2–4 MiB of stack in a debug build. The main thread
/// has 8 MiB, but worker threads (Dispatch's, used to profile catalogs on every core) may have far
/// less, so per-scene work there runs here instead: 64 MiB reserved, only the touched pages used.
public enum LargeStack {
    public static let bytes = 64 << 20

    /// Runs `body` on a fresh thread with a `bytes` stack and waits for it; rethrows its error.
    public static func run<T>(_ body: @escaping () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try body() }
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        return try box.result!.get()
    }
}

/// The result handed from the worker thread back to the waiting caller (after its semaphore).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
