import Foundation
import ScrollbackModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a media reference written in a log (a relative path or a URL) into a `MediaSource`.
///
/// Relative paths resolve against the log file's folder and must stay inside the input folder
/// (symlinks included); they become `.local` assets with a content-hashed site path and, for
/// PNG/JPEG/GIF/WebP, the pixel size read from the file header. `http(s)` URLs become `.remote`
/// (or `.unavailable` when remote media is off). Anything else is refused with a warning.
///
/// Refused with a warning: absolute paths, `//host` references, every scheme other than
/// `http`/`https` — including all `data:` URLs (an inline image should be saved as a file next
/// to the log; keeping data URLs out keeps pages small and the rule simple) — and paths that
/// leave the input folder, lexically (`../`) or through a symlink.
///
/// Each file is read and hashed once per resolver however often it is referenced;
/// the resolver is safe to use from several threads.
public final class MediaResolver: @unchecked Sendable {
    /// The input folder; nothing outside it is read.
    public let inputRoot: URL
    /// Whether `http(s)` media is referenced (config `remoteMedia`).
    public let allowsRemoteMedia: Bool

    /// What a path resolved to; cached so a file referenced 10,000 times is examined once.
    private enum Outcome {
        case asset(LocalAsset)
        case missing
        case refused(String)
    }

    private let lock = NSLock()
    /// By the standardized absolute path the reference names (before symlinks).
    private var outcomes: [String: Outcome] = [:]
    /// By log file and reference text: what `resolve` answered.
    private var references: [ReferenceKey: Resolution] = [:]
    /// By real path: two references to one file share the asset.
    private var assets: [String: LocalAsset] = [:]
    /// By log file path: its standardized folder.
    private var folders: [String: String] = [:]
    /// The input folder with symlinks resolved, or `nil` if it does not exist.
    private let realRoot: String?
    private let standardRoot: String

    /// Files larger than this are refused (config `maxMediaBytes`).
    public let maximumMediaBytes: Int64

    /// Creates a resolver for `inputRoot`.
    public init(inputRoot: URL, allowsRemoteMedia: Bool, maximumMediaBytes: Int64 = SiteConfig().maxMediaBytes) {
        self.inputRoot = inputRoot
        self.allowsRemoteMedia = allowsRemoteMedia
        self.maximumMediaBytes = maximumMediaBytes
        self.standardRoot = inputRoot.standardizedFileURL.path
        self.realRoot = MediaResolver.realPath(inputRoot.standardizedFileURL.path)
    }

    /// Resolves `reference`, written in `logFile` at `location`; warnings go to `diagnostics`.
    ///
    /// The answer depends only on the log file and the reference text (files are examined
    /// once), so it is kept by that pair: a corpus names a few files tens of thousands of
    /// times, and the URL and path work per reference would otherwise dominate.
    public func resolve(
        _ reference: String, relativeTo logFile: URL, at location: SourceLocation,
        diagnostics: inout [Diagnostic]
    ) -> MediaSource {
        resolve(reference, relativeTo: logFile, logPath: logFile.path, at: location, diagnostics: &diagnostics)
    }

    /// `resolve(_:relativeTo:at:diagnostics:)` for a caller that knows `logFile.path` already:
    /// a reader asks once per log instead of once per reference (`URL.path` decodes the URL).
    func resolve(
        _ reference: String, relativeTo logFile: URL, logPath: String, at location: SourceLocation,
        diagnostics: inout [Diagnostic]
    ) -> MediaSource {
        let key = ReferenceKey(logFile: logPath, reference: reference)
        lock.lock()
        let cached = references[key]
        lock.unlock()
        let resolution: Resolution
        if let cached {
            resolution = cached
        } else {
            resolution = resolveUncached(reference, relativeTo: logFile, logPath: logPath)
            lock.lock()
            references[key] = resolution
            lock.unlock()
        }
        if let warning = resolution.warning { diagnostics.append(.warning(warning, at: location)) }
        return resolution.source
    }

    /// The standardized folder of `logFile` (whose path is `logPath`), worked out once per log.
    private func folder(of logFile: URL, logPath: String) -> String {
        lock.lock()
        let cached = folders[logPath]
        lock.unlock()
        if let cached { return cached }
        let folder = logFile.deletingLastPathComponent().standardizedFileURL.path
        lock.lock()
        folders[logPath] = folder
        lock.unlock()
        return folder
    }

    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)`, without the Foundation call (and
    /// its bridging) when neither end is whitespace, as in nearly every reference.
    static func trimmingWhitespace(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            !CharacterSet.whitespacesAndNewlines.contains(first), !CharacterSet.whitespacesAndNewlines.contains(last)
        else { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
        return text
    }

    /// A log file's path and a reference written in it.
    private struct ReferenceKey: Hashable {
        let logFile: String
        let reference: String
    }

    /// What a reference resolves to, and the warning (if any) to report at each place it is written.
    private struct Resolution {
        let source: MediaSource
        let warning: Problem?
    }

    /// `resolve` without the cache by reference.
    private func resolveUncached(_ reference: String, relativeTo logFile: URL, logPath: String) -> Resolution {
        func refuse(_ reason: String) -> Resolution {
            Resolution(
                source: .unavailable(original: reference), warning: .refusedMediaReference(reference, reason: reason))
        }
        let trimmed = MediaResolver.trimmingWhitespace(reference)
        if trimmed.isEmpty { return refuse("it is empty; expected a relative path or an http(s) URL") }
        if let scheme = MediaResolver.scheme(of: trimmed) {
            switch scheme {
            case "http", "https":
                guard let url = URL(string: trimmed), let host = url.host, !host.isEmpty else {
                    return refuse("it is not a valid http(s) URL")
                }
                return Resolution(
                    source: allowsRemoteMedia ? .remote(trimmed) : .unavailable(original: reference), warning: nil)
            case "data":
                return refuse("data: URLs are not supported; save the file next to the log and use a relative path")
            default:
                return refuse("the '\(scheme):' scheme is not allowed; expected a relative path or an http(s) URL")
            }
        }
        if trimmed.hasPrefix("/") || trimmed.hasPrefix("\\") {
            return refuse("absolute paths are not allowed; expected a path relative to the log file")
        }
        let folder = self.folder(of: logFile, logPath: logPath)
        var outcome = self.outcome(forPath: MediaResolver.join(folder, trimmed))
        if case .missing = outcome, trimmed.contains("%"), let decoded = trimmed.removingPercentEncoding {
            // Markdown destinations are URL-like: `my%20photo.png` names `my photo.png`.
            outcome = self.outcome(forPath: MediaResolver.join(folder, decoded))
        }
        switch outcome {
        case .asset(let asset): return Resolution(source: .local(asset), warning: nil)
        case .refused(let reason): return refuse(reason)
        case .missing:
            return Resolution(source: .unavailable(original: reference), warning: .missingMediaFile(reference))
        }
    }

    /// Every local file resolved so far, ordered by site path: what the site must copy
    /// (also files only rich text refers to, as `@root/media/…`).
    public func resolvedAssets() -> [LocalAsset] {
        lock.lock()
        defer { lock.unlock() }
        return assets.values.sorted { $0.sitePath < $1.sitePath }
    }

    // MARK: paths

    private func outcome(forPath path: String) -> Outcome {
        lock.lock()
        if let cached = outcomes[path] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        let computed = examine(path)
        lock.lock()
        defer { lock.unlock() }
        if let cached = outcomes[path] { return cached }  // another thread was faster
        if case .asset(let asset) = computed, let shared = assets[asset.sourcePath] {
            outcomes[path] = .asset(shared)
            return .asset(shared)
        }
        if case .asset(let asset) = computed { assets[asset.sourcePath] = asset }
        outcomes[path] = computed
        return computed
    }

    private func examine(_ path: String) -> Outcome {
        let outside = "it leaves the input folder; expected a path inside \(inputRoot.lastPathComponent)/"
        guard MediaResolver.isInside(path, root: standardRoot) else { return .refused(outside) }
        guard let real = MediaResolver.realPath(path) else { return .missing }
        guard let realRoot, MediaResolver.isInside(real, root: realRoot) else {
            return .refused("it is a link to a file outside the input folder")
        }
        // Hidden files and folders (`.env`, `.git/…`) are never published, whatever links lead there.
        let inside = [path.dropFirst(standardRoot.count), real.dropFirst(realRoot.count)]
        if inside.contains(where: { $0.split(separator: "/").contains { $0.hasPrefix(".") } }) {
            return .refused("it is a hidden file; hidden files are never published")
        }
        var status = stat()
        guard stat(real, &status) == 0 else { return .refused("the file cannot be read") }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return .refused("it is a folder, not a file") }
        // Checked before the file is read: a sparse file of a few kilobytes on disk can claim gigabytes.
        guard Int64(status.st_size) <= maximumMediaBytes else {
            return .refused(
                "it is \(status.st_size) bytes, over the limit of \(maximumMediaBytes) bytes (config 'maxMediaBytes')")
        }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: real), options: .mappedIfSafe) else {
            return .refused("the file cannot be read")
        }
        // What the bytes are decides the published type, not the name: markup that a browser
        // would run as a page or an SVG on the site's origin is refused.
        let sniffed = data.withUnsafeBytes { MediaType.sniff(UnsafeRawBufferPointer($0)) }
        guard let siteExtension = MediaType.siteExtension(sniffed: sniffed, fileExtension: Self.siteExtension(of: real))
        else {
            return .refused(
                "it holds HTML, SVG or XML, which could run script on the site; expected an image, video, audio or document file"
            )
        }
        let hash = data.withUnsafeBytes { StableHash.fnv1a64(UnsafeRawBufferPointer($0)) }
        let hex = String(hash, radix: 16)
        let name = String(repeating: "0", count: 16 - hex.count) + hex
        let sitePath = "media/" + name + siteExtension
        let size = data.withUnsafeBytes { ImageHeader.pixelSize(of: UnsafeRawBufferPointer($0)) }
        return .asset(LocalAsset(sourcePath: real, sitePath: sitePath, pixelSize: size))
    }

    /// `.png` for `Photo.PNG`; extensions other than short alphanumerics become `.bin`.
    static func siteExtension(of path: String) -> String {
        let ext = PathText.pathExtension(path).lowercased()
        if ext.isEmpty { return "" }
        guard ext.utf8.count <= 10, ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return ".bin"
        }
        return "." + ext
    }

    /// The URL scheme of `reference` (lowercased), if it starts with one (`name:` before any `/`, `?` or `#`).
    static func scheme(of reference: String) -> String? {
        // On bytes first: a scheme is ASCII, and an ASCII byte is a character of its own unless a
        // combining mark follows it. Only `:` followed by a non-ASCII byte needs the characters.
        let utf8 = reference.utf8
        guard let colonByte = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let candidateBytes = utf8[..<colonByte]
        guard let firstByte = candidateBytes.first, Self.isASCIILetter(firstByte),
            candidateBytes.allSatisfy({ byte in
                Self.isASCIILetter(byte) || (0x30...0x39).contains(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E
            })
        else { return nil }  // a non-scheme character before the first colon, whatever follows it
        let afterColon = utf8.index(after: colonByte)
        if afterColon == utf8.endIndex || utf8[afterColon] < 0x80 {
            return String(decoding: candidateBytes, as: UTF8.self).lowercased()
        }
        return characterScheme(of: reference)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    /// `scheme(of:)` by characters, for a colon that a combining mark may join.
    private static func characterScheme(of reference: String) -> String? {
        guard let colon = reference.firstIndex(of: ":") else { return nil }
        let candidate = reference[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
            candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        return candidate.lowercased()
    }

    /// `folder/relative`, with `.` and `..` removed lexically.
    static func join(_ folder: String, _ relative: String) -> String {
        var parts = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(String(part))
        }
        return "/" + parts.joined(separator: "/")
    }

    static func isInside(_ path: String, root: String) -> Bool {
        path != root && InputContainment.isInside(path, root: root)
    }

    /// The canonical path with every symlink resolved, or `nil` if it does not exist.
    static func realPath(_ path: String) -> String? {
        InputContainment.realPath(path)
    }

}

/// Reads the pixel size from the header of a PNG, JPEG, GIF or WebP file.
enum ImageHeader {
    /// The size, or `nil` if the bytes are none of these formats or the header is cut short.
    static func pixelSize(of bytes: UnsafeRawBufferPointer) -> PixelSize? {
        let count = bytes.count
        func byte(_ index: Int) -> Int { Int(bytes[index]) }
        func bigEndian16(_ index: Int) -> Int { byte(index) << 8 | byte(index + 1) }
        func bigEndian32(_ index: Int) -> Int { bigEndian16(index) << 16 | bigEndian16(index + 2) }
        func littleEndian16(_ index: Int) -> Int { byte(index) | byte(index + 1) << 8 }
        func littleEndian24(_ index: Int) -> Int { littleEndian16(index) | byte(index + 2) << 16 }
        func matches(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            guard offset + signature.count <= count else { return false }
            for (index, expected) in signature.enumerated() where bytes[offset + index] != expected { return false }
            return true
        }
        func size(_ width: Int, _ height: Int) -> PixelSize? {
            width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
        }

        // PNG: signature, then the IHDR chunk with width and height (big-endian).
        if matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard count >= 24, matches(Array("IHDR".utf8), at: 12) else { return nil }
            return size(bigEndian32(16), bigEndian32(20))
        }
        // GIF: logical screen size (little-endian).
        if matches(Array("GIF87a".utf8)) || matches(Array("GIF89a".utf8)) {
            guard count >= 10 else { return nil }
            return size(littleEndian16(6), littleEndian16(8))
        }
        // JPEG: walk the marker segments to the first start-of-frame.
        if matches([0xFF, 0xD8]) {
            var offset = 2
            while offset + 3 < count {
                guard bytes[offset] == 0xFF else { return nil }
                let marker = bytes[offset + 1]
                if marker == 0xFF {  // fill byte
                    offset += 1
                    continue
                }
                if marker == 0x01 || (0xD0...0xD7).contains(marker) {  // no length
                    offset += 2
                    continue
                }
                if marker == 0xD9 || marker == 0xDA { return nil }  // end of image / scan before any frame
                let length = bigEndian16(offset + 2)
                guard length >= 2 else { return nil }
                let isStartOfFrame =
                    (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
                if isStartOfFrame {
                    guard offset + 8 < count else { return nil }
                    return size(bigEndian16(offset + 7), bigEndian16(offset + 5))
                }
                offset += 2 + length
            }
            return nil
        }
        // WebP: RIFF container, then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk.
        if matches(Array("RIFF".utf8)), matches(Array("WEBP".utf8), at: 8) {
            if matches(Array("VP8 ".utf8), at: 12) {
                guard count >= 30, matches([0x9D, 0x01, 0x2A], at: 23) else { return nil }
                return size(littleEndian16(26) & 0x3FFF, littleEndian16(28) & 0x3FFF)
            }
            if matches(Array("VP8L".utf8), at: 12) {
                guard count >= 25, bytes[20] == 0x2F else { return nil }
                let bits = byte(21) | byte(22) << 8 | byte(23) << 16 | byte(24) << 24
                return size((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            }
            if matches(Array("VP8X".utf8), at: 12) {
                guard count >= 30 else { return nil }
                return size(littleEndian24(24) + 1, littleEndian24(27) + 1)
            }
        }
        return nil
    }
}
