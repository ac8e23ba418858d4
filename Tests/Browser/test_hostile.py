"""Logs are untrusted (spec §1, §5): on every page built from the hostile fixture nothing runs,
no handler or script URL exists, nothing loads from another host, the payload text is still
shown as text, and media paths that escape the input folder are refused."""
import re

import pytest

from conftest import (BUILD_LOGS, SITES, all_pages, conversation_pages, expectations, file_url, page_params,
                      render_everything, require_page)

HOSTILE_PAGES = page_params(all_pages(["hostile"]))

# Everything a page built from hostile input must not contain, collected in one pass.
AUDIT_JS = r"""() => {
  const problems = [];
  const describe = (el) => '<' + el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '>';
  const urlAttributes = ['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'srcset',
                         'background', 'cite', 'ping', 'longdesc', 'manifest', 'codebase', 'lowsrc', 'dynsrc'];
  const scriptUrl = /^(javascript|vbscript|livescript):|^data:(text\/html|application\/(x-)?javascript|image\/svg)/;
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) problems.push(`${describe(el)} has event handler ${name}=${attr.value.slice(0, 60)}`);
      if (urlAttributes.includes(name) || name.endsWith(':href')) {
        // Browsers ignore ASCII whitespace and control characters inside a scheme.
        const squashed = attr.value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
        if (scriptUrl.test(squashed)) problems.push(`${describe(el)} ${name}=${attr.value.slice(0, 80)}`);
      }
      if (name === 'style' && /evil|expression\(|__pwned|url\(/i.test(attr.value))
        problems.push(`${describe(el)} style from the log: ${attr.value.slice(0, 80)}`);
    }
  }
  for (const el of document.querySelectorAll('iframe, frame, frameset, object, embed, base, applet, portal, meta[http-equiv]'))
    problems.push(`forbidden element ${el.outerHTML.slice(0, 100)}`);
  for (const el of document.querySelectorAll('style'))
    if (/evil|__pwned|expression\(/i.test(el.textContent)) problems.push(`style from the log: ${el.textContent.slice(0, 80)}`);
  for (const el of document.querySelectorAll('script')) {
    if (/__pwned|alert\(/.test(el.textContent)) problems.push(`script from the log: ${el.textContent.slice(0, 80)}`);
    if (el.src && !el.src.startsWith('file:') && !el.src.startsWith(location.origin + '/'))
      problems.push(`script from elsewhere: ${el.src}`);
  }
  for (const el of document.querySelectorAll('link[href]'))
    if (!el.href.startsWith('file:') && !el.href.startsWith(location.origin + '/')) problems.push(`link to elsewhere: ${el.href}`);
  return problems;
}"""

# Gives every handler a log could have smuggled in a chance to run.
PROVOKE_JS = r"""() => {
  for (const el of document.querySelectorAll('body *')) {
    for (const type of ['mouseover', 'mouseenter', 'focus', 'animationstart', 'toggle']) {
      el.dispatchEvent(new Event(type, {bubbles: true}));
    }
  }
}"""


def pwned(page):
    """The payload markers in the page and every frame."""
    return [frame.evaluate("() => window.__pwned ?? null") for frame in page.frames
            if frame.evaluate("() => window.__pwned !== undefined")]


@pytest.mark.parametrize("site,rel", HOSTILE_PAGES)
def test_nothing_from_the_log_runs_or_loads(open_page, site, rel):
    require_page(site, rel)
    watched = open_page(file_url(site, rel))
    page = watched.page
    page.wait_for_load_state("networkidle")
    page.evaluate(PROVOKE_JS)
    page.mouse.move(10, 10)
    page.mouse.move(200, 300)
    page.wait_for_timeout(200)
    markers = pwned(page)
    audit = page.evaluate(AUDIT_JS)
    problems = [f"payload ran: window.__pwned = {m!r}" for m in markers] + audit + watched.problems()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:30])


def normalized(text):
    return re.sub(r"\s+", " ", text or "").strip()


def shown_text_of_messages(open_page):
    texts = {}
    for path in conversation_pages("hostile").get("hostile", []):
        page = open_page(path.as_uri()).page
        render_everything(page)
        texts.update(page.evaluate("() => Object.fromEntries([...document.querySelectorAll('[data-message-id]')]"
                                   ".map((m) => [m.dataset.messageId, m.innerText]))"))
    return texts


def test_payload_text_is_shown_escaped_not_dropped(open_page):
    """Every naughty string sent as a text message is visible, character for character (modulo
    whitespace), in its message."""
    require_page("hostile", "hostile/index.html")
    fixture = expectations("hostile")
    shown = shown_text_of_messages(open_page)
    missing = []
    checked = 0
    for expected in fixture["texts"]:
        # Noncharacters are forbidden in HTML (the Nu checker rejects them raw and as references),
        # so the site shows U+FFFD in their place; every other character must be shown as written.
        text = normalized(re.sub(r"[\ufdd0-\ufdef\ufffe\uffff]", "\ufffd", expected["text"]))
        # Control characters are legitimately replaced or dropped by HTML itself.
        if not text or re.search(r"[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\u2028\u2029]", text):
            continue
        checked += 1
        if expected["id"] not in shown:
            missing.append(f"{expected['id']}: message element missing")
        elif text not in normalized(shown[expected["id"]]):
            missing.append(f"{expected['id']}: {text[:60]!r} not shown; shown: {normalized(shown[expected['id']])[:80]!r}")
    assert checked > 400
    assert not missing, f"{len(missing)} of {checked} texts not shown as text:\n" + "\n".join(missing[:20])
    everything = " ".join(shown.values())
    for payload in fixture["visiblePayloads"]:
        assert payload in everything, f"{payload!r} is not visible as text"


def test_index_shows_hostile_title_as_text(open_page):
    require_page("hostile", "index.html")
    page = open_page(file_url("hostile")).page
    text = page.inner_text("body")
    assert "Hostile <script>window.__pwned='title'</script>" in text, f"title not shown as text: {text[:300]!r}"


def test_media_escaping_the_input_folder_is_refused():
    """No copy of /etc/passwd, the symlinked file or the file beside the input folder ends up in
    the site; each such message still renders (placeholder); the build warns about each."""
    fixture = expectations("hostile")
    site = SITES / "hostile"
    assert (site / "index.html").is_file(), "hostile site not built"
    leaked = []
    for path in site.rglob("*"):
        if path.is_symlink():
            leaked.append(f"symlink in the output: {path}")
        elif path.is_file():
            data = path.read_bytes()
            if b"root:x:0:0" in data or fixture["secretMarker"].encode() in data:
                leaked.append(f"{path.relative_to(site)} holds a file from outside the input folder")
    assert not leaked, "\n".join(leaked[:10])

    html = "".join(p.read_text(errors="replace") for p in conversation_pages("hostile").get("hostile", []))
    for escape in fixture["escapes"]:
        assert f'data-message-id="{escape["id"]}"' in html, f"message {escape['id']} ({escape['url']}) was dropped"

    log = (BUILD_LOGS / "hostile.log").read_text(errors="replace")
    warnings = [line for line in log.splitlines() if "warning" in line.lower()]
    for needle in ["etc/passwd", "outside-secret.png", "escape-link.png"]:
        assert any(needle in line for line in warnings), f"the build gave no warning about {needle}:\n" + "\n".join(warnings[:10])
