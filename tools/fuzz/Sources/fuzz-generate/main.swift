#if canImport(Glibc)
import Glibc
#endif
import FuzzHarness

// Writes the file a generated target builds from an input (its decisions), to look at a finding:
//   tools/fuzz/.build/release/fuzz-generate plist-dag|archive-dag|caml-dtd INPUT > FILE
// A plain executable: it never calls libFuzzer's driver.
func say(_ s: String) { _ = Array(s.utf8).withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) } }
let args = CommandLine.arguments
guard args.count == 3, let f = fopen(args[2], "rb") else {
    say("usage: fuzz-generate plist-dag|archive-dag|caml-dtd INPUT > FILE\n")
    exit(64)
}
var input: [UInt8] = []
var buffer = [UInt8](repeating: 0, count: 65_536)
while true {
    let n = fread(&buffer, 1, buffer.count, f)
    if n <= 0 { break }
    input += buffer[0..<n]
}
fclose(f)
let output: [UInt8]
switch args[1] {
case "plist-dag": output = PlistDAGGenerator.generate(input).file
case "archive-dag": output = ArchiveGraphGenerator.generate(input).file
case "caml-dtd": output = CAMLDocumentGenerator.generate(input)
default:
    say("unknown generated target '\(args[1])'\n")
    exit(64)
}
var written = 0
while written < output.count {
    let n = output[written...].withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count) }
    if n <= 0 { exit(1) }
    written += n
}
