"""No layout shift (spec §1 `photo`: a placeholder of the right aspect ratio until the image
loads): with every image response held back, the cumulative layout shift stays 0."""
import pytest

from conftest import page_params, pages_of_type, require_page

# Sums the layout shifts of the page so far (buffered), ignoring those caused by input.
CLS_JS = """() => new Promise((resolve) => {
  let total = 0;
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      total += entry.value;
      const describe = (s) => {
        const node = s.node;
        if (!node || !node.closest) return node ? node.nodeName : '?';
        const message = node.closest('[data-message-id]');
        return node.nodeName.toLowerCase() + (node.className && typeof node.className === 'string' ? '.' + node.className.split(' ').join('.') : '')
          + (message ? ' in #' + message.id : '') + ` moved ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)}`
          + ` h ${Math.round(s.previousRect.height)}→${Math.round(s.currentRect.height)}`;
      };
      shifts.push({value: entry.value, sources: (entry.sources || []).map(describe)});
    }
  }).observe({type: 'layout-shift', buffered: true});
  setTimeout(() => resolve({total, shifts}), 300);
})"""


@pytest.mark.parametrize("site,rel", page_params(pages_of_type("conversation", ["options", "sample", "hostile"])))
def test_no_layout_shift_while_images_load(open_page, server, site, rel):
    require_page(site, rel)
    watched = open_page(server.url(site, rel), width=390, height=2000, image_delay=0.4, wait_until="domcontentloaded")
    page = watched.page
    images = page.locator("img").count()
    if site == "options":
        assert images >= 3, "the options fixture has photos; none rendered as <img>"
    page.wait_for_load_state("load")
    # Every image the page asked for (lazy ones below the fold never ask) has arrived.
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(200)
    result = page.evaluate(CLS_JS)
    assert result["total"] == 0, f"cumulative layout shift {result['total']:.4f} with {images} slow images: {result['shifts'][:8]}"
