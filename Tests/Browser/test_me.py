"""Your own messages on the right (issue 42 point 4): a WhatsApp one-to-one chat built with
`--me` shows that person's bubbles on the right of the list and the other's on the left; built
without it, both sides are on the left and the build says which names to choose from. A WhatsApp
group where two people wrote and one deleted a message of theirs ("You deleted this message",
under their own name) shows that one on the right with no `--me`, and is not named in the
warning (it is no one-to-one chat). Builds its own sites from the shared sample (copied into a temporary folder, never into the repo) there, with the release binary. Screenshots at 390 and 1280 px, light and dark, go to
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


# A group (its creation line says so) where two people wrote; Android writes the exporter's own
# deletion under their name. Written from the documented shape, into the temporary folder.
GROUP = """12/03/2020, 09:59 - Ana Silva created group "Trip"
12/03/2020, 10:00 - Ana Silva: Who comes on Saturday?
12/03/2020, 10:01 - Ben Okafor: Me, if we leave after ten
12/03/2020, 10:02 - Ana Silva: You deleted this message
12/03/2020, 10:03 - Ana Silva: Ten it is. I will bring the map
12/03/2020, 10:04 - Ben Okafor: 👍
"""


@pytest.fixture(scope="module")
def group_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("me-group")
    source = folder / "in" / "trip"
    source.mkdir(parents=True)
    (source / "_chat.txt").write_text(GROUP, encoding="utf-8")
    out = folder / "site"
    result = subprocess.run([str(BINARY), "build", str(folder / "in"), "-o", str(out)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out, result.stderr


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("dark", [False, True])
def test_a_groups_exporter_found_by_their_deletion_is_on_the_right(open_page, group_site, width, dark):
    site, stderr = group_site
    watched = open_page((site / "trip" / "index.html").as_uri(), width=width,
                        height=844 if width == 390 else 900, dark=dark)
    rows = sides(watched.page)
    mine = [row for row in rows if row["sender"] == "ana-silva"]
    theirs = [row for row in rows if row["sender"] == "ben-okafor"]
    assert mine and theirs, rows
    assert {row["align"] for row in mine} == {"right"}, mine
    assert {row["align"] for row in theirs} == {"left"}, theirs
    assert max(row["rightGap"] for row in mine) < min(row["rightGap"] for row in theirs), rows
    # Two people wrote, but it is a group: no one is asked who they are.
    assert "one-to-one" not in stderr, stderr
    assert not watched.problems(), watched.problems()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    watched.page.screenshot(
        path=str(SCREENSHOTS / f"me-whatsapp-group-{width}-{'dark' if dark else 'light'}.png"))
