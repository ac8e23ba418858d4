/// The chat app an imported conversation came from, as the index card names it.
///
/// The key is the export format an importer writes into each message's `ExportSource.format`
/// (`ExportFormat`'s raw values); an unknown key (a log's own `source` naming another tool) has
/// no badge, so nothing from a log is shown as an app it is not.
struct SourceApp: Equatable {
    /// The format key (`slack`), safe in a class name: one of the known keys.
    let key: String
    /// The app's name as its makers write it (`WhatsApp`).
    let name: String

    /// The app of format `key`, or `nil` for none or an unknown one.
    init?(format key: String?) {
        guard let key, let name = Self.names.first(where: { $0.key == key })?.name else { return nil }
        self.key = key
        self.name = name
    }

    /// The formats Scrollback imports (`ExportFormat`), each with its app's spelling: the one
    /// thing the format key does not say (its capitals).
    private static let names: [(key: String, name: String)] = [
        ("slack", "Slack"), ("discord", "Discord"), ("telegram", "Telegram"), ("whatsapp", "WhatsApp"),
        ("chatgpt", "ChatGPT"),
        // One format (`meta`), two apps: the importer writes which one a thread came from.
        ("messenger", "Messenger"), ("instagram", "Instagram"),
        ("claude", "Claude"),
        ("teams", "Microsoft Teams"),
        ("signal", "Signal"),
        ("mattermost", "Mattermost"),
        ("matrix", "Matrix"),
        ("googlechat", "Google Chat"),
        ("line", "LINE"),
        ("irc", "IRC"),
        ("imessage", "iMessage"),
    ]
}
