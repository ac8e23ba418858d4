#!/usr/bin/env python3
"""Where the folder beside the repo lives (`$REPO/../shared`: the spec and the sample exports).

Test inputs are read from there, never copied into the repo. In a git worktree the folder is
the main checkout's sibling; `SCROLLBACK_SHARED` overrides both.
Run as a script, it prints the folder (for scripts/test-browser.sh).
"""
import os
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]


def shared_folder():
    """`$REPO/../shared`; in a git worktree, the main checkout's sibling `shared` folder."""
    if os.environ.get("SCROLLBACK_SHARED"):
        return pathlib.Path(os.environ["SCROLLBACK_SHARED"])
    candidate = REPO.parent / "shared"
    if candidate.is_dir():
        return candidate
    common = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--path-format=absolute", "--git-common-dir"],
                            capture_output=True, text=True, check=False).stdout.strip()
    return pathlib.Path(common).parent.parent / "shared" if common else candidate


if __name__ == "__main__":
    print(shared_folder())
