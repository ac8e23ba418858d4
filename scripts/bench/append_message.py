#!/usr/bin/env python3
"""Appends one text message to a corpus conversation log, keeping it valid JSON.

Used for the incremental-rebuild measurement: the new message goes at the end of the
`messages` array (the last key the generator writes), one minute after the last one,
from the log's `me`. Only the header line and the tail of the file are parsed, so it
is quick even on a log of hundreds of thousands of messages.
"""

import argparse
import datetime
import json
import os
import sys


def append_message(path, text):
    with open(path, "rb") as f:
        data = f.read()
    end = data.rstrip().rfind(b"]")
    if end < 0 or not data.rstrip().endswith(b"}"):
        raise SystemExit("%s: no messages array at the end of the log" % path)
    header = json.loads(data[:data.index(b'"messages":[')].rstrip(b",").decode("utf-8") + "}")
    last_line = data[:end].rstrip().rsplit(b"\n", 1)[-1].rstrip(b",")
    last = json.loads(last_line.decode("utf-8"))
    last_date = datetime.datetime.fromisoformat(last["date"].replace("Z", "+00:00"))
    new_date = (last_date + datetime.timedelta(minutes=1)).astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    message = {"id": "bench-appended-%d" % (data.count(b"\n") + 1), "sender": header.get("me") or header["participants"][0]["id"],
               "date": new_date, "text": text}
    addition = b",\n" + json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
    with open(path + ".tmp", "wb") as f:
        f.write(data[:end].rstrip() + addition + data[end:])
    os.replace(path + ".tmp", path)
    return message["id"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", help="conversation log (*.json) written by generate_corpus.py")
    parser.add_argument("--text", default="One more message for the incremental rebuild benchmark.")
    args = parser.parse_args(argv)
    print(append_message(args.log, args.text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
