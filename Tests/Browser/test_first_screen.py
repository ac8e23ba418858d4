"""The first phone screen is content, and the index helps you choose (issue 42, points 7 and 8):
at 390×844 a conversation's first message is near the top, search is an icon (in the sticky bar
wherever the page is scrolled), bubbles use up to 85% of the width; the index names each card's
app, has one search box and a newest-first order."""
import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import conversation_pages, require_page

FIRST_MESSAGE_TOP = "() => document.querySelector('.ml [data-message-id]').getBoundingClientRect().top"


def sample_first_pages():
    return [f"{conversation}/index.html" for conversation in conversation_pages("sample")]


@pytest.mark.parametrize("rel", sample_first_pages() or ["missing/index.html"])
def test_the_first_message_is_near_the_top_of_a_phone(open_page, server, rel):
    require_page("sample", rel)
    watched = open_page(server.url("sample", rel), width=390, height=844)
    page = watched.page
    top = page.evaluate(FIRST_MESSAGE_TOP)
    assert top < 200, f"the first message starts {top:.0f}px down at 390×844"
    # The title is in the bar; the search is one icon, which opens the box over the page.
    assert page.locator(".cbar .cb-t").is_visible()
    assert not page.locator("#sx-q").is_visible()
    page.locator("#sx-o").click()
    assert page.locator("#sx-q").is_visible() and page.locator("#sx-o").get_attribute("aria-expanded") == "true"
    assert page.evaluate(FIRST_MESSAGE_TOP) == top, "opening the search moved the page"
    page.keyboard.press("Escape")
    assert not page.locator("#sx-q").is_visible()
    assert not watched.problems(), watched.problems()


ICON_AND_BAR = """() => {
  const box = r => ({top: r.top, bottom: r.bottom, left: r.left, right: r.right});
  const icon = box(document.getElementById('sx-o').getBoundingClientRect());
  const bar = box(document.querySelector('.cbar').getBoundingClientRect());
  const link = box(document.querySelector('.cbar .cb-s').getBoundingClientRect());
  const hit = document.elementFromPoint((icon.left + icon.right) / 2, (icon.top + icon.bottom) / 2);
  return {icon, bar, link, onTop: !!(hit && hit.closest('#sx-o')), width: innerWidth, scrollY};
}"""


@pytest.mark.parametrize("dark", [False, True])
def test_the_phone_search_icon_rides_in_the_sticky_bar(open_page, server, dark):
    require_page("long", "long/index.html")
    watched = open_page(server.url("long", "long/index.html"), width=390, height=844, dark=dark)
    page = watched.page
    page.evaluate("() => window.scrollTo(0, (document.documentElement.scrollHeight - innerHeight) / 2)")
    page.wait_for_timeout(200)
    place = page.evaluate(ICON_AND_BAR)
    assert place["scrollY"] > 2000, place
    # The bar is stuck at the top, the icon inside it at its right end, visible and on top,
    # and the bar's own link ends before it.
    icon, bar = place["icon"], place["bar"]
    assert abs(bar["top"]) <= 1, place
    assert bar["top"] - 1 <= icon["top"] and icon["bottom"] <= bar["bottom"] + 1, place
    assert 0 <= icon["left"] and icon["right"] <= place["width"] and place["onTop"], place
    assert place["link"]["right"] <= icon["left"], place
    # One tap opens the same search box, its input focused, where the reader is.
    page.locator("#sx-o").click()
    assert page.evaluate("() => document.activeElement && document.activeElement.id") == "sx-q"
    assert page.locator("#sx-q").is_visible()
    field = page.evaluate("() => document.getElementById('sx-q').getBoundingClientRect().bottom")
    assert 0 < field <= 844
    assert page.evaluate("() => scrollY") == place["scrollY"], "opening the search scrolled the page"
    page.keyboard.press("Escape")
    assert not page.locator("#sx-q").is_visible()
    assert not watched.problems(), watched.problems()


def test_phone_bubbles_use_up_to_85_percent(open_page, server):
    require_page("long", "long/index.html")
    page = open_page(server.url("long", "long/index.html"), width=390, height=844).page
    widths = page.evaluate("""() => {
      const list = document.querySelector('.ml').getBoundingClientRect().width;
      const widths = [...document.querySelectorAll('.ml [data-part=bubble]')].map(b => b.getBoundingClientRect().width);
      return {list, widest: Math.max(...widths)};
    }""")
    assert abs(widths["widest"] - 0.85 * widths["list"]) <= 2, widths


def test_each_imported_card_names_its_app(open_page, server):
    for site, name in [("import-slack", "Slack"), ("import-whatsapp", "WhatsApp"), ("import-chatgpt", "ChatGPT"),
                       ("import-claude", "Claude")]:
        require_page(site, "index.html")
        page = open_page(server.url(site)).page
        cards = page.locator(".convs > li").count()
        apps = page.eval_on_selector_all(".conv .app", "els => els.map(e => e.textContent)")
        assert cards and apps == [name] * cards, (site, apps)
    # Native logs say nothing of an app: no badge.
    page = open_page(server.url("sample")).page
    assert page.locator(".conv .app").count() == 0


def test_the_index_has_one_search_box_and_a_newest_first_order(open_page, server):
    require_page("sections", "index.html")
    watched = open_page(server.url("sections"))
    page = watched.page
    assert page.locator("input[type=search]:visible").count() == 1
    # The one box filters the cards as it searches the messages.
    page.locator("#sx-q").fill("random")
    assert page.locator(".convs > li:visible").count() == 1
    page.locator("#sx-q").fill("")
    by_section = page.eval_on_selector_all(".conv h3", "els => els.map(e => e.textContent)")
    page.locator("#order").select_option("newest")
    newest = page.eval_on_selector_all(".convs > li:visible .conv h3", "els => els.map(e => e.textContent)")
    times = page.eval_on_selector_all(
        ".convs > li:visible .la time", "els => els.map(e => Date.parse(e.getAttribute('datetime')))")
    assert sorted(newest) == sorted(by_section) and len(times) == len(newest)
    assert times == sorted(times, reverse=True), newest
    assert page.locator(".sech:visible").count() == 0
    page.locator("#order").select_option("sections")
    assert page.eval_on_selector_all(".conv h3", "els => els.map(e => e.textContent)") == by_section
    assert not watched.problems(), watched.problems()


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize("width", [390, 1280])
def test_index_and_results_pass_axe(open_page, server, dark, width):
    for site in ["sections", "import-slack"]:
        require_page(site, "index.html")
        page = open_page(server.url(site), width=width, dark=dark).page
        page.locator("#order").select_option("newest") if page.locator("#order").count() else None
        violations = Axe().run(page).response["violations"]
        assert violations == [], (site, [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations])
    page = open_page(server.url("search", "trip/index.html?q=zeppelin"), width=width, dark=dark).page
    page.wait_for_selector(".sx-i")
    violations = Axe().run(page).response["violations"]
    assert violations == [], [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
