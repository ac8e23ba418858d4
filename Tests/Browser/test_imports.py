"""The real sample exports (spec §6; `$SHARED/samples`, read from there) as a reader meets them
in the browser: threads open in place without script or on their own page, a reply's quote
leads to the quoted message on another page, reactions say who, edits, deletions, files and
system events show, and one page of each format passes axe.

What each sample holds is read from its raw files here, not from the importers, so a mapping
that drops or misplaces something fails. The sites: `import-<format>` is `$SHARED/samples/<format>`
built directly; `import-paged` is the Slack and Telegram samples imported as logs with a page
size of 50 and a thread limit of 1 (Tests/Browser/fixture_imports.py).
"""
import datetime
import functools
import json
import re
import sys
import urllib.parse

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import BUILD_LOGS, FIXTURES, REPO, SITES, conversation_pages, expectations, render_everything

sys.path.insert(0, str(REPO / "Tests" / "Fixtures"))
from shared_folder import shared_folder  # noqa: E402

SAMPLES = shared_folder() / "samples"
FORMATS = ["slack", "discord", "telegram", "whatsapp", "chatgpt", "messenger", "instagram", "claude", "signal", "mattermost"]
SLACK_EXPORT = SAMPLES / "slack" / "rusq-slackdump-source_export_dir"
AXE = Axe()


def site_url(server, site, rel):
    return server.url(site, urllib.parse.quote(rel))


def built(site):
    """The conversation pages of a built import site; fails when its build failed."""
    status = (BUILD_LOGS / f"{site}.status").read_text().strip() if (BUILD_LOGS / f"{site}.status").exists() else None
    assert status == "0", f"{site} did not build (exit {status}); see artifacts/build-logs/{site}.log"
    pages = conversation_pages(site)
    assert pages, f"{site} has no conversation pages"
    return pages


def message(page, message_id):
    """The one element of a message, by its id (ids hold dots, so no `#id` selector)."""
    locator = page.locator(f'[data-message-id="{message_id}"]')
    assert locator.count() == 1, f"message {message_id}: {locator.count()} elements"
    return locator


def in_viewport(locator):
    return locator.evaluate("""(el) => { const r = el.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight && r.height > 0; }""")


# --- The raw samples, read without the importers. ---

@functools.lru_cache(maxsize=None)
def slack_messages():
    """Every message of the Slack sample channel, in file order."""
    folder = SLACK_EXPORT / "B75B4C7"
    return [m for day in sorted(folder.glob("*.json")) for m in json.loads(day.read_text(encoding="utf-8"))]


@functools.lru_cache(maxsize=None)
def slack_users():
    """{user id: the name Slack shows}: the display name, else the real name, else the handle."""
    users = json.loads((SLACK_EXPORT / "users.json").read_text(encoding="utf-8"))
    return {u["id"]: u.get("profile", {}).get("display_name") or u.get("profile", {}).get("real_name")
            or u.get("real_name") or u["name"] for u in users}


def slack_threads():
    """{root ts: [reply ts…]} of the Slack sample."""
    threads = {}
    for m in slack_messages():
        if m.get("thread_ts") and m["thread_ts"] != m["ts"]:
            threads.setdefault(m["thread_ts"], []).append(m["ts"])
    return threads


@functools.lru_cache(maxsize=None)
def discord_exports():
    """{file name: parsed DiscordChatExporter JSON} of every Discord sample."""
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted((SAMPLES / "discord").rglob("*.json"))}


@functools.lru_cache(maxsize=None)
def telegram_chats():
    """[(file name, chat)] of every Telegram sample (single-chat exports)."""
    return [(p.name, json.loads(p.read_text(encoding="utf-8"))) for p in sorted((SAMPLES / "telegram").rglob("*.json"))]


def telegram_text(message):
    """The plain text of a Telegram message (a string or an array of strings and entities)."""
    text = message.get("text", "")
    return text if isinstance(text, str) else "".join(t if isinstance(t, str) else t.get("text", "") for t in text)


# --- Threads (Slack: the only sample with threads). ---

def test_slack_threads_open_in_place_without_script(open_page, server):
    """Short threads are a closed <details> under their root; with script off, a click on the
    summary shows every reply of the raw thread, and the summary names who replied."""
    pages = built("import-slack")
    threads = slack_threads()
    assert len(threads) == 3, "the Slack sample has three threads"
    page = open_page(site_url(server, "import-slack", str(pages["b75b4c7"][0].relative_to(SITES / "import-slack"))),
                     javascript=False).page
    users = slack_users()
    raw = {m["ts"]: m for m in slack_messages()}
    for root, replies in threads.items():
        thread = message(page, root).locator(':scope > details[data-part="thread"]')
        assert thread.count() == 1, f"thread {root} is not in place under its root"
        summary = thread.locator(":scope > summary")
        assert thread.evaluate("(d) => d.open") is False
        for reply in replies:
            assert not message(page, reply).is_visible(), f"reply {reply} shows before the thread is opened"
        name = summary.inner_text()
        assert f"{len(replies)} repl" in name, name
        for user in {raw[r]["user"] for r in replies}:
            assert users[user] in name, f"{users[user]} replied but the summary says {name!r}"
        summary.click()
        assert thread.evaluate("(d) => d.open") is True
        for reply in replies:
            reply_element = thread.locator(f'[data-message-id="{reply}"]')
            assert reply_element.count() == 1 and reply_element.is_visible(), f"reply {reply} not shown in place"
        # The reader already sees the root's day: only a reply on another day (UTC, the default
        # time zone) opens with a day separator, as in Slack's own thread view.
        day = lambda ts: datetime.datetime.fromtimestamp(float(ts), datetime.timezone.utc).date().isoformat()
        expected_days = sorted({day(r) for r in replies} - {day(root)})
        shown_days = thread.locator('[data-part="day-separator"] time').evaluate_all(
            "(times) => times.map((t) => t.getAttribute('datetime'))")
        assert shown_days == expected_days, f"thread {root}: day separators {shown_days}, expected {expected_days}"


def test_slack_thread_over_the_limit_has_its_own_page(open_page, server):
    """With `threadInlineLimit: 1`, the two-reply thread is a link to its own page holding both
    replies, each reachable by permalink, and a link back to the root."""
    pages = built("import-paged")
    threads = slack_threads()
    root = next(ts for ts, replies in threads.items() if len(replies) > expectations("import-paged")["threadInlineLimit"])
    page = open_page(site_url(server, "import-paged", "b75b4c7/index.html")).page
    link = message(page, root).locator(':scope > a[data-part="thread"]')
    assert link.is_visible() and f"{len(threads[root])} replies" in link.inner_text()
    for reply in threads[root]:
        assert page.locator(f'[data-message-id="{reply}"]').count() == 0, "a long thread's reply is on the channel page"
    link.click()
    page.wait_for_load_state("load")
    assert "/b75b4c7/thread-" in page.url
    for reply in threads[root]:
        assert message(page, reply).is_visible()
    back = page.locator("a[href*='index.html#m-']").first
    href = back.get_attribute("href")
    back.click()
    page.wait_for_load_state("load")
    anchor = href.split("#", 1)[1]
    target = page.locator(f'[id="{anchor}"]')
    assert target.get_attribute("data-message-id") == root and in_viewport(target)


# --- Replies. ---

def test_reply_quote_on_a_later_page_leads_to_the_quoted_message(open_page, server):
    """Telegram at 50 messages a page: a quote on a later page links into an earlier page, and a
    click on it lands on the quoted message, scrolled into view and marked as the target."""
    pages = built("import-paged")["sample-chat-group-69420"]
    assert len(pages) > 2, "the paged Telegram sample should span several pages"
    chat = dict(telegram_chats())["sample.json"]
    replied_to = {str(m["reply_to_message_id"]) for m in chat["messages"] if "reply_to_message_id" in m}
    page = open_page(server.url("import-paged")).page
    for path in reversed(pages[1:]):
        page.goto(site_url(server, "import-paged", f"sample-chat-group-69420/{path.name}"))
        quotes = [q for q in page.locator("[data-message-id] a.rq").all()
                  if q.get_attribute("href").split("#")[0] not in ("", path.name)]
        if quotes:
            break
    assert quotes, "no reply quote leads to another page"
    quote = quotes[-1]
    href = quote.get_attribute("href")
    file, anchor = href.split("#", 1)
    quote.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"sample-chat-group-69420/{file}#{anchor}")
    target = page.locator(f'[id="{anchor}"]')
    assert target.get_attribute("data-message-id") in replied_to
    assert target.evaluate("(el) => el.matches(':target')") and in_viewport(target)


def test_reply_quote_names_the_quoted_sender_and_leads_to_it(open_page, server):
    """Discord `reference`: the quote reads the quoted sender and text and leads to the message."""
    built("import-discord")
    export = discord_exports()["GC_3A_5M.json"]
    by_id = {m["id"]: m for m in export["messages"]}
    reply = next(m for m in export["messages"] if m.get("reference"))
    quoted = by_id[reply["reference"]["messageId"]]
    page = open_page(site_url(server, "import-discord", "a-group-chat/index.html"), height=300).page
    quote = message(page, reply["id"]).locator("a.rq")
    text = quote.inner_text()
    assert (quoted["author"].get("nickname") or quoted["author"]["name"]) in text and quoted["content"] in text
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    quote.click()
    target = message(page, quoted["id"])
    page.wait_for_function("(el) => el.matches(':target')", arg=target.element_handle())
    assert in_viewport(target)


# --- Reactions, edits, deletions. ---

def test_reactions_show_emoji_count_and_who(open_page, server):
    """Discord reactions: each raw reaction is a visible chip with its emoji and count, and what
    a screen reader hears says who reacted (the sample's DCE lists no users, only counts)."""
    built("import-discord")
    export = discord_exports()["SV_5A_5M.json"]
    reacted = [m for m in export["messages"] if m.get("reactions")]
    assert reacted, "the Discord sample has reactions"
    page = open_page(site_url(server, "import-discord", "deflemask-general-chiptune/index.html")).page
    for raw in reacted:
        chips = message(page, raw["id"]).locator(".rx li")
        assert chips.count() == len(raw["reactions"])
        for chip, reaction in zip(chips.all(), raw["reactions"]):
            assert chip.is_visible()
            seen = chip.evaluate("(li) => [...li.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join('')")
            assert reaction["emoji"]["name"] in seen and str(reaction["count"]) in seen, seen
            spoken = chip.aria_snapshot()
            assert f"{reaction['count']}" in spoken and " from " in spoken, spoken
            names = [u.get("nickname") or u["name"] for u in reaction.get("users", [])]
            for name in names:
                assert name in spoken
            if not names:
                # Only a count: said as a number of people, nobody named or invented.
                people = "1 person" if reaction["count"] == 1 else f"{reaction['count']} people"
                assert people in spoken, spoken
    # The page's participants are the export's authors and named reactors, nobody made up.
    real = {m["author"].get("nickname") or m["author"]["name"] for m in export["messages"]}
    real |= {u.get("nickname") or u["name"] for m in export["messages"] for r in m.get("reactions", [])
             for u in r.get("users", [])}
    listed = page.eval_on_selector_all("header .who .p", "els => els.map((e) => e.lastChild.textContent.trim())")
    assert listed and set(listed) <= real, f"participants not in the export: {set(listed) - real}"


def test_slack_text_with_one_file_is_a_file_card_with_the_text(open_page, server):
    """Slack shows text sent with a file as the text plus the file's card: one message element
    with the card and the text, as a file-only message has the card."""
    built("import-slack")
    raw = [m for m in slack_messages() if len(m.get("files") or []) == 1 and (m.get("text") or "").strip()]
    assert raw, "the Slack sample has a message with text and one file"
    page = open_page(site_url(server, "import-slack", "b75b4c7/index.html")).page
    render_everything(page)
    for m in raw:
        element = message(page, m["ts"])
        assert element.get_attribute("data-kind") in ("file", "photo")
        card = element.locator("[data-part=bubble]")
        assert card.count() == 1 and card.is_visible()
        assert m["files"][0]["name"] in card.inner_text()
        assert m["text"].split()[0] in card.inner_text()


def edited_ids():
    """(site, conversation page, [ids of raw messages with an edit]) for every sample with edits."""
    found = [("import-slack", "b75b4c7/index.html", [m["ts"] for m in slack_messages() if m.get("edited")])]
    discord = [m["id"] for m in discord_exports()["SV_5A_5M.json"]["messages"] if m.get("timestampEdited")]
    # (the sample repeats one edited message's id; the second is kept as `<id>-2`)
    found.append(("import-discord", "deflemask-general-chiptune/index.html",
                  [i if n == 0 else f"{i}-{n + 1}" for n, i in enumerate(discord)]))
    # (every message of this Telegram sample has the id 69420: the n-th is kept as `69420-n`)
    chat = dict(telegram_chats())["sample.json"]["messages"]
    found.append(("import-telegram", "sample-chat-group-69420/index.html",
                  [str(m["id"]) if n == 0 else f"{m['id']}-{n + 1}" for n, m in enumerate(chat) if "edited" in m]))
    return found


@pytest.mark.parametrize("site,rel,ids", edited_ids(), ids=lambda v: v if isinstance(v, str) else None)
def test_edited_messages_say_so_with_the_time(open_page, server, site, rel, ids):
    """Every edited message of the raw export shows a visible "edited" mark whose title and
    spoken text give the edit time: in its footer when it ends a group, with its notes when it
    is inside one (spec §3 draws the footer only on a group's last message)."""
    built(site)
    assert ids
    page = open_page(site_url(server, site, rel)).page
    render_everything(page)
    for message_id in ids:
        mark = message(page, message_id).locator(":scope > .ft .ed, :scope > .nt .ed")
        assert mark.count() == 1 and mark.is_visible(), f"{message_id} has no visible edited mark"
        assert mark.get_attribute("title").startswith("Edited ")
        assert re.search(r"edited\s+\w+ \d+, \d{4}", mark.inner_text()), mark.inner_text()


def test_slack_deleted_thread_root_reads_as_deleted_and_keeps_its_thread(open_page, server):
    """The `tombstone` parent: its text is gone, it says it was deleted, its thread still opens."""
    built("import-slack")
    tombstone = next(m for m in slack_messages() if m.get("subtype") == "tombstone")
    page = open_page(site_url(server, "import-slack", "b75b4c7/index.html")).page
    element = message(page, tombstone["ts"])
    bubble = element.locator(':scope > [data-part="bubble"]')
    assert bubble.is_visible() and "deleted" in bubble.inner_text().lower()
    assert tombstone["text"] not in element.inner_text()
    element.locator(":scope > details > summary").click()
    for reply in slack_threads()[tombstone["ts"]]:
        assert message(page, reply).is_visible()


# --- Files and media. ---

@pytest.mark.parametrize("format_name", ["telegram", "whatsapp", "slack"])
def test_media_not_in_the_export_is_a_one_line_chip(open_page, server, format_name):
    """Issue 42.2: on a phone (390 px), each photo, sticker, voice message or file the export
    does not hold is one compact line (icon, kind, name, "not in this export"): under 48 px high,
    its kind on one line, inside the screen; never a picture-sized grey box."""
    site = f"import-{format_name}"
    pages = built(site)
    chips = 0
    page = None
    for paths in pages.values():
        for path in paths:
            url = site_url(server, site, str(path.relative_to(SITES / site)))
            if page is None:
                page = open_page(url, width=390, height=844).page
            else:
                page.goto(url)
            render_everything(page)
            facts = page.evaluate("""() => [...document.querySelectorAll('.ph0')].map((el) => {
                const r = el.getBoundingClientRect(), line = parseFloat(getComputedStyle(el).lineHeight);
                return {height: r.height, right: r.right, width: innerWidth, text: el.innerText,
                        lines: Math.round((el.querySelector('.phk').getBoundingClientRect().height) / line),
                        icon: !!el.querySelector('svg.phi')}; })""")
            for chip in facts:
                chips += 1
                assert chip["height"] < 48, f"{path.name}: a chip {chip['height']} px high: {chip}"
                assert chip["lines"] == 1, chip
                assert chip["right"] <= chip["width"] and chip["icon"], chip
    assert chips > 0, f"{format_name}: the sample has no missing media to show"

WHATSAPP_ATTACHMENT = re.compile(r"<(?:attached|Anhang): \u200e?([^>]+)>|\u200e*(\S+) \((?:file attached|Datei angehängt)\)")


def missing_file_names(format_name):
    """Names of the files each sample refers to but does not hold, read from the raw export."""
    if format_name == "slack":
        return [f["name"] for m in slack_messages() for f in m.get("files") or []]
    if format_name == "discord":
        return [a["fileName"] for e in discord_exports().values() for m in e["messages"]
                for a in m.get("attachments", []) if a["url"].startswith("http")]
    if format_name == "telegram":
        return [m["file_name"] for _, chat in telegram_chats() for m in chat["messages"]
                if m.get("file_name") and str(m.get("file", "")).startswith("(File not included")]
    if format_name == "whatsapp":
        return [a or b for path in sorted((SAMPLES / "whatsapp").rglob("*.txt"))
                for a, b in WHATSAPP_ATTACHMENT.findall(path.read_text(encoding="utf-8-sig"))]
    if format_name in ("messenger", "instagram"):
        # Meta's samples hold no media files: every `uri` a message names is missing.
        names = []
        for path in sorted((SAMPLES / format_name).rglob("*.json")):
            for m in json.loads(path.read_text(encoding="utf-8-sig"))["messages"]:
                items = [item for key in ("photos", "gifs", "videos", "audio_files", "files") for item in m.get(key) or []]
                items += [m["sticker"]] if m.get("sticker") else []
                names += [item["uri"].rsplit("/", 1)[-1] for item in items]
        return names
    if format_name == "claude":
        return [f["file_name"] for path in sorted((SAMPLES / "claude").rglob("*.json"))
                for m in json.loads(path.read_text(encoding="utf-8"))["chat_messages"]
                for f in m.get("attachments", []) + m.get("files", [])]
    if format_name == "mattermost":
        # The samples hold no `data/` folder: every attachment of a post or reply is missing.
        names = []
        for path in sorted((SAMPLES / "mattermost").rglob("*.json")):
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                post = record.get(record["type"]) if record["type"] in ("post", "direct_post") else None
                for item in [post] + (post.get("replies") or []) if post else []:
                    names += [a["path"].rsplit("/", 1)[-1] for a in item.get("attachments") or []]
        return names
    return []


# Every image and same-site link of the page, and every chip of media not in the export.
MEDIA_JS = r"""() => ({
  images: [...document.querySelectorAll('img')].map((img) => img.currentSrc || img.src),
  links: [...document.querySelectorAll('a[href]')].map((a) => a.href)
           .filter((href) => href.startsWith(location.origin + '/') && !href.includes('/search/')),
  placeholders: [...document.querySelectorAll('.ph0')].map((el) => ({
      visible: el.checkVisibility(), kind: el.querySelector('.phk')?.innerText || '', text: el.innerText,
      height: el.getBoundingClientRect().height})),
  text: document.body.innerText,
})"""

CHIP_KINDS = {"Photo", "Sticker", "Video", "Audio", "Voice message", "File", "Media"}


@pytest.mark.parametrize("format_name", FORMATS)
def test_files_resolve_or_name_what_is_missing(open_page, server, format_name):
    """On every page of each format's site: every image and same-site link loads (HTTP 200), every
    placeholder is visible and names what is missing, and each file the raw export refers to
    without holding it is named on the site."""
    site = f"import-{format_name}"
    pages = built(site)
    watched = open_page(server.url(site))
    page = watched.page
    shown_text = ""
    checked = set()
    placeholders = 0
    for conversation, paths in pages.items():
        for path in paths:
            page.goto(site_url(server, site, str(path.relative_to(SITES / site))))
            render_everything(page)
            facts = page.evaluate(MEDIA_JS)
            shown_text += facts["text"]
            for url in facts["images"] + facts["links"]:
                resource = url.split("#", 1)[0]
                if resource in checked:
                    continue
                checked.add(resource)
                response = page.request.get(resource)
                assert response.status == 200, f"{path.name}: {url} gives {response.status}"
            for placeholder in facts["placeholders"]:
                placeholders += 1
                assert placeholder["visible"], f"{path.name}: a hidden placeholder {placeholder}"
                assert placeholder["kind"] in CHIP_KINDS and "not in this export" in placeholder["text"], placeholder
    for name in missing_file_names(format_name):
        assert name in shown_text, f"{format_name}: the missing file {name!r} is not named on the site"
    assert not watched.problems(), watched.problems()
    if format_name == "discord":
        # The example guild's avatars come from its `.json_Files/` folder and are shown.
        assert any("/media/" in url for url in checked), "no local Discord media was published"
    if format_name in ("telegram", "whatsapp"):
        assert placeholders > 0, "the samples' missing photos and voice notes show no placeholder"


# --- System events. ---

def raw_system_events(format_name):
    """{conversation folder: number of system events} read from the raw export."""
    if format_name == "slack":
        return {"b75b4c7": sum(1 for m in slack_messages() if m.get("subtype") == "channel_join")}
    if format_name == "discord":
        folders = {"DM_2A_2M.json": "someones-name", "GC_3A_5M.json": "a-group-chat",
                   "SV_5A_5M.json": "deflemask-general-chiptune"}
        return {folders[name]: sum(1 for m in export["messages"] if m["type"] not in ("Default", "Reply"))
                for name, export in discord_exports().items() if name in folders}
    if format_name == "telegram":
        # A chat's folder is its name's slug and its id; a chat with no name (saved messages)
        # is its id alone.
        def folder(chat):
            name = re.sub(r"[^\w]+", "-", (chat.get("name") or "").lower()).strip("-")
            return f"{name}-{chat['id']}" if name else str(chat["id"])
        return {folder(chat): sum(1 for m in chat["messages"] if m["type"] == "service")
                for _, chat in telegram_chats()}
    if format_name == "whatsapp":
        # Android layout: `date, time - text` with no `Sender: ` is a system line.
        line = re.compile(r"^\ufeff?\d+[/.]\d+[/.]\d+, \d+:\d+(?:\s?[AP]M)? - (.*)$")
        counts = {}
        for path in sorted((SAMPLES / "whatsapp" / "gesiscss-WhatsR").glob("*android*.txt")):
            bodies = [m.group(1) for m in map(line.match, path.read_text(encoding="utf-8-sig").splitlines()) if m]
            counts[path.stem] = sum(1 for body in bodies if ":" not in body)
        return counts
    return {}


@pytest.mark.parametrize("format_name", ["slack", "discord", "telegram", "whatsapp"])
def test_system_events_are_centred_lines_without_a_sender(open_page, server, format_name):
    """Joins, calls, renames, service actions and WhatsApp's group notices: as many centred,
    visible system lines as the raw export has events, none drawn as someone's bubble."""
    built(f"import-{format_name}")
    expected = raw_system_events(format_name)
    assert sum(expected.values()) > 0
    page = open_page(server.url(f"import-{format_name}")).page
    for folder, count in expected.items():
        page.goto(site_url(server, f"import-{format_name}", f"{folder}/index.html"))
        render_everything(page)
        system = page.locator('[data-kind="system"]')
        assert system.count() == count, f"{folder}: {system.count()} system lines, the export has {count}"
        for element in system.all():
            assert element.get_attribute("data-align") == "center"
            assert element.get_attribute("data-sender") is None
            assert element.locator(".sys").is_visible()


# --- Accessibility: one conversation page of each format, and a thread page. ---

AXE_PAGES = [("import-slack", "b75b4c7/index.html"), ("import-discord", "deflemask-general-chiptune/index.html"),
             ("import-telegram", "testcase2-4696915169/index.html"), ("import-whatsapp", "englishandroid24h/index.html"),
             ("import-chatgpt", "sample-conversation-with-branch-conv-123/index.html"),
             ("import-messenger", "alice-aaaaaaaaaa/index.html"),
             ("import-instagram", "testlog-2765720812686121/index.html"),
             ("import-signal", "test-export/index.html"),

             ("import-mattermost", "gryffindor-gryffindor-quidditch-team/index.html")]


@pytest.mark.parametrize("site,rel", AXE_PAGES + [("import-paged", "b75b4c7/thread-1736478630-905399.html")])
def test_axe_finds_no_violations_on_imported_pages(open_page, server, site, rel):
    built(site)
    page = open_page(site_url(server, site, rel)).page
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    render_everything(page)
    results = AXE.run(page)
    assert results.violations_count == 0, f"{site}/{rel}:\n{results.generate_report()[:6000]}"
