"""Self-contained (spec §5): no request to any other host, works from file:// and from a
sub-path of a local web server, no console errors, and the build itself succeeded."""
import pytest

from conftest import (BUILD_LOGS, SITE_NAMES, SITES, all_pages, conversation_pages, expectations, file_url,
                      page_params, require_page)


@pytest.mark.parametrize("site", SITE_NAMES)
def test_site_builds(site):
    status_file = BUILD_LOGS / f"{site}.status"
    log = (BUILD_LOGS / f"{site}.log").read_text(errors="replace") if (BUILD_LOGS / f"{site}.log").exists() else ""
    assert status_file.exists(), f"{site} was not built (run scripts/test-browser.sh)"
    assert status_file.read_text().strip() == "0", f"building {site} failed:\n{log[-3000:]}"
    assert (SITES / site / "index.html").is_file(), f"{site}: no index.html\n{log[-2000:]}"
    assert conversation_pages(site), f"{site}: no conversation folders with an index.html"


def test_long_conversation_is_paginated_and_every_message_appears_once(open_page):
    """2,500 messages at the default page size of 1,000: three pages inside long/, each message
    exactly once as a message element, in date order."""
    fixture = expectations("long")
    pages = conversation_pages("long").get("long", [])
    assert len(pages) == 3, f"expected 3 pages in long/, found {[p.name for p in pages]}"
    seen = []
    for path in pages:
        page = open_page(path.as_uri()).page
        seen += page.eval_on_selector_all("[data-message-id]", "els => els.map(e => e.dataset.messageId)")
    expected = [m["id"] for m in fixture["messages"]]
    assert len(seen) == len(set(seen)), "a message appears more than once"
    assert seen == expected, f"{len(seen)} messages in page order; expected the {len(expected)} of the log in date order"


@pytest.mark.parametrize("site,rel", page_params(all_pages()))
def test_page_from_file_url_requests_nothing_else_and_logs_no_errors(open_page, site, rel):
    require_page(site, rel)
    watched = open_page(file_url(site, rel))
    watched.page.wait_for_load_state("networkidle")
    problems = watched.problems()
    assert not problems, "\n".join(problems[:20])
    # The site's own stylesheet must have loaded (a broken relative link would leave it unstyled).
    # (file:// pages may not read cssRules, so check that each linked sheet exists.)
    sheets = watched.page.evaluate("""() => ({links: [...document.querySelectorAll('link[rel~=stylesheet]')]
        .map((l) => ({href: l.href, loaded: l.sheet !== null})), inline: document.querySelectorAll('style').length})""")
    assert sheets["links"] or sheets["inline"], "the page has no stylesheet"
    unloaded = [l["href"] for l in sheets["links"] if not l["loaded"]]
    assert not unloaded, f"stylesheets did not load: {unloaded}"


@pytest.mark.parametrize("site", ["sample", "long", "options"])
def test_site_works_from_a_sub_path_of_a_web_server(open_page, server, site):
    """Served from /sites/<name>/ on 127.0.0.1: index, follow the first conversation link,
    then the next-page link if any; every request stays on the server and succeeds."""
    require_page(site, "index.html")
    watched = open_page(server.url(site))
    page = watched.page
    root = server.url(site, "")
    links = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href.split('#')[0])")
    # A conversation: a page in a folder below the site's root.
    conversations = [url for url in links if url.startswith(root) and "/" in url[len(root):]]
    assert conversations, f"index links to no conversation under {root}: {links[:10]}"
    page.goto(conversations[0], wait_until="load")
    assert page.locator("[data-message-id]").count() > 0, f"{conversations[0]} shows no messages"
    watched.page.wait_for_load_state("networkidle")
    problems = watched.problems()
    assert not problems, "\n".join(problems[:20])
    assert all(url.startswith(server.origin) or url.startswith(("data:", "blob:")) for url in watched.requests)
