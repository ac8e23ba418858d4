#!/usr/bin/env python3
"""The benchmark corpus's messages as one chat app's export (issue 43, acceptance 5 "Speed").

    generate_export.py --format F --corpus DIR --out DIR

Reads a corpus written by `generate_corpus.py` and writes every corpus message as one record of
format F, in the shape the app (or the tool people export it with) writes: same conversations,
senders, times and texts (in the format's own markup where it has one), reply quotes and
reactions where the format has them, photos as the export's files. One writer per format in
`exports/<format>.py` (each says what it maps and what the format cannot carry); Slack's is
`generate_slack_export.py`. Output is byte-deterministic: everything derives from the corpus.
"""

import argparse
import importlib
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# The formats `scrollback import` reads besides Slack, most used first; the module of each.
FORMATS = ["whatsapp", "telegram", "discord", "meta", "chatgpt", "claude", "signal", "matrix", "googlechat",
           "line", "irc", "teams", "mattermost"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", required=True, choices=FORMATS)
    parser.add_argument("--corpus", required=True, help="a folder written by generate_corpus.py")
    parser.add_argument("--out", required=True, help="the export folder (replaced)")
    args = parser.parse_args(argv)
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    importlib.import_module("exports." + args.format).write(args.corpus, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
