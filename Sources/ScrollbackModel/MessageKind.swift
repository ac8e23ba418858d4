/// What a message is and what it carries, after MessageKit's `MessageKind`.
///
/// The cases with large payloads are `indirect` so a `Message` stays small: an archive of a
/// million messages is held one conversation at a time, and its size is what peak memory follows.
public enum MessageKind: Hashable, Sendable {
    /// Plain text: escaped, line breaks kept, URLs, e-mail addresses and @mentions linked.
    case text(String)
    /// Rich text, already turned into safe HTML by the reader (cmark-gfm or the sanitizer).
    case attributedText(RichText)
    /// Emoji only: shown large, without a bubble.
    case emoji(String)
    /// An image.
    indirect case photo(MediaItem)
    /// A video.
    indirect case video(MediaItem)
    /// A sound recording.
    indirect case audio(MediaItem)
    /// A place on the map.
    indirect case location(LocationItem)
    /// A contact card.
    indirect case contact(ContactItem)
    /// Text followed by a preview card of a link.
    indirect case linkPreview(text: String, link: LinkItem)
    /// A note about the conversation itself: centred, no bubble, no avatar.
    case system(String)
    /// Anything else, drawn by the renderer registered for its id.
    indirect case custom(CustomItem)
    /// A file to download (spec §1.1): a card with a type icon, its name and size.
    indirect case file(FileItem)

    /// The names spec §1 gives the kinds, as written in logs and in `data-kind`.
    public enum Name: String, CaseIterable, Hashable, Sendable {
        case text, attributedText, emoji, photo, video, audio, location, contact, linkPreview, system, custom, file
    }

    /// This kind's name.
    public var name: Name {
        switch self {
        case .text: return .text
        case .attributedText: return .attributedText
        case .emoji: return .emoji
        case .photo: return .photo
        case .video: return .video
        case .audio: return .audio
        case .location: return .location
        case .contact: return .contact
        case .linkPreview: return .linkPreview
        case .system: return .system
        case .custom: return .custom
        case .file: return .file
        }
    }

    /// This photo, video or file with `caption` (text sent with it, as the apps show it under the
    /// image or card), or `nil` for a kind that shows no caption.
    public func withCaption(_ caption: String) -> MessageKind? {
        switch self {
        case .photo(var media):
            media.caption = caption
            return .photo(media)
        case .video(var media):
            media.caption = caption
            return .video(media)
        case .file(var item):
            item.caption = caption
            return .file(item)
        default: return nil
        }
    }

    /// A short plain-text rendering, for reply quotes, previews on the index and screen readers:
    /// text as it reads (rich text without its markup), media and cards as a labelled line the
    /// way messengers quote them ("📷 Photo", "📍 Café Luna", "📊 Poll: Dinner?").
    public var plainText: String {
        switch self {
        case .text(let text), .emoji(let text), .system(let text): return text
        case .attributedText(let rich): return rich.plainText
        case .photo(let media): return "📷 " + (media.caption ?? media.alt ?? "Photo")
        case .video(let media): return "🎥 " + (media.caption ?? media.title ?? "Video")
        case .audio(let media): return "🎤 " + (media.title ?? "Audio")
        case .location(let location): return "📍 " + (location.name ?? location.address ?? "Location")
        case .contact(let contact): return "👤 Contact: \(contact.name)"
        case .linkPreview(let text, let link): return text.isEmpty ? (link.title ?? link.url) : text
        case .custom(let custom): return custom.label
        case .file(let file): return "📎 " + file.displayName
        }
    }
}

extension CustomItem {
    /// The line that stands for this item in quotes and previews: a poll's question
    /// ("📊 Poll: Dinner?"), else a `title` or `text` string in its data ("scoreboard: Round 2"),
    /// else its id in brackets. A custom renderer may supply its own (`quoteLabel`).
    public var label: String {
        func string(_ key: String) -> String? {
            guard case .object(let fields) = data else { return nil }
            for (name, value) in fields where name == key {
                if case .string(let text) = value, !text.isEmpty { return text }
            }
            return nil
        }
        if id == "poll", let question = string("question") { return "📊 Poll: " + question }
        if let title = string("title") ?? string("text") { return "\(id): \(title)" }
        return "[\(id)]"
    }
}

/// Rich text as safe HTML plus its plain text.
///
/// Only the readers create it, from cmark-gfm's safe renderer or the libxml2 allow-list
/// sanitizer, so the HTML can be written to a page as it is.
public struct RichText: Hashable, Sendable {
    /// Sanitized HTML fragment.
    public var html: String
    /// The same content as plain text, for excerpts.
    public var plainText: String
    /// The Markdown the HTML was rendered from, when an importer made it: what
    /// `scrollback import` writes, so the log renders to the same HTML again.
    public var markdownSource: String?
    /// The input's files the HTML names as `@root/media/…` (images, linked attachments): the
    /// site copies them, as it copies a photo message's file (`Conversation.localAssets`).
    public var assets: [LocalAsset] = []

    /// Wraps HTML that a sanitizing reader produced.
    public init(sanitizedHTML html: String, plainText: String) {
        self.html = html
        self.plainText = plainText
    }

    /// Wraps HTML that cmark-gfm rendered from `markdownSource`.
    public init(sanitizedHTML html: String, plainText: String, markdownSource: String) {
        self.html = html
        self.plainText = plainText
        self.markdownSource = markdownSource
    }
}

/// Where a media file (image, video, sound, avatar, thumbnail) comes from.
public enum MediaSource: Hashable, Sendable {
    /// A file inside the input folder, copied into the site.
    case local(LocalAsset)
    /// An `http(s)` URL, referenced as it is (unless remote media is turned off).
    case remote(String)
    /// A reference that was refused (unsafe scheme, path outside the input folder) or whose file is missing;
    /// a placeholder is shown. `original` is the text of the log, for the placeholder's label.
    case unavailable(original: String)
}

/// A file of the input folder that the site ships.
public struct LocalAsset: Hashable, Sendable {
    /// Absolute path of the file to copy.
    public var sourcePath: String
    /// Path inside the site, content-hashed: `media/<hash>.<ext>`.
    public var sitePath: String
    /// Pixel size read from the file's header, when it is an image the reader understands.
    public var pixelSize: PixelSize?

    /// Creates an asset.
    public init(sourcePath: String, sitePath: String, pixelSize: PixelSize? = nil) {
        self.sourcePath = sourcePath
        self.sitePath = sitePath
        self.pixelSize = pixelSize
    }
}

/// Width and height in pixels.
public struct PixelSize: Hashable, Sendable {
    public var width: Int
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// The payload of `photo`, `video` and `audio` messages.
public struct MediaItem: Hashable, Sendable {
    /// The file.
    public var source: MediaSource
    /// Size from the log, else from the file's header; used to reserve the exact aspect ratio.
    public var size: PixelSize?
    /// Alternative text.
    public var alt: String?
    /// Caption under the media.
    public var caption: String?
    /// Poster image of a video.
    public var poster: MediaSource?
    /// Duration in seconds (video, audio).
    public var duration: Double?
    /// Title (audio).
    public var title: String?

    /// Creates a media item.
    public init(
        source: MediaSource, size: PixelSize? = nil, alt: String? = nil, caption: String? = nil,
        poster: MediaSource? = nil, duration: Double? = nil, title: String? = nil
    ) {
        self.source = source
        self.size = size
        self.alt = alt
        self.caption = caption
        self.poster = poster
        self.duration = duration
        self.title = title
    }
}

/// The payload of a `file` message (spec §1.1).
public struct FileItem: Hashable, Sendable {
    /// The file.
    public var source: MediaSource
    /// The file name to show and to download as; `displayName` falls back to the reference's last part.
    public var name: String?
    /// Size in bytes, from the log or the export.
    public var size: Int64?
    /// MIME type, from the log or the export; chooses the card's icon.
    public var mimeType: String?
    /// Text sent with the file (a Telegram or WhatsApp caption): shown under the card, never
    /// glued onto the name.
    public var caption: String?

    /// Creates a file item.
    public init(
        source: MediaSource, name: String? = nil, size: Int64? = nil, mimeType: String? = nil, caption: String? = nil
    ) {
        self.source = source
        self.name = name
        self.size = size
        self.mimeType = mimeType
        self.caption = caption
    }

    /// The name shown on the card: `name`, else the last path part of the reference, else "File".
    public var displayName: String {
        if let name, !name.isEmpty { return name }
        let reference: String
        switch source {
        case .local(let asset): reference = asset.sourcePath
        case .remote(let url): reference = url
        case .unavailable(let original): reference = original
        }
        let withoutQuery = reference.split(separator: "?", maxSplits: 1).first.map(String.init) ?? reference
        let last = withoutQuery.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty ? "File" : last
    }
}

/// The payload of a `location` message.
public struct LocationItem: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var name: String?
    public var address: String?

    /// Creates a location.
    public init(latitude: Double, longitude: Double, name: String? = nil, address: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.name = name
        self.address = address
    }
}

/// The payload of a `contact` message.
public struct ContactItem: Hashable, Sendable {
    public var name: String
    public var phones: [String]
    public var emails: [String]

    /// Creates a contact.
    public init(name: String, phones: [String] = [], emails: [String] = []) {
        self.name = name
        self.phones = phones
        self.emails = emails
    }
}

/// The link of a `linkPreview` message.
public struct LinkItem: Hashable, Sendable {
    /// The URL the card links to (already checked to be http, https or mailto).
    public var url: String
    public var title: String?
    public var teaser: String?
    public var thumbnail: MediaSource?
    public var siteName: String?

    /// Creates a link.
    public init(
        url: String, title: String? = nil, teaser: String? = nil, thumbnail: MediaSource? = nil,
        siteName: String? = nil
    ) {
        self.url = url
        self.title = title
        self.teaser = teaser
        self.thumbnail = thumbnail
        self.siteName = siteName
    }
}

/// The payload of a `custom` message: which renderer, and the data it gets.
public struct CustomItem: Hashable, Sendable {
    /// The renderer id (`custom.id`).
    public var id: String
    /// Arbitrary JSON from the log.
    public var data: JSONValue

    /// Creates a custom item.
    public init(id: String, data: JSONValue) {
        self.id = id
        self.data = data
    }
}

/// A JSON value that keeps object key order and numbers as written, so output is deterministic.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number's text as written in the source.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in source order.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The member named `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
