import SystemSupport
import Profile

/// The JSON report: `ProfileReport` encoded with sorted keys (byte-stable for the same values),
/// described by `ReportSchema.jsonSchema`.
public enum JSONReport {
    public static func encode(_ report: ProfileReport) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var d = try e.encode(report)
        d.append(0x0A)
        return d
    }

    /// Decodes a report of the current version; an older one is refused with what changed (its
    /// figures have other definitions, so comparing them with today's would mislead).
    public static func decode(_ data: Data) throws -> ProfileReport {
        struct Version: Decodable { var caprofReport: Int }
        if let v = try? JSONDecoder().decode(Version.self, from: data), v.caprofReport != ProfileReport.currentVersion {
            throw VersionError(found: v.caprofReport)
        }
        return try JSONDecoder().decode(ProfileReport.self, from: data)
    }

    /// A report of another format version.
    public struct VersionError: Error, CustomStringConvertible {
        public var found: Int
        public var description: String {
            "report format \(found) is not the format this caprof reads (\(ProfileReport.currentVersion))"
                + (found < ProfileReport.currentVersion ? "; format 2 redefined blended pixels and overdraw: profile the scene again" : "")
        }
    }
}
