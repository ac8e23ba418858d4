"""Voice notes Safari can play (issue 42 point 3): an Ogg/Opus voice note gets an .m4a copy (AAC in
MP4) made by ffmpeg at build time, listed after the original in its <audio>. Chromium cannot tell
us what Safari does, so this checks the DOM (two <source> children, original first, with their
types), that the copy is served and that Chromium plays it (a duration near the one second
generated), and that a build without ffmpeg (SCROLLBACK_FFMPEG=) says so once. Builds its own
sites (voice notes made here with ffmpeg) under artifacts/voice-notes/<worker>/, with $SCROLLBACK_BINARY
(default: the release binary); screenshots at 390 and 1280 px, light and dark, go to
artifacts/screenshots/."""
import json
import os
import pathlib
import shutil
import subprocess

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import ARTIFACTS, REPO, SCREENSHOTS

BINARY = pathlib.Path(os.environ.get("SCROLLBACK_BINARY", REPO / ".build" / "release" / "scrollback"))
FFMPEG = shutil.which("ffmpeg")
# One folder per pytest-xdist worker (scripts/test-browser.sh runs the suite in workers): every
# worker that runs tests of this module runs the `sites` fixture, which deletes and rebuilds the
# folder, and a shared one went missing under another worker's test.
ROOT = ARTIFACTS / "voice-notes" / os.environ.get("PYTEST_XDIST_WORKER", "main")
# Where the `server` fixture (which serves artifacts/) has ROOT.
SERVED = ROOT.relative_to(ARTIFACTS).as_posix()
PAGE = "voices/index.html"

pytestmark = pytest.mark.skipif(FFMPEG is None, reason="ffmpeg is not installed (scripts/install-deps.sh)")

LOG = {
    "version": 1, "id": "voices", "title": "Voice notes", "me": "alice",
    "participants": [{"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}],
    "messages": [
        {"id": "1", "sender": "alice", "date": "2024-05-03T09:00:00Z", "text": "Did you get my message?"},
        {"id": "2", "sender": "bob", "date": "2024-05-03T09:01:00Z", "kind": "audio",
         "media": {"url": "media/PTT-20240503-WA0001.opus", "duration": 1, "title": "Voice message"}},
        {"id": "3", "sender": "alice", "date": "2024-05-03T09:02:00Z", "kind": "audio",
         "media": {"url": "voice_messages/audio_1@03-05-2024_09-02-00.ogg", "duration": 1,
                   "title": "Voice message"}},
    ],
}

# Each <audio> on the page: its attributes and its <source> children, and what Chromium can play.
AUDIO = """() => [...document.querySelectorAll('audio')].map(audio => ({
  controls: audio.hasAttribute('controls'),
  src: audio.getAttribute('src'),
  sources: [...audio.children].map(child => ({tag: child.tagName, type: child.getAttribute('type'),
                                              url: child.src})),
  mp4: audio.canPlayType('audio/mp4'),
}))"""

# Loads `url`'s metadata in a detached <audio>; resolves to its duration, or the error.
DURATION = """url => new Promise(resolve => {
  const audio = new Audio();
  audio.preload = 'metadata';
  audio.addEventListener('loadedmetadata', () => resolve(audio.duration));
  audio.addEventListener('error', () => resolve('error ' + (audio.error && audio.error.code)));
  audio.src = url;
})"""


def build(name, env_extra):
    """Builds the voice-note log into ROOT/<name>; returns the build's standard output and error."""
    out = ROOT / name
    # SCROLLBACK_FFMPEG from the caller's shell would decide for both builds.
    env = {**{k: v for k, v in os.environ.items() if k != "SCROLLBACK_FFMPEG"}, **env_extra}
    result = subprocess.run([str(BINARY), "build", str(ROOT / "input"), "-o", str(out)],
                            capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


@pytest.fixture(scope="module")
def sites():
    shutil.rmtree(ROOT, ignore_errors=True)
    source = ROOT / "input"
    for index, relative in enumerate(m["media"]["url"] for m in LOG["messages"] if "media" in m):
        path = source / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([FFMPEG, "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                        "-i", f"sine=frequency={440 + 110 * index}:duration=1", "-c:a", "libopus",
                        "-f", "ogg", str(path)], check=True, timeout=60)
    (source / "voices.json").write_text(json.dumps(LOG, indent=1))
    return {"with": build("with", {}), "without": build("without", {"SCROLLBACK_FFMPEG": ""})}


def audios(page):
    found = page.evaluate(AUDIO)
    assert len(found) == 2, found
    return found


def test_each_voice_note_lists_the_original_then_its_m4a_copy(open_page, server, sites):
    watched = open_page(f"{server.origin}/{SERVED}/with/{PAGE}")
    for audio in audios(watched.page):
        assert audio["controls"] and audio["src"] is None, audio
        assert [(s["tag"], s["type"]) for s in audio["sources"]] == [
            ("SOURCE", "audio/ogg; codecs=opus"), ("SOURCE", "audio/mp4")], audio
        original, copy = (s["url"] for s in audio["sources"])
        assert original.endswith(".ogg") and copy == original[:-len(".ogg")] + ".m4a", audio
        response = watched.page.request.get(copy)
        assert response.status == 200 and response.body()[4:8] == b"ftyp", (copy, response.status)
        assert audio["mp4"] in ("maybe", "probably"), audio
        # Chromium plays the copy (as Safari will), about as long as the second generated.
        duration = watched.page.evaluate(DURATION, copy)
        assert isinstance(duration, (int, float)) and 0.9 <= duration <= 1.2, (copy, duration)
    assert not watched.problems(), watched.problems()


def test_a_browser_that_plays_ogg_keeps_the_original(open_page, server, sites):
    watched = open_page(f"{server.origin}/{SERVED}/with/{PAGE}")
    sources = watched.page.evaluate("""() => Promise.all([...document.querySelectorAll('audio')].map(audio =>
      new Promise(resolve => {
        audio.addEventListener('loadedmetadata', () => resolve(audio.currentSrc));
        audio.addEventListener('error', () => resolve('error'), true);
        audio.preload = 'metadata';
        audio.load();
      })))""")
    assert len(sources) == 2 and all(url.endswith(".ogg") for url in sources), sources


def test_from_file_the_copy_is_there_too(open_page, sites):
    watched = open_page((ROOT / "with" / PAGE).as_uri())
    for audio in audios(watched.page):
        copy = audio["sources"][1]["url"]
        assert copy.startswith("file://") and pathlib.Path(copy[len("file://"):]).is_file(), copy
    assert not watched.problems(), watched.problems()


def test_without_ffmpeg_one_note_and_the_original_alone(open_page, server, sites):
    lines = [line for line in sites["without"].splitlines() if "Safari" in line]
    assert lines == ["note: 2 voice notes in Ogg (.opus, .ogg) will not play in Safari: "
                     "install ffmpeg to add an .m4a copy"], sites["without"]
    assert "Safari" not in sites["with"], sites["with"]
    watched = open_page(f"{server.origin}/{SERVED}/without/{PAGE}")
    for audio in audios(watched.page):
        assert audio["sources"] == [] and audio["src"].endswith(".ogg"), audio
    assert not list((ROOT / "without" / "media").glob("*.m4a"))


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_voice_notes_look_right_and_pass_axe(open_page, sites, width, dark):
    watched = open_page((ROOT / "with" / PAGE).as_uri(), width=width, height=844 if width == 390 else 900,
                        dark=dark)
    results = Axe().run(watched.page)
    assert results.violations_count == 0, results.generate_report()[:6000]
    # The players fit their bubbles: no sideways scroll on a phone.
    assert watched.page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    watched.page.screenshot(path=str(SCREENSHOTS / f"voice-notes-{width}-{'dark' if dark else 'light'}.png"))
