import Foundation
import ScrollbackModel
import ScrollbackTestSupport
import Testing

@testable import ScrollbackReading

/// Slack's mrkdwn emphasis rules and Block Kit (issue 41, points 6 and 7), read the importer's
/// way and rendered through cmark-gfm.
@Suite struct SlackBlocksTests {
    let text = SlackText(users: ["U1": "Tom", "U2": "Ann"], channels: ["C1": "general"])

    /// The HTML cmark-gfm makes of some Markdown (the importer's renderer).
    static func html(_ markdown: String) -> String {
        let root = FileManager.default.temporaryDirectory
        var diagnostics: [Diagnostic] = []
        return ImportContext(root: root, config: SiteConfig()).richText(
            markdown: markdown, relativeTo: root.appendingPathComponent("day.json"),
            at: SourceLocation(file: "day.json", line: 1, column: 1), diagnostics: &diagnostics
        ).html
    }

    /// mrkdwn rendered as the site shows it.
    func shown(_ mrkdwn: String) -> String { Self.html(text.markdown(mrkdwn: mrkdwn)) }

    @Test func emphasisEndingInPunctuationOrAMentionCloses() {
        #expect(shown("*Bold!*") == "<p><strong>Bold!</strong></p>\n")
        #expect(shown("*files <@U1>*") == "<p><strong>files @Tom</strong></p>\n")
        #expect(shown("_see <https://x.org|this>_") == "<p><em>see <a href=\"https://x.org\">this</a></em></p>\n")
        #expect(
            shown("~gone.~ and *done?* (_yes_)")
                == "<p><del>gone.</del> and <strong>done?</strong> (<em>yes</em>)</p>\n")
        #expect(shown("*:tada: party*") == "<p><strong>🎉 party</strong></p>\n")
        #expect(shown("*bold* _it_ ~s~") == "<p><strong>bold</strong> <em>it</em> <del>s</del></p>\n")
    }

    /// What Slack leaves as text stays text: markers inside words, with spaces inside, unpaired
    /// or across lines; underscores of names and shortcodes.
    @Test func markersSlackDoesNotReadStayText() {
        #expect(shown("2*3*4") == "<p>2*3*4</p>\n")
        #expect(shown("a * b * c") == "<p>a * b * c</p>\n")
        #expect(shown("*open only") == "<p>*open only</p>\n")
        #expect(shown("*two\nlines*") == "<p>*two<br />\nlines*</p>\n")
        #expect(shown("snake_case_name") == "<p>snake_case_name</p>\n")
        #expect(shown(":open_mouth: x") == "<p>😮 x</p>\n")
        #expect(shown("*a*b") == "<p>*a*b</p>\n")
    }

    // MARK: Block Kit

    /// Blocks from JSON text.
    static func blocks(_ json: String) throws -> [JSONNode] {
        try #require(try JSONParser.parse(Array(json.utf8), file: "blocks.json").elements)
    }

    func content(_ json: String, partial: Bool = false) throws -> SlackText.BlocksContent? {
        text.content(ofBlocks: try Self.blocks(json), partial: partial)
    }

    /// The real fragments of `../shared/samples/fragments/slack` (Zulip's Slack fixtures): each
    /// message's blocks shown as Slack shows them.
    @Test func realRichTextFragments() throws {
        let folder = try SlackSamples.fragments()
        func message(_ name: String) throws -> JSONNode {
            try JSONParser.parse(
                Array(try Data(contentsOf: folder.appendingPathComponent(name))), file: name)
        }
        func rendered(_ name: String) throws -> String? {
            let node = try message(name)
            let blocks = try #require(node["blocks"]?.elements)
            switch text.content(ofBlocks: blocks) {
            case .markdown(let markdown)?: return Self.html(markdown)
            case .plain(let plain)?: return "plain: " + plain
            case nil: return nil
            }
        }
        let quote = try #require(try rendered("message_with_quote_block.json"))
        #expect(
            quote.hasPrefix("<blockquote>\n<p>Hello there, I am a rich text section block!<br />\n<strong>"), "\(quote)"
        )
        #expect(
            quote.contains(
                "<del><em><strong><code>Hello there, I am a rich text section block!</code></strong></em></del>"),
            "\(quote)")
        let list = try #require(try rendered("message_with_nested_ordered_list.json"))
        #expect(list.contains("<ol>\n<li>main item 1\n<ul>\n<li>nested item 1</li>"), "\(list)")
        #expect(list.contains("<ol start=\"2\">") || list.contains("<li>main item 2"), "\(list)")
        let code = try #require(try rendered("message_with_code_block.json"))
        #expect(code.contains("<pre><code>"), "\(code)")
        #expect(code.contains("-&gt; str:"), "\(code)")
        // Channel ids the export does not name: the text (which names them) is shown instead.
        #expect(try rendered("message_with_channel_mentions.json") == nil)
        // An element type not understood: the text instead.
        #expect(try rendered("message_with_unknown_rich_text_block.json") == nil)
    }

    @Test func plainRichTextStaysPlainText() throws {
        let json = #"""
            [{"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
                {"type": "text", "text": "hi "}, {"type": "user", "user_id": "U2"}, {"type": "text", "text": " see "},
                {"type": "channel", "channel_id": "C1"}, {"type": "text", "text": " "},
                {"type": "emoji", "name": "thumbsup", "skin_tone": 3}, {"type": "text", "text": " "},
                {"type": "broadcast", "range": "here"}, {"type": "text", "text": " "},
                {"type": "link", "url": "https://x.org/a"}]}]}]
            """#
        #expect(try content(json) == .plain("hi @Ann see #general 👍🏼 @here https://x.org/a"))
    }

    @Test func appBlocksAndAPoll() throws {
        // A poll as Slack's own template sends it: question, options with voters and counts.
        let poll = #"""
            [{"type": "section", "text": {"type": "mrkdwn", "text": "*Where should we eat?* Poll by <@U1>"}},
             {"type": "divider"},
             {"type": "section", "text": {"type": "mrkdwn", "text": ":sushi: *Sushi Bar*\nThe best."},
              "accessory": {"type": "button", "text": {"type": "plain_text", "text": "Vote"}, "value": "v1"}},
             {"type": "context", "elements": [
                {"type": "image", "image_url": "https://x.org/1.png", "alt_text": "Michael"},
                {"type": "image", "image_url": "https://x.org/2.png", "alt_text": "Dwight"},
                {"type": "plain_text", "text": "2 votes", "emoji": true}]},
             {"type": "actions", "elements": [{"type": "button", "text": {"type": "plain_text", "text": "Add"}}]},
             {"type": "header", "text": {"type": "plain_text", "text": "Results :tada:"}},
             {"type": "image", "image_url": "https://x.org/chart.png", "alt_text": "a chart"}]
            """#
        guard case .markdown(let markdown)? = try content(poll) else {
            Issue.record("the poll is not shown from its blocks")
            return
        }
        let html = Self.html(markdown)
        #expect(html.contains("<p><strong>Where should we eat?</strong> Poll by @Tom</p>\n<hr />"), "\(html)")
        #expect(html.contains("<p>🍣 <strong>Sushi Bar</strong><br />\nThe best.</p>"), "\(html)")
        #expect(html.contains("<p>Michael · Dwight · 2 votes</p>"), "\(html)")
        #expect(!html.contains("Vote<") && !html.contains("Add<"), "controls are not content: \(html)")
        #expect(html.contains("<p><strong>Results 🎉</strong></p>"), "\(html)")
        #expect(html.contains("<a href=\"https://x.org/chart.png\">a chart</a>"), "\(html)")
    }

    @Test func aTableBlockIsATable() throws {
        let json = #"""
            [{"type": "table", "rows": [
                [{"type": "raw_text", "text": "Name"}, {"type": "raw_text", "text": "Score|pts"}],
                [{"type": "raw_text", "text": "Ann"}, {"type": "rich_text", "elements": [{"type": "rich_text_section",
                  "elements": [{"type": "text", "text": "12", "style": {"bold": true}}]}]}]]}]
            """#
        guard case .markdown(let markdown)? = try content(json) else {
            Issue.record("no table")
            return
        }
        let html = Self.html(markdown)
        #expect(html.contains("<th>Name</th>"), "\(html)")
        #expect(html.contains("<th>Score|pts</th>"), "\(html)")
        #expect(html.contains("<td><strong>12</strong></td>"), "\(html)")
    }

    @Test func unknownBlocksFallBackToTextUnlessThereIsNone() throws {
        let json =
            #"[{"type": "section", "text": {"type": "mrkdwn", "text": "kept"}}, {"type": "call", "call_id": "R1"}]"#
        #expect(try content(json) == nil)
        #expect(try content(json, partial: true) == .markdown("kept"))
    }

    /// Styled runs that start or end with a space still close; links keep only web addresses.
    @Test func styledRunsAndLinksAreSafeMarkdown() throws {
        let json = #"""
            [{"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
                {"type": "text", "text": "bold ", "style": {"bold": true}}, {"type": "text", "text": "and"},
                {"type": "text", "text": " it", "style": {"italic": true}},
                {"type": "text", "text": " "}, {"type": "link", "url": "javascript:alert(1)", "text": "x"},
                {"type": "text", "text": " "}, {"type": "link", "url": "https://x.org/a>b", "text": "y"}]}]}]
            """#
        guard case .markdown(let markdown)? = try content(json) else {
            Issue.record("no markdown")
            return
        }
        let html = Self.html(markdown)
        #expect(
            html.contains("<strong>bold</strong> and <em>it</em> x <a href=\"https://x.org/a%3Eb\">y</a>"), "\(html)")
        #expect(!html.contains("javascript"))
    }
}

/// Where the shared samples are, from this test target.
enum SlackSamples {
    static func fragments() throws -> URL {
        try SharedSamples.folder().appendingPathComponent("fragments/slack/zulip-slack-message-fixtures-more")
    }
}
