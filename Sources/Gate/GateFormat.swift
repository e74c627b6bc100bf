import SystemSupport

/// Numbers as the gate's outputs print them (stable, locale-free).
public enum GateFormat {
    /// At most `digits` decimals, trailing zeros dropped ("3", "1.25").
    public static func number(_ v: Double, digits: Int = 2) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        var s = String(cFormat: "%.\(digits)f", v)
        while s.contains(".") && (s.hasSuffix("0") || s.hasSuffix(".")) { s.removeLast() }
        return s == "-0" ? "0" : s
    }
    public static func pixels(_ v: Double) -> String {
        let a = abs(v)
        if a >= 1e6 { return String(cFormat: "%.2f Mpx", v / 1e6) }
        if a >= 1e4 { return String(cFormat: "%.1f kpx", v / 1e3) }
        return number(v, digits: 0) + " px"
    }
    /// 0.05 → "5 %", 0.125 → "12.5 %".
    public static func percent(_ v: Double) -> String { number(v * 100, digits: 1) + " %" }
    /// "+3", "-1.5", "+0".
    public static func signed(_ s: String, negative: Bool) -> String { (negative ? "" : "+") + s }
}
