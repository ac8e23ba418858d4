"""Publishing (issue 12): with --base-url the site carries a sitemap valid against the
sitemaps.org schema, Atom feeds that parse with a feed library, absolute canonical and og:url
links; without it none of them, and the site still works from file://. No build leaves an
absolute path of the build machine in the output. Builds its own sites into a temporary folder
with the release binary."""
import os
import pathlib
import subprocess
import xml.etree.ElementTree as ET

import feedparser
import pytest
import xmlschema

from conftest import REPO

BINARY = pathlib.Path(os.environ.get("SCROLLBACK_BINARY", REPO / ".build" / "release" / "scrollback"))
SITEMAP_XSD = pathlib.Path(__file__).parent / "schemas" / "sitemap.xsd"
BASE = "https://example.com/chats/"


def build(tmp_path, name, *extra):
    out = tmp_path / name
    result = subprocess.run(
        [str(BINARY), "build", str(REPO / "sample-logs"), "-o", str(out), *extra],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    return build(tmp_path_factory.mktemp("publish"), "site", "--base-url", BASE)


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    return build(tmp_path_factory.mktemp("plain"), "site")


def html_pages(site):
    return sorted(site.rglob("*.html"))


def test_the_output_holds_only_the_site(published, plain):
    """Issue 44: `find site -name '.*'` prints nothing; the build cache lives elsewhere."""
    for site in (published, plain):
        assert (site / "index.html").is_file()
        assert [str(p) for p in site.rglob(".*")] == []


def test_sitemap_validates_against_the_sitemaps_schema(published):
    schema = xmlschema.XMLSchema(str(SITEMAP_XSD))
    sitemap = published / "sitemap.xml"
    schema.validate(str(sitemap))
    locs = [e.text for e in ET.parse(sitemap).getroot().iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    pages = [p for p in html_pages(published) if p.name != "404.html"]
    assert len(locs) == len(pages)
    assert all(loc.startswith(BASE) for loc in locs)
    robots = (published / "robots.txt").read_text()
    assert f"Sitemap: {BASE}sitemap.xml" in robots


def test_every_feed_parses_as_atom(published):
    feeds = sorted(published.rglob("feed.xml"))
    conversations = [p for p in published.iterdir() if (p / "index.html").exists()]
    assert len(feeds) == len(conversations) + 1  # one per conversation and the site's
    for path in feeds:
        feed = feedparser.parse(path.read_bytes())
        assert not feed.bozo, f"{path}: {feed.bozo_exception}"
        assert feed.version == "atom10", path
        assert feed.entries, path
        for entry in feed.entries:
            assert entry.link.startswith(BASE) and entry.id and entry.updated_parsed


def test_canonical_and_og_url_are_absolute(published):
    for page in html_pages(published):
        if page.name == "404.html":
            continue
        text = page.read_text(encoding="utf-8")
        for marker in ['<link rel="canonical" href="', '<meta property="og:url" content="']:
            assert marker in text, (page, marker)
            url = text.split(marker, 1)[1].split('"', 1)[0]
            assert url.startswith(BASE), (page, url)
        assert '<meta name="twitter:card"' in text


def test_without_base_url_nothing_absolute_and_file_url_works(plain, browser):
    for name in ["sitemap.xml", "robots.txt", "feed.xml"]:
        assert not (plain / name).exists()
    assert not list(plain.rglob("feed.xml"))
    assert (plain / "404.html").exists()
    for page in html_pages(plain):
        text = page.read_text(encoding="utf-8")
        assert 'rel="canonical"' not in text and "og:url" not in text, page
    page = browser.new_page()
    try:
        page.goto((plain / "index.html").as_uri())
        link = page.locator("a.conv").first
        link.click()
        page.wait_for_load_state()
        assert page.url.startswith("file://") and page.locator("[data-message-id]").count() > 0
    finally:
        page.close()


@pytest.mark.parametrize("variant", ["published", "plain"])
def test_no_absolute_path_of_the_build_machine(variant, request):
    site = request.getfixturevalue(variant)
    needles = [str(REPO), str(site.parent), str(pathlib.Path.home())]
    result = subprocess.run(["grep", "-r", "-l", "-F", *sum((["-e", n] for n in needles), []), str(site)],
                            capture_output=True, text=True)
    assert result.stdout == "", f"absolute paths in: {result.stdout}"
