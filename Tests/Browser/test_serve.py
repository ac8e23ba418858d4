"""The dev server in a real browser (issue 12, acceptance 2): an open page reloads by itself
after an edit, and shows the error overlay after a broken edit (and hides it after the fix)."""
import json
import os
import pathlib
import signal
import subprocess
import time

import pytest

from conftest import REPO

BINARY = pathlib.Path(os.environ.get("SCROLLBACK_BINARY", REPO / ".build" / "release" / "scrollback"))


def log(count, title="Trip"):
    messages = [
        {"id": f"m{i}", "sender": "alice" if i % 2 == 0 else "bob",
         "date": f"2024-05-03T09:{i:02d}:00Z", "text": f"Message {i} of trip"}
        for i in range(count)
    ]
    return json.dumps({"version": 1, "id": "trip", "title": title, "me": "alice",
                       "participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}],
                       "messages": messages}, indent=1)


@pytest.fixture
def served(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "trip.json").write_text(log(2))
    process = subprocess.Popen([str(BINARY), "serve", str(logs)], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    url = line.split(" at ", 1)[1].split(" ", 1)[0]
    yield logs, url
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=10) == 0


def test_page_reloads_and_shows_the_overlay(served, browser):
    logs, url = served
    page = browser.new_page()
    try:
        page.goto(url + "trip/")
        assert page.locator("[data-message-id]").count() == 2
        page.evaluate("window.__marker = 1")
        (logs / "trip.json").write_text(log(3))
        page.wait_for_function("() => window.__marker === undefined", timeout=15000)  # reloaded
        page.wait_for_function("() => document.querySelectorAll('[data-message-id]').length === 3", timeout=15000)

        (logs / "trip.json").write_text('{\n "version": 1,\n "id": "trip" "oops": <img src=x onerror=alert(1)>\n}\n')
        overlay = page.locator("scrollback-error-overlay .panel")
        overlay.wait_for(timeout=15000)
        text = page.locator("scrollback-error-overlay .panel").inner_text()
        assert "trip.json:3:" in text and "<img src=x onerror=alert(1)>" in text  # shown as text
        assert page.locator("scrollback-error-overlay img").count() == 0
        assert page.locator("[data-message-id]").count() == 3  # the last good page underneath
        (REPO / "artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(REPO / "artifacts" / "serve-overlay.png"))

        (logs / "trip.json").write_text(log(4))
        page.wait_for_function(
            "() => !document.querySelector('scrollback-error-overlay') && "
            "document.querySelectorAll('[data-message-id]').length === 4", timeout=15000)
    finally:
        page.close()
