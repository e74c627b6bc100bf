extension JSONParser {
    /// Powers of ten that a Double holds exactly (10^22 is the last: 5^22 < 2^53).
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The value of a number already checked against JSON's grammar, when it can be computed
    /// exactly from its digits; nil otherwise (the caller then asks `Double(String)`).
    ///
    /// Clinger's fast path: with at most 15 significant digits the digits form an integer `m` below
    /// 2^53, and for |e| ≤ 22 both `m` and 10^|e| are exact doubles, so `m * 10^e` or `m / 10^-e` is
    /// one correctly rounded operation: the same double `Double(String)` gives (strtod, correctly
    /// rounded). Scene numbers (`24`, `0.9`, `390`) all take it; making a String of each number and
    /// handing it to strtod: numbers were ≈ 1/7 of parsing a 10,000-layer scene (perf).
    static func exactDouble<Bytes: Collection<UInt8>>(_ text: Bytes) -> Double? where Bytes.Index == Int {
        var k = text.startIndex
        let end = text.endIndex
        let negative = text[k] == UInt8(ascii: "-")
        if negative { k += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while k < end {
            let b = text[k]
            if b >= 0x30 && b <= 0x39 {
                // Leading zeros ("0.05") add nothing to the mantissa and do not count against it.
                if mantissa != 0 || b != 0x30 { digits += 1 }
                if digits > 15 { return nil }
                mantissa = mantissa * 10 + UInt64(b - 0x30)
                if inFraction { fractionDigits += 1 }
            } else if b == UInt8(ascii: ".") {
                inFraction = true
            } else {
                break  // 'e' or 'E'
            }
            k += 1
        }
        var exponent = 0
        if k < end {
            k += 1  // e
            var exponentNegative = false
            if text[k] == UInt8(ascii: "-") { exponentNegative = true; k += 1 } else if text[k] == UInt8(ascii: "+") { k += 1 }
            while k < end {
                exponent = exponent * 10 + Int(text[k] - 0x30)
                if exponent > 400 { return nil }
                k += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        let e = exponent - fractionDigits
        let m = Double(mantissa)
        let v: Double
        if mantissa == 0 {
            v = 0
        } else if e >= 0 && e <= 22 {
            v = m * exactPowersOfTen[e]
        } else if e < 0 && e >= -22 {
            v = m / exactPowersOfTen[-e]
        } else {
            return nil
        }
        return negative ? -v : v
    }
}
