"""iMessage chats from imessage-exporter's TXT output (issue 43), built from
Tests/Fixtures/imessage (no real export has been met: the fixture follows the exporter's writer).
What a reader sees: the reply leads to the message it answers, tapbacks are reaction chips that
say who gave them, announcements are centred system lines, the edited message says so, the
photo copied from `attachments/` shows, a file left on the Mac is a chip naming it; the page is
axe-clean, light and dark, on a phone and a desktop."""
import pathlib
import re

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import BUILD_LOGS, SCREENSHOTS, render_everything, require_page

SITE = "import-imessage"
PAGE = "family/index.html"
FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "imessage" / "Family - 12.txt"
AXE = Axe()


def built():
    status_file = BUILD_LOGS / f"{SITE}.status"
    status = status_file.read_text().strip() if status_file.exists() else None
    assert status == "0", f"{SITE} did not build (exit {status}); see artifacts/build-logs/{SITE}.log"
    require_page(SITE, PAGE)


def raw_records():
    """The fixture's records counted without the importer: each time line at the start of a
    line after a blank one (messages and announcements); the indented copy of a reply is not one."""
    lines = FIXTURE.read_text().split("\n")
    stamp = re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4} +\d{1,2}:\d{2}:\d{2} [AP]M")
    records = [line for index, line in enumerate(lines) if stamp.match(line) and (index == 0 or not lines[index - 1])]
    # An announcement goes on after its stamp on the same line; a message's time line ends there
    # or with its read receipt.
    announcements = [line for line in records if stamp.sub("", line) and not stamp.sub("", line).startswith(" (Read by")]
    return records, announcements


def test_every_record_is_one_message_element_and_announcements_are_system_lines(open_page, server):
    built()
    records, announcements = raw_records()
    page = open_page(server.url(SITE, PAGE)).page
    render_everything(page)
    assert page.locator("[data-message-id]").count() == len(records)
    system = page.locator('[data-kind="system"]')
    assert system.count() == len(announcements) == 2
    for element in system.all():
        assert element.get_attribute("data-align") == "center" and element.get_attribute("data-sender") is None


def test_reply_leads_to_the_message_it_answers_and_tapbacks_say_who(open_page, server):
    built()
    page = open_page(server.url(SITE, PAGE), height=400).page
    quote = page.locator("[data-message-id] a.rq")
    assert quote.count() == 1
    assert "Hello world" in quote.inner_text() and "Me" in quote.inner_text()
    quote.click()
    target = page.locator(":target")
    page.wait_for_function("() => document.querySelector(':target') !== null")
    assert "Hello world" in target.inner_text()
    chips = target.locator(".rx li")
    assert chips.count() == 3
    spoken = " ".join(chip.aria_snapshot() for chip in chips.all())
    for who in ["+15551234567", "ana@example.com", "Ana Example"]:
        assert who in spoken, spoken


def test_photo_shows_and_a_file_left_on_the_mac_is_named(open_page, server):
    built()
    watched = open_page(server.url(SITE, PAGE))
    page = watched.page
    render_everything(page)
    image = page.locator("[data-message-id] img[src*='media/']")
    assert image.count() == 1
    # Images load lazily: in view, it loads.
    image.scroll_into_view_if_needed()
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    assert page.get_by_text("IMG_0001.HEIC").count() >= 1
    edited = page.locator("[data-message-id] .ed")
    assert edited.count() == 1 and edited.get_attribute("title").startswith("Edited ")
    assert not watched.problems(), watched.problems()


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize("width", [390, 1280])
def test_axe_clean_light_and_dark_on_phone_and_desktop(open_page, server, width, dark):
    built()
    page = open_page(server.url(SITE, PAGE), width=width, height=844 if width == 390 else 900, dark=dark).page
    render_everything(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"imessage-{width}-{'dark' if dark else 'light'}.png"), full_page=True)
    results = AXE.run(page)
    assert results.violations_count == 0, results.generate_report()[:6000]
