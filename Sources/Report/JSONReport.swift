import Foundation
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

    public static func decode(_ data: Data) throws -> ProfileReport {
        try JSONDecoder().decode(ProfileReport.self, from: data)
    }
}
