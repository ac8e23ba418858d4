import Foundation
import ScrollbackMarkdown
import ScrollbackModel

/// The front matter's fields: the conversation's title, participants, layout and links.
extension MarkdownLogSession {
    // MARK: - Front matter fields

    struct ConversationFields {
        var id: String
        var me: String?
        var timeZone: String?
        var participants: [Participant] = []
        var layout = LayoutOverrides()
    }

    mutating func conversationFields(
        _ frontMatter: MarkdownFrontMatter, yaml: FrontMatterPlacement
    )
        -> ConversationFields
    {
        for key in frontMatter.unknownKeys {
            warning(
                .unknownField(
                    key.value, in: "the front matter",
                    suggestion: NearestName.suggestion(for: key.value, in: MarkdownFrontMatter.knownKeys),
                    known: MarkdownFrontMatter.knownKeys), at: yaml.location(key.mark, file: path))
        }
        if let version = frontMatter.version, version.value != .number("1") {
            error(.unsupportedVersion(version.value.description), at: yaml.location(version.mark, file: path))
        }
        var fields = ConversationFields(id: conversationID(frontMatter, yaml: yaml))
        if let zone = frontMatter.timezone {
            if LayoutOptionParsing.isTimeZone(zone.value) {
                fields.timeZone = zone.value
            } else {
                error(.unknownTimeZone(zone.value), at: yaml.location(zone.mark, file: path))
            }
        }
        for entry in frontMatter.layout?.entries ?? [] {
            let at = yaml.location(entry.mark, file: path)
            guard LayoutOptionParsing.isOption(entry.key) else {
                warning(LayoutOptionParsing.unknownOption(entry.key), at: at)
                continue
            }
            if let problem = LayoutOptionParsing.apply(entry.key, entry.value, to: &fields.layout) {
                error(problem, at: at)
            }
        }
        if let participants = frontMatter.participants {
            for entry in participants.entries {
                let at = yaml.location(entry.mark, file: path)
                let name = entry.value.name.trimmingCharacters(in: .whitespaces)
                if name.isEmpty {
                    error(.missingField("participants.\(entry.key).name"), at: at)
                }
                var avatar: MediaSource?
                if let written = entry.value.avatar {
                    avatar = context.media.resolve(
                        written.value, relativeTo: file, at: yaml.location(written.mark, file: path),
                        diagnostics: &diagnostics)
                }
                var color: String?
                if let written = entry.value.color {
                    if ParticipantColor.isValid(written.value) {
                        color = written.value.lowercased()
                    } else {
                        warning(
                            .invalidOption(
                                name: "color", value: written.value,
                                expected: "a colour #rgb or #rrggbb; a colour derived from the id is used"),
                            at: yaml.location(written.mark, file: path))
                    }
                }
                participantIDs.insert(entry.key)
                if idsByName[name] == nil { idsByName[name] = entry.key }
                fields.participants.append(Participant(id: entry.key, name: name, avatar: avatar, color: color))
            }
        } else {
            error(
                .missingField("participants"),
                at: SourceLocation(file: path, line: 1, column: 1))
        }
        if let me = frontMatter.me {
            if participantIDs.contains(me.value) {
                fields.me = me.value
            } else {
                error(.unknownSender(me.value), at: yaml.location(me.mark, file: path))
            }
        }
        for entry in frontMatter.links?.entries ?? [] {
            let at = yaml.location(entry.mark, file: path)
            let scheme = MediaResolver.scheme(of: entry.key)
            guard scheme == "http" || scheme == "https" else {
                warning(
                    .invalidOption(name: "links", value: entry.key, expected: "an http(s) URL; the entry is ignored"),
                    at: at)
                continue
            }
            var thumbnail: MediaSource?
            if let written = entry.value.thumbnail {
                thumbnail = context.media.resolve(
                    written.value, relativeTo: file, at: yaml.location(written.mark, file: path),
                    diagnostics: &diagnostics)
            }
            frontMatterLinks[entry.key] = LinkItem(
                url: entry.key, title: entry.value.title, teaser: entry.value.teaser, thumbnail: thumbnail,
                siteName: entry.value.siteName)
        }
        return fields
    }

    mutating func conversationID(_ frontMatter: MarkdownFrontMatter, yaml: FrontMatterPlacement) -> String {
        guard let written = frontMatter.id else {
            return ConversationSlug.make(from: file.deletingPathExtension().lastPathComponent)
        }
        let slug = ConversationSlug.make(from: written.value)
        if slug != written.value {
            warning(
                .invalidOption(
                    name: "id", value: written.value,
                    expected:
                        "a URL slug of lowercase letters (any script), digits and '-', at most \(ConversationSlug.maximumBytes) bytes; using '\(slug)'"
                ),
                at: yaml.location(written.mark, file: path))
        }
        return slug
    }
}
