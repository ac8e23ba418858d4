#!/usr/bin/env python3
"""Search benchmark (issue 13). Reports figures; asserts nothing.

    search_bench.py --binary .build/release/scrollback --corpus DIR --work DIR [--pagefind]

On the corpus: (1) clean build wall time with search on and with `search: false` (a temporary
scrollback.yml in the corpus, removed afterwards), the search step's share; (2) the index's size
on disk against the message text it holds; (3) served on 127.0.0.1, headless Chromium types a
one-word query into the box: bytes of search files downloaded cold (fresh browser context) and
warm (a second one-word query in the same context), and milliseconds from the last keystroke to
the first result on screen; (4) with --pagefind: Pagefind (pip `pagefind[bin]`, in the bench
venv) indexes the same site's HTML, index time and size, bytes per query through its JS API,
and the top results of both for a few queries. Prints a table and writes results JSON.
"""
import argparse
import functools
import http.server
import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (one reader of the index's chunks)

QUERIES = ["coffee", "meeting", "wedding", "kitchen"]


def run_build(binary, corpus, out, search):
    config = pathlib.Path(corpus) / "scrollback.yml"
    if not search:
        config.write_text("search: false\n", encoding="utf-8")
    try:
        shutil.rmtree(out, ignore_errors=True)
        # ext4 keeps just-deleted inodes aside for ~30 s and the next file creations scan past
        # them (run.sh's fresh_output): settle first, so neither mode pays for the other's files.
        os.sync()
        time.sleep(float(os.environ.get("BENCH_SETTLE_SECONDS", "35")))
        start = time.monotonic()
        done = subprocess.run([binary, "build", corpus, "-o", out, "--clean", "--timings"], check=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seconds = time.monotonic() - start
        steps = {}
        for line in done.stderr.splitlines():
            # "  writeSearchIndex: 0.590 s (CPU 0.910 s)": the wall seconds
            name, _, rest = line.strip().partition(": ")
            if rest.endswith(" s)"):
                steps[name] = float(rest.split(" s ")[0])
        return seconds, steps
    finally:
        if not search:
            config.unlink()


def folder_bytes(path):
    total = files = 0
    for root, _, names in os.walk(path):
        for name in names:
            total += os.path.getsize(os.path.join(root, name))
            files += 1
    return total, files


def index_figures(site):
    """The index's bytes, files and message text (report.py's reading of the chunks), and their ratio."""
    size = report.search_index_size(str(site))
    return dict(index_bytes=size["index_bytes"], index_files=size["files"], message_text_bytes=size["text_bytes"],
                index_to_text=size["ratio"])


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(root):
    handler = functools.partial(Quiet, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


# Records (in window.__firstResult) the ms from the last keystroke to the first result shown.
TIMING_JS = """() => {
  window.__firstResult = null;
  const list = document.getElementById('sx-results');
  const seen = new MutationObserver(() => {
    if (list.querySelector('.sx-i')) { seen.disconnect(); window.__firstResult = performance.now() - window.__lastKey; }
  });
  seen.observe(list, {childList: true});
}"""


def browser_figures(site_url, queries, chromium="/usr/bin/chromium"):
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        context = browser.new_context()
        page = context.new_page()
        sizes = []
        page.on("response", lambda r: sizes.append((r.url, int(r.headers.get("content-length", "0"))))
                if "/search/" in r.url else None)
        page.goto(site_url + "/conv-001/index.html")
        page.evaluate("window.__lastKey = 0; document.getElementById('sx-q').addEventListener('input', () => { window.__lastKey = performance.now(); })")
        runs = []
        for number, query in enumerate(queries):
            sizes.clear()
            page.fill("#sx-q", "")
            page.evaluate("document.getElementById('sx-results').textContent = ''")
            page.evaluate(TIMING_JS)
            page.type("#sx-q", query, delay=60)
            page.wait_for_function("window.__firstResult !== null", timeout=120000)
            ms = page.evaluate("window.__firstResult")
            page.wait_for_timeout(500)
            top = page.eval_on_selector_all(".sx-i a", "els => els.slice(0, 5).map(a => new URL(a.href).pathname + new URL(a.href).hash)")
            runs.append({"query": query, "state": "cold" if number == 0 else "warm", "bytes": sum(s for _, s in sizes),
                         "requests": len(sizes), "first_result_ms": round(ms, 1), "top": top,
                         "status": page.inner_text("#sx-status")})
        out["runs"] = runs
        browser.close()
    return out


PAGEFIND_JS = """async (q) => {
  const before = performance.getEntriesByType('resource').length;
  const pf = window.__pf || (window.__pf = await import('/pagefind/pagefind.js'));
  const found = await pf.search(q);
  const data = await Promise.all(found.results.slice(0, 5).map((r) => r.data()));
  const entries = performance.getEntriesByType('resource').slice(before);
  return {count: found.results.length, top: data.map((d) => d.url),
          bytes: entries.filter((e) => e.name.includes('/pagefind/')).reduce((s, e) => s + (e.encodedBodySize || e.transferSize || 0), 0)};
}"""


def pagefind_figures(site, site_url, venv_python, queries, chromium="/usr/bin/chromium"):
    from playwright.sync_api import sync_playwright

    def installed_binary():
        # pagefind[bin] ships the executable inside its `pagefind_bin` package (no console script).
        found = subprocess.run(
            [venv_python, "-c", "import os, pagefind_bin; print(os.path.dirname(pagefind_bin.__file__))"],
            capture_output=True, text=True)
        return pathlib.Path(found.stdout.strip()) / "pagefind" if found.returncode == 0 else None

    binary = installed_binary()
    if binary is None:
        subprocess.run([venv_python, "-m", "pip", "install", "--quiet", "pagefind[bin]==1.5.2"], check=True)
        binary = installed_binary()
    shutil.rmtree(pathlib.Path(site) / "pagefind", ignore_errors=True)
    start = time.monotonic()
    subprocess.run([str(binary), "--site", str(site)], check=True, stdout=subprocess.DEVNULL)
    seconds = time.monotonic() - start
    size, files = folder_bytes(pathlib.Path(site) / "pagefind")
    runs = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_context().new_page()
        page.goto(site_url + "/index.html")
        for number, query in enumerate(queries):
            result = page.evaluate(PAGEFIND_JS, query)
            result.update(query=query, state="cold" if number == 0 else "warm")
            runs.append(result)
        browser.close()
    return {"index_seconds": round(seconds, 2), "index_bytes": size, "index_files": files, "runs": runs}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--pagefind", action="store_true")
    parser.add_argument("--venv-python", default=sys.executable)
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--browser-only", action="store_true", help="measure the already built site only")
    parser.add_argument("--runs", type=int, default=2, help="clean builds per mode (the fastest counts)")
    args = parser.parse_args()
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    site_on, site_off = work / "site-search", work / "site-nosearch"
    figures = {"corpus": args.corpus}
    if args.browser_only:
        httpd, url = serve(site_on)
        try:
            figures["browser"] = browser_figures(url, QUERIES)
        finally:
            httpd.shutdown()
        figures.update(index_figures(site_on))
        print(json.dumps(figures, indent=1, ensure_ascii=False))
        return
    off = [run_build(args.binary, args.corpus, str(site_off), False) for _ in range(args.runs)]
    on = [run_build(args.binary, args.corpus, str(site_on), True) for _ in range(args.runs)]
    best_off, best_on = min(off, key=lambda r: r[0]), min(on, key=lambda r: r[0])
    figures["load_average"] = os.getloadavg()
    figures["build_seconds_without_search"] = round(best_off[0], 2)
    figures["build_seconds_with_search"] = round(best_on[0], 2)
    figures["search_adds_percent"] = round(100 * (best_on[0] - best_off[0]) / best_off[0], 1)
    figures["steps_without_search"] = best_off[1]
    figures["steps_with_search"] = best_on[1]
    manifest = json.loads((site_on / "search" / "manifest.json").read_text(encoding="utf-8"))
    figures.update(index_figures(site_on))
    figures.update(documents=manifest["documents"],
                   manifest_bytes=(site_on / "search" / "manifest.json").stat().st_size,
                   shards=len(manifest["shards"]))
    shutil.rmtree(site_off, ignore_errors=True)
    httpd, url = serve(site_on)
    try:
        figures["browser"] = browser_figures(url, QUERIES)
        if args.pagefind:
            figures["pagefind"] = pagefind_figures(site_on, url, args.venv_python, QUERIES)
    finally:
        httpd.shutdown()
    print(json.dumps(figures, indent=1, ensure_ascii=False))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
