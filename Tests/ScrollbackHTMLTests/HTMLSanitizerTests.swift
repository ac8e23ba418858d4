import Foundation
import Testing

@testable import ScrollbackHTML

@Suite("HTMLSanitizer")
struct HTMLSanitizerTests {
    let sanitizer = HTMLSanitizer()

    /// XSS payloads after OWASP's filter-evasion cheat sheet and html5sec.org.
    static let xssPayloads: [String] = [
        "<script>alert(1)</script>",
        "<SCRIPT SRC=http://xss.rocks/xss.js></SCRIPT>",
        "<scr<script>ipt>alert(1)</scr</script>ipt>",
        "<IMG SRC=\"javascript:alert('XSS');\">",
        "<IMG SRC=JaVaScRiPt:alert('XSS')>",
        "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
        "<a href=\"JaVaScRiPt:alert(1)\">x</a>",
        "<a href=\"java\tscript:alert(1)\">x</a>",
        "<a href=\"java&#x09;script:alert(1)\">x</a>",
        "<a href=\"java&#x0A;script:alert(1)\">x</a>",
        "<a href=\"jav&#x0D;ascript:alert(1)\">x</a>",
        "<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">x</a>",
        "<a href=\"&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)\">x</a>",
        "<a href=\"&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61lert(1)\">x</a>",
        "<a href=\" &#14;  javascript:alert(1)\">x</a>",
        "<a href=\"\u{1}javascript:alert(1)\">x</a>",
        "<a href=\"\u{0}javascript:alert(1)\">x</a>",
        "<a href=\"javascript&#58;alert(1)\">x</a>",
        "<a href=\"javascript&colon;alert(1)\">x</a>",
        "<a href='vbscript:msgbox(1)'>x</a>",
        "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>",
        "<a href=\"https://ok.example\" onclick=\"alert(1)\" onmouseover=alert(1)>ok</a>",
        "<a href=\"#frag\" onclick=alert(1)>frag</a>",
        "<img src=x onerror=alert(1)>",
        "<img src=x onerror=\"alert(1)\"//>",
        "<img src=1 onerror=&#97;&#108;&#101;&#114;&#116;(1)>",
        "<IMG \"\"\"><SCRIPT>alert(\"XSS\")</SCRIPT>\">",
        "<img src=\"https://ok.example/x.png\" srcset=\"javascript:alert(1) 1x\">",
        "<img src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">",
        "<svg onload=alert(1)>",
        "<svg><script>alert(1)</script></svg>",
        "<svg><a xlink:href=\"javascript:alert(1)\"><text>x</text></a></svg>",
        "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
        "<body onload=alert(1)>",
        "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
        "<object data=\"javascript:alert(1)\"></object>",
        "<embed src=\"javascript:alert(1)\">",
        "<style>@import 'http://evil.example/x.css';</style>",
        "<div style=\"background:url(javascript:alert(1))\">div</div>",
        "<b style=\"x:expression(alert(1))\">b</b>",
        "<span class=\"admin\" id=\"login\" style=\"position:fixed\">overlay</span>",
        "<link rel=stylesheet href=\"http://evil.example/x.css\">",
        "<base href=\"http://evil.example/\">",
        "<base href=\"javascript:/\"><a href=\"/x\">x</a>",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
        "<meta http-equiv=\"refresh\" content=\"0;url=data:text/html,<script>alert(1)</script>\">",
        "<form action=\"javascript:alert(1)\"><input type=submit></form>",
        "<button formaction=\"javascript:alert(1)\">x</button>",
        "<details open ontoggle=alert(1)><summary>s</summary>d</details>",
        "<video><source onerror=\"alert(1)\"></video>",
        "<audio src=x onerror=alert(1)>",
        "<input autofocus onfocus=alert(1)>",
        "<input type=checkbox onclick=alert(1) checked>",
        "<!--<script>alert(1)</script>-->",
        "<!--><script>alert(1)</script>-->",
        "<!-- --!><script>alert(1)</script> -->",
        "<!--[if gte IE 4]><script>alert(1)</script><![endif]-->",
        "<![CDATA[<script>alert(1)</script>]]>",
        "<?xml version=\"1.0\"?><script>alert(1)</script>",
        "<template><script>alert(1)</script></template>",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
        "<p <script>alert(1)</script>>",
        "<b onmouseover=alert(1)//",
        "<img src=\"x` `<script>alert(1)</script>\"` `>",
        "<textarea><script>alert(1)</script></textarea>",
        "<title><script>alert(1)</script></title>",
        "<table><td background=\"javascript:alert(1)\">x</td></table>",
        "<ol start=\"1 onclick=alert(1)\"><li>x</li></ol>",
        "<td align=\"left onclick=alert(1)\">x</td>",
        "<img src=\"https://ok.example/x.png\" width=\"10 onload=alert(1)\">",
        "<a href=\"https://ok.example/\"x onclick=alert(1)>x</a>",
        "<a href=\"https://ok.example/&quot; onclick=&quot;alert(1)\">x</a>",
        "<div><b><i><a href=\"javascript:alert(1)\"><script>alert(1)</div>",
        "</body><script>alert(1)</script>",
        "</html><body onload=alert(1)>",
        "<html><head><script>alert(1)</script></head><body>x</body></html>",
    ]

    @Test("XSS payloads leave nothing that can run", arguments: xssPayloads)
    func xssPayload(_ payload: String) {
        let result = sanitizer.sanitize(payload)
        let lowercased = result.html.lowercased()
        #expect(!lowercased.contains("<script"))
        #expect(!lowercased.contains("javascript:"))
        #expect(!lowercased.contains("vbscript:"))
        #expect(!lowercased.contains("style="))
        #expect(SanitizerSafety.problems(in: result.html) == [])
    }

    @Test("Script, style and template content never becomes text")
    func scriptContentIsDropped() {
        for payload in [
            "<script>alert(1)</script>", "<SCRIPT SRC=x>alert(1)</SCRIPT>", "<svg><script>alert(1)</script></svg>",
            "<template><script>alert(1)</script></template>", "<style>alert(1){}</style>",
            "<noscript>alert(1)</noscript>", "<iframe>alert(1)</iframe>", "<math><mi>alert(1)</mi></math>",
            "<!--<script>alert(1)</script>-->", "<!--[if gte IE 4]><script>alert(1)</script><![endif]-->",
            "<html><head><script>alert(1)</script></head><body>x</body></html>",
        ] {
            let result = sanitizer.sanitize("before" + payload + "after")
            #expect(!result.plainText.contains("alert(1)"), "\(payload) gave \(result.plainText)")
            #expect(result.plainText.hasPrefix("before") && result.plainText.hasSuffix("after"))
        }
    }

    @Test("Allowed markup survives as written")
    func allowedMarkup() {
        let cases: [(String, String)] = [
            (
                "<p>Hello <strong>bold</strong> and <em>em</em></p>",
                "<p>Hello <strong>bold</strong> and <em>em</em></p>"
            ),
            (
                "<b>b</b> <i>i</i> <u>u</u> <s>s</s> <del>d</del> <ins>n</ins> <mark>m</mark> <small>s</small>",
                "<b>b</b> <i>i</i> <u>u</u> <s>s</s> <del>d</del> <ins>n</ins> <mark>m</mark> <small>s</small>"
            ),
            (
                "x<sub>2</sub> y<sup>3</sup> <code>c</code> <kbd>K</kbd>",
                "x<sub>2</sub> y<sup>3</sup> <code>c</code> <kbd>K</kbd>"
            ),
            ("<pre><code>let x = 1\n  y</code></pre>", "<pre><code>let x = 1\n  y</code></pre>"),
            ("<blockquote><p>quote</p></blockquote>", "<blockquote><p>quote</p></blockquote>"),
            (
                "<ul><li>a</li><li>b</li></ul><ol start=\"3\"><li>c</li></ol>",
                "<ul><li>a</li><li>b</li></ul><ol start=\"3\"><li>c</li></ol>"
            ),
            ("<dl><dt>t</dt><dd>d</dd></dl>", "<dl><dt>t</dt><dd>d</dd></dl>"),
            ("<h1>1</h1><h6>6</h6><hr>", "<h1>1</h1><h6>6</h6><hr>"),
            ("line<br>break", "line<br>break"),
            (
                "<a href=\"https://example.com/a?b=1&amp;c=2\">link</a>",
                "<a href=\"https://example.com/a?b=1&amp;c=2\" rel=\"nofollow noopener noreferrer\">link</a>"
            ),
            (
                "<a href=\"mailto:a@example.com\">mail</a>",
                "<a href=\"mailto:a@example.com\" rel=\"nofollow noopener noreferrer\">mail</a>"
            ),
            ("<a href=\"#m-42\">jump</a>", "<a href=\"#m-42\">jump</a>"),
            (
                "<a href=\"  HTTPS://Example.com/x \">x</a>",
                "<a href=\"HTTPS://Example.com/x\" rel=\"nofollow noopener noreferrer\">x</a>"
            ),
            (
                "<img src=\"https://example.com/cat.png\" alt=\"A cat\" width=\"640\" height=\"480\">",
                "<img src=\"https://example.com/cat.png\" alt=\"A cat\" width=\"640\" height=\"480\">"
            ),
            (
                "<table><thead><tr><th align=\"right\">h</th></tr></thead><tbody><tr><td colspan=\"2\" rowspan=\"3\">c</td></tr></tbody></table>",
                "<table><thead><tr><th align=\"right\">h</th></tr></thead><tbody><tr><td colspan=\"2\" rowspan=\"3\">c</td></tr></tbody></table>"
            ),
            ("<details><summary>More</summary>hidden</details>", "<details><summary>More</summary>hidden</details>"),
            (
                "<ul><li><input type=\"checkbox\" checked disabled> done</li><li><input type=checkbox> todo</li></ul>",
                "<ul><li><input type=\"checkbox\" checked=\"\" disabled=\"\"> done</li><li><input type=\"checkbox\" disabled=\"\"> todo</li></ul>"
            ),
            ("<span>s</span><div>d</div>", "<span>s</span><div>d</div>"),
        ]
        for (input, expected) in cases {
            #expect(sanitizer.sanitize(input).html == expected, "input: \(input)")
        }
    }

    @Test("Forbidden attributes are removed and the element kept")
    func forbiddenAttributes() {
        #expect(
            sanitizer.sanitize(
                "<p class=\"c\" id=\"i\" style=\"color:red\" onclick=\"x()\" title=\"t\" data-x=\"1\">p</p>"
            ).html
                == "<p>p</p>")
        #expect(
            sanitizer.sanitize("<td align=\"justify\" colspan=\"x\" rowspan=\"-1\">c</td>").html.contains("<td>c</td>"))
        #expect(sanitizer.sanitize("<ol start=\"-3\"><li>x</li></ol>").html == "<ol><li>x</li></ol>")
        #expect(
            sanitizer.sanitize("<img src=\"https://e.com/a.png\" width=\"100%\" height=\"1e3\">").html
                == "<img src=\"https://e.com/a.png\">")
    }

    @Test("Unknown elements are unwrapped, block containers become div, dangerous ones vanish with their content")
    func elementPolicies() {
        #expect(sanitizer.sanitize("<font color=red>red</font> <abbr title=\"x\">abbr</abbr>").html == "red abbr")
        #expect(sanitizer.sanitize("<section>a</section><article>b</article>").html == "<div>a</div><div>b</div>")
        #expect(sanitizer.sanitize("<custom-element foo=\"bar\"><b>in</b></custom-element>").html == "<b>in</b>")
        for dropped in [
            "script", "style", "iframe", "object", "template", "noscript", "svg", "math", "form", "select", "textarea",
            "button", "video",
        ] {
            let result = sanitizer.sanitize("before<\(dropped)>secret</\(dropped)>after")
            #expect(result.html == "beforeafter", "\(dropped): \(result.html)")
            #expect(!result.plainText.contains("secret"))
        }
        #expect(sanitizer.sanitize("<a>no href</a> <a href=\"page.html\">relative</a>").html == "no href relative")
    }

    @Test("Text is kept and escaped, never dropped")
    func textEscaping() {
        let result = sanitizer.sanitize("a < b && c > d \"q\" 'x' &lt;script&gt;")
        #expect(result.html == "a &lt; b &amp;&amp; c &gt; d &quot;q&quot; &#39;x&#39; &lt;script&gt;")
        #expect(result.plainText == "a < b && c > d \"q\" 'x' <script>")
        #expect(sanitizer.sanitize("😀 naïve 日本語 \u{202E}rtl").html == "😀 naïve 日本語 \u{202E}rtl")
        #expect(sanitizer.sanitize("a\u{0}b").plainText == "a\u{FFFD}b")
        #expect(sanitizer.sanitize("").html == "")
        #expect(sanitizer.sanitize("<b>unclosed <i>nested").html == "<b>unclosed <i>nested</i></b>")
    }

    @Test("Plain text collapses whitespace and separates blocks")
    func plainText() {
        let result = sanitizer.sanitize(
            "<h2>Title</h2><p>one\n  two</p><ul><li>a</li><li>b</li></ul>x<br>y <img alt=\"pic\">")
        #expect(result.plainText == "Title one two a b x y pic")
        #expect(sanitizer.sanitize("<b>a</b><i>b</i>").plainText == "ab")
    }

    @Test("Image sources go through the callback; unsafe ones never reach it")
    func imageCallback() {
        var seen: [String] = []
        let result = sanitizer.sanitize(
            "<img src=\" media/cat.png \" alt=\"cat\"><img src=\"javascript:alert(1)\" alt=\"js\"><img src=\"data:image/png;base64,AA\" alt=\"data\"><img src=\"//evil.example/x.png\" alt=\"proto\"><img src=\"https://e.com/x.png\">"
        ) { source in
            seen.append(source)
            return source.hasPrefix("media/") ? "media/0123456789abcdef.png" : nil
        }
        #expect(seen == ["media/cat.png", "https://e.com/x.png"])
        #expect(result.html == "<img src=\"media/0123456789abcdef.png\" alt=\"cat\">jsdataproto")
        #expect(
            sanitizer.sanitize("<img src=\"https://e.com/x.png\" alt=\"<b>&\">") { _ in nil }.html == "&lt;b&gt;&amp;")
    }

    @Test("Scheme detection matches browsers")
    func schemes() {
        #expect(URLPolicy.scheme(of: "JaVaScRiPt:alert(1)") == "javascript")
        #expect(URLPolicy.scheme(of: " \t java\nscript :x") == "javascript")
        #expect(URLPolicy.scheme(of: "\u{1}\u{7F}javascript:x") == "javascript")
        #expect(URLPolicy.scheme(of: "https://x") == "https")
        #expect(URLPolicy.scheme(of: "/a:b") == nil)
        #expect(URLPolicy.scheme(of: "a/b:c") == nil)
        #expect(URLPolicy.scheme(of: "#x:y") == nil)
        #expect(URLPolicy.scheme(of: "\u{FFFD}javascript:x") == nil)
        #expect(URLPolicy.linkTarget("java\tscript:alert(1)") == nil)
        #expect(URLPolicy.linkTarget("ftp://x") == nil)
        #expect(URLPolicy.linkTarget("x.html") == nil)
        #expect(URLPolicy.linkTarget("\n#top ") == "#top")
    }

    @Test("Deep nesting neither crashes nor loses text, and the output nests at most 64 deep")
    func deepNesting() {
        let depth = 20_000
        let input =
            String(repeating: "<b><span>", count: depth) + "deep<br>" + String(repeating: "</span></b>", count: depth)
            + "after"
        let result = sanitizer.sanitize(input)
        #expect(result.plainText == "deep after")
        let expected =
            String(repeating: "<b><span>", count: 32) + "deep<br>" + String(repeating: "</span></b>", count: 32)
            + "after"
        #expect(result.html == expected)
    }

    @Test("URLs are percent-encoded where they could read as markup")
    func urlEncoding() {
        #expect(
            sanitizer.sanitize("<a href=\"https://ok.example/&quot; onclick=&quot;alert(1)\">x</a>").html
                == "<a href=\"https://ok.example/%22%20onclick=%22alert(1)\" rel=\"nofollow noopener noreferrer\">x</a>"
        )
        #expect(sanitizer.sanitize("<img src=\"a b'`<>.png\">").html == "<img src=\"a%20b%27%60%3C%3E.png\">")
    }

    @Test("Parsing on many threads at once gives the same results as one at a time")
    func concurrency() {
        let inputs =
            Self.xssPayloads + ["<p>Hello <a href=\"https://e.com\">e</a></p>", "<table><tr><td>1</td></tr></table>"]
        let expected = inputs.map { sanitizer.sanitize($0) }
        let page =
            "<html><head><title>T</title><meta property=\"og:title\" content=\"OG\"></head><body><script>x</script></body></html>"
        let rounds = 16
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: rounds) { round in
            var local = 0
            for _ in 0..<10 {
                for (index, input) in inputs.enumerated() where HTMLSanitizer().sanitize(input) != expected[index] {
                    local += 1
                }
                if PageMetadata(parsingPage: page).title != "OG" { local += 1 }
            }
            mismatches.add(local)
            _ = round
        }
        #expect(mismatches.value == 0)
    }
}

/// A counter threads can add to.
final class Mutex: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    init(_ count: Int) { self.count = count }
    func add(_ amount: Int) { lock.withLock { count += amount } }
    var value: Int { lock.withLock { count } }
}
