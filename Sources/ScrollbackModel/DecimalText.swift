/// An integer's decimal text as bytes, as `String(value)` writes it, without making the
/// `String`: the one digit writer of the byte outputs (result rows, page markup).
public enum DecimalText {
    /// Calls `body` with the decimal digits of `value` (a leading `-` when negative); the bytes
    /// are valid only during the call.
    @inlinable
    public static func withDigits<Result>(
        of value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        // 19 digits and a sign: the longest `Int`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            var magnitude = value.magnitude
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// `value` with its thousands grouped by commas ("199,998"), the same in every process
    /// locale (a page does not depend on where it was built).
    public static func grouped(_ value: Int) -> String {
        var digits = String(value.magnitude)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return (value < 0 ? "-" : "") + digits + grouped
    }
}
