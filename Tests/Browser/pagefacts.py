"""What the suite reads out of a rendered page in one round trip: the message elements, their
parts as rendered, the day separators, and the message list's geometry."""

# Collects, in document order, every message element and day separator with the facts the
# layout checks need. A part counts as present only when it is rendered (checkVisibility),
# so a part hidden with CSS is "not rendered" as spec §3 means it.
COLLECT_JS = r"""
() => {
  const parts = ['avatar', 'header', 'bubble', 'footer', 'timestamp'];
  const messages = [...document.querySelectorAll('[data-message-id]')];
  const px = (value) => parseFloat(value) || 0;
  // The message list: the closest element that contains every message.
  let list = messages.length ? messages[0].parentElement : null;
  while (list && !messages.every((m) => list.contains(m))) list = list.parentElement;
  let listWidth = 0;
  if (list) {
    const style = getComputedStyle(list);
    listWidth = list.clientWidth - px(style.paddingLeft) - px(style.paddingRight);
  }
  const rootFontSize = px(getComputedStyle(document.documentElement).fontSize);
  const sequence = [];
  for (const el of document.querySelectorAll('[data-message-id], [data-part="day-separator"]')) {
    if (el.matches('[data-part="day-separator"]')) {
      const time = el.querySelector('time');
      sequence.push({type: 'day', datetime: time ? time.getAttribute('datetime') : null,
                     text: el.innerText});
      continue;
    }
    const facts = {type: 'message', id: el.dataset.messageId, elementId: el.id, kind: el.dataset.kind,
                   sender: el.dataset.sender ?? null, align: el.dataset.align,
                   position: el.dataset.groupPosition, parts: {}};
    for (const name of parts) {
      // Only the message's own parts, not those of a nested quoted reply.
      const found = [...el.querySelectorAll(`[data-part="${name}"]`)]
        .filter((p) => p.closest('[data-message-id]') === el);
      const part = found[0];
      facts.parts[name] = !!part && part.checkVisibility({checkVisibilityCSS: true});
      if (name === 'bubble' && part) {
        const style = getComputedStyle(part);
        const rect = part.getBoundingClientRect();
        facts.bubble = {width: rect.width, maxWidth: style.maxWidth,
                        radius: [style.borderTopLeftRadius, style.borderTopRightRadius,
                                 style.borderBottomRightRadius, style.borderBottomLeftRadius].map(px),
                        background: style.backgroundColor, color: style.color};
      }
      if (name === 'timestamp' && part) {
        facts.timestamp = {tag: part.tagName.toLowerCase(), datetime: part.getAttribute('datetime')};
      }
    }
    sequence.push(facts);
  }
  return {sequence, listWidth, rootFontSize};
}
"""


def collect(page):
    """{sequence: [day separators and messages in document order], listWidth, rootFontSize}."""
    return page.evaluate(COLLECT_JS)


def messages_of(facts):
    return [item for item in facts["sequence"] if item["type"] == "message"]


def css_length_px(text, reference_px, root_font_px):
    """A spec §3 length (`75%`, `480px`, `30rem`, bare number = px) in CSS pixels."""
    text = str(text).strip()
    if text.endswith("%"):
        return float(text[:-1]) / 100 * reference_px
    if text.endswith("rem"):
        return float(text[:-3]) * root_font_px
    if text.endswith("px"):
        return float(text[:-2])
    return float(text)
