#!/usr/bin/env python3
"""Measures one generated message page in headless Chromium (Debian's, via Playwright).

Picks the page of a built site whose message count is closest to 1000 (messages are
the elements carrying `data-message-id`), then reports as JSON:
  - load_ms: median of 5 loads from file:// to the load event (Navigation Timing)
  - html_bytes, messages, text_bytes: page size, message count, and the UTF-8 bytes
    of the messages' own visible text taken from the corpus
  - html_bytes_per_message: (html_bytes - text_bytes) / messages
  - css_bytes / js_bytes: linked stylesheets and scripts (file sizes) plus inline
    <style>/<script> text, as shipped with that page
"""

import argparse
import html
import json
import os
import re
import statistics
import sys
from urllib.parse import unquote, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prepare_baselines import text_bytes  # noqa: E402  (one definition of "text bytes")

MESSAGE_ID = re.compile(rb'data-message-id="([^"]*)"')
TARGET_MESSAGES = 1000
LOADS = 5


def pick_page(site):
    """(path, message ids) of the HTML page with the message count closest to 1000."""
    best = None
    for root, dirs, files in os.walk(site):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".html"):
                continue
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                ids = MESSAGE_ID.findall(f.read())
            if not ids:
                continue
            key = (abs(len(ids) - TARGET_MESSAGES), -len(ids))
            if best is None or key < best[0]:
                best = (key, path, ids)
    if best is None:
        return None, []
    return best[1], [html.unescape(i.decode("utf-8")) for i in best[2]]


def corpus_text_bytes(corpus, conversation_id, ids):
    """Sum of the visible-text bytes of the given message ids of one conversation."""
    wanted = set(ids)
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(corpus, name)
        with open(path, encoding="utf-8") as f:
            first_line = f.readline()
        if '"id":"%s"' % conversation_id not in first_line and os.path.splitext(name)[0] != conversation_id:
            continue
        with open(path, encoding="utf-8") as f:
            conv = json.load(f)
        return sum(text_bytes(m) for m in conv["messages"] if m["id"] in wanted)
    return None


def local_path(url):
    parsed = urlparse(url)
    return unquote(parsed.path) if parsed.scheme == "file" else None


def measure(site, corpus, chromium):
    from playwright.sync_api import sync_playwright

    page_path, ids = pick_page(site)
    if page_path is None:
        return {"error": "no page with data-message-id elements under %s" % site}
    conversation_id = os.path.relpath(page_path, site).split(os.sep)[0]
    html_bytes = os.path.getsize(page_path)
    text = corpus_text_bytes(corpus, conversation_id, ids)
    url = "file://" + os.path.abspath(page_path)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        load_times = []
        assets = None
        for _ in range(LOADS):
            context = browser.new_context()  # a fresh cache each time
            page = context.new_page()
            page.goto(url, wait_until="load")
            timing = page.evaluate(
                "() => { const n = performance.getEntriesByType('navigation')[0];"
                " return {load: n.loadEventEnd - n.startTime, dcl: n.domContentLoadedEventEnd - n.startTime}; }")
            load_times.append(timing["load"])
            if assets is None:
                assets = page.evaluate("""() => ({
                    css: [...document.querySelectorAll('link[rel~=stylesheet]')].map(l => l.href),
                    js: [...document.querySelectorAll('script[src]')].map(s => s.src),
                    inlineCss: [...document.querySelectorAll('style')].reduce((n, s) => n + new Blob([s.textContent]).size, 0),
                    inlineJs: [...document.querySelectorAll('script:not([src])')].reduce((n, s) => n + new Blob([s.textContent]).size, 0),
                    rendered: document.querySelectorAll('[data-message-id]').length })""")
            context.close()
        browser.close()

    def file_bytes(urls):
        total, missing = 0, []
        for u in urls:
            path = local_path(u)
            if path and os.path.isfile(path):
                total += os.path.getsize(path)
            else:
                missing.append(u)
        return total, missing

    css_files, css_missing = file_bytes(assets["css"])
    js_files, js_missing = file_bytes(assets["js"])
    result = {
        "page": os.path.relpath(page_path, site),
        "messages": len(ids),
        "messages_in_dom": assets["rendered"],
        "html_bytes": html_bytes,
        "text_bytes": text,
        "html_bytes_per_message": None if text is None else round((html_bytes - text) / len(ids), 1),
        "load_ms_runs": [round(t, 1) for t in load_times],
        "load_ms": round(statistics.median(load_times), 1),
        "css_bytes": css_files + assets["inlineCss"],
        "css_files": assets["css"],
        "css_inline_bytes": assets["inlineCss"],
        "js_bytes": js_files + assets["inlineJs"],
        "js_files": assets["js"],
        "js_inline_bytes": assets["inlineJs"],
    }
    if css_missing or js_missing:
        result["assets_not_found"] = css_missing + js_missing
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", required=True, help="JSON result file")
    args = parser.parse_args(argv)
    try:
        result = measure(args.site, args.corpus, args.chromium)
    except Exception as error:  # a broken page must not stop the rest of the report
        result = {"error": "%s: %s" % (type(error).__name__, error)}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(json.dumps({k: v for k, v in result.items() if not k.endswith("_files")}))
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    sys.exit(main())
