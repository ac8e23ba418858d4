"""Accessibility: axe-core finds nothing on every page type, every link and control is reachable
with the Tab key, and each message read aloud says who, when and what."""
import datetime
import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import (SITES, all_pages, expectations, file_url, page_params, pages_of_type, render_everything,
                      require_page)

AXE = Axe()


# Every page type of every site; of the long conversation only its first and second page
# (its third is the same template, and axe takes seconds on 1,000 messages).
LONG_AXE_PAGES = {"index.html"} | {rel for _, rel in pages_of_type("paginated", ["long"])[:1]}
AXE_PAGES = [(site, rel) for site, rel in all_pages() if site != "long" or rel in LONG_AXE_PAGES]
# The index in sections (Tests/Fixtures/sections).
AXE_PAGES.append(("sections", "index.html"))


@pytest.mark.parametrize("site,rel", page_params(AXE_PAGES))
def test_axe_finds_no_violations(open_page, site, rel):
    require_page(site, rel)
    page = open_page(file_url(site, rel)).page
    render_everything(page)  # axe judges colours by what is painted; skipped content is not
    results = AXE.run(page)
    assert results.violations_count == 0, f"{site}/{rel}:\n{results.generate_report()[:6000]}"


# Marks every element a keyboard user should reach, in document order, and returns how many.
MARK_FOCUSABLE_JS = r"""() => {
  const selector = 'a[href], area[href], button, input:not([type=hidden]), select, textarea, iframe, summary,' +
                   '[tabindex], audio[controls], video[controls], [contenteditable=""], [contenteditable=true]';
  const wanted = [...document.querySelectorAll(selector)].filter((el) =>
      !el.disabled && el.getAttribute('tabindex') !== '-1' && !el.closest('[inert]') &&
      el.checkVisibility({checkVisibilityCSS: true}) &&
      (el.tagName !== 'SUMMARY' || el.parentElement.tagName === 'DETAILS'));
  wanted.forEach((el, i) => el.setAttribute('data-kbd-test', String(i)));
  return wanted.map((el) => el.outerHTML.slice(0, 120));
}"""


# Every index and conversation page type; the hostile conversation (1,000 messages of junk)
# and the long one's first page add nothing but time, so the long one's second page stands
# for the paginated type.
KEYBOARD_PAGES = (pages_of_type("index") + pages_of_type("conversation", ["sample", "options"])
                  + pages_of_type("paginated", ["long"])[:1])


@pytest.mark.parametrize("site,rel", page_params(KEYBOARD_PAGES))
def test_every_link_and_control_is_reachable_by_keyboard(open_page, site, rel):
    require_page(site, rel)
    page = open_page(file_url(site, rel)).page
    focusable = page.evaluate(MARK_FOCUSABLE_JS)
    assert focusable, "nothing on the page can take focus (not even a link back to the index)"
    reached = set()
    first_stop = None
    for _ in range(len(focusable) * 2 + 10):
        page.keyboard.press("Tab")
        stop = page.evaluate("() => { const a = document.activeElement; return a && a !== document.body ? "
                             "(a.getAttribute('data-kbd-test') ?? a.tagName) : null }")
        if stop is None or stop == first_stop:
            if reached:
                break
            continue
        first_stop = first_stop or stop
        reached.add(stop)
    missed = [html for index, html in enumerate(focusable) if str(index) not in reached]
    assert not missed, f"{len(missed)} of {len(focusable)} focusable elements never got focus from Tab: {missed[:5]}"


def spoken_time_variants(date_text):
    """How a time may be read: 9:05, 09:05 (24 h) or 9:05 in 12 h form."""
    when = datetime.datetime.fromisoformat(date_text.replace("Z", "+00:00"))
    hour12 = when.hour % 12 or 12
    return {f"{when.hour}:{when.minute:02d}", f"{when.hour:02d}:{when.minute:02d}", f"{hour12}:{when.minute:02d}"}


def normalized(text):
    return re.sub(r"\s+", " ", text or "").strip()


@pytest.mark.parametrize("site,rel", page_params(pages_of_type("conversation", ["long", "options"])
                                                 + pages_of_type("paginated", ["long"])))
def test_each_message_read_aloud_says_sender_time_and_text(open_page, site, rel):
    """The accessibility tree of every message (including visually hidden text, excluding
    aria-hidden decoration) names the sender, the time and the text, also inside groups whose
    header and timestamp are collapsed."""
    require_page(site, rel)
    fixture = expectations(site)
    names = {p["id"]: p["name"] for p in fixture["participants"]}
    by_id = {m["id"]: m for m in fixture["messages"]}
    page = open_page(file_url(site, rel)).page
    ids = page.eval_on_selector_all("[data-message-id]", "els => els.map(e => e.dataset.messageId)")
    assert ids, "no messages"
    sample = ids if len(ids) <= 80 else ids[:: max(1, len(ids) // 60)]
    wrong = []
    for message_id in sample:
        message = by_id[message_id]
        element = page.locator(f'[data-message-id="{message_id}"]')
        spoken = normalized(element.aria_snapshot())
        if message.get("kind", "text") != "system" and names[message["sender"]] not in spoken:
            wrong.append(f"{message_id}: sender {names[message['sender']]!r} not read: {spoken[:200]!r}")
        if not any(variant in spoken for variant in spoken_time_variants(message["date"])):
            wrong.append(f"{message_id}: time {sorted(spoken_time_variants(message['date']))} not read: {spoken[:200]!r}")
        text = normalized(message.get("text"))
        if message.get("kind", "text") in ("text", "system", "emoji") and text and text[:60] not in spoken:
            wrong.append(f"{message_id}: text not read: {spoken[:200]!r}")
    assert not wrong, f"{len(wrong)} problems in {len(sample)} messages read aloud:\n" + "\n".join(wrong[:12])


def _first(site, pattern):
    """(site, path) of the first page of `site` whose path matches `pattern` (glob), sorted."""
    found = sorted((SITES / site).glob(pattern))
    return [(site, str(found[0].relative_to(SITES / site)))] if found else [(site, pattern)]


# Issue 42's acceptance list, each in light and dark: the index, a long conversation page, a date
# list, a thread on its own pages, an AI conversation and the 404 (search results: test_first_screen).
EVERY_KIND_OF_PAGE = (
    [("sample", "index.html")] + pages_of_type("paginated", ["long"])[:1] + _first("sample", "*/dates.html")
    + _first("import-paged", "*/thread-*.html") + _first("ai", "*/index.html") + [("sample", "404.html")])


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("site,rel", page_params(EVERY_KIND_OF_PAGE))
def test_axe_finds_no_violations_on_every_kind_of_page_light_and_dark(open_page, site, rel, dark):
    require_page(site, rel)
    page = open_page(file_url(site, rel), dark=dark).page
    render_everything(page)
    results = AXE.run(page)
    assert results.violations_count == 0, f"{site}/{rel} ({'dark' if dark else 'light'}):\n{results.generate_report()[:6000]}"
