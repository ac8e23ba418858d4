"""Shared machinery of the browser suite: where the built sites are, which pages each has,
one headless chromium for the session, pages opened with request/console/dialog hooks, and a
local web server that serves `artifacts/` so a site can be loaded from a sub-path.

The sites are built by scripts/test-browser.sh before pytest starts (artifacts/sites/<name>).
"""
import functools
import http.server
import json
import pathlib
import threading
import time
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import sync_playwright

REPO = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
SITES = ARTIFACTS / "sites"
FIXTURES = ARTIFACTS / "fixtures"
BUILD_LOGS = ARTIFACTS / "build-logs"
SCREENSHOTS = ARTIFACTS / "screenshots"
SITE_NAMES = ["sample", "hostile", "long", "options"]
CHROMIUM = "/usr/bin/chromium"

# Every message element carries these (spec §5).
MESSAGE_SELECTOR = "[data-message-id]"


def expectations(site):
    """What the fixture generator recorded about a generated site (None for sample)."""
    path = FIXTURES / site / "expectations.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def page_number(path):
    """Sort key: a conversation's first page (`index.html`) first, then `page-2`, `page-10`… numerically."""
    if path.name == "index.html":
        return (0, 0, path.name)
    digits = "".join(ch for ch in path.stem if ch.isdigit())
    return (1, int(digits) if digits else 0, path.name)


@functools.lru_cache(maxsize=None)
def conversation_pages(site):
    """{conversation id: [page paths, first page first]} of a built site."""
    root = SITES / site
    result = {}
    if not root.is_dir():
        return result
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        # (`dates.html` is the conversation's date list, not one of its pages.)
        pages = sorted((p for p in folder.glob("*.html") if p.name != "dates.html"), key=page_number)
        if pages and pages[0].name == "index.html":
            result[folder.name] = pages
    return result


def pages_of_type(page_type, sites=SITE_NAMES):
    """(site, path relative to the site) of every page of one type: `index`, `conversation`
    (first page of each conversation) or `paginated` (every further page)."""
    found = []
    for site in sites:
        if page_type == "index":
            found.append((site, "index.html"))
            continue
        for conversation, pages in conversation_pages(site).items():
            chosen = pages[:1] if page_type == "conversation" else pages[1:]
            found += [(site, str(p.relative_to(SITES / site))) for p in chosen]
    return found


def all_pages(sites=SITE_NAMES):
    """Every page (site, relative path) of the given sites."""
    return pages_of_type("index", sites) + pages_of_type("conversation", sites) + pages_of_type("paginated", sites)


def page_params(pages):
    """pytest parameters with readable ids; a placeholder that fails when nothing was built."""
    if not pages:
        return [pytest.param(None, None, id="no-pages-built")]
    return [pytest.param(site, rel, id=f"{site}/{rel}") for site, rel in pages]


def require_page(site, rel):
    """Fails (not skips) when a page the suite expected is missing."""
    if site is None:
        pytest.fail("no pages were built (see artifacts/build-logs/)")
    path = SITES / site / rel
    assert path.is_file(), f"{path} was not built"
    return path


@dataclass
class WatchedPage:
    """A page plus everything it did: requests, requests to other hosts, console errors,
    uncaught exceptions, dialogs and failed responses."""
    page: object
    requests: list = field(default_factory=list)
    foreign_requests: list = field(default_factory=list)
    console_errors: list = field(default_factory=list)
    page_errors: list = field(default_factory=list)
    dialogs: list = field(default_factory=list)
    failed: list = field(default_factory=list)

    def problems(self):
        """Human-readable list of everything that should not have happened, without repeats."""
        return list(dict.fromkeys([f"request to another host: {u}" for u in self.foreign_requests]
                + [f"console error: {m}" for m in self.console_errors]
                + [f"uncaught exception: {m}" for m in self.page_errors]
                + [f"dialog: {m}" for m in self.dialogs]
                + [f"failed response: {m}" for m in self.failed]))


class LocalServer:
    """Serves ARTIFACTS over HTTP on 127.0.0.1 at a free port, so sites sit at a sub-path
    (`/sites/<name>/`)."""

    def __init__(self):
        handler = functools.partial(QuietHandler, directory=str(ARTIFACTS))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, site, rel="index.html"):
        return f"{self.origin}/sites/{site}/{rel}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """The standard static handler without a log line per request."""

    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="session")
def server():
    local = LocalServer()
    yield local
    local.close()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def is_local(url, origin=None):
    """file://, data:, blob:, about: or the local server: anything else is another host."""
    if url.startswith(("file:///", "data:", "blob:", "about:")):
        return True  # (file://host/… — e.g. a protocol-relative //host URL on a file page — is another host)
    return origin is not None and url.startswith(origin + "/")


@pytest.fixture
def open_page(browser, server):
    """open_page(url, width=1280, height=900, dark=False, image_delay=0, javascript=True,
    reduced_motion="reduce") → WatchedPage.

    Every request to another host is recorded and aborted (the suite runs offline);
    `image_delay` holds each image response back that many seconds; `javascript=False` opens
    the page as a reader with script turned off; `reduced_motion="no-preference"` as a reader
    who has not asked for less motion (most people)."""
    contexts = []

    def opener(url, width=1280, height=900, dark=False, image_delay=0.0, wait_until="load", javascript=True,
               reduced_motion="reduce"):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      color_scheme="dark" if dark else "light",
                                      reduced_motion=reduced_motion, java_script_enabled=javascript)
        contexts.append(context)
        page = context.new_page()
        watched = WatchedPage(page)

        def route(route_request):
            request = route_request.request
            if not is_local(request.url, server.origin):
                watched.foreign_requests.append(request.url)
                route_request.abort()
                return
            if image_delay and request.resource_type == "image":
                # Blocks only this handler; the browser keeps parsing and laying out.
                time.sleep(image_delay)
            route_request.continue_()

        context.route("**/*", route)
        page.on("request", lambda r: watched.requests.append(r.url))
        page.on("console", lambda m: watched.console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: watched.page_errors.append(str(e)))

        def on_dialog(dialog):
            watched.dialogs.append(f"{dialog.type}: {dialog.message}")
            dialog.dismiss()

        page.on("dialog", on_dialog)
        # (ERR_ABORTED is the browser cancelling a request when the test navigates on.)
        page.on("requestfailed", lambda r: watched.failed.append(f"{r.failure} {r.url}")
                if is_local(r.url, server.origin) and "ERR_ABORTED" not in (r.failure or "") else None)
        page.on("response", lambda r: watched.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(url, wait_until=wait_until)
        return watched

    yield opener
    for context in contexts:
        context.close()


def render_everything(page):
    """Turns off `content-visibility: auto` rendering skips, so every message is laid out as it
    is once a reader scrolls to it (skipped content has no geometry and no innerText)."""
    page.add_style_tag(content="*, *::before, *::after { content-visibility: visible !important; }")


def file_url(site, rel="index.html"):
    return (SITES / site / rel).as_uri()


DEFAULT_LAYOUT = {"grouping": True, "groupGap": "5m", "collapseProfilePicture": True,
                  "collapseEnclosingViews": True, "collapseTimestamps": "bottom",
                  "messageMaxWidth": "75%", "messageCornerRadius": "8px"}


def layout_for(site, rel=None):
    """The spec §3 options a page was built with: the fixture's, or for the sample site the
    defaults overlaid with sample-logs/scrollback.yml's `layout:` and then with the layout of
    the conversation's own log (`rel` is the page path inside the site)."""
    layout = dict(DEFAULT_LAYOUT)
    fixture = expectations(site)
    if fixture and "layout" in fixture:
        layout.update(fixture["layout"])
    elif site == "sample":
        layout.update(sample_layouts().get(None, {}))
        if rel and "/" in rel:
            layout.update(sample_layouts().get(rel.split("/")[0], {}))
    return layout


@functools.lru_cache(maxsize=None)
def sample_layouts():
    """{conversation id: its log's layout overrides; None: the site config's layout}."""
    import re
    import yaml
    root = REPO / "sample-logs"
    keep = lambda data: {k: v for k, v in ((data or {}).get("layout") or {}).items() if k in DEFAULT_LAYOUT}
    result = {}
    config = root / "scrollback.yml"
    if config.exists():
        result[None] = keep(yaml.safe_load(config.read_text(encoding="utf-8")))
    for log in sorted(root.glob("*.json")) + sorted(root.glob("*.md")):
        text = log.read_text(encoding="utf-8")
        if log.suffix == ".json":
            data = json.loads(text)
        else:
            match = re.match(r"---\n(.*?)\n---\n", text, re.S)
            data = yaml.safe_load(match.group(1)) if match else {}
        slug = re.sub(r"[^a-z0-9]+", "-", log.stem.lower()).strip("-")
        result[(data or {}).get("id") or slug] = keep(data)
    return result


def gap_seconds(text):
    """`5m`, `300s`, `1h` or a number of seconds."""
    text = str(text).strip()
    units = {"s": 1, "m": 60, "h": 3600}
    if text and text[-1] in units:
        return float(text[:-1]) * units[text[-1]]
    return float(text)
