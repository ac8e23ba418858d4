"""Reading a conversation as a person does (issue 42): the index opens a conversation at its
newest message, the bar names the day being read, "Latest" is one tap away on every page, and
404.html works at any depth of a sub-path and from file:// with nothing failing to load."""
import functools
import http.server
import threading

import pytest

from conftest import SITES, file_url, require_page

# What the bar's floating date shows, and the day of the first message below the bar: the
# text of the last of the list's day separators above it, in document order.
TOP_MESSAGE_DAY = """() => {
  const bar = document.querySelector('.cbar').getBoundingClientRect().bottom;
  const list = document.querySelector('.ml');
  let day = null, top = null;
  for (const child of list.children) {
    if (child.classList.contains('day')) { day = child.textContent; continue; }
    if (child.matches('[data-message-id]') && child.getBoundingClientRect().bottom > bar + 1) {
      top = child.dataset.messageId; break;
    }
  }
  return {shown: document.querySelector('.cb-d').textContent, day, top};
}"""

NEWEST_IN_VIEW = """() => {
  const rows = [...document.querySelectorAll('.ml > [data-message-id]')];
  const last = rows[rows.length - 1].getBoundingClientRect();
  const bar = document.querySelector('.cbar').getBoundingClientRect().bottom;
  return {id: rows[rows.length - 1].dataset.messageId, top: last.top, bottom: last.bottom,
          bar, height: innerHeight};
}"""


def newest_is_in_view(page):
    box = page.evaluate(NEWEST_IN_VIEW)
    return box["top"] >= box["bar"] - 1 and box["bottom"] <= box["height"] + 1, box


@pytest.mark.parametrize("width", [390, 1280])
def test_one_click_from_the_index_shows_the_newest_message(open_page, server, width):
    require_page("long", "long/page-3.html")
    watched = open_page(server.url("long"), width=width, height=844 if width == 390 else 900)
    page = watched.page
    page.click("a.conv[href^='long/']")
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    assert page.url.endswith("/long/page-3.html#latest"), page.url
    shown, box = newest_is_in_view(page)
    assert shown, f"the newest message is not on screen after one click: {box}"
    # "From the beginning" is one tap away in the bar, on screen.
    start = page.locator(".cbar a.cb-s")
    assert start.is_visible() and start.get_attribute("href") == "index.html"
    assert not watched.problems(), watched.problems()


def test_latest_link_on_every_page_lands_at_the_newest_message(open_page, server):
    require_page("long", "long/index.html")
    page = open_page(server.url("long", "long/index.html"), width=390, height=844).page
    latest = page.locator("a.cb-l")
    assert latest.is_visible()
    latest.click()
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    assert page.url.endswith("/long/page-3.html#latest"), page.url
    shown, box = newest_is_in_view(page)
    assert shown, box
    # At the end the link hides (script); scrolled up it comes back.
    shown = "a => getComputedStyle(a).opacity !== '0' && getComputedStyle(a).pointerEvents !== 'none'"
    assert not latest.evaluate(shown)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    assert latest.evaluate(shown)


def test_latest_link_works_without_script(open_page, server):
    page = open_page(server.url("long", "long/page-2.html"), javascript=False).page
    assert page.locator(".cbar .cb-t").inner_text() == page.locator("h1").inner_text()
    assert page.locator(".cb-d").inner_text() == ""
    page.click("a.cb-l")
    page.wait_for_load_state("load")
    assert page.url.endswith("/long/page-3.html#latest")
    shown, box = newest_is_in_view(page)
    assert shown, box


@pytest.mark.parametrize("dark", [False, True])
def test_floating_date_matches_the_message_at_the_top(open_page, server, dark):
    page = open_page(server.url("long", "long/index.html"), width=390, height=844, dark=dark).page
    bar = page.locator(".cbar")
    assert bar.is_visible()
    days = page.eval_on_selector_all(".ml > .day", "els => els.length")
    assert days >= 2, "the fixture's first page spans several days"
    height = page.evaluate("document.documentElement.scrollHeight")
    seen_days = set()
    for fraction in [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95]:
        page.evaluate(f"window.scrollTo(0, {int(height * fraction)})")
        page.wait_for_timeout(150)
        state = page.evaluate(TOP_MESSAGE_DAY)
        assert state["top"] is not None
        assert state["shown"] == state["day"], state
        seen_days.add(state["shown"])
        # The bar stays at the top edge while reading.
        assert abs(bar.bounding_box()["y"]) < 1
    assert len(seen_days) >= 2, seen_days


class SubPathHandler(http.server.SimpleHTTPRequestHandler):
    """A static host with the site at /sub/path/ that answers a missing address with the site's
    404.html, as GitHub Pages does for a project site."""

    def translate_path(self, path):
        prefix = "/sub/path/"
        path = path.split("?", 1)[0].split("#", 1)[0]
        if not path.startswith(prefix):
            return str(SITES / "sample" / "no-such-file-outside-the-prefix")
        return super().translate_path("/" + path[len(prefix):])

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (SITES / "sample" / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def sub_path_server():
    handler = functools.partial(SubPathHandler, directory=str(SITES / "sample"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def check_not_found(browser, url, dark=False):
    """Opens the 404 at `url`; returns the page, the address "All conversations" leads to and
    what failed to load (anything but the missing document itself)."""
    context = browser.new_context(color_scheme="dark" if dark else "light")
    page = context.new_page()
    failed = []
    page.on("requestfailed", lambda r: failed.append(f"{r.failure} {r.url}"))
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 and r.url != url else None)
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" and "404" not in m.text else None)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    styled = page.evaluate("getComputedStyle(document.body).fontFamily.includes('system-ui')")
    home = page.evaluate("document.getElementById('home').href")
    return context, page, home, styled, failed


@pytest.mark.parametrize("missing", ["nope.html", "a-conversation/page-99.html", "x/y/z.html"])
def test_not_found_works_at_a_sub_path(browser, sub_path_server, missing):
    require_page("sample", "404.html")
    conversation = next(p.parent.name for p in sorted((SITES / "sample").glob("*/index.html")))
    missing = missing.replace("a-conversation", conversation)
    url = f"{sub_path_server}/sub/path/{missing}"
    context, page, home, styled, failed = check_not_found(browser, url)
    try:
        assert page.locator("h1").inner_text() == "Page not found"
        assert styled, "404.html is unstyled at a sub-path"
        assert not failed, failed
        # An address under no folder of the site says nothing of where the site starts: the link
        # is then the address's own folder. Otherwise it is the site's index.
        if not missing.startswith("x/"):
            assert home == f"{sub_path_server}/sub/path/index.html"
            page.click("#home")
            page.wait_for_load_state("load")
            assert page.url == f"{sub_path_server}/sub/path/index.html"
            assert page.locator("a.conv").count() > 0
            assert not failed, failed
    finally:
        context.close()


@pytest.mark.parametrize("dark", [False, True])
def test_not_found_works_from_file_url(browser, dark):
    require_page("sample", "404.html")
    url = file_url("sample", "404.html")
    context, page, home, styled, failed = check_not_found(browser, url, dark=dark)
    try:
        assert styled and not failed, failed
        assert home == file_url("sample", "index.html")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(15, 17, 21)" if dark else "rgb(255, 255, 255)")
    finally:
        context.close()


def photo_page(site="options"):
    """The first conversation page of `site` with a photo that is a link to its file."""
    for path in sorted((SITES / site).glob("*/*.html")):
        if 'class="pht"' in path.read_text(encoding="utf-8"):
            return path.relative_to(SITES / site).as_posix()
    pytest.skip(f"no photo in {site}")


@pytest.mark.parametrize("width", [390, 1280])
def test_a_photo_opens_full_size_and_closes_with_escape(open_page, server, width):
    rel = photo_page()
    watched = open_page(server.url("options", rel), width=width, height=844 if width == 390 else 900)
    page = watched.page
    link = page.locator("a.pht").first
    link.scroll_into_view_if_needed()
    full = link.get_attribute("href")
    link.click()
    viewer = page.locator("dialog.pv")
    viewer.wait_for(state="visible")
    image = viewer.locator("img")
    page.wait_for_function("document.querySelector('dialog.pv img').complete")
    assert image.evaluate("i => i.naturalWidth") > 0, "the full image did not load"
    assert image.get_attribute("src").endswith(full.split("/")[-1])
    # Shown bigger than in the bubble, and the close button can be seen.
    assert image.bounding_box()["width"] > link.locator("img").bounding_box()["width"] or width == 390
    assert viewer.locator("button.pv-x").is_visible()
    count = page.locator("a.pht").count()
    if count > 1:
        page.keyboard.press("ArrowRight")
        assert image.get_attribute("src") == page.locator("a.pht").nth(1).evaluate("a => a.href")
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("Escape")
    viewer.wait_for(state="hidden")
    assert page.url.endswith(rel), "the page stayed where it was"
    viewer_button = page.locator("a.pht").first
    viewer_button.click()
    viewer.wait_for(state="visible")
    page.click("dialog.pv button.pv-x")
    viewer.wait_for(state="hidden")
    assert not watched.problems(), watched.problems()


def test_a_photo_is_a_plain_link_without_script(open_page, server):
    rel = photo_page()
    page = open_page(server.url("options", rel), javascript=False).page
    link = page.locator("a.pht").first
    href = link.evaluate("a => a.href")
    link.click()
    page.wait_for_load_state("load")
    assert page.url == href
