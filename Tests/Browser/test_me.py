"""Your own messages on the right (issue 42 point 4): a WhatsApp one-to-one chat built with
`--me` shows that person's bubbles on the right of the list and the other's on the left; built
without it, both sides are on the left and the build says which names to choose from. Builds its
own sites from the shared sample (copied into a temporary folder, never into the repo) there, with the release binary. Screenshots at 390 and 1280 px, light and dark, go to
artifacts/screenshots/."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import REPO, SCREENSHOTS

sys.path.insert(0, str(REPO / "Tests" / "Fixtures"))
from shared_folder import shared_folder  # noqa: E402

BINARY = pathlib.Path(os.environ.get("SCROLLBACK_BINARY", REPO / ".build" / "release" / "scrollback"))
SAMPLE = shared_folder() / "samples" / "whatsapp" / "langchain-example_data" / "whatsapp_chat.txt"
PAGE = "whatsapp-chat/index.html"

# Each message's sender and where its bubble sits in the message list, in CSS pixels, with its
# background colour (your own bubbles have the outgoing colour, as in a messenger).
SIDES = """() => {
  const list = document.querySelector('.ml').getBoundingClientRect();
  return [...document.querySelectorAll('.ml [data-sender]')].flatMap(element => {
    const bubble = element.querySelector('[data-part=bubble]');
    if (!bubble) return [];
    const box = bubble.getBoundingClientRect();
    return [{sender: element.dataset.sender, align: element.dataset.align,
             leftGap: box.left - list.left, rightGap: list.right - box.right,
             background: getComputedStyle(bubble).backgroundColor}];
  });
}"""


def build(tmp_path, name, *extra):
    """Builds a folder holding the sample chat; returns the site and the build's standard error."""
    source = tmp_path / (name + "-in")
    source.mkdir()
    # Copied into the temporary folder (a link out of the input would be refused, rightly).
    shutil.copyfile(SAMPLE, source / "whatsapp_chat.txt")
    out = tmp_path / name
    result = subprocess.run([str(BINARY), "build", str(source), "-o", str(out), *extra],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out, result.stderr


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    if not SAMPLE.is_file():
        pytest.skip(f"no shared sample at {SAMPLE}")
    folder = tmp_path_factory.mktemp("me")
    return {"with": build(folder, "with-me", "--me", "User 2"), "without": build(folder, "without-me")}


def sides(page):
    rows = page.evaluate(SIDES)
    assert rows, "no message with a sender on the page"
    return rows


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("dark", [False, True])
def test_me_puts_the_exporters_messages_right(open_page, sites, width, dark):
    site, _ = sites["with"]
    watched = open_page((site / PAGE).as_uri(), width=width, height=844 if width == 390 else 900, dark=dark)
    rows = sides(watched.page)
    mine = [row for row in rows if row["sender"] == "user-2"]
    theirs = [row for row in rows if row["sender"] == "user-1"]
    assert mine and theirs, rows
    assert {row["align"] for row in mine} == {"right"}, mine
    assert {row["align"] for row in theirs} == {"left"}, theirs
    # Yours hug the right edge and theirs the left (past their avatars): a long bubble may fill
    # 85% of a phone, so each side is compared with the other, not with its own far gap.
    assert max(row["rightGap"] for row in mine) < min(row["rightGap"] for row in theirs), rows
    assert max(row["leftGap"] for row in theirs) < min(row["leftGap"] for row in mine), rows
    assert {row["background"] for row in mine}.isdisjoint({row["background"] for row in theirs}), rows
    assert not watched.problems(), watched.problems()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    watched.page.screenshot(path=str(SCREENSHOTS / f"me-whatsapp-{width}-{'dark' if dark else 'light'}.png"))


def test_without_me_both_sides_are_left_and_the_build_says_whom_to_choose(open_page, sites):
    site, stderr = sites["without"]
    rows = sides(open_page((site / PAGE).as_uri()).page)
    assert {row["align"] for row in rows} == {"left"}, rows
    assert {row["sender"] for row in rows} == {"user-1", "user-2"}
    lines = [line for line in stderr.splitlines() if "one-to-one" in line]
    assert len(lines) == 1, stderr
    assert "User 1 or User 2" in lines[0] and "me: " in lines[0], lines[0]
