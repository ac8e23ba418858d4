import Foundation
import Testing

@testable import ScrollbackSite

/// Builds the Telegram and WhatsApp sample folders of `../shared/samples` into sites and counts
/// the message elements there against the messages of the raw files, counted here
/// independently of the importers.
@Suite struct TelegramWhatsAppSiteTests {
    static func samples() -> URL? { try? SharedSamples.folder() }

    static func files(_ folder: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        return enumerator.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath && $0.pathExtension != "" }
    }

    /// Telegram: entries of `messages`; WhatsApp: lines starting with a timestamp and `] ` or ` - `.
    static func rawCount(_ file: URL) throws -> Int {
        if file.pathExtension == "json" {
            let root = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
            return (root["messages"] as! [Any]).count
        }
        let pattern = try NSRegularExpression(
            pattern:
                #"^\[?\d{1,4}[./-]\d{1,2}[./-]\d{2,4},?[ \u00A0\u202F]\d{1,2}:\d{2}(:\d{2})?([ \u00A0\u202F_]?[AaPp]\.?[ \u00A0\u202F]?[Mm]\.?)?\.?(\] | - )"#
        )
        return try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n").filter { line in
            let string = String(
                String.UnicodeScalarView(line.unicodeScalars.filter { $0 != "\u{FEFF}" && $0 != "\u{200E}" }))
            return pattern.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
        }.count
    }

    @Test(arguments: ["telegram", "whatsapp"])
    func everyMessageOfTheSamplesIsOneElementOnTheSite(format: String) throws {
        guard let samples = Self.samples() else { return }
        let input = samples.appendingPathComponent(format)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("site")
        let report = try build(input, output)
        #expect(!report.hasErrors, "\(report.diagnostics.filter { $0.severity == .error })")
        let expected = try Self.files(input).reduce(0) { $0 + (try Self.rawCount($1)) }
        var ids: [String] = []
        // Every page but the site's index (whose previews never carry `data-message-id`).
        for page in Self.files(output)
        where page.pathExtension == "html" && page.path != output.appendingPathComponent("index.html").path {
            let html = try String(contentsOf: page, encoding: .utf8)
            var rest = html[...]
            while let range = rest.range(of: "data-message-id=\"") {
                let end = rest[range.upperBound...].firstIndex(of: "\"")!
                ids.append(page.deletingLastPathComponent().lastPathComponent + "/" + rest[range.upperBound..<end])
                rest = rest[end...]
            }
        }
        #expect(expected == (format == "telegram" ? 344 : 3091))
        #expect(ids.count == expected)
        #expect(Set(ids).count == expected, "each message appears once")
    }
}
