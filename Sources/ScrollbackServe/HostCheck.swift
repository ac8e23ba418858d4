import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Which `Host` headers the dev server answers, against DNS rebinding: a page on another site
/// whose name the attacker points at 127.0.0.1 would otherwise read the preview (the logs, and
/// the error overlay's source lines) as its own origin. Such a request carries the attacker's
/// name in `Host`; the server answers only names that cannot be rebound.
///
/// Accepted: `localhost` (and `*.localhost`, which resolvers keep on loopback), the loopback
/// addresses `127.0.0.1` and `[::1]`, and the address the server is bound to; when it is bound to
/// every address (`0.0.0.0`, `::`), any IP address literal too (how another machine reaches it;
/// a literal names one machine and cannot be rebound). A port after the name is ignored.
struct HostCheck: Sendable {
    /// The address the server listens on, as the user gave it (`--bind`).
    let boundAddress: String

    /// Whether a request whose `Host` header is `host` (`nil`: none) is answered.
    func accepts(_ host: String?) -> Bool {
        guard let host, let name = Self.name(of: host) else { return false }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        let bound = Self.name(of: boundAddress) ?? boundAddress.lowercased()
        if name == bound { return true }
        guard let address = Self.addressBytes(name) else { return false }
        if address == [127, 0, 0, 1] || address == Array(repeating: 0, count: 15) + [1] { return true }
        if let boundBytes = Self.addressBytes(bound), boundBytes.allSatisfy({ $0 == 0 }) { return true }
        return false
    }

    /// The name of a `Host` value, lowercased, without port, brackets or a final dot; `nil` when
    /// it is not a plausible host (empty, a bracket left open, a port that is not digits).
    static func name(of host: String) -> String? {
        var text = Substring(host.lowercased())
        var name: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[text.index(after: text.startIndex)..<close]
            text = text[text.index(after: close)...]
        } else if text.filter({ $0 == ":" }).count > 1 {
            name = text  // a bare IPv6 address (the bound address as given to --bind)
            text = ""
        } else if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            text = text[colon...]
        } else {
            name = text
            text = ""
        }
        if !text.isEmpty {
            guard text.first == ":", text.dropFirst().allSatisfy(\.isASCII), text.dropFirst().allSatisfy(\.isNumber)
            else { return nil }
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        return name.isEmpty ? nil : String(name)
    }

    /// The bytes of an IPv4 (4 bytes) or IPv6 (16 bytes) address literal; `nil` for a name.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: v6) { Array($0) }
        }
        return nil
    }
}
