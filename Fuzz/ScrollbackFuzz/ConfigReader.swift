// Fuzz target `ConfigReader`: the site config reader (`scrollback.yml` through Yams; the first
// byte picks YAML or JSON). Properties: no crash or sanitizer report, a read takes at most a
// bound per input byte (`FuzzBound`: YAML alias bombs must be refused quickly), and every
// diagnostic is located.
import ScrollbackModel
import ScrollbackReading

func fuzzConfigReader(_ input: UnsafeBufferPointer<UInt8>) {
    guard let first = input.first else { return }
    let isJSON = first & 1 == 1
    let bytes = Array(input.dropFirst())
    let file = isJSON ? "scrollback.json" : "scrollback.yml"
    let result = FuzzBound.measure(bytes: input.count, what: "config read") {
        ConfigReader.read(bytes: bytes, file: file, isJSON: isJSON)
    }
    ReadCheck.checkLocated(result.diagnostics, what: "config reader")
}
