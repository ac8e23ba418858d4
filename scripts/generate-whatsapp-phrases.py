#!/usr/bin/env python3
"""Writes Sources/ScrollbackReading/Importers/WhatsApp/WhatsAppPhraseTable.swift: the phrases
WhatsApp writes into a chat export in each language (media left out, attached files, deleted
messages, system lines), from WhatsApp's own string resources.

No installable package ships them (PyPI has none; the parsers that keep such tables are Dart,
JavaScript or R projects). The one maintained copy found is in the Dart package whats_json
(repository starkdmi/whats_json, folder tool/patterns_generator/data): the iOS app's
Localizable.strings (as JSON, obfuscated keys) and the Android app's res/values-*/strings.xml.
So there are two steps:

1. `--extract DATA` reads that folder (a checkout of starkdmi/whats_json at COMMIT below) and
   writes scripts/whatsapp-phrases.json: one entry per language, kind and text, each naming the
   repository, commit, file and key it came from. The keys are found by their English text
   (ENGLISH below), never typed in. Phrases the resources do not hold (the edited marker, newer
   than the snapshot) come from scripts/whatsapp-phrases-observed.json, each entry naming where
   it was seen.
2. Without --extract, the Swift table is written from scripts/whatsapp-phrases.json.

`--check` exits 1 when the committed Swift file is not what the JSON gives (and, with --extract,
when the JSON is not what the resources give). WhatsAppPhraseTests runs it.

Usage:
  python3 scripts/generate-whatsapp-phrases.py                      # JSON -> Swift
  python3 scripts/generate-whatsapp-phrases.py --check              # exit 1 if stale
  python3 scripts/generate-whatsapp-phrases.py --extract DATA       # resources -> JSON -> Swift
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(REPO, "Sources/ScrollbackReading/Importers/WhatsApp/WhatsAppPhraseTable.swift")
EXTRACT = os.path.join(REPO, "scripts/whatsapp-phrases.json")
OBSERVED = os.path.join(REPO, "scripts/whatsapp-phrases-observed.json")
SOURCE_REPO = "starkdmi/whats_json"
COMMIT = "760b3a0a063f8e576156e72f5807c6ab283e0943"
IOS = "tool/patterns_generator/data/iOS Localizables"
ANDROID = "tool/patterns_generator/data/Android Strings"

# The kinds the importer tells apart, and the English text (iOS) or resource name (Android)
# of each phrase of that kind. `.you` kinds are the exporter's own voice.
ENGLISH = {
    "omitted.image": ["image omitted"], "omitted.video": ["video omitted"],
    "omitted.audio": ["audio omitted"], "omitted.sticker": ["sticker omitted"],
    "omitted.gif": ["GIF omitted"], "omitted.contact": ["Contact card omitted"],
    "omitted.document": ["document omitted"], "attached": ["<attached: %@>"],
    "deleted": ["This message was deleted.", "This message was deleted by an admin."],
    "deleted.you": ["You deleted this message.", "You deleted this message", "You deleted this message as admin"],
    "encrypted": ["Messages and calls are end-to-end encrypted."],
    "system": [
        "%1$@ created group “%2$@”", "%1$@ added %2$@", "%@ added you", "%@ left", "%1$@ removed %2$@",
        "%1$@ changed the subject to “%2$@”", "A participant changed the subject to “%@”",
        "%@ changed this group's icon", "%@ deleted this group's icon", "%1$@ changed the group description",
        "Your security code with %@ changed.", "Your security code with all participants changed.",
        "You were added",
    ],
    "system.you": [
        "You created group “%@”", "You added %@", "You left", "You removed %@", "You changed the subject to “%@”",
        "You changed this group's icon", "You deleted this group's icon", "You changed the group description",
    ],
}
ANDROID_NAMES = {
    "omitted.any": ["email_media_omitted"], "attached": ["email_file_attached"],
    "location": ["email_location_message"], "deleted": ["revoked_msg_incoming"],
    "deleted.you": ["revoked_msg_outgoing"],
    "system": [
        "group_created_by_name", "group_participant_added_you", "group_participant_left_name",
        "group_participants_name_added_names", "group_participants_name_removed_names",
        "group_subject_changed_by_name", "group_subject_changed_by_name_from_to", "photo_changed_by",
        "identity_changed_name",
    ],
    "system.you": [
        "group_created_by_you", "group_participant_left_you", "group_participants_you_added_names",
        "group_participants_you_removed_names", "group_subject_changed_by_you",
        "group_subject_changed_by_you_from_to", "photo_changed_by_you",
    ],
}
# Keys whose English text is a phrase above but that mean something else (checked in German).
NOT_MEANT = {"fOf6t": "'%@ left' as in time remaining (German: 'Noch %@')"}
# Direction marks WhatsApp puts around phrases (the reader drops them before matching).
MARKS = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")


def ios_language(name):
    code = name[: -len(".strings")]
    if code == "GR-EL":  # the same file as EL.strings
        return None
    code = {"ES-SP": "es", "UKR": "uk", "ZH-Hans": "zh-Hans", "ZH-Hant": "zh-Hant"}.get(code, code)
    parts = code.split("-")
    return "-".join([parts[0].lower()] + parts[1:])


def android_language(folder):
    if folder == "values":
        return "en"
    # `values-hi-v16` (an API-level qualifier) holds the Hindi strings of that snapshot.
    code = re.sub(r"-v\d+$", "", folder[len("values-"):])
    if code.startswith("b+"):
        return "-".join(code[2:].split("+"))
    code = re.sub(r"-r([A-Z]{2})$", r"-\1", code)
    return {"in": "id", "iw": "he", "tl": "fil"}.get(code, code)


def android_text(element):
    text = "".join(element.itertext())
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        text = text[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def clean(text):
    return MARKS.sub("", text).strip()


def extract(data):
    entries = []
    ios_dir = os.path.join(data, "iOS Localizables")
    english = json.load(open(os.path.join(ios_dir, "EN.strings"), encoding="utf-8"))
    keys = {}
    for kind, texts in ENGLISH.items():
        for text in texts:
            found = sorted(k for k, v in english.items() if clean(v) == text and k not in NOT_MEANT)
            if not found:
                sys.exit(f"generate-whatsapp-phrases: no iOS key has the English text {text!r}")
            keys.setdefault(kind, []).extend(found)
    for name in sorted(os.listdir(ios_dir)):
        language = ios_language(name)
        if not language:
            continue
        strings = json.load(open(os.path.join(ios_dir, name), encoding="utf-8"))
        for kind, found in keys.items():
            for key in found:
                if key in strings and clean(strings[key]):
                    entries.append({"language": language, "platform": "ios", "kind": kind,
                                    "text": clean(strings[key]),
                                    "source": f"{SOURCE_REPO}@{COMMIT}:{IOS}/{name}#{key}"})
    android_dir = os.path.join(data, "Android Strings")
    for folder in sorted(os.listdir(android_dir)):
        language = android_language(folder)
        path = os.path.join(android_dir, folder, "strings.xml")
        if not language or not os.path.exists(path):
            continue
        resources = {e.get("name"): e for e in ElementTree.parse(path).getroot().iter("string")}
        for kind, names in ANDROID_NAMES.items():
            for name in names:
                if name in resources and clean(android_text(resources[name])):
                    entries.append({"language": language, "platform": "android", "kind": kind,
                                    "text": clean(android_text(resources[name])),
                                    "source": f"{SOURCE_REPO}@{COMMIT}:{ANDROID}/{folder}/strings.xml#{name}"})
    return entries


def rows(entries):
    seen = set()
    result = []
    for entry in entries:
        row = (entry["language"], entry["kind"], entry["text"])
        if any(c in "\t\n" for c in entry["text"]) or '"#' in entry["text"]:
            sys.exit(f"generate-whatsapp-phrases: unexpected character in {entry!r}")
        if row not in seen:
            seen.add(row)
            result.append(row)
    return sorted(result)


def swift(table, count):
    languages = sorted({row[0] for row in table})
    lines = "\n".join(f"        {language}\t{kind}\t{text}" for language, kind, text in table)
    return f'''// Generated by scripts/generate-whatsapp-phrases.py from scripts/whatsapp-phrases.json
// (WhatsApp's iOS and Android string resources, as starkdmi/whats_json keeps them, and the
// observed phrases of scripts/whatsapp-phrases-observed.json).
// Do not edit: run the script (WhatsAppPhraseTests checks that this file is what it writes).

/// The phrases WhatsApp writes into a chat export, one `language<TAB>kind<TAB>text` line each,
/// sorted: {len(table)} phrases of {count} source entries in {len(languages)} languages. Kinds:
/// `omitted.<media>`, `attached`, `location`, `deleted`, `deleted.you`, `edited`, `encrypted`,
/// `system`, `system.you` (a `.you` phrase is the exporter's own voice); `%@`, `%1$s`, … stand
/// for names.
enum WhatsAppPhraseTable {{
    /// The lines, read once by `WhatsAppPhrases`.
    static let lines = #"""
{lines}
        """#
}}
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--extract", metavar="DATA",
                        help="starkdmi/whats_json's tool/patterns_generator/data folder: rewrite the JSON first")
    parser.add_argument("--check", action="store_true", help="exit 1 when a committed file differs")
    parser.add_argument("--output", default=OUTPUT)
    args = parser.parse_args()
    wanted = {}
    if args.extract:
        # One entry a line: a new snapshot's changes read as a diff.
        wanted[EXTRACT] = "[\n" + ",\n".join(
            json.dumps(entry, ensure_ascii=False, sort_keys=True) for entry in extract(args.extract)) + "\n]\n"
        extracted = json.loads(wanted[EXTRACT])
    else:
        with open(EXTRACT, encoding="utf-8") as handle:
            extracted = json.load(handle)
    with open(OBSERVED, encoding="utf-8") as handle:
        observed = json.load(handle)
    for entry in observed:
        if not entry.get("source"):
            sys.exit(f"generate-whatsapp-phrases: an observed phrase names no source: {entry!r}")
    entries = extracted + observed
    wanted[args.output] = swift(rows(entries), len(entries))
    status = 0
    for path, text in wanted.items():
        if args.check:
            try:
                with open(path, encoding="utf-8") as handle:
                    current = handle.read()
            except FileNotFoundError:
                current = None
            if current != text:
                print(f"generate-whatsapp-phrases: {os.path.relpath(path, REPO)} is not what the script "
                      "writes; run scripts/generate-whatsapp-phrases.py", file=sys.stderr)
                status = 1
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
