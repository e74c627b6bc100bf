/// A JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped, every
/// other scalar written as itself (UTF-8). For the writers that build JSON text by hand: scene
/// files (`caprof convert`), the Perfetto trace and the JSON schema; reports go through JSONEncoder.
public enum JSONString {
    public static func quoted(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(cFormat: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
