// libFuzzer target: the site config reader (`scrollback.yml` through Yams; the first byte picks
// YAML or JSON). Property: no crash or sanitizer report, and a read takes at most a bound per
// input byte (`FuzzBound`): YAML alias bombs must be refused quickly.
import Dispatch
import FuzzSupport
import ScrollbackReading

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let isJSON = data[0] & 1 == 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let start = DispatchTime.now().uptimeNanoseconds
    _ = ConfigReader.read(bytes: bytes, file: isJSON ? "scrollback.json" : "scrollback.yml", isJSON: isJSON)
    FuzzBound.check(start: start, bytes: size, what: "config read")
    return 0
}
