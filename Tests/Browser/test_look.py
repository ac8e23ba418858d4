"""The look (issue 14): short timestamps with the seconds in the tooltip, no name over your own
messages or in a 1:1 chat, names that never share a colour and stay legible (WCAG AA) in light
and dark, reply quotes that read as text, a print stylesheet that keeps both sides visible, and
an index filter that works without a server."""
import datetime
import re

import pytest

from conftest import conversation_pages, file_url, render_everything, require_page

SECONDS = re.compile(r"\d:\d\d:\d\d")


def luminance(rgb):
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# The colour of each header and of what lies behind it, as sRGB triples (the browser resolves
# color-mix and custom properties).
HEADER_COLOURS = """() => {
  const probe = document.createElement('canvas').getContext('2d');
  const rgb = (css) => { probe.fillStyle = '#000'; probe.fillStyle = css; probe.fillRect(0, 0, 1, 1);
    return Array.from(probe.getImageData(0, 0, 1, 1).data.slice(0, 3)); };
  const behind = (el) => { for (let e = el; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor; if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; }
    return 'rgb(255, 255, 255)'; };
  return Array.from(document.querySelectorAll('[data-part=header]')).map(h => ({
    sender: h.closest('[data-message-id]').dataset.sender, name: h.textContent,
    colour: rgb(getComputedStyle(h).color), background: rgb(behind(h)) }));
}"""


@pytest.mark.parametrize("site", ["sample", "long"])
def test_timestamps_show_no_seconds_by_default_but_keep_them_in_the_tooltip(open_page, site):
    for conversation, pages in conversation_pages(site).items():
        watched = open_page(pages[0].as_uri())
        render_everything(watched.page)
        stamps = watched.page.eval_on_selector_all(
            "a:has(> time[data-part=timestamp])", "els => els.map(a => [a.textContent, a.title, a.querySelector('time').getAttribute('datetime')])")
        assert stamps, f"{site}/{conversation}: no timestamps"
        for text, title, iso in stamps:
            assert not SECONDS.search(text), f"{site}/{conversation}: timestamp {text!r} shows seconds"
            assert SECONDS.search(title), f"{site}/{conversation}: tooltip {title!r} has no seconds"
            assert re.search(r"T\d\d:\d\d:\d\d", iso), f"{site}/{conversation}: datetime {iso!r} lost its seconds"


def test_no_name_over_own_messages_nor_in_a_one_to_one_chat(open_page):
    for conversation, pages in conversation_pages("sample").items():
        watched = open_page(pages[0].as_uri())
        own = watched.page.eval_on_selector_all(
            "[data-align=right] [data-part=header]", "els => els.map(e => e.textContent)")
        assert not own, f"{conversation}: names over own messages: {own}"
    one_to_one = open_page(file_url("sample", "alex-and-sam/index.html")).page
    senders = set(one_to_one.eval_on_selector_all("[data-sender]", "els => els.map(e => e.dataset.sender)"))
    assert len(senders) == 2, f"alex-and-sam is expected to be a 1:1 chat, has senders {senders}"
    assert one_to_one.locator("[data-part=header]").count() == 0, "a 1:1 chat names its sender"
    group = open_page(file_url("sample", "design-team/index.html")).page
    assert group.locator("[data-align=left] [data-part=header]").count() > 0, "a group chat lost its names"


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("conversation", ["design-team", "game-night", "weekend-trip"])
def test_names_have_distinct_colours_with_aa_contrast(open_page, conversation, dark):
    require_page("sample", f"{conversation}/index.html")
    page = open_page(file_url("sample", f"{conversation}/index.html"), dark=dark).page
    render_everything(page)
    headers = page.evaluate(HEADER_COLOURS)
    assert headers, f"{conversation}: no sender names"
    by_sender = {}
    for header in headers:
        ratio = contrast(header["colour"], header["background"])
        assert ratio >= 4.5, f"{conversation}: {header['name']} {header['colour']} on {header['background']} is {ratio:.2f}:1"
        by_sender.setdefault(header["sender"], set()).add(tuple(header["colour"]))
    assert all(len(colours) == 1 for colours in by_sender.values()), f"a sender changes colour: {by_sender}"
    colours = [next(iter(c)) for c in by_sender.values()]
    assert len(set(colours)) == len(colours), f"{conversation}: two senders share a colour: {by_sender}"


def test_reply_quotes_show_text_not_markdown(open_page):
    quotes = []
    for conversation, pages in conversation_pages("sample").items():
        page = open_page(pages[0].as_uri()).page
        quotes += page.eval_on_selector_all(".rq span", "els => els.map(e => e.textContent)")
    assert quotes, "the sample has no reply quotes"
    syntax = re.compile(r"(\*\*|__|`|^#|\s#{1,6}\s|- \[[ x]\]|\]\(|^\s*[-*+] )")
    leaked = [q for q in quotes if syntax.search(q)]
    assert not leaked, f"reply quotes show Markdown syntax: {leaked}"
    assert any(q.startswith("📊 Poll: ") for q in quotes), f"the poll's quote has no label: {quotes}"


def test_print_keeps_outgoing_bubbles_visible_and_prints_link_targets(open_page):
    # weekend-trip has outgoing (`me`) bubbles and links to other sites.
    page = open_page(file_url("sample", "weekend-trip/index.html")).page
    page.emulate_media(media="print")
    render_everything(page)
    outgoing = page.eval_on_selector_all(
        "[data-align=right] [data-part=bubble]:not(.em)",
        """els => els.map(b => { const s = getComputedStyle(b);
             return [s.borderTopStyle, parseFloat(s.borderTopWidth), s.borderTopColor, s.backgroundColor, s.breakInside]; })""")
    assert outgoing, "no outgoing bubbles"
    for style, width, border, background, break_inside in outgoing:
        visible_border = style != "none" and width >= 1 and border not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")
        assert visible_border or background not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), \
            f"an outgoing bubble is invisible on paper: {style} {width} {border} {background}"
        # A long answer flows on to the next sheet (kept whole, it left page 1 nearly blank).
        assert break_inside == "auto", f"a bubble cannot break across sheets: break-inside {break_inside}"
    after = page.evaluate("""() => { const a = document.querySelector('[data-part=bubble] a[href^="http"]');
        return a ? getComputedStyle(a, '::after').content : null; }""")
    assert after and "http" in after, f"links do not print their target: {after!r}"
    assert page.locator("[data-part=day-separator]").first.is_visible(), "day separators do not print"


def test_index_filter_narrows_the_list_and_the_list_works_without_script(open_page, browser):
    page = open_page(file_url("sample")).page
    items = page.locator(".convs > li")
    total = items.count()
    assert total >= 2
    # The site's search box is the one field: from file:// it filters the conversations.
    box = page.locator("#sx-q")
    assert box.is_visible(), "the filter box is not shown"
    box.fill("okafor")
    visible = [t for t in page.eval_on_selector_all(".convs > li:not([hidden]) h2", "els => els.map(e => e.textContent)")]
    assert visible == ["Alex & Sam"] or (len(visible) == 1 and "Alex" in visible[0]), visible
    assert "1 of" in page.locator(".flt output").text_content()
    box.fill("")
    assert page.locator(".convs > li:not([hidden])").count() == total
    # Without script: every conversation is listed and no dead filter box is shown.
    context = browser.new_context(java_script_enabled=False)
    plain = context.new_page()
    plain.goto(file_url("sample"))
    assert plain.locator(".convs > li:visible").count() == total
    assert not plain.locator("#sx-q").is_visible()
    context.close()


def test_index_lists_conversations_in_their_sections_and_the_filter_hides_empty_ones(open_page):
    # Tests/Fixtures/sections: two channels, a direct message and a log of no section.
    page = open_page(file_url("sections")).page
    headings = page.eval_on_selector_all(".sec > h2", "els => els.map(e => e.firstChild.textContent.trim())")
    # Sections in the order of their newest conversation; conversations of no section last.
    assert headings == ["Direct messages", "Channels", "Other conversations"], headings
    titles = page.eval_on_selector_all(
        ".sec", "secs => secs.map(s => Array.from(s.querySelectorAll('.conv h3')).map(h => h.textContent))")
    assert titles == [["Ada, Grace"], ["#random", "#general"], ["Loose notes"]], titles
    # Each list is named by its heading, for people who move by lists.
    names = page.eval_on_selector_all(".sec > ul", "els => els.map(u => document.getElementById(u.getAttribute('aria-labelledby')).firstChild.textContent.trim())")
    assert names == headings
    page.locator("#sx-q").fill("random")
    assert page.eval_on_selector_all(".sec:not([hidden]) > h2", "els => els.map(e => e.firstChild.textContent.trim())") == ["Channels"]
    assert page.locator(".sec:visible .convs > li:visible").count() == 1
    page.locator("#sx-q").fill("")
    assert page.locator(".sec:visible").count() == 3


def test_page_links_name_the_dates_their_pages_hold(open_page):
    # The long fixture: 2,500 messages on three pages of 1,000, a new day every 400 messages.
    def days_of(path):
        page = open_page(file_url("long", path)).page
        # Every page opens with a day separator, and each day of the page has one.
        stamps = page.eval_on_selector_all("[data-part=day-separator] time", "els => els.map(e => e.getAttribute('datetime'))")
        first, last = (datetime.date.fromisoformat(stamps[i][:10]) for i in (0, -1))
        return [f"{d:%b} {d.day}, {d.year}" for d in (first, last)]

    def span(days):
        return days[0] if days[0] == days[1] else " – ".join(days)

    first_page, second_page, third_page = days_of("long/index.html"), days_of("long/page-2.html"), days_of("long/page-3.html")
    page = open_page(file_url("long", "long/page-2.html")).page
    nav = page.locator("nav.pg").first
    assert nav.locator("a[rel=prev] small").text_content() == span(first_page)
    # The last page grows as messages come: named by its first day, so the links to it stay.
    assert nav.locator("a[rel=next] small").text_content() == f"from {third_page[0]}"
    titles = nav.evaluate("n => Array.from(n.querySelectorAll('a')).filter(a => /^[0-9]+$/.test(a.textContent)).map(a => [a.textContent, a.title])")
    assert titles == [["1", span(first_page)], ["2", span(second_page)], ["3", f"from {third_page[0]}"]], titles
    assert nav.locator("a[rel=prev] small").is_visible()


PRINT_FACTS = """() => {
  const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const pinned = [...document.querySelectorAll('body *')].filter(el => {
    const p = getComputedStyle(el).position; return (p === 'sticky' || p === 'fixed') && shown(el); });
  const navs = [...document.querySelectorAll('nav, .cbar, .cb-l, .pg')].filter(shown);
  const code = [...document.querySelectorAll('[data-part=bubble] pre')].map(pre => {
    const s = getComputedStyle(pre);
    return {wrap: s.whiteSpace, overflow: pre.scrollWidth - pre.clientWidth};
  });
  const details = [...document.querySelectorAll('details')].map(d => d.open);
  const replies = [...document.querySelectorAll('details .tl [data-message-id]')].filter(shown).length;
  return {pinned: pinned.map(el => el.className), navs: navs.map(el => el.className), code, details, replies};
}"""


@pytest.mark.parametrize("conversation", ["design-team", "release-thread"])
def test_print_has_no_bars_wraps_code_and_opens_threads(open_page, conversation):
    # issue 42.11: design-team has a code block and pins (<details>), release-thread threads
    # opened in place (<details>).
    page = open_page(file_url("sample", f"{conversation}/index.html"), width=1280).page
    page.emulate_media(media="print")
    render_everything(page)
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    facts = page.evaluate(PRINT_FACTS)
    assert not facts["pinned"], f"sticky or fixed elements print over the text: {facts['pinned']}"
    assert not facts["navs"], f"navigation prints: {facts['navs']}"
    for block in facts["code"]:
        assert block["wrap"] == "pre-wrap" and block["overflow"] <= 1, f"code is clipped on paper: {block}"
    assert facts["details"] and all(facts["details"]), f"a thread or pin list prints closed: {facts['details']}"
    if conversation == "design-team":
        assert facts["code"], "no code block to check"
    else:
        assert facts["replies"] > 0, "a thread's replies do not print"
    # After printing, the page is as the reader left it.
    page.evaluate("() => window.dispatchEvent(new Event('afterprint'))")
    assert not any(page.evaluate("() => [...document.querySelectorAll('details')].map(d => d.open)"))
