"""Screenshots of each page type in light and dark at a phone and a desktop width, written to
artifacts/screenshots/ for people to look at. Each also checks the page rendered something."""
import pytest

from conftest import SCREENSHOTS, conversation_pages, file_url, require_page

MAX_HEIGHT = 3000  # long pages: the top 3,000 px is enough to judge them


def screenshot_pages():
    pages = [("sample", "index.html", "index")]
    for conversation, paths in list(conversation_pages("sample").items())[:2]:
        pages.append(("sample", f"{conversation}/index.html", f"conversation-{conversation}"))
    pages.append(("options", "options/index.html", "conversation-options"))
    pages.append(("hostile", "hostile/index.html", "conversation-hostile"))
    long_pages = conversation_pages("long").get("long", [])
    if len(long_pages) > 1:
        pages.append(("long", f"long/{long_pages[1].name}", "paginated-long"))
    return pages


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("site,rel,name", screenshot_pages())
def test_screenshot(open_page, site, rel, name, width):
    require_page(site, rel)
    page = open_page(file_url(site, rel), width=width, height=900).page
    assert page.evaluate("() => document.body.innerText.trim().length") > 0, "the page shows no text"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme)
        height = min(page.evaluate("() => document.documentElement.scrollHeight"), MAX_HEIGHT)
        path = SCREENSHOTS / f"{site}-{name}-{width}-{scheme}.png"
        # A viewport as tall as the shot: full_page on a 1,000-message page renders all of it.
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(path))
        assert path.stat().st_size > 2000, f"{path.name} looks empty"
