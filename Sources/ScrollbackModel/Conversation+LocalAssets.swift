/// The files of the input folder that a conversation ships, found by walking its model.
extension Conversation {
    /// Every `.local` asset the conversation references (avatars, photos, videos, audio,
    /// posters, link thumbnails, files rich text names), each once, in first-reference order.
    ///
    /// The site builder copies exactly these files into `media/`; walking the model (rather than
    /// scanning rendered HTML) keeps the copy list independent of the templates.
    public var localAssets: [LocalAsset] {
        var seen = Set<String>()
        var assets: [LocalAsset] = []
        func add(_ source: MediaSource?) {
            guard case .local(let asset)? = source, seen.insert(asset.sitePath).inserted else { return }
            assets.append(asset)
        }
        for participant in participants { add(participant.avatar) }
        // By index: binding each message to a local would copy it, retaining all it holds.
        for index in messages.indices {
            switch messages[index].kind {
            case .photo(let media), .video(let media), .audio(let media):
                add(media.source)
                add(media.poster)
            case .linkPreview(_, let link):
                add(link.thumbnail)
            case .file(let file):
                add(file.source)
            case .attributedText(let rich):
                // Files rich text links or shows (an export's second attachment, a custom emoji).
                for asset in rich.assets { add(.local(asset)) }
            case .text, .emoji, .location, .contact, .system, .custom:
                break
            }
            for reaction in messages[index].reactions { add(reaction.customEmoji?.image) }
        }
        return assets
    }
}
