"""The Microsoft Teams sample ($SHARED/samples/teams, Zulip's test tenant) as a reader meets it
(issue 43): channel replies open in place under their root, the inline image Microsoft Graph
holds is a "not in this export" chip that is never requested, system events are centred lines,
the edit and the reaction show, and the pages pass axe.

What the sample holds is read from its raw files here, not from the importer. The site is
`import-teams` (scripts/test-browser.sh builds `$SHARED/samples/teams`).
"""
import json

from axe_playwright_python.sync_playwright import Axe

from conftest import render_everything
from test_imports import SAMPLES, built, message, site_url

SITE = "import-teams"
EXPORT = SAMPLES / "teams" / "zulip-microsoft_teams_fixtures" / "TeamsData_ZulipChat"
# The conversation each channel or chat of the sample is built as (its id rule: the team and
# channel names, the other person of a one-to-one chat, a group chat's own id).
FOLDERS = {
    "19:---2pcguZ0vbfte2wmk0y31xdnjlFv2C1k7nyYXUc7A1@thread.tacv2": "core-team-general",
    "19:3c6ee395-529d-4681-b5f7-582c707570f6_88cbf3c2-0810-4d32-aa19-863c12bf7be9@unq.gbl.spaces": "dm-alya-abbott",
    "19:88cbf3c2-0810-4d32-aa19-863c12bf7be9_9bd4aca7-99cf-4b1b-a16d-e25717dc9414@unq.gbl.spaces": "dm-will-begon",
    "19:9738fef44f39480baff12e585aa9685e@thread.v2": "group-9738fef4",
}


def raw_messages():
    """Every record of every `messages_<id>.json` of the sample, in file order."""
    return [m for path in sorted(EXPORT.rglob("messages_*.json")) for m in json.loads(path.read_text(encoding="utf-8"))]


def folder(record):
    return FOLDERS[(record.get("ChannelIdentity") or {}).get("ChannelId") or record["ChatId"]]


def test_channel_replies_open_in_place_under_their_root(open_page, server):
    """`ReplyToId`: the replies are a closed thread under their root that shows each of them."""
    built(SITE)
    replies = {}
    for m in raw_messages():
        if m.get("ReplyToId") and m["ReplyToId"] != m["Id"]:
            replies.setdefault(m["ReplyToId"], []).append(m["Id"])
    assert replies, "the Teams sample has channel replies"
    page = open_page(site_url(server, SITE, "core-team-general/index.html"), javascript=False).page
    for root, ids in replies.items():
        thread = message(page, root).locator(':scope > details[data-part="thread"]')
        assert thread.count() == 1, f"thread {root} is not under its root"
        assert f"{len(ids)} repl" in thread.locator(":scope > summary").inner_text()
        thread.locator(":scope > summary").click()
        for reply in ids:
            assert thread.locator(f'[data-message-id="{reply}"]').is_visible()


def test_hosted_image_is_a_chip_and_never_requested(open_page, server):
    """The pasted image lives at graph.microsoft.com (behind the tenant's login): the page names
    it "not in this export" where it was and asks no other host for it."""
    built(SITE)
    hosted = [m for m in raw_messages() if "hostedContents" in (m["Body"]["Content"] or "")]
    assert hosted, "the Teams sample has a hosted image"
    watched = open_page(site_url(server, SITE, f"{folder(hosted[0])}/index.html"))
    render_everything(watched.page)
    for m in hosted:
        element = message(watched.page, m["Id"])
        assert "not in this export" in element.inner_text()
        assert element.locator("img").count() == 0
    assert not watched.problems(), watched.problems()


def test_events_are_centred_lines_and_edits_and_reactions_show(open_page, server):
    """Each `<systemEventMessage/>` (no `From`) is a centred line with no sender; the edited
    message has its mark; the reaction says who gave it."""
    built(SITE)
    records = raw_messages()
    page = open_page(site_url(server, SITE, "core-team-general/index.html")).page
    for name in sorted(set(FOLDERS.values())):
        page.goto(site_url(server, SITE, f"{name}/index.html"))
        page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        render_everything(page)
        events = [m for m in records if folder(m) == name and m["From"] is None]
        system = page.locator('[data-kind="system"]')
        assert system.count() == len(events) > 0, f"{name}: {system.count()} lines, the export has {len(events)}"
        for element in system.all():
            assert element.get_attribute("data-align") == "center" and element.get_attribute("data-sender") is None
        for m in records:
            if folder(m) == name and m.get("LastEditedDateTime"):
                mark = message(page, m["Id"]).locator(":scope > .ft .ed, :scope > .nt .ed")
                assert mark.count() == 1 and mark.is_visible()
            for reaction in m.get("Reactions") or []:
                if folder(m) != name:
                    continue
                chip = message(page, m["Id"]).locator(".rx li")
                assert chip.count() == 1 and reaction["ReactionType"] in chip.inner_text()
                assert reaction["User"]["User"]["DisplayName"] in chip.aria_snapshot()


def test_axe_finds_no_violations_on_teams_pages(open_page, server):
    built(SITE)
    page = open_page(site_url(server, SITE, "core-team-general/index.html")).page
    for name in ("core-team-general", "dm-alya-abbott"):
        page.goto(site_url(server, SITE, f"{name}/index.html"))
        page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        render_everything(page)
        results = Axe().run(page)
        assert results.violations_count == 0, f"{name}:\n{results.generate_report()[:6000]}"
