/// What a media file really is, from its first bytes, and the extension it is published with.
///
/// The published extension decides the type a static host (and `serve`) sends it as, so it must
/// never be one a browser runs script in on the site's origin (`.html`, `.svg`, `.xml`, …),
/// whatever the file is called or holds:
/// - Content recognised by its magic bytes (images, audio, video, PDF) is published with that
///   type's extension: `photo.html` holding a PNG becomes `<hash>.png`.
/// - Content that looks like markup (its first non-blank byte is `<`, after any byte-order mark)
///   is refused: HTML, SVG and XML can all run script.
/// - Anything else keeps its extension only when that names a passive type; otherwise it is
///   published as `.bin` (sent as `application/octet-stream`: downloaded, never rendered).
enum MediaType: Equatable {
    /// A recognised passive format, with its extension (`.png`).
    case known(String)
    /// Markup: HTML, SVG, XML.
    case markup
    /// Not recognised.
    case unknown

    /// Extensions published as they are when the content is not recognised: types browsers
    /// show or download but never run (text is sent as `text/plain`).
    static let passiveExtensions: Set<String> = [
        ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".heic", ".heif", ".bmp", ".ico", ".tif", ".tiff",
        ".mp4", ".m4v", ".mov", ".webm", ".mkv", ".ogv", ".mp3", ".m4a", ".aac", ".wav", ".flac", ".ogg", ".oga",
        ".opus", ".pdf", ".txt", ".vcf", ".zip",
    ]

    /// The extension to publish with, or `nil` to refuse the file.
    static func siteExtension(sniffed: MediaType, fileExtension: String) -> String? {
        switch sniffed {
        case .markup: return nil
        case .known(let type): return type
        case .unknown:
            if fileExtension.isEmpty { return ".bin" }
            return passiveExtensions.contains(fileExtension) ? fileExtension : ".bin"
        }
    }

    /// The type of `bytes` by their first bytes.
    static func sniff(_ bytes: UnsafeRawBufferPointer) -> MediaType {
        func matches(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            guard offset + signature.count <= bytes.count else { return false }
            for (index, expected) in signature.enumerated() where bytes[offset + index] != expected { return false }
            return true
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { matches(Array(text.utf8), at: offset) }

        if matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .known(".png") }
        if matches([0xFF, 0xD8, 0xFF]) { return .known(".jpg") }
        if ascii("GIF87a") || ascii("GIF89a") { return .known(".gif") }
        if ascii("RIFF"), ascii("WEBP", at: 8) { return .known(".webp") }
        if ascii("RIFF"), ascii("WAVE", at: 8) { return .known(".wav") }
        if ascii("ftyp", at: 4) {
            if ascii("avif", at: 8) || ascii("avis", at: 8) { return .known(".avif") }
            if ascii("heic", at: 8) || ascii("heix", at: 8) || ascii("mif1", at: 8) { return .known(".heic") }
            if ascii("qt  ", at: 8) { return .known(".mov") }
            if ascii("M4A ", at: 8) { return .known(".m4a") }
            return .known(".mp4")
        }
        if matches([0x1A, 0x45, 0xDF, 0xA3]) { return .known(".webm") }
        if ascii("OggS") { return .known(".ogg") }
        if ascii("fLaC") { return .known(".flac") }
        if ascii("ID3") || (bytes.count > 1 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0) { return .known(".mp3") }
        if ascii("%PDF-") { return .known(".pdf") }
        if ascii("BM") && bytes.count > 14 { return .known(".bmp") }
        if matches([0x00, 0x00, 0x01, 0x00]) { return .known(".ico") }
        if ascii("PK\u{3}\u{4}") { return .known(".zip") }
        return looksLikeMarkup(bytes) ? .markup : .unknown
    }

    /// Whether the first non-blank character is `<`, in UTF-8 (with or without a byte-order
    /// mark) or UTF-16: how browsers and XML parsers would start reading it as markup.
    static func looksLikeMarkup(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        // UTF-16 (with a byte-order mark or without): a `<` with a zero byte beside it.
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            return bytes.prefix(512).contains(UInt8(ascii: "<"))
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x00 {
                index += 1
                continue
            }
            return byte == UInt8(ascii: "<")
        }
        return false
    }
}
