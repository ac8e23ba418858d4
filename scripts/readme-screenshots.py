#!/usr/bin/env python3
"""Takes the README's screenshots in Debian's Chromium (through Playwright).

    .venv/bin/python scripts/readme-screenshots.py --binary .build/release/scrollback

Builds the sample site (`sample-logs`) and the shared ChatGPT samples into a temporary folder,
then writes into docs/: a conversation on a phone (390 px) and a desktop (1280 px), light and
dark; an AI answer on a phone; the photo viewer open on a desktop.
"""
import argparse
import pathlib
import subprocess
import tempfile

from playwright.sync_api import sync_playwright

REPO = pathlib.Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "samples"
CHROMIUM = "/usr/bin/chromium"


def build(binary, source, out):
    subprocess.run([binary, "build", str(source), "-o", str(out), "--quiet"], check=True,
                   stderr=subprocess.DEVNULL)


def shoot(browser, url, path, width, dark, action=None, full=False):
    context = browser.new_context(viewport={"width": width, "height": 844 if width < 600 else 900},
                                  color_scheme="dark" if dark else "light", device_scale_factor=1)
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("load")
    if action:
        action(page)
    page.screenshot(path=str(path), full_page=full)
    context.close()
    print("wrote", path.relative_to(REPO))


def open_first_photo(page):
    page.locator("a:has(> img)").first.click()
    page.wait_for_selector("dialog[open]")
    page.wait_for_timeout(300)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(REPO / ".build/release/scrollback"))
    args = parser.parse_args()
    docs = REPO / "docs"
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        build(args.binary, REPO / "sample-logs", work / "site")
        build(args.binary, SHARED / "chatgpt", work / "ai")
        chat = (work / "site" / "design-team" / "index.html").as_uri()
        answer = sorted((work / "ai").glob("sample-conversation-*/index.html"))[0].as_uri()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for width, name in ((1280, "desktop"), (390, "phone")):
                for dark in (False, True):
                    scheme = "dark" if dark else "light"
                    shoot(browser, chat, docs / f"conversation-{name}-{scheme}.png", width, dark)
            shoot(browser, answer, docs / "ai-answer-phone-light.png", 390, False)
            shoot(browser, chat, docs / "photo-viewer-desktop-dark.png", 1280, True, action=open_first_photo)
            browser.close()


if __name__ == "__main__":
    main()
