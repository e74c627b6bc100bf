/// Numbers in messages: "12", "0.5", "1e+300". (Geometry's `fmt` converts through Int64 and would
/// trap on the huge values a hostile file can hold.)
func display(_ v: Double) -> String {
    if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return String(v)
}
