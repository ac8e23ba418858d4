#!/usr/bin/env python3
"""Writes Sources/ScrollbackReading/Importers/WhatsApp/WhatsAppPhraseTable.swift: the phrases
WhatsApp writes into a chat export in each language (media left out, attached files, deleted
and edited messages, system lines, the word for the exporter), from WhatsApp's own string
resources.

No installable package ships them (PyPI has none; the parsers that keep such tables are Dart,
JavaScript or R projects). Two copies of the apps' resources are read:

- the Dart package whats_json (repository starkdmi/whats_json, folder tool/patterns_generator/data):
  the iOS app's Localizable.strings (as JSON, obfuscated keys) and the Android app's
  res/values-*/strings.xml, from before WhatsApp had edited messages;
- two decompiled Android WhatsApps (PACK_SOURCES: 2.23.10 of May 2023 in repository
  OAbouHajar/whatsappOmar_DO_NOT_USE, and the 2.23.23.78 of November 2023 inside the GBWhatsApp
  of Frankline-Sable/whatsapp_x, which ships WhatsApp's own string packs unchanged): each one's
  English res/values/strings.xml (resources named strXXXX, the low half of the resource id) and
  the translations WhatsApp ships as StringPacks (assets/compressed/strings/strings_*.spk.br:
  Brotli around a one-entry archive around a StringPacks .pack, read with the reader of
  WhatsApp's own StringPacks repository). The edited marker (`<This message was edited>`) and
  the deleted-message texts come from there; both versions are kept, since exports made with
  either are in people's hands. (Apps from 2024 on pack their strings as SuperPack `.spo`
  files, a compressor with no public decoder.)

So there are two steps:

1. `--extract DATA --packs PACKS... --stringpacks STRINGPACKS` reads those folders (DATA: whats_json's
   tool/patterns_generator/data at COMMIT; PACKS: a checkout of each decompiled app of
   PACK_SOURCES at its commit, in that order; STRINGPACKS: a checkout of WhatsApp/StringPacks)
   and writes
   scripts/whatsapp-phrases.json: one entry per language, kind and text, each naming the
   repository, commit, file and key it came from. The keys are found by their English text
   (ENGLISH, PACK_ENGLISH below), never typed in. Phrases neither holds come from
   scripts/whatsapp-phrases-observed.json, each entry naming where it was seen. Brotli is
   Debian's libbrotlidec (package libbrotli1), loaded with ctypes.
2. Without --extract, the Swift table is written from scripts/whatsapp-phrases.json.

`--check` exits 1 when the committed Swift file is not what the JSON gives (and, with --extract,
when the JSON is not what the resources give). WhatsAppPhraseTests runs it.

Usage:
  python3 scripts/generate-whatsapp-phrases.py                      # JSON -> Swift
  python3 scripts/generate-whatsapp-phrases.py --check              # exit 1 if stale
  python3 scripts/generate-whatsapp-phrases.py --extract DATA --packs P1 P2 --stringpacks SP
"""
import argparse
import collections
import ctypes
import ctypes.util
import json
import os
import re
import struct
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(REPO, "Sources/ScrollbackReading/Importers/WhatsApp/WhatsAppPhraseTable.swift")
EXTRACT = os.path.join(REPO, "scripts/whatsapp-phrases.json")
OBSERVED = os.path.join(REPO, "scripts/whatsapp-phrases-observed.json")
SOURCE_REPO = "starkdmi/whats_json"
COMMIT = "760b3a0a063f8e576156e72f5807c6ab283e0943"
IOS = "tool/patterns_generator/data/iOS Localizables"
ANDROID = "tool/patterns_generator/data/Android Strings"
# The decompiled apps whose string packs are read: repository, commit, the folder of the packs
# and the English strings.xml, oldest first.
PackSource = collections.namedtuple("PackSource", "repo commit packs english")
PACK_SOURCES = [
    PackSource("OAbouHajar/whatsappOmar_DO_NOT_USE", "a32615781c2f5e81802cc7ddb562e3d7c9476e12",
               "resources/assets/compressed/strings", "resources/res/values/strings.xml"),
    PackSource("Frankline-Sable/whatsapp_x", "e4e73930b6af5ae0f9f49d18205d975d6ceed4b2",
               "app/src/main/assets/compressed/strings", "app/src/main/res/values/strings.xml"),
]

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
    # The word the app writes for the exporter where a name would be (`You`, `Du`, `Tú`).
    "you": ["you"],
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
# The kinds read from the StringPacks, by the English text of their resources.
PACK_ENGLISH = {
    "edited": ["<This message was edited>"],
    "deleted": ["This message was deleted"],
    "deleted.you": ["You deleted this message"],
}
# Resources both Android copies hold: their translations tie a pack's string numbers to the
# resources' names (see pack_offset).
PACK_ANCHORS = ["email_media_omitted", "email_file_attached", "revoked_msg_incoming", "revoked_msg_outgoing"]
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


def pack_language(locale):
    """The BCP 47 code of a StringPacks locale (`in`, `iw`, `tl` are Android's old codes)."""
    parts = locale.split("-")
    return "-".join([{"in": "id", "iw": "he", "tl": "fil"}.get(parts[0], parts[0])] + parts[1:])


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


def brotli_decompress(data):
    """`data` Brotli-decoded by Debian's libbrotlidec."""
    name = ctypes.util.find_library("brotlidec") or "libbrotlidec.so.1"
    try:
        library = ctypes.CDLL(name)
    except OSError:
        sys.exit("generate-whatsapp-phrases: libbrotlidec is missing (apt-get install libbrotli1)")
    capacity = max(1 << 20, len(data) * 16)
    while True:
        output = ctypes.create_string_buffer(capacity)
        size = ctypes.c_size_t(capacity)
        if library.BrotliDecoderDecompress(ctypes.c_size_t(len(data)), data, ctypes.byref(size), output) == 1:
            return output.raw[: size.value]
        if capacity > 1 << 28:
            sys.exit("generate-whatsapp-phrases: a string pack does not decode as Brotli")
        capacity *= 4


def archived_pack(archive, name):
    """The StringPacks .pack stored in a decoded .spk archive: the archive names its one entry
    (`strings_de.pack`) and its codec (`anon`: stored as it is), then the entry's length, then
    the entry. The entry starts where a StringPacks header does (a locale count n, the start of
    the locale data, 11 + 11n, an encoding, 0 or 1, then the first locale's letters)."""
    codec = archive.find(b".pack\0anon\0")
    if codec < 0:
        sys.exit(f"generate-whatsapp-phrases: {name} is not a stored StringPacks archive")
    length_at = codec + len(b".pack\0anon\0")
    length_at += -length_at % 4
    (length,) = struct.unpack_from("<I", archive, length_at)
    for start in range(length_at + 4, length_at + 64):
        count, locale_data = struct.unpack_from("<HI", archive, start)
        if (0 < count < 32 and locale_data == 11 + 11 * count and archive[start + 6] in (0, 1)
                and archive[start + 11:start + 13].isalpha() and start + length <= len(archive)):
            return archive[start:start + length]
    sys.exit(f"generate-whatsapp-phrases: no StringPacks header in {name}")


def read_packs(packs, source, stringpacks):
    """Every .spk.br file's strings: (file name, locale, {pack id: text}), read with the reader
    of WhatsApp's StringPacks (library/scripts/string_pack.py)."""
    sys.path.insert(0, os.path.join(stringpacks, "library", "scripts"))
    from string_pack import StringPack  # noqa: E402 (found only once the path is known)

    folder = os.path.join(packs, source.packs)
    result = []
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("strings_") and name.endswith(".spk.br")):
            continue
        with open(os.path.join(folder, name), "rb") as handle:
            pack = archived_pack(brotli_decompress(handle.read()), name)
        with tempfile.NamedTemporaryFile(suffix=".pack") as temporary:
            temporary.write(pack)
            temporary.flush()
            locales = StringPack.from_file(temporary.name)
        for locale, strings in sorted(locales.items()):
            result.append((name, locale, {k: v for k, v in strings.items() if isinstance(v, str)}))
    return result


def resource_index(name):
    """The number in a decompiled resource name (`str08a7`: 0x08a7), or None."""
    match = re.fullmatch(r"str([0-9a-f]{4})", name or "")
    return int(match.group(1), 16) if match else None


def pack_offset(packs, english, data):
    """How a pack's string numbers relate to the resource names: a pack numbers the strings in
    resource order from some start (the plurals come first), so number = index + offset. The
    offset is the one that makes the translations of PACK_ANCHORS in the packs what whats_json's
    named strings.xml has for them, in most languages; it is checked, never assumed."""
    android_dir = os.path.join(data, "Android Strings")
    named = {}
    for folder in sorted(os.listdir(android_dir)):
        path = os.path.join(android_dir, folder, "strings.xml")
        language = android_language(folder)
        if os.path.exists(path) and language:
            resources = {e.get("name"): clean(android_text(e))
                         for e in ElementTree.parse(path).getroot().iter("string")}
            named[language] = resources
    votes = collections.Counter()
    comparisons = 0
    for anchor in PACK_ANCHORS:
        indexes = [i for i, text in english.items() if text == named["en"].get(anchor)]
        for _, locale, strings in packs:
            wanted = named.get(pack_language(locale), {}).get(anchor)
            if not wanted or not indexes:
                continue
            comparisons += 1
            for number, text in strings.items():
                if clean(text) == wanted:
                    for index in indexes:
                        votes[number - index] += 1
    if not votes:
        sys.exit("generate-whatsapp-phrases: no anchor string is in both copies")
    # Translations change between versions (German `<Medien weggelassen>` became `<Medien
    # ausgeschlossen>`), so not every language agrees; a wrong offset agrees by chance only.
    (offset, agreeing), *others = votes.most_common(2) + [(None, 0)]
    if agreeing < 20 or agreeing < 10 * others[0][1]:
        sys.exit(f"generate-whatsapp-phrases: the pack numbering is unclear ({votes.most_common(3)}, "
                 f"{comparisons} comparisons)")
    print(f"generate-whatsapp-phrases: pack string = resource index + {offset} "
          f"({agreeing} of {comparisons} anchor translations agree; next best {others[0][1]})", file=sys.stderr)
    return offset


def extract_packs(packs, source, stringpacks, data):
    """The PACK_ENGLISH kinds in every language of one source's packs (English from its
    values/strings.xml)."""
    english = {}
    for element in ElementTree.parse(os.path.join(packs, source.english)).getroot().iter("string"):
        index = resource_index(element.get("name"))
        if index is not None:
            english[index] = clean(android_text(element))
    loaded = read_packs(packs, source, stringpacks)
    offset = pack_offset(loaded, english, data)
    entries = []
    for kind, texts in PACK_ENGLISH.items():
        for text in texts:
            indexes = sorted(i for i, value in english.items() if value == text)
            if not indexes:
                sys.exit(f"generate-whatsapp-phrases: no resource has the English text {text!r}")
            for index in indexes:
                key = f"str{index:04x}"
                entries.append({"language": "en", "platform": "android", "kind": kind, "text": text,
                                "source": f"{source.repo}@{source.commit}:{source.english}#{key}"})
                for name, locale, strings in loaded:
                    found = clean(strings.get(index + offset, ""))
                    if found:
                        entries.append({"language": pack_language(locale), "platform": "android", "kind": kind,
                                        "text": found,
                                        "source": f"{source.repo}@{source.commit}:{source.packs}/{name}#{key} "
                                                  f"({locale}, string {index + offset})"})
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
// (WhatsApp's iOS and Android string resources, as starkdmi/whats_json keeps them, the Android
// app's StringPacks of May and November 2023, and the observed phrases of
// scripts/whatsapp-phrases-observed.json).
// Do not edit: run the script (WhatsAppPhraseTests checks that this file is what it writes).

/// The phrases WhatsApp writes into a chat export, one `language<TAB>kind<TAB>text` line each,
/// sorted: {len(table)} phrases of {count} source entries in {len(languages)} languages. Kinds:
/// `omitted.<media>`, `attached`, `location`, `deleted`, `deleted.you`, `edited`, `encrypted`,
/// `system`, `system.you` (a `.you` phrase is the exporter's own voice), `you` (the word for the
/// exporter where a name would be); `%@`, `%1$s`, … stand for names.
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
    parser.add_argument("--packs", metavar="PACKS", nargs="+",
                        help="a checkout of each of " + ", ".join(f"{s.repo} at {s.commit[:7]}" for s in PACK_SOURCES)
                        + ", in that order (with --extract)")
    parser.add_argument("--stringpacks", metavar="STRINGPACKS",
                        help="a checkout of WhatsApp/StringPacks (with --extract)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a committed file differs")
    parser.add_argument("--output", default=OUTPUT)
    args = parser.parse_args()
    wanted = {}
    if args.extract and not (args.packs and args.stringpacks):
        parser.error("--extract needs --packs and --stringpacks")
    if args.extract and len(args.packs) != len(PACK_SOURCES):
        parser.error(f"--packs needs {len(PACK_SOURCES)} checkouts, one for each source")
    if args.extract:
        # One entry a line: a new snapshot's changes read as a diff.
        wanted[EXTRACT] = "[\n" + ",\n".join(
            json.dumps(entry, ensure_ascii=False, sort_keys=True)
            for entry in extract(args.extract) + [
                entry for packs, source in zip(args.packs, PACK_SOURCES)
                for entry in extract_packs(packs, source, args.stringpacks, args.extract)]) + "\n]\n"
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
