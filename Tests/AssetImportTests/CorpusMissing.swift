/// The corpus (`../shared/corpus`, beside the repository) is where CI and every development
/// checkout have it: its absence fails the test (it is never skipped).
struct CorpusMissing: Error, CustomStringConvertible {
    var message: String
    var description: String { message + " (the corpus must sit beside the repository, in ../shared/corpus)" }
}
