"""Search (issue 13): the static index and its client, served over HTTP on loopback.

The `search` site is Tests/Fixtures/search (pageSize 5, two conversations, Vietnamese, French,
German, Japanese and emoji text); `search-off` is the same with `search: false`.
"""
import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import SITES, file_url, require_page

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


def test_file_url_says_search_needs_a_server_once(open_page):
    watched = open_page(file_url(SITE, "trip/index.html"))
    page = watched.page
    status = page.locator("#sx-status")
    assert "served" in status.inner_text() and "scrollback serve" in status.inner_text()
    assert page.locator("#sx-q").is_disabled()
    # One line, not a paragraph.
    assert status.bounding_box()["height"] < 40, status.bounding_box()
    # The next page does not say it again; the field still says why it is off.
    page.goto(file_url(SITE, "cafe-talk/index.html"))
    assert page.locator("#sx-status").inner_text() == ""
    assert page.locator("#sx-q").is_disabled()
    assert "server" in page.locator("#sx-q").get_attribute("placeholder")
    # On the index the one box filters the conversations, with no server.
    page.goto(file_url(SITE, "index.html"))
    box = page.locator("#sx-q")
    assert box.is_enabled()
    box.fill("talk")
    assert page.locator(".convs > li:not([hidden])").count() == 1
    assert not watched.problems(), watched.problems()


def test_query_survives_back_and_can_be_shared(search_page, open_page, server):
    page = search_page.page
    search(page, "weather")
    assert "?q=weather" in page.url, page.url
    first = results(page)
    page.locator(".sx-i a").first.click()
    page.wait_for_load_state("load")
    assert "/cafe-talk/page-2.html#m-c7" in page.url
    page.go_back()
    page.wait_for_selector(".sx-i")
    assert page.locator("#sx-q").input_value() == "weather"
    assert results(page) == first
    # The address alone gives the same results (a shared link).
    shared = open_page(server.url(SITE, "trip/index.html?q=weather")).page
    shared.wait_for_selector(".sx-i")
    assert results(shared) == first
    assert shared.locator("#sx-q").input_value() == "weather"


def test_a_conversation_page_searches_here_or_everywhere(search_page, open_page, server):
    page = search_page.page
    scope = page.locator("#sx-scope")
    assert scope.is_visible()
    assert [o.strip() for o in scope.locator("option").all_inner_texts()] == ["Everywhere", "This conversation"]
    search(page, "zeppelin")
    everywhere = [href for href, _ in results(page)]
    assert any("/cafe-talk/" in h for h in everywhere) and any("/trip/" in h for h in everywhere), everywhere
    scope.select_option("here")
    page.wait_for_timeout(400)
    here = [href for href, _ in results(page)]
    assert here and all("/trip/" in h for h in here), here
    assert "scope=here" in page.url
    # The choice travels with the query.
    again = open_page(server.url(SITE, "trip/index.html?q=zeppelin&scope=here")).page
    again.wait_for_selector(".sx-i")
    assert [href for href, _ in results(again)] == here
    # The index has no conversation of its own: no choice there.
    index = open_page(server.url(SITE, "index.html")).page
    assert not index.locator("#sx-scope").is_visible()


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_an_opened_result_lands_below_the_bar_with_its_sender(open_page, server, width, height):
    page = open_page(server.url(SITE, "trip/index.html"), width=width, height=height).page
    if width == 390:
        page.locator("#sx-o").click()
    search(page, "wiki")  # Dũng's message (Anna's own have no name over them)
    page.locator(".sx-i a").first.click()
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    place = page.evaluate("""() => {
      const bar = document.querySelector('.cbar').getBoundingClientRect().bottom;
      const name = document.querySelector(':target [data-part=header]').getBoundingClientRect();
      return {bar, top: name.top, bottom: name.bottom, height: innerHeight};
    }""")
    # The sender's name is on screen, below the sticky bar, with room above it.
    assert place["top"] >= place["bar"] + 16 and place["bottom"] <= place["height"], place


def test_a_permalink_into_a_group_shows_the_sender_above_it(open_page, server):
    require_page("long", "long/page-2.html")
    page = open_page(server.url("long", "long/page-2.html"), width=390, height=844).page
    target = page.evaluate("""() => {
      for (const row of document.querySelectorAll('.ml > [data-message-id][data-group-position=last]')) {
        let first = row.previousElementSibling, steps = 1;
        while (first && first.dataset.groupPosition === 'middle') { first = first.previousElementSibling; steps++; }
        if (first && first.dataset.groupPosition === 'first' && first.querySelector('[data-part=header]')
            && row.getBoundingClientRect().top - first.getBoundingClientRect().top < 300) return row.id;
      }
      return null;
    }""")
    assert target, "the long fixture has no short group"
    page.goto(server.url("long", "long/page-2.html#" + target))
    page.wait_for_timeout(400)
    place = page.evaluate("""(id) => {
      const bar = document.querySelector('.cbar').getBoundingClientRect().bottom;
      let first = document.getElementById(id);
      while (first.dataset.groupPosition !== 'first') first = first.previousElementSibling;
      const name = first.querySelector('[data-part=header]').getBoundingClientRect();
      const row = document.getElementById(id).getBoundingClientRect();
      return {bar, name: name.top, row: row.bottom, height: innerHeight};
    }""", target)
    assert place["bar"] <= place["name"] and place["row"] <= place["height"], place


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
