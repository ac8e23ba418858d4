/// A second file of a voice note, for the browsers that cannot play the original: an Ogg
/// (Opus or Vorbis) voice note, which Safari does not play, gets an AAC copy in MP4.
///
/// The page's `<audio>` then lists the original and this copy, in that order, each with its
/// type, and the browser plays the first it can.
public struct AudioAlternative: Hashable, Sendable {
    /// The original's MIME type with its codec (`audio/ogg; codecs=opus`).
    public var originalType: String
    /// The copy's path inside the site (`media/<hash>.m4a`).
    public var sitePath: String
    /// The copy's MIME type.
    public var type: String

    /// An alternative at `sitePath` of type `type` for an original of type `originalType`.
    public init(originalType: String, sitePath: String, type: String = "audio/mp4") {
        self.originalType = originalType
        self.sitePath = sitePath
        self.type = type
    }
}
