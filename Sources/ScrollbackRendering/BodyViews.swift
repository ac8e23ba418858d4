// The bubbles, one view per kind template (`kinds/…`) and the image placeholder.
// See RowViews.swift for why each has a compiled copy of its shipped template.

/// `kinds/text` and `kinds/attributedText`: HTML built in Swift (linkified text, sanitized rich text).
struct HTMLBodyView: RowView {
    /// `.text` or `.attributedText`.
    var template: RowTemplate
    var html: String
    var context: Any { ["html": html] }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        writeOpening(into: &o)
        raw(html, &o)
        writeClosing(into: &o)
    }
    /// What the template prints before `{{{html}}}`.
    func writeOpening(into o: inout HTMLBuffer) {
        o +=
            template == .text
            ? "<div class=\"b\" data-part=\"bubble\" dir=\"auto\">"
            : "<div class=\"b rt\" data-part=\"bubble\" dir=\"auto\">"
    }
    /// What the template prints after `{{{html}}}`.
    func writeClosing(into o: inout HTMLBuffer) {
        o += "</div>"
    }
}

/// `kinds/emoji` and `kinds/system`: escaped text.
struct TextBodyView: RowView {
    /// `.emoji` or `.system`.
    var template: RowTemplate
    var text: String
    var context: Any { ["text": text] }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        if template == .emoji {
            o += "<div class=\"b em\" data-part=\"bubble\">"
            esc(text, &o)
            o += "</div>"
        } else {
            o += "<p class=\"sys\" dir=\"auto\">"
            esc(text, &o)
            o += "</p>"
        }
    }
}

/// `image-placeholder`: media that cannot be shown, with its original reference as text.
struct PlaceholderView: RowView {
    var template: RowTemplate { .imagePlaceholder }
    var original: String
    var link: String?
    var label: String
    var context: Any {
        var context: [String: Any] = ["original": original, "label": label]
        if let link { context["link"] = link }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<span class=\"ph0\" role=\"img\" aria-label=\""
        esc(label, &o)
        o += " not available\"><span class=\"phl\">"
        esc(label, &o)
        o += " not available</span><code>"
        esc(original, &o)
        o += "</code>"
        if let link {
            o += "<a href=\""
            esc(link, &o)
            o += "\" rel=\"nofollow noopener noreferrer\">Open "
            esc(label, &o)
            o += "</a>"
        }
        o += "</span>"
    }
}

/// Pixel size as the templates see it.
struct SizeView {
    var w: Int
    var h: Int
    var context: [String: Any] { ["w": w, "h": h] }
}

/// `kinds/photo`.
struct PhotoView: RowView {
    var template: RowTemplate { .photo }
    var src: String?
    var alt: String
    var size: SizeView?
    /// Rendered placeholder HTML when the image cannot be shown.
    var placeholder: String?
    var caption: String?
    var context: Any {
        var context: [String: Any] = [:]
        if let src {
            var image: [String: Any] = ["src": src, "alt": alt]
            if let size { image["size"] = size.context }
            context["image"] = image
        }
        if let placeholder { context["placeholder"] = placeholder }
        if let caption { context["caption"] = caption }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<figure class=\"b md\" data-part=\"bubble\">"
        if let src {
            o += "<img src=\""
            esc(src, &o)
            o += "\" alt=\""
            esc(alt, &o)
            o += "\""
            if let size {
                o += " width=\""
                appendDecimal(size.w, &o)
                o += "\" height=\""
                appendDecimal(size.h, &o)
                o += "\""
            } else {
                o += " class=\"u\""
            }
            o += " loading=\"lazy\" decoding=\"async\">"
        }
        if let placeholder { raw(placeholder, &o) }
        if let caption {
            o += "<figcaption dir=\"auto\">"
            esc(caption, &o)
            o += "</figcaption>"
        }
        o += "</figure>"
    }
}

/// `kinds/video`.
struct VideoView: RowView {
    var template: RowTemplate { .video }
    var src: String?
    var poster: String?
    var size: SizeView?
    var title: String?
    var placeholder: String?
    var caption: String?
    var duration: String?
    var context: Any {
        var context: [String: Any] = [:]
        if let src {
            var video: [String: Any] = ["src": src]
            if let poster { video["poster"] = poster }
            if let size { video["size"] = size.context }
            if let title { video["title"] = title }
            context["video"] = video
        }
        if let placeholder { context["placeholder"] = placeholder }
        if let caption { context["caption"] = caption }
        if let duration { context["duration"] = duration }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<figure class=\"b md\" data-part=\"bubble\">"
        if let src {
            o += "<video controls preload=\"none\" src=\""
            esc(src, &o)
            o += "\""
            if let poster {
                o += " poster=\""
                esc(poster, &o)
                o += "\""
            }
            if let size {
                o += " width=\""
                appendDecimal(size.w, &o)
                o += "\" height=\""
                appendDecimal(size.h, &o)
                o += "\""
            } else {
                o += " class=\"u\""
            }
            if let title {
                o += " title=\""
                esc(title, &o)
                o += "\""
            }
            o += "></video>"
        }
        if let placeholder { raw(placeholder, &o) }
        if let caption {
            o += "<figcaption dir=\"auto\">"
            esc(caption, &o)
            if let duration {
                o += " · "
                esc(duration, &o)
            }
            o += "</figcaption>"
        } else if let duration {
            o += "<figcaption>"
            esc(duration, &o)
            o += "</figcaption>"
        }
        o += "</figure>"
    }
}

/// `kinds/audio`.
struct AudioView: RowView {
    var template: RowTemplate { .audio }
    var title: String?
    var src: String?
    var placeholder: String?
    var duration: String?
    var context: Any {
        var context: [String: Any] = [:]
        if let title { context["title"] = title }
        if let src { context["src"] = src }
        if let placeholder { context["placeholder"] = placeholder }
        if let duration { context["duration"] = duration }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<div class=\"b au\" data-part=\"bubble\">"
        if let title {
            o += "<div class=\"t\" dir=\"auto\">"
            esc(title, &o)
            o += "</div>"
        }
        if let src {
            o += "<audio controls preload=\"none\" src=\""
            esc(src, &o)
            o += "\"></audio>"
        }
        if let placeholder { raw(placeholder, &o) }
        if let duration {
            o += "<span class=\"du\">"
            esc(duration, &o)
            o += "</span>"
        }
        o += "</div>"
    }
}

/// `kinds/location`: a card linking to OpenStreetMap.
struct LocationView: RowView {
    var template: RowTemplate { .location }
    var name: String?
    var address: String?
    var coords: String?
    var href: String?
    var context: Any {
        var context: [String: Any] = [:]
        if let name { context["name"] = name }
        if let address { context["address"] = address }
        if let coords { context["coords"] = coords }
        if let href { context["href"] = href }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<div class=\"b card\" data-part=\"bubble\">"
        if let href {
            o += "<a class=\"loc\" href=\""
            esc(href, &o)
            o += "\" rel=\"nofollow noopener noreferrer\">"
        } else {
            o += "<span class=\"loc\">"
        }
        o += "<span class=\"ic\" aria-hidden=\"true\">📍</span><span class=\"tx\">"
        if let name {
            o += "<strong dir=\"auto\">"
            esc(name, &o)
            o += "</strong>"
        }
        if let address {
            o += "<span dir=\"auto\">"
            esc(address, &o)
            o += "</span>"
        }
        if let coords {
            o += "<small>"
            esc(coords, &o)
            o += " · OpenStreetMap</small>"
        }
        o += "</span>"
        o += href != nil ? "</a>" : "</span>"
        o += "</div>"
    }
}

/// A phone number or e-mail address of a contact card, with its link when it has a safe one.
struct ContactLinkView {
    var text: String
    var href: String?
    var context: [String: Any] {
        var context: [String: Any] = ["text": text]
        if let href { context["href"] = href }
        return context
    }
}

/// `kinds/contact`: a card with `tel:`/`mailto:` links and the `.vcf` download.
struct ContactView: RowView {
    var template: RowTemplate { .contact }
    var name: String
    var initials: String
    var phones: [ContactLinkView]
    var emails: [ContactLinkView]
    var vcf: String
    var vcfName: String
    var context: Any {
        [
            "name": name, "initials": initials, "phones": phones.map(\.context), "emails": emails.map(\.context),
            "vcf": vcf, "vcfName": vcfName,
        ]
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o +=
            "<div class=\"b card ct\" data-part=\"bubble\"><div class=\"ch\"><span class=\"av ci\" aria-hidden=\"true\">"
        esc(initials, &o)
        o += "</span><strong dir=\"auto\">"
        esc(name, &o)
        o += "</strong></div>"
        for entry in phones + emails {
            if let href = entry.href {
                o += "<a href=\""
                esc(href, &o)
                o += "\">"
                esc(entry.text, &o)
                o += "</a>"
            } else {
                o += "<span>"
                esc(entry.text, &o)
                o += "</span>"
            }
        }
        o += "<a class=\"vcf\" href=\""
        esc(vcf, &o)
        o += "\" download=\""
        esc(vcfName, &o)
        o += "\">Save contact (.vcf)</a></div>"
    }
}

/// `kinds/linkPreview`: the text, then the preview card.
struct LinkPreviewView: RowView {
    var template: RowTemplate { .linkPreview }
    var html: String?
    var href: String?
    var title: String?
    var teaser: String?
    var site: String?
    var domain: String?
    var thumb: String?
    var context: Any {
        var card: [String: Any] = [:]
        if let href { card["href"] = href }
        if let title { card["title"] = title }
        if let teaser { card["teaser"] = teaser }
        if let site { card["site"] = site }
        if let domain { card["domain"] = domain }
        if let thumb { card["thumb"] = thumb }
        var context: [String: Any] = ["card": card]
        if let html { context["html"] = html }
        return context
    }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<div class=\"b lpb\" data-part=\"bubble\">"
        if let html {
            o += "<div dir=\"auto\">"
            raw(html, &o)
            o += "</div>"
        }
        if let href {
            o += "<a class=\"lp\" href=\""
            esc(href, &o)
            o += "\" rel=\"nofollow noopener noreferrer\">"
        } else {
            o += "<span class=\"lp\">"
        }
        if let thumb {
            o += "<img src=\""
            esc(thumb, &o)
            o += "\" alt=\"\" loading=\"lazy\" decoding=\"async\">"
        }
        o += "<span class=\"tx\">"
        if let title {
            o += "<strong dir=\"auto\">"
            esc(title, &o)
            o += "</strong>"
        }
        if let teaser {
            o += "<span dir=\"auto\">"
            esc(teaser, &o)
            o += "</span>"
        }
        o += "<small>"
        if let site {
            esc(site, &o)
            o += " · "
        }
        if let domain { esc(domain, &o) }
        o += "</small></span>"
        o += href != nil ? "</a>" : "</span>"
        o += "</div>"
    }
}

/// `kinds/custom`: the bubble around what a custom renderer drew.
struct CustomView: RowView {
    var template: RowTemplate { .custom }
    var id: String
    var html: String
    var context: Any { ["id": id, "html": html] }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<div class=\"b cu\" data-part=\"bubble\" data-custom=\""
        esc(id, &o)
        o += "\">"
        raw(html, &o)
        o += "</div>"
    }
}

/// `kinds/custom-fallback`: a visible card for a custom id nobody renders.
struct CustomFallbackView: RowView {
    var template: RowTemplate { .customFallback }
    var id: String
    var json: String
    var context: Any { ["id": id, "json": json] }
    func write(into o: inout HTMLBuffer, parts: RowTemplates) {
        o += "<div class=\"b cu fb\" data-part=\"bubble\" data-custom=\""
        esc(id, &o)
        o += "\"><strong>Unsupported message “"
        esc(id, &o)
        o += "”</strong><pre>"
        esc(json, &o)
        o += "</pre></div>"
    }
}
