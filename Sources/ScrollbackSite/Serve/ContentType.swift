/// The `Content-Type` the dev server sends for a file, by extension.
enum ContentType {
    /// Known types; anything else is `application/octet-stream`.
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json",
        "txt": "text/plain; charset=utf-8", "xml": "application/xml", "vcf": "text/vcard; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "bmp": "image/bmp", "mp4": "video/mp4", "m4v": "video/mp4", "webm": "video/webm",
        "mov": "video/quicktime", "ogv": "video/ogg", "mp3": "audio/mpeg", "m4a": "audio/mp4",
        "aac": "audio/aac", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "wav": "audio/wav",
        "flac": "audio/flac", "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "pdf": "application/pdf", "wasm": "application/wasm",
    ]

    /// The type for a file named `name`.
    static func forFile(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
