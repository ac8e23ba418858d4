"""AI conversations read like documents (issue 42.5): at 390 px an answer overflows only inside
its code and table boxes, those boxes scroll from the keyboard, the copy button appears with
script and not without, highlight.js colours known languages when the site ships it, and axe
finds nothing in light or dark. Writes screenshots of the pages to artifacts/screenshots/."""
import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import ARTIFACTS, SITES, file_url, render_everything, require_page

AXE = Axe()
AI_PAGE = ("ai", "ai-answer/index.html")
# The ChatGPT samples, built from the export as a user builds them (the 2025 shape: thoughts,
# a search, a tool result).
CHATGPT_PAGES = [("import-chatgpt", "privacy-safe-chatgpt-native-fixture-chatgpt/index.html"),
                 ("import-chatgpt", "sample-conversation-with-branch-conv-123/index.html")]
# The Claude.ai samples (issue 43): the older text shape with an attached file, and the block
# shape (thinking, a search, tool results with an embedded image, an unknown block).
CLAUDE_PAGES = [("import-claude", "conv-02j9k0l1m2n3o4p5q6r7s8t9/index.html"),
                ("import-claude", "native-rich-blocks/index.html")]

# Elements of the answers whose right edge passes the list's, outside the boxes that scroll.
OVERFLOW_JS = r"""() => {
  const list = document.querySelector('.ml').getBoundingClientRect();
  const out = [];
  for (const el of document.querySelectorAll('[data-layout="document"] *')) {
    if (el.closest('pre, .tbl')) continue;
    const box = el.getBoundingClientRect();
    if (box.width && box.right > list.right + 0.5) out.push(el.outerHTML.slice(0, 100));
  }
  return {page: document.documentElement.scrollWidth - document.documentElement.clientWidth, elements: out};
}"""


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_answers_overflow_only_inside_code_and_table_boxes_at_390(open_page, dark):
    require_page(*AI_PAGE)
    page = open_page(file_url(*AI_PAGE), width=390, height=844, dark=dark).page
    render_everything(page)
    result = page.evaluate(OVERFLOW_JS)
    assert result["page"] <= 0, f"the page scrolls sideways by {result['page']} px"
    assert result["elements"] == []
    # The boxes do overflow (the fixture's lines are long), so they must scroll.
    widths = page.evaluate("""() => [...document.querySelectorAll('[data-layout=document] pre, .tbl')]
        .map((el) => [el.scrollWidth, el.clientWidth])""")
    assert widths and all(scroll > client for scroll, client in widths[:1])


def test_code_and_table_boxes_are_reached_and_scrolled_by_keyboard(open_page):
    require_page(*AI_PAGE)
    page = open_page(file_url(*AI_PAGE), width=390, height=844).page
    box = page.locator("[data-layout=document] pre").first
    box.focus()
    assert page.evaluate("() => document.activeElement.tagName") == "PRE"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert box.evaluate("(el) => el.scrollLeft") > 0
    table = page.locator(".tbl").first
    assert table.get_attribute("tabindex") == "0" and table.get_attribute("role") == "region"


def test_copy_button_shows_with_script_and_copies(open_page):
    require_page(*AI_PAGE)
    watched = open_page(file_url(*AI_PAGE))
    page = watched.page
    button = page.locator(".code .copy").first
    assert button.is_visible()
    page.evaluate("""() => { window.copied = null;
        navigator.clipboard.writeText = (text) => { window.copied = text; return Promise.resolve(); }; }""")
    button.click()
    page.wait_for_function("() => window.copied !== null")
    assert "def total(values):" in page.evaluate("() => window.copied")
    assert button.inner_text() == "Copied"
    assert page.locator(".code .code-l").first.inner_text() == "python"
    # The script and the highlighter load from beside the page, without errors.
    assert watched.foreign_requests == [] and watched.console_errors == [] and watched.page_errors == []
    assert watched.failed == []


def test_copy_button_is_hidden_without_script(open_page):
    require_page(*AI_PAGE)
    page = open_page(file_url(*AI_PAGE), javascript=False).page
    assert page.locator(".code .copy").count() > 0
    assert not page.locator(".code .copy").first.is_visible()
    assert "def total(values):" in page.locator(".code pre").first.inner_text()


def test_known_languages_are_highlighted_when_the_site_ships_highlight_js(open_page):
    require_page(*AI_PAGE)
    if not (SITES / "ai" / "assets" / "highlight.min.js").exists():
        pytest.skip("highlight.js (libjs-highlight.js) is not installed: code stays plain")
    page = open_page(file_url(*AI_PAGE)).page
    page.wait_for_function("() => document.querySelector('.code code.hljs') !== null")
    assert page.locator(".code code.language-python .hljs-keyword").count() > 0
    # The block with no language is left as it is, not guessed at.
    assert page.locator(".code code:not([class])").count() == 1


def test_chatgpt_pages_never_show_raw_json_or_unsupported_boxes(open_page):
    for site, rel in CHATGPT_PAGES + CLAUDE_PAGES:
        require_page(site, rel)
        text = open_page(file_url(site, rel)).page.inner_text("main")
        assert "Unsupported content" not in text and '{"query"' not in text, rel


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("site,rel", [AI_PAGE] + CHATGPT_PAGES + CLAUDE_PAGES)
def test_axe_finds_no_violations_on_ai_pages(open_page, site, rel, dark):
    require_page(site, rel)
    page = open_page(file_url(site, rel), width=390, height=844, dark=dark).page
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    if (SITES / site / "assets" / "highlight.min.js").exists() and page.locator(".code code[class]").count():
        page.wait_for_function("() => document.querySelector('.code code.hljs') !== null")
    render_everything(page)
    results = AXE.run(page)
    assert results.violations_count == 0, f"{site}/{rel} {'dark' if dark else 'light'}:\n{results.generate_report()[:6000]}"


@pytest.mark.parametrize("site,rel", [AI_PAGE] + CHATGPT_PAGES[:1] + CLAUDE_PAGES)
def test_screenshots_of_ai_pages(open_page, site, rel):
    require_page(site, rel)
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    name = rel.split("/")[0]
    for width in (390, 1280):
        for dark in (False, True):
            page = open_page(file_url(site, rel), width=width, height=844, dark=dark).page
            page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            page.wait_for_timeout(300)
            page.screenshot(path=str(folder / f"ai-{name}-{width}-{'dark' if dark else 'light'}.png"), full_page=True)
