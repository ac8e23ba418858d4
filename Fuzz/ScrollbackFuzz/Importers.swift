// Fuzz targets for the importers (Sources/ScrollbackReading/Importers): each input is one export
// file, read from memory through `ImportContext`'s `readFile` by the importer's own `read` (what
// a build calls), after every importer's `detect` has looked at its first bytes. Properties, on
// every input: no crash or sanitizer report; the import takes at most a bound per input byte
// (`FuzzBound`); every diagnostic is located and every conversation passes `ReadCheck`; a built
// conversation has as many messages out as in (less those left out on purpose), and as many in
// as the export's own message array holds, counted here from the parsed input.
import Foundation
import ScrollbackModel
import ScrollbackReading

/// A folder that does not exist: media named by an input resolves to a placeholder, never a file.
private let exportRoot = URL(fileURLWithPath: "/nonexistent-scrollback-fuzz-export")

/// Runs `importer` on `file`, whose bytes are `bytes`, and checks the result. `countMessages`
/// gives the number of messages the parsed export holds for a conversation (`nil`: not counted).
private func fuzzImport(
    _ importer: any ExportImporter.Type, file: URL, bytes: [UInt8], items: [URL]? = nil,
    readOther: @escaping @Sendable (URL) -> [UInt8]? = { _ in nil },
    countMessages: ((JSONNode) -> Int?)? = nil
) {
    let what = "\(importer.format) importer"
    let context = ImportContext(
        root: exportRoot, config: SiteConfig(), readFile: { $0.path == file.path ? bytes : readOther($0) })
    var conversations: [ImportedConversation] = []
    let diagnostics = FuzzBound.measure(bytes: bytes.count, what: what) {
        // Detection sniffs every file under the input, for every format.
        let candidate = ExportCandidate(url: file, isDirectory: false, head: bytes)
        for each in ExportImporters.all { _ = each.detect(candidate) }
        let export = DetectedExport(format: importer.format, items: items ?? [file], root: exportRoot)
        return importer.read(export, context: context, emit: { conversations.append($0) })
    }
    ReadCheck.checkLocated(diagnostics, what: what)
    for imported in conversations {
        ReadCheck.check(imported.conversation, diagnostics: imported.diagnostics, what: what)
        guard imported.conversation != nil else { continue }
        if imported.messagesOut != imported.messagesIn - imported.leftOut {
            fail("\(what): \(imported.countLine)")
        }
    }
    // Counted independently of the importer: every entry of the export's message array is a
    // message in, when a conversation was built from it.
    if let countMessages, conversations.count == 1, conversations[0].conversation != nil,
        let root = try? JSONParser.parse(bytes, file: "count"), let expected = countMessages(root),
        expected != conversations[0].messagesIn
    {
        fail("\(what): the export holds \(expected) messages, the importer counted \(conversations[0].messagesIn) in")
    }
}

func fuzzDiscordImporter(_ input: UnsafeBufferPointer<UInt8>) {
    fuzzImport(
        DiscordImporter.self, file: exportRoot.appendingPathComponent("Guild - general [1].json"), bytes: Array(input),
        countMessages: { $0["messages"]?.elements?.count })
}

func fuzzTelegramImporter(_ input: UnsafeBufferPointer<UInt8>) {
    fuzzImport(
        TelegramImporter.self, file: exportRoot.appendingPathComponent("result.json"), bytes: Array(input),
        countMessages: { $0["chats"] == nil ? $0["messages"]?.elements?.count : nil })
}

func fuzzChatGPTImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // The shown branch is a walk of the mapping tree: only messages in = out + left out is checked.
    fuzzImport(ChatGPTImporter.self, file: exportRoot.appendingPathComponent("conversations.json"), bytes: Array(input))
}

func fuzzMetaImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // One thread per file: every entry of its `messages` is a message in.
    fuzzImport(
        MetaImporter.self, file: exportRoot.appendingPathComponent("message_1.json"), bytes: Array(input),
        countMessages: { $0["messages"]?.elements?.count })
}

func fuzzClaudeImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // Every entry of `chat_messages` is a message in (on the shown branch or left out as on another).
    fuzzImport(
        ClaudeImporter.self, file: exportRoot.appendingPathComponent("conversations.json"), bytes: Array(input),
        countMessages: { ($0.elements?.count == 1 ? $0.elements?[0] : $0)?["chat_messages"]?.elements?.count })
}

func fuzzSignalImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // signal-export's `data.json`, the text layout or Signal's own `main.jsonl`: told apart by the first bytes.
    fuzzImport(SignalImporter.self, file: exportRoot.appendingPathComponent("data.json"), bytes: Array(input))
}

func fuzzMattermostImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // One JSON object a line, many conversations: messages in = out + left out is checked.
    fuzzImport(MattermostImporter.self, file: exportRoot.appendingPathComponent("import.jsonl"), bytes: Array(input))
}

func fuzzMatrixImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // One room per file: every event of `messages` is a message in (or folded into another, left out).
    fuzzImport(
        MatrixImporter.self, file: exportRoot.appendingPathComponent("export.json"), bytes: Array(input),
        countMessages: { $0["messages"]?.elements?.count })
}

func fuzzGoogleChatImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // One conversation's folder (the export), its `messages.json` the input: every entry is a message in.
    fuzzImport(
        GoogleChatImporter.self, file: exportRoot.appendingPathComponent("messages.json"), bytes: Array(input),
        items: [exportRoot], countMessages: { $0["messages"]?.elements?.count })
}

func fuzzLineImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // A text format: messages in = out + left out (checked for every importer) is the count.
    fuzzImport(
        LineImporter.self, file: exportRoot.appendingPathComponent("[LINE] Chat with Kaori.txt"), bytes: Array(input))
}

func fuzzIrcImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // A text format: messages in = out + left out (checked for every importer) is the count.
    fuzzImport(IrcImporter.self, file: exportRoot.appendingPathComponent("libera/#chan.log"), bytes: Array(input))
}

func fuzzIMessageImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // A text format: messages in = out + left out (checked for every importer) is the count.
    fuzzImport(IMessageImporter.self, file: exportRoot.appendingPathComponent("Family - 12.txt"), bytes: Array(input))
}

func fuzzWhatsAppImporter(_ input: UnsafeBufferPointer<UInt8>) {
    fuzzImport(
        WhatsAppImporter.self, file: exportRoot.appendingPathComponent("WhatsApp Chat with Alex.txt"),
        bytes: Array(input))
}

/// A Slack export on disk (Slack's importer lists its folders): `users.json`, `channels.json` and
/// one channel folder with one day file, made once per process. The fuzzed input is the day
/// file's bytes; the other files are read from memory.
private let slackExport: (folder: URL, day: URL) = {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("scrollback-fuzz-slack-\(getpid())/export")
    let day = folder.appendingPathComponent("general/2024-05-03.json")
    try! FileManager.default.createDirectory(at: day.deletingLastPathComponent(), withIntermediateDirectories: true)
    for file in [day, folder.appendingPathComponent("users.json"), folder.appendingPathComponent("channels.json")] {
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("[]".utf8))
    }
    atexit {
        let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "scrollback-fuzz-slack-\(getpid())")
        try? FileManager.default.removeItem(at: path)
    }
    return (folder, day)
}()

private let slackUsers = Array(
    #"""
    [{"id": "U1", "name": "alex", "profile": {"display_name": "Alex", "real_name": "Alex Kim"}},
     {"id": "U2", "name": "sam", "real_name": "Sam Lee"},
     {"id": "B1", "name": "deploybot", "is_bot": true}]
    """#.utf8)
private let slackChannels = Array(
    #"[{"id": "C1", "name": "general", "members": ["U1", "U2"], "topic": {"value": "Everything"}}]"#.utf8)

func fuzzSlackImporter(_ input: UnsafeBufferPointer<UInt8>) {
    let export = slackExport
    let users = export.folder.appendingPathComponent("users.json")
    let channels = export.folder.appendingPathComponent("channels.json")
    fuzzImport(
        SlackImporter.self, file: export.day, bytes: Array(input), items: [export.folder],
        readOther: { url in url.path == users.path ? slackUsers : url.path == channels.path ? slackChannels : nil },
        countMessages: { $0.elements?.count })
}

func fuzzTeamsImporter(_ input: UnsafeBufferPointer<UInt8>) {
    // One user's chats file, read as the folder importer reads it: every element is a message in.
    fuzzImport(
        TeamsImporter.self, file: exportRoot.appendingPathComponent("users/u1/messages_u1.json"), bytes: Array(input),
        countMessages: { $0.elements?.count })
}
