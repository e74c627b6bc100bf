import SystemSupport

/// Runs work on a thread with a stack of known size. Decoding, evaluating, planning and reporting
/// recurse once per level of the layer tree (at most `SceneLimits.maxLayerDepth` = 256; JSON nesting
/// at most 1024): a maximum-depth scene needs 2–4 MiB of stack in a debug build. The main thread
/// has 8 MiB, but worker threads (Dispatch's, used to profile catalogs on every core) may have far
/// less, so per-scene work there runs here instead: 64 MiB reserved, only the touched pages used.
public enum LargeStack {
    public static let bytes = 64 << 20

    /// Runs `body` on a fresh thread with a `bytes` stack and waits for it; rethrows its error.
    /// Where no thread can be started (a process limit), `body` runs on the calling thread.
    public static func run<T>(_ body: @escaping () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let work = Work { box.result = Result { try body() } }
        guard start(work) else { return try body() }
        return try box.result!.get()
    }

    /// Runs `work` on a new POSIX thread with a `bytes` stack and joins it; false if none started.
    private static func start(_ work: Work) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, bytes)
        let context = Unmanaged.passRetained(work).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        let started = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, context) == 0
        if started { pthread_join(thread, nil) }
        #else
        var thread: pthread_t?
        let started = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Work>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context) == 0
        if started, let thread { pthread_join(thread, nil) }
        #endif
        if !started { Unmanaged<Work>.fromOpaque(context).release() }
        return started
    }
}

/// The closure a new thread runs (a C thread entry point captures nothing, so it travels boxed).
private final class Work {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// The result handed from the worker thread back to the caller (after the join).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
