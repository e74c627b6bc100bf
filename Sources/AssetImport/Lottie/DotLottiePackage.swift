import SceneFormat
import SystemSupport

/// A dotLottie package (`.lottie`): a zip archive of `manifest.json`, Lottie animations and the
/// images they use. Version 1 keeps animations at `animations/<id>.json` and images in `images/`;
/// version 2 at `a/<id>.json` and `i/` (its themes `t/` and state machines `s/` are not read).
///
/// Opening reads the whole file into memory, lets libzip check the archive (`ZipArchive`), refuses
/// what could escape or explode (climbing or absolute names, duplicates, encryption, declared sizes
/// and ratios over `Limits`), parses the manifest and checks that every animation it lists is
/// there. Nothing is extracted to disk; each read inflates one entry, capped at its declared size.
public struct DotLottiePackage: Sendable {
    /// The path (or name) given at open, for messages.
    public let file: String
    /// 1 or 2: the manifest's version, else the layout's (`a/` entries and no `animations/`: 2).
    public let version: Int
    /// The manifest's animations, in its order.
    public let animationIDs: [String]
    public let limits: Limits
    let archive: ZipArchive

    /// Every entry's name, in archive order (folders end with "/").
    public var entryNames: [String] { archive.entries.map(\.name) }
    /// The names of the entries in this version's images folder (`images/` or `i/`), in archive order.
    public var imageNames: [String] {
        archive.entries.filter { !$0.isDirectory && $0.name.hasPrefix(imagesFolder + "/") }.map(\.name)
    }

    /// Where this version keeps animations and images.
    var animationsFolder: String { version == 2 ? "a" : "animations" }
    var imagesFolder: String { version == 2 ? "i" : "images" }
    var errors: DotLottieErrors { archive.errors }

    /// Opens a `.lottie` file. Like scene files, what is not a regular file (a missing path, a
    /// folder, a FIFO that would block) is refused before it is opened.
    public static func open(path: String, limits: Limits = .standard) throws -> DotLottiePackage {
        let errors = DotLottieErrors(file: path)
        guard let status = FileStatus(path: path) else {
            throw errors.error(.io, entry: nil, "cannot read the package: it does not exist or is not accessible")
        }
        if status.isDirectory {
            throw errors.error(.io, entry: nil, "cannot read the package: it is a directory; expected a .lottie file (a zip archive)")
        }
        if !status.isRegularFile {
            throw errors.error(.io, entry: nil, "cannot read the package: it is not a regular file (a FIFO, socket or device); save it to a file first")
        }
        if status.size > limits.maxPackageBytes {
            throw errors.error(.limitExceeded, entry: nil, "the package is \(status.size) bytes; the limit is \(limits.maxPackageBytes)")
        }
        guard let bytes = FileBytes.read(path: path, upTo: limits.maxPackageBytes + 1, expected: status.size) else {
            throw errors.error(.io, entry: nil, "cannot read the package: permission denied")
        }
        return try open(bytes: bytes, file: path, limits: limits)
    }

    /// Opens a package from its bytes; `file` names it in messages.
    public static func open(bytes: [UInt8], file: String, limits: Limits = .standard) throws -> DotLottiePackage {
        let errors = DotLottieErrors(file: file)
        let archive = try ZipArchive(bytes: bytes, errors: errors, limits: limits)
        guard let manifestEntry = archive.entryByName[DotLottieManifest.entry] else {
            throw errors.error(.missingFile, entry: DotLottieManifest.entry, "the package has no manifest; expected manifest.json at its top level (entries: \(Self.list(archive.entries.map(\.name))))")
        }
        let manifestBytes = try archive.read(manifestEntry, limit: limits.maxManifestBytes)
        let manifest = try DotLottieManifest(bytes: manifestBytes, errors: errors)
        let names = archive.entries.map(\.name)
        let version = manifest.version
            ?? (names.contains { $0.hasPrefix("a/") } && !names.contains { $0.hasPrefix("animations/") } ? 2 : 1)
        let package = DotLottiePackage(file: file, version: version, animationIDs: manifest.animationIDs, limits: limits, archive: archive)
        // Every listed animation must be there: an importer may then take any id the manifest gives.
        for (id, value) in zip(manifest.animationIDs, manifest.idValues) {
            let name = package.animationEntry(id)
            if archive.entryByName[name] == nil {
                throw errors.error(.missingFile, at: value, entry: DotLottieManifest.entry,
                                   "animation \(DotLottieErrors.quote(id)) has no entry \(DotLottieErrors.quote(name)) in the package (dotLottie \(version) keeps animations in \(package.animationsFolder)/)")
            }
        }
        return package
    }

    /// The zip entry of animation `id` in this version's layout.
    func animationEntry(_ id: String) -> String { "\(animationsFolder)/\(id).json" }

    /// The animation's JSON bytes and its zip entry name; nil = the manifest's first animation. An
    /// unknown id is an error listing the ids there are.
    public func animation(_ id: String?) throws -> (id: String, entry: String, bytes: [UInt8]) {
        let chosen = id ?? animationIDs[0]
        guard animationIDs.contains(chosen) else {
            throw errors.error(.unresolvedReference, entry: DotLottieManifest.entry,
                               "no animation \(DotLottieErrors.quote(chosen)) in the package; its animations are \(Self.list(animationIDs))")
        }
        let name = animationEntry(chosen)
        guard let entry = archive.entryByName[name] else {   // checked at open
            throw errors.error(.missingFile, entry: name, "the entry is missing")
        }
        return (chosen, name, try archive.read(entry, limit: limits.maxEntryBytes))
    }

    /// An image an animation names (its asset's "u" + "p", e.g. "images/img_0.png",
    /// "/images/img_0.png" or just "img_0.png"): looked up inside the package (the version's images
    /// folder, else the name as given); nil when absent. A name that climbs out of the package
    /// ("../x.png", "images/../../x") or is absolute after stripping one leading "/" of the images
    /// folder convention is an error.
    public func image(_ name: String) throws -> [UInt8]? {
        // Lottie writes "u": "/images/" (v2: "/i/") meaning the package's root, not the disk's.
        let relative = name.hasPrefix("/") ? String(name.dropFirst()) : name
        if relative.isEmpty { return nil }
        if let problem = ZipEntryName.problem(relative) {
            throw errors.error(.invalidValue, entry: nil, "image \(DotLottieErrors.quote(name)): \(problem)")
        }
        for candidate in [imagesFolder + "/" + relative, relative] {
            if let entry = archive.entryByName[candidate], !entry.isDirectory {
                return try archive.read(entry, limit: limits.maxEntryBytes)
            }
        }
        return nil
    }

    /// "'a', 'b', 'c'" (at most 20 named, then a count), for messages that say what there is.
    static func list(_ names: [String]) -> String {
        if names.isEmpty { return "none" }
        let shown = names.prefix(20).map(DotLottieErrors.quote).joined(separator: ", ")
        return names.count > 20 ? shown + " and \(names.count - 20) more" : shown
    }
}
