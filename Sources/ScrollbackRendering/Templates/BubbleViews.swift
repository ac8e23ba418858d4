import ScrollbackLayout
import ScrollbackModel

// The view models of the bubbles, one per kind (`Templates/kinds/…`), and of the date list.

// MARK: - Bubbles (`kinds/…`)

/// `kinds/text` and `kinds/attributedText`: markup made in Swift (linkified text, sanitized rich text).
final class HTMLBodyView: TemplateObject {
    var html: TemplateValue = .absent
    static let templateSchema = schema(HTMLBodyView.self).value("html") { $0.html }.schema
}

/// `kinds/emoji` and `kinds/system`: text.
final class TextBodyView: TemplateObject {
    var text = ""
    static let templateSchema = schema(TextBodyView.self).text("text") { $0.text }.schema
}

/// `image-placeholder`: the one-line chip of media that cannot be shown: its kind (`label`:
/// Photo, Sticker, Video, Audio, Voice message, File, Media), its file name when known, and a
/// link to open it when it is remote media that is turned off; `original` is the log's reference.
final class PlaceholderView: TemplateObject {
    let original: String, link: String?, label: String, name: String?
    init(original: String, link: String?, label: String, name: String?) {
        self.original = original
        self.link = link
        self.label = label
        self.name = name
    }
    static let templateSchema = schema(PlaceholderView.self)
        .text("original") { $0.original }.text("link") { $0.link }.text("label") { $0.label }
        .text("name") { $0.name }.schema
}

/// A pixel size.
final class SizeView: TemplateObject {
    let w: Int, h: Int
    init?(_ size: PixelSize?) {
        guard let size, size.width > 0, size.height > 0 else { return nil }
        w = size.width
        h = size.height
    }
    static let templateSchema = schema(SizeView.self).number("w") { $0.w }.number("h") { $0.h }.schema
}

/// The image of `kinds/photo`.
final class ImageView: TemplateObject {
    let src: String, alt: String, size: SizeView?
    init(src: String, alt: String, size: SizeView?) {
        self.src = src
        self.alt = alt
        self.size = size
    }
    static let templateSchema = schema(ImageView.self)
        .text("src") { $0.src }.text("alt") { $0.alt }.object("size", { SizeView.templateSchema }) { $0.size }.schema
}

/// `kinds/photo`.
final class PhotoView: TemplateObject {
    var image: ImageView?, placeholder: String?, caption: String?
    static let templateSchema = schema(PhotoView.self)
        .object("image", { ImageView.templateSchema }) { $0.image }.text("placeholder") { $0.placeholder }
        .text("caption") { $0.caption }.schema
}

/// The video of `kinds/video`.
final class VideoSourceView: TemplateObject {
    var src = "", poster: String?, size: SizeView?, title: String?
    static let templateSchema = schema(VideoSourceView.self)
        .text("src") { $0.src }.text("poster") { $0.poster }.object("size", { SizeView.templateSchema }) { $0.size }
        .text("title") { $0.title }.schema
}

/// `kinds/video`.
final class VideoView: TemplateObject {
    var video: VideoSourceView?, placeholder: String?, caption: String?, duration: String?
    static let templateSchema = schema(VideoView.self)
        .object("video", { VideoSourceView.templateSchema }) { $0.video }.text("placeholder") { $0.placeholder }
        .text("caption") { $0.caption }.text("duration") { $0.duration }.schema
}

/// One `<source>` of `kinds/audio`: a file and its MIME type.
final class AudioSourceView: TemplateObject {
    let src: String, type: String
    init(src: String, type: String) {
        self.src = src
        self.type = type
    }
    static let templateSchema = schema(AudioSourceView.self).text("src") { $0.src }.text("type") { $0.type }.schema
}

/// `kinds/audio`: `src` is the file; `sources`, when not empty, lists it and its transcoded copy.
final class AudioView: TemplateObject {
    var title: String?, src: String?, placeholder: String?, duration: String?
    var sources: [AudioSourceView] = []
    static let templateSchema = schema(AudioView.self)
        .text("title") { $0.title }.text("src") { $0.src }.text("placeholder") { $0.placeholder }
        .text("duration") { $0.duration }.list("sources", { AudioSourceView.templateSchema }) { $0.sources }.schema
}

/// `kinds/location`: a card linking to OpenStreetMap.
final class LocationView: TemplateObject {
    var name: String?, address: String?, coords: String?, href: String?
    static let templateSchema = schema(LocationView.self)
        .text("name") { $0.name }.text("address") { $0.address }.text("coords") { $0.coords }
        .text("href") { $0.href }.schema
}

/// A phone number or e-mail address of a contact card, with its link when it has a safe one.
final class ContactLinkView: TemplateObject {
    let text: String, href: String?
    init(text: String, href: String?) {
        self.text = text
        self.href = href
    }
    static let templateSchema = schema(ContactLinkView.self).text("text") { $0.text }.text("href") { $0.href }.schema
}

/// `kinds/contact`: a card with `tel:`/`mailto:` links and the `.vcf` download.
final class ContactView: TemplateObject {
    var name = "", initials = "", phones: [ContactLinkView] = [], emails: [ContactLinkView] = []
    var vcf = "", vcfName = ""
    static let templateSchema = schema(ContactView.self)
        .text("name") { $0.name }.text("initials") { $0.initials }
        .list("phones", { ContactLinkView.templateSchema }) { $0.phones }
        .list("emails", { ContactLinkView.templateSchema }) { $0.emails }
        .text("vcf") { $0.vcf }.text("vcfName") { $0.vcfName }.schema
}

/// The card of `kinds/linkPreview`.
final class LinkCardView: TemplateObject {
    var href: String?, title: String?, teaser: String?, site: String?, domain: String?, thumb: String?
    static let templateSchema = schema(LinkCardView.self)
        .text("href") { $0.href }.text("title") { $0.title }.text("teaser") { $0.teaser }.text("site") { $0.site }
        .text("domain") { $0.domain }.text("thumb") { $0.thumb }.schema
}

/// `kinds/linkPreview`: the text, then the preview card.
final class LinkPreviewView: TemplateObject {
    var html: String?, card = LinkCardView()
    static let templateSchema = schema(LinkPreviewView.self)
        .text("html") { $0.html }.object("card", { LinkCardView.templateSchema }) { $0.card }.schema
}

/// `kinds/file`: a file card (type icon, name, human size) that downloads the file.
final class FileView: TemplateObject {
    var name = "", icon = "", size: String?, href: String?, placeholder: String?, caption: String?
    static let templateSchema = schema(FileView.self)
        .text("name") { $0.name }.text("icon") { $0.icon }.text("size") { $0.size }.text("href") { $0.href }
        .text("placeholder") { $0.placeholder }.text("caption") { $0.caption }.schema
}

/// `kinds/custom`: the bubble around what a custom renderer or `custom/<id>` template drew.
final class CustomBodyView: TemplateObject {
    let id: String, html: String
    init(id: String, html: String) {
        self.id = id
        self.html = html
    }
    static let templateSchema = schema(CustomBodyView.self).text("id") { $0.id }.text("html") { $0.html }.schema
}

/// `kinds/custom-fallback`: a visible card for a custom id nobody renders.
final class CustomFallbackView: TemplateObject {
    let id: String, json: String
    init(id: String, json: String) {
        self.id = id
        self.json = json
    }
    static let templateSchema = schema(CustomFallbackView.self).text("id") { $0.id }.text("json") { $0.json }.schema
}

/// `custom/<id>`: a custom message's data and where it sits.
final class CustomTemplateView: TemplateObject {
    let id: String, message: CustomMessageView, bubbleMaxWidth: String, cornerRadius: String, data: JSONValue
    init(id: String, message: CustomMessageView, bubbleMaxWidth: String, cornerRadius: String, data: JSONValue) {
        self.id = id
        self.message = message
        self.bubbleMaxWidth = bubbleMaxWidth
        self.cornerRadius = cornerRadius
        self.data = data
    }
    static let templateSchema = schema(CustomTemplateView.self)
        .text("id") { $0.id }.object("message", { CustomMessageView.templateSchema }) { $0.message }
        .text("bubbleMaxWidth") { $0.bubbleMaxWidth }.text("cornerRadius") { $0.cornerRadius }
        .json("data") { $0.data }.object("poll", { PollView.templateSchema }) { PollView($0.data) }.schema
}

/// `poll` of a `custom/<id>` template: the data's `question` and `options` (`{label, votes}` or
/// plain strings) with each option's share of the votes and the winner, or `nil` when the data
/// has no options.
final class PollView: TemplateObject {
    let question: String?, options: [PollOptionView], total: Int
    init?(_ data: JSONValue) {
        guard case .object(let fields) = data,
            let options = fields.first(where: { $0.key == "options" }), case .array(let items) = options.value
        else { return nil }
        if case .string(let text)? = fields.first(where: { $0.key == "question" })?.value {
            question = text
        } else {
            question = nil
        }
        let parsed: [(label: String, votes: Int?)] = items.compactMap { item in
            switch item {
            case .string(let label): return (label, nil)
            case .object(let members):
                guard case .string(let label)? = members.first(where: { $0.key == "label" })?.value else { return nil }
                if case .number(let text)? = members.first(where: { $0.key == "votes" })?.value, let votes = Int(text),
                    votes >= 0
                {
                    return (label, votes)
                }
                return (label, nil)
            default: return nil
            }
        }
        // Counts come from the log: the sum saturates and shares are taken in floating point, so
        // no vote count, however large, can overflow.
        let total = parsed.reduce(0) { sum, option in
            let (added, overflow) = sum.addingReportingOverflow(option.votes ?? 0)
            return overflow ? Int.max : added
        }
        let share = parsed.reduce(0.0) { $0 + Double($1.votes ?? 0) }
        let most = parsed.compactMap(\.votes).max() ?? 0
        self.total = total
        self.options = parsed.map { option in
            PollOptionView(
                label: option.label, votes: option.votes,
                percent: total > 0 ? Int((Double(option.votes ?? 0) * 100 / share).rounded()) : 0,
                wins: most > 0 && option.votes == most)
        }
    }
    static let templateSchema = schema(PollView.self)
        .text("question") { $0.question }.list("options", { PollOptionView.templateSchema }) { $0.options }
        .number("total") { $0.total }.flag("hasVotes") { $0.total > 0 }.schema
}

/// One option of a `PollView`: its votes, its rounded share in percent, and whether it leads.
final class PollOptionView: TemplateObject {
    let label: String, votes: Int?, percent: Int, wins: Bool
    init(label: String, votes: Int?, percent: Int, wins: Bool) {
        self.label = label
        self.votes = votes
        self.percent = percent
        self.wins = wins
    }
    static let templateSchema = schema(PollOptionView.self)
        .text("label") { $0.label }.number("votes") { $0.votes }.number("percent") { $0.percent }
        .flag("wins") { $0.wins }.schema
}

/// The message of a `custom/<id>` template.
final class CustomMessageView: TemplateObject {
    let id: String, date: String, iso: String, sender: String?, senderName: String?
    init(id: String, date: String, iso: String, sender: String?, senderName: String?) {
        self.id = id
        self.date = date
        self.iso = iso
        self.sender = sender
        self.senderName = senderName
    }
    static let templateSchema = schema(CustomMessageView.self)
        .text("id") { $0.id }.text("date") { $0.date }.text("iso") { $0.iso }.text("sender") { $0.sender }
        .text("senderName") { $0.senderName }.schema
}

/// `dates`: a conversation's date list page.
final class DateListView: TemplateObject {
    var title = "", back = "../index.html", first = "index.html", count = ""
    var newest: String?
    var months: [DateListMonthView] = []
    static let templateSchema = schema(DateListView.self)
        .text("title") { $0.title }.text("back") { $0.back }.text("first") { $0.first }.text("count") { $0.count }
        .text("newest") { $0.newest }.list("months", { DateListMonthView.templateSchema }) { $0.months }.schema
}

/// One month of the date list.
final class DateListMonthView: TemplateObject {
    let label: String, iso: String
    let days: [DateListDayView]
    init(label: String, iso: String, days: [DateListDayView]) {
        self.label = label
        self.iso = iso
        self.days = days
    }
    static let templateSchema = schema(DateListMonthView.self)
        .text("label") { $0.label }.text("iso") { $0.iso }
        .list("days", { DateListDayView.templateSchema }) { $0.days }.schema
}

/// One day of the date list: its link to the day's first message.
final class DateListDayView: TemplateObject {
    let href: String, iso: String, text: String, number: String
    init(href: String, iso: String, text: String, number: String) {
        self.href = href
        self.iso = iso
        self.text = text
        self.number = number
    }
    static let templateSchema = schema(DateListDayView.self)
        .text("href") { $0.href }.text("iso") { $0.iso }.text("text") { $0.text }.text("number") { $0.number }
        .schema
}
