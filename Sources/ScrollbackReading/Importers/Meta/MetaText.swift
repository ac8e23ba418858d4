import Foundation

/// The text rules of Meta's "Download your information" JSON, shared by Messenger and Instagram.
enum MetaText {
    /// `text` with Meta's mojibake undone: the exporter writes each UTF-8 byte as its own
    /// `\u00XX` escape (`\u00c3\u00a9` for `é`), so the string read holds one scalar per byte.
    /// Decoded only when every scalar fits in a byte and those bytes are valid UTF-8 as a whole:
    /// a string that is not mojibake (plain ASCII, real Latin-1 text such as `café`, text with
    /// scalars past U+00FF such as the end-to-end encrypted download's) passes unchanged.
    static func decoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var hasHighByte = false
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return text }
            if scalar.value >= 0x80 { hasHighByte = true }
            bytes.append(UInt8(scalar.value))
        }
        guard hasHighByte else { return text }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    /// A media `uri` as a path relative to the thread's file. Meta writes it from the
    /// download's root (`your_activity_across_facebook/messages/inbox/ana_12/photos/1.jpg`),
    /// while the importer reads media only inside the folder the thread's files are in: the
    /// longest run of the uri's first components that ends the folder's own path is dropped
    /// (`photos/1.jpg`). A uri that shares none (the end-to-end encrypted download's
    /// `./media/…`, a sticker in `messages/stickers_used/`) stays as written, relative to the
    /// file, so it resolves only when it lies inside that folder; `MediaResolver` refuses the rest.
    static func localPath(_ uri: String, folderComponents: [String]) -> String {
        let parts = uri.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var overlap = min(parts.count - 1, folderComponents.count)
        while overlap > 0 {
            if Array(parts[..<overlap]) == Array(folderComponents.suffix(overlap)) { break }
            overlap -= 1
        }
        guard overlap > 0 else { return uri }
        return parts[overlap...].joined(separator: "/")
    }

    /// The product a thread was exported from, as the source app key (`SourceApp`): Instagram
    /// when the download says so (its folders `your_instagram_activity/`, an `instagram-…zip`,
    /// a group link on `ig.me`), Messenger otherwise (Facebook's folders, the end-to-end
    /// encrypted download, and threads nothing marks: Messenger is where the shape comes from).
    static func product(paths: [String], groupLink: String?) -> String {
        if paths.contains(where: { $0.lowercased().contains("instagram") }) { return "instagram" }
        if let groupLink, groupLink.lowercased().contains("://ig.me/") { return "instagram" }
        return "messenger"
    }

    /// `1:02:03` or `2:03` for a call of `seconds`: a clock reads the same in every language.
    static func duration(_ seconds: Int) -> String {
        let hours = seconds / 3600
        let minutes = seconds / 60 % 60
        let rest = seconds % 60
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
