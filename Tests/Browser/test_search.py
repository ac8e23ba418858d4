"""Search (issue 13): the static index and its client, served over HTTP on loopback.

The `search` site is Tests/Fixtures/search (pageSize 5, two conversations, Vietnamese, French,
German, Japanese and emoji text); `search-off` is the same with `search: false`.
"""
import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import SITES, file_url

SITE = "search"


def search(page, text, wait_for=".sx-i"):
    """Types `text` into the box and waits for a result (or for the status line)."""
    box = page.locator("#sx-q")
    box.fill("")
    box.type(text, delay=10)
    if wait_for:
        page.wait_for_selector(wait_for)
    else:
        page.wait_for_function("document.getElementById('sx-status').textContent.length > 0")
    page.wait_for_timeout(400)  # the debounce of the last keystroke, then its fetches
    return page


def results(page):
    """[(href, text)] of the shown results."""
    return page.eval_on_selector_all(".sx-i a", "els => els.map(a => [a.getAttribute('href'), a.innerText])")


@pytest.fixture
def search_page(open_page, server):
    watched = open_page(server.url(SITE, "trip/index.html"))
    return watched


def test_query_finds_a_message_in_another_conversation_on_a_later_page(search_page):
    page = search_page.page
    search(page, "zeppelin museum")
    found = results(page)
    hrefs = [href for href, _ in found]
    # From a page of `trip`, the word is found in `cafe-talk` on its third page (pageSize 5).
    assert any("/cafe-talk/page-3.html#m-c13" in href for href in hrefs), found
    assert all("zeppelin" in text.lower() for _, text in found)
    assert page.locator(".sx-i mark").first.inner_text().lower() in ("zeppelin", "museum")
    assert not search_page.problems()


def test_result_opens_the_page_scrolled_to_the_message(search_page):
    page = search_page.page
    search(page, "weather")
    page.locator(".sx-i a").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/cafe-talk/page-2.html#m-c7"), page.url
    target = page.locator("#m-c7")
    assert page.evaluate("document.querySelector(':target').id") == "m-c7"
    box = target.bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"], box


def test_diacritics_cjk_and_emoji(search_page):
    page = search_page.page
    search(page, "dung")
    assert any("Dũng" in text for _, text in results(page)), results(page)
    search(page, "cafe")
    texts = [text for _, text in results(page)]
    assert any("café" in text for text in texts) and any("Café talk" in text for text in texts), texts
    search(page, "grusse koln")
    assert any("Grüße aus Köln" in text for _, text in results(page))
    search(page, "東京")
    assert [href for href, _ in results(page)] and all("東京" in t for _, t in results(page))
    search(page, "🍕")
    assert any("Pizza tonight" in text for _, text in results(page)), results(page)


def test_prefix_while_typing(search_page):
    page = search_page.page
    search(page, "zepp")
    assert len(results(page)) >= 3


def test_filters_and_operators_narrow_results(search_page):
    page = search_page.page
    search(page, "zeppelin")
    everything = {href for href, _ in results(page)}
    assert any("/trip/" in h for h in everything) and any("/cafe-talk/" in h for h in everything)

    search(page, "zeppelin in:trip")
    assert {h for h, _ in results(page)} == {h for h in everything if "/trip/" in h}

    search(page, "zeppelin from:anna")
    narrowed = results(page)
    assert narrowed and all("Anna Müller" in text for _, text in narrowed)
    assert len(narrowed) < len(everything)

    search(page, "zeppelin has:image")
    assert [h for h, _ in results(page)] == [h for h in everything if h.endswith("#m-c-photo")]
    search(page, "zeppelin has:link")
    assert [h for h, _ in results(page)] == [h for h in everything if h.endswith("#m-c-link")]

    search(page, "zeppelin before:2024-05-01")
    assert {h for h, _ in results(page)} == {h for h in everything if "/trip/" in h}
    search(page, "zeppelin after:2024-05-06")
    assert {h for h, _ in results(page)} == {h for h in everything if "#m-c-" in h}

    # The same through the controls.
    search(page, "zeppelin")
    page.locator(".sx-more summary").click()
    page.select_option("#sx-in", label="Trip planning")
    page.wait_for_timeout(400)
    assert {h for h, _ in results(page)} == {h for h in everything if "/trip/" in h}
    page.select_option("#sx-in", value="")
    page.select_option("#sx-from", label="Yuki Tanaka")
    page.wait_for_timeout(400)
    assert [h for h, _ in results(page)] == [h for h in everything if h.endswith("#m-c-photo")]
    page.select_option("#sx-from", value="")
    page.fill("#sx-before", "2024-04-30")
    page.wait_for_timeout(400)
    assert {h for h, _ in results(page)} == {h for h in everything if "/trip/" in h}


def test_order_newest_or_best(search_page):
    page = search_page.page
    search(page, "zeppelin museum")
    newest = [h for h, _ in results(page)]
    page.select_option("#sx-order", "best")
    page.wait_for_timeout(400)
    best = [h for h, _ in results(page)]
    assert sorted(newest) == sorted(best)
    # Newest first: the link message of May 6 comes before the photo's; best first puts the
    # messages with both words (exactly) ahead of those with one.
    assert newest.index(next(h for h in newest if h.endswith("#m-c-link"))) == 0
    with_both = [h for h, t in results(page) if "zeppelin" in t.lower() and "museum" in t.lower()]
    assert best[: len(with_both)] == with_both


def test_keyboard_and_labels(search_page):
    page = search_page.page
    search(page, "zeppelin")
    page.focus("#sx-q")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.closest('.sx-i') !== null")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*#m-.*"))
    page.goto(page.url.split("#")[0])
    search(page, "zeppelin")
    violations = Axe().run(page).response["violations"]
    assert violations == [], [v["id"] for v in violations]


def test_log_text_is_text(search_page):
    page = search_page.page
    search(page, "vous")
    # The apostrophe and every other character arrive as text nodes, never as markup.
    assert page.locator(".sx-t").first.inner_text().startswith("Un café crème, s'il vous")


def test_file_url_says_search_needs_a_server(open_page):
    watched = open_page(file_url(SITE, "index.html"))
    status = watched.page.locator("#sx-status").inner_text()
    assert "served" in status and "scrollback serve" in status
    assert watched.page.locator("#sx-q").is_disabled()


def test_search_false_ships_no_search_file():
    site = SITES / "search-off"
    assert (site / "cafe-talk" / "index.html").exists()
    assert not (site / "search").exists()
    shipped = [p.name for p in (site / "assets").iterdir()]
    assert not [name for name in shipped if "search" in name], shipped
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "search.js" not in html and 'id="sx"' not in html, page
    # Jump to a date is not part of search: it stays.
    assert (site / "cafe-talk" / "dates.html").exists()


def test_date_list_links_each_day_and_the_newest(open_page, server):
    watched = open_page(server.url(SITE, "cafe-talk/dates.html"))
    page = watched.page
    days = page.eval_on_selector_all(".dl a", "els => els.map(a => [a.getAttribute('href'), a.innerText])")
    assert [d for _, d in days] == ["1", "2", "3", "4", "5", "6"], days
    assert days[0][0] == "index.html#m-c1" and days[2][0] == "page-2.html#m-c7"
    newest = page.get_by_role("link", name="Newest message")
    assert newest.get_attribute("href") == "page-3.html#m-c-link"
    newest.click()
    page.wait_for_load_state("load")
    assert page.evaluate("document.querySelector(':target').id") == "m-c-link"
    index = open_page(server.url(SITE, "index.html")).page
    assert re.search(r"Last active", index.locator(".convs").inner_text())
