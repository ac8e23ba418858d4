import Foundation
import ScrollbackModel
import Testing

@testable import ScrollbackReading

/// WhatsApp's own phrases in the languages people use (issue 41, class 5): media left out,
/// attached files, deleted and edited messages, the encryption notice and the system lines,
/// as the iOS and the Android app write them, each read as what it is and never as raw text.
/// The fixtures are written here, from the generated table (WhatsAppPhraseTable), in the
/// layouts the apps use.
@Suite struct WhatsAppPhraseTests {
    /// The most used WhatsApp languages (issue 41, class 5).
    static let languages = [
        "en", "es", "pt", "hi", "id", "ar", "ru", "de", "fr", "it", "tr", "fa", "ur", "bn", "ms", "nl", "pl", "uk",
        "vi", "th", "ko", "ja", "zh-Hans", "zh-Hant", "he", "sw", "ro", "hu", "cs", "el", "sv", "fil", "ta", "te",
        "mr", "gu",
    ]

    /// The phrases of `kind` in `language` and its regional forms (`pt`: `pt-BR`, `pt-PT`; `zh-Hans`: `zh-CN`).
    static func phrases(_ kind: String, _ language: String) -> [String] {
        let regional = ["zh-Hans": ["zh-CN", "zh-SG"], "zh-Hant": ["zh-TW", "zh-HK"]][language] ?? []
        let codes = WhatsAppPhrases.languages.filter {
            $0 == language || $0.hasPrefix(language + "-") || regional.contains($0)
        }
        var seen = Set<String>()
        return codes.flatMap { WhatsAppPhrases.phrases(kind, in: $0) }.filter { seen.insert($0).inserted }
    }

    /// A phrase with its placeholders filled by names, in order.
    static func filled(_ phrase: String, names: [String] = ["Bruno Costa", "Carla", "Grupo Praia"]) -> String {
        var result = ""
        var rest = Substring(phrase)
        var next = 0
        while let range = rest.range(of: #"%([0-9]+\$)?[@sdu]"#, options: .regularExpression) {
            result += rest[..<range.lowerBound]
            let token = rest[range]
            let position = token.dropFirst().prefix { $0.isNumber }
            let index = Int(position).map { $0 - 1 } ?? next
            result += names[min(index, names.count - 1)]
            next += 1
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// One chat per language, every phrase of the table in the layout of the app that writes it
    /// (iOS phrases under a name and after a left-to-right mark, Android ones as the line):
    /// each message is of the right kind, and no phrase is left as a message's text.
    @Test(arguments: languages)
    func everyPhraseOfALanguageIsReadAsWhatItIs(language: String) throws {
        let omitted = ["any", "image", "video", "audio", "sticker", "gif", "document", "contact"].flatMap { media in
            Self.phrases("omitted." + media, language).map { (media, $0) }
        }
        let attached = Self.phrases("attached", language)
        let deleted =
            Self.phrases("deleted", language).map { ($0, false) }
            + Self.phrases("deleted.you", language).map { ($0, true) }
        // A notice with fewer than three letters of its own (Chinese `还剩 %@`) is not told from
        // a message; the reader keeps it as one, so it is not among the fixtures.
        let system =
            (Self.phrases("system", language).map { ($0, false) }
            + Self.phrases("system.you", language).map { ($0, true) }).filter { phrase, _ in
                let parts = WhatsAppPhrases.cut(phrase)
                return WhatsAppPhrases.systemTemplates.contains { $0.parts == parts }
            }
        let encrypted = Self.phrases("encrypted", language)
        #expect(!omitted.isEmpty && !attached.isEmpty && !deleted.isEmpty, "\(language)")
        #expect(system.count >= 5, "\(language)")

        // iOS layout throughout: the importer reads one layout a file, and iOS puts every notice
        // under a name, the harder case (an Android notice has no name, so it is a system line).
        let lrm = "\u{200E}"
        var lines: [(text: String, expect: String)] = []
        for (media, phrase) in omitted {
            let body = media == "document" ? "Relatorio.pdf \(lrm)\(phrase)" : "\(lrm)\(phrase)"
            lines.append(("Ana Lima: \(body)", media))
        }
        for phrase in attached {
            lines.append(
                ("Ana Lima: \(lrm)\(Self.filled(phrase, names: ["00000012-PHOTO-2022-03-18.jpg"]))", "attached"))
        }
        for (phrase, byYou) in deleted {
            lines.append(("Ana Lima: \(phrase)", byYou ? "deleted.you" : "deleted"))
            lines.append(("Ana Lima: \(lrm)\(phrase)", byYou ? "deleted.you" : "deleted"))
        }
        for phrase in encrypted { lines.append(("Grupo Praia: \(lrm)\(phrase)", "system")) }
        for (phrase, byYou) in system {
            lines.append(("Grupo Praia: \(lrm)\(Self.filled(phrase))", byYou ? "system.you" : "system"))
        }
        var text = ""
        for (index, line) in lines.enumerated() {
            text +=
                "[18/03/2022, 14:\(String(format: "%02d", index / 60)):\(String(format: "%02d", index % 60))] \(line.text)\n"
        }
        let result = try #require(try WhatsAppLocaleTests.importChat(text).result)
        let messages = try #require(result.conversation).messages
        try #require(messages.count == lines.count, "\(language): \(messages.count) messages of \(lines.count) lines")
        for (line, message) in zip(lines, messages) {
            let kind = message.kind.name
            switch line.expect {
            case "image", "sticker": #expect(kind == .photo, "\(language): \(line.text)")
            case "video", "gif": #expect(kind == .video, "\(language): \(line.text)")
            case "audio": #expect(kind == .audio, "\(language): \(line.text)")
            case "any", "contact": #expect(kind == .file, "\(language): \(line.text)")
            case "document":
                #expect(kind == .file, "\(language): \(line.text)")
                if case .file(let item) = message.kind { #expect(item.name == "Relatorio.pdf", "\(language)") }
            case "attached": #expect(kind == .photo, "\(language): \(line.text)")
            case "deleted", "deleted.you":
                #expect(message.deleted, "\(language): \(line.text)")
                #expect(message.kind == .text(""), "\(language): \(line.text)")
            default:
                #expect(kind == .system, "\(language): \(line.text)")
                #expect(message.sender == nil, "\(language): \(line.text)")
            }
        }
        // The exporter's own voice is told apart, for `me`; a text some language also uses for
        // another's deletion (Portuguese `Esta mensagem foi apagada.`) is never the exporter's.
        let othersDeletions = Set(
            WhatsAppPhrases.all.filter { $0.kind == "deleted" }.map { WhatsAppPhrases.normalized($0.text) })
        for (line, _) in zip(lines, messages) where line.expect.hasPrefix("system") || line.expect.hasPrefix("deleted")
        {
            if line.expect == "deleted.you",
                othersDeletions.contains(WhatsAppPhrases.normalized(line.text.dropFirst(10)))
            {
                continue
            }
            let body = String(line.text[line.text.range(of: ": ")!.upperBound...])
            #expect(
                WhatsAppBody.isExporterVoice(body) == line.expect.hasSuffix(".you"), "\(language): \(line.text)")
        }
    }

    /// Android writes `<Media omitted>` and `NAME (file attached)` in the phone's language, and
    /// its notices as whole lines.
    @Test(arguments: languages)
    func androidMarkersAreReadInEveryLanguage(language: String) throws {
        let omitted = Self.phrases("omitted.any", language)
        let attached = Self.phrases("attached", language).filter { !$0.hasPrefix("<") }
        try #require(!omitted.isEmpty && !attached.isEmpty, "\(language)")
        var text = ""
        var index = 0
        for phrase in omitted + attached.map({ Self.filled($0, names: ["IMG-20220318-WA0001.jpg"]) }) {
            text += "18/03/2022, 14:\(String(format: "%02d", index)) - Ana Lima: \(phrase)\n"
            index += 1
        }
        let result = try #require(try WhatsAppLocaleTests.importChat(text).result)
        let kinds = try #require(result.conversation).messages.map(\.kind.name)
        #expect(
            kinds == Array(repeating: .file, count: omitted.count) + Array(repeating: .photo, count: attached.count))
    }

    /// An edited message ends with WhatsApp's marker in the app's language (`<Dit bericht is
    /// bewerkt>`), in the iOS layout (after a left-to-right mark) and the Android one: the marker
    /// becomes the message's edited mark and leaves its text; the next, unedited message stays so.
    @Test(arguments: languages)
    func theEditedMarkerIsAnEditMarkInEveryLanguage(language: String) throws {
        let markers = Self.phrases("edited", language)
        try #require(!markers.isEmpty, "\(language) has no edited marker")
        let layouts = [
            (name: "iOS", line: { (second: Int) in "[18/03/2022, 14:00:\(second)] Ana Lima: " }, mark: "\u{200E}"),
            (name: "Android", line: { (minute: Int) in "18/03/2022, 14:\(minute) - Ana Lima: " }, mark: ""),
        ]
        for layout in layouts {
            var text = ""
            for (index, marker) in markers.enumerated() {
                text += layout.line(10 + 2 * index) + "Vamos às 8 \(layout.mark)\(marker)\n"
                text += layout.line(11 + 2 * index) + "Vamos às 9\n"
            }
            let result = try #require(try WhatsAppLocaleTests.importChat(text).result)
            let messages = try #require(result.conversation).messages
            try #require(messages.count == 2 * markers.count, "\(language) \(layout.name): \(messages.count) messages")
            for (index, marker) in markers.enumerated() {
                let edited = messages[2 * index]
                let plain = messages[2 * index + 1]
                #expect(edited.edited != nil, "\(language) \(layout.name): \(marker)")
                #expect(edited.kind == .text("Vamos às 8"), "\(language) \(layout.name): \(marker)")
                #expect(plain.edited == nil && plain.kind == .text("Vamos às 9"), "\(language) \(layout.name)")
            }
        }
    }

    /// Some exports name the exporter's own messages with the app's word for them (`Du: Hallo`,
    /// `Вы: Привет`): that sender is `me` in every language of the table, the word taken from
    /// WhatsApp's strings (not only the few languages once listed by hand).
    @Test(arguments: ["ru", "tr", "ja", "ar", "nl", "de"])
    func theAppsWordForTheExporterIsMe(language: String) throws {
        let word = try #require(WhatsAppPhrases.phrases("you", in: language).first, "\(language)")
        let text = """
            [18/03/2022, 14:00:01] Ana Lima: Oi
            [18/03/2022, 14:00:02] \(word): Olá
            [18/03/2022, 14:00:03] Bruno Costa: Tudo bem?

            """
        let conversation = try #require(try WhatsAppLocaleTests.importChat(text).result?.conversation)
        try #require(conversation.messages.count == 3, "\(language)")
        let exporter = try #require(conversation.messages[1].sender)
        #expect(conversation.me == exporter, "\(language): \(word)")
        #expect(WhatsAppBody.exporterNames.contains(word))
    }

    /// iOS as it writes a chat (the documented shape of an English iOS export): deletions and
    /// notices after a left-to-right mark, a notice with a second sentence after it.
    @Test func iOSNoticesWithASecondSentenceAreSystemLines() throws {
        let lrm = "\u{200E}"
        let text = """
            [27/03/2022, 21:50:54] Dmitry S: \(lrm)You deleted this message.
            [27/03/2022, 21:54:45] Elon Musk: \(lrm)This message was deleted.
            [28/04/2022, 20:17:30] Elon Musk: \(lrm)\(lrm)Your security code with Elon changed. \(lrm)Tap to learn more.
            [28/04/2022, 20:18:30] Grupo: \(lrm)Bruno hat die Gruppe verlassen. Mehr erfahren.

            """
        let result = try #require(try WhatsAppLocaleTests.importChat(text).result)
        let messages = try #require(result.conversation).messages
        #expect(messages.map(\.deleted) == [true, true, false, false])
        #expect(messages.map(\.kind.name) == [.text, .text, .system, .system])
        #expect(result.conversation?.me == "dmitry-s")
    }

    /// A message that only reads like a notice stays a message: iOS notices start with a mark.
    @Test func aMessageThatReadsLikeANoticeStaysAMessage() throws {
        let text = "[18/03/2022, 14:56:01] Ana Lima: Bruno left\n[18/03/2022, 14:56:02] Grupo: \u{200E}Bruno left\n"
        let result = try #require(try WhatsAppLocaleTests.importChat(text).result)
        let messages = try #require(result.conversation).messages
        #expect(messages.map(\.kind.name) == [.text, .system])
        #expect(messages.first?.sender != nil)
        #expect(!WhatsAppBody.isExporterVoice("Bruno left"))
        #expect(WhatsAppBody.isExporterVoice("You left"))
        #expect(WhatsAppBody.isExporterVoice("Du hast die Gruppe „Praia“ erstellt."))
        #expect(!WhatsAppBody.isExporterVoice("Bruno hat die Gruppe „Praia“ erstellt."))
    }

    /// The committed table is what scripts/generate-whatsapp-phrases.py writes from its sources.
    @Test func thePhraseTableIsWhatTheGeneratorWrites() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = repository.appendingPathComponent("scripts/generate-whatsapp-phrases.py").path
        process.arguments = ["python3", script, "--check"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(message)")
    }
}
