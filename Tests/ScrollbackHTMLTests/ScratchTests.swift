import Testing
@testable import ScrollbackHTML

@Test func scratch() {
    let inputs = [
        "hello <b>world</b> <i>x</i>",
        "plain text & stuff",
        "<p>a</p><p>b</p>",
        "<script>alert(1)</script>after",
        "<img src=x onerror=alert(1)>",
        "<a href=\"java\tscript:alert(1)\">x</a>",
        "<a href=\"&#106;avascript:alert(1)\">x</a>",
        "<a href=\"&#x6A;avascript&#58;alert(1)\">x</a>",
        "<a href=\"https://example.com/?a=1&b=2\">ok</a>",
        "</body></html>after body <b>bold</b>",
        "<body onload=alert(1)>x",
        "<!--><script>alert(1)</script>-->",
        "<!-- <img src=x onerror=alert(1)> -->visible",
        "<pre>\ncode\n</pre>",
        "<svg onload=alert(1)><script>x</script></svg>t",
        "<title>T</title><meta http-equiv=refresh content=0;url=javascript:alert(1)>x",
        "<base href=\"javascript:/\">y",
        "<ul><li><input type=checkbox checked> done</li></ul>",
        "<table><tr><td align=CENTER colspan=2 style=x>c</td></tr></table>",
        "<div>a</div><div>b</div><section>c</section>",
        "<b>unclosed <i>nested",
        "a\u{0}b<b>c</b>",
        "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
        "<style>body{}</style><b style=\"color:red\" class=x id=y>s</b>",
        "<img src=\"data:image/png;base64,AAAA\" alt=\"data img\">",
        "<img src=\"//evil.com/x.png\" alt=\"e\">",
        "<img src=\"https://ex.com/a.png\" alt='A \"q\"' width=10 height=20px>",
    ]
    for input in inputs {
        let out = HTMLSanitizer().sanitize(input)
        print("IN : \(input.debugDescription)\nOUT: \(out.html.debugDescription)\nTXT: \(out.plainText.debugDescription)\n")
    }
}
