// Scrollback's index filter: shows the filter bar (hidden without script, so the list works
// without it) and hides the conversations whose text does not contain every word typed (and
// the sections left with none). With the site's search on, its box is the one field: what is
// typed there filters the cards too (search.js finds the messages). With sections, the bar
// offers "Newest first": every conversation in one list by its last message, sections aside.
"use strict";
(function () {
  var box = document.querySelector(".flt");
  if (!box) return;
  var input = document.getElementById("filter") || document.getElementById("sx-q");
  var order = document.getElementById("order");
  var status = box.querySelector("output");
  var main = document.getElementById("main");
  var items = Array.prototype.slice.call(document.querySelectorAll(".convs > li"));
  var sections = Array.prototype.slice.call(document.querySelectorAll(".sec"));
  var texts = items.map(function (item) { return item.textContent.toLocaleLowerCase(); });
  // Where each card sits in its section, to put it back when the order returns to sections.
  var homes = items.map(function (item) { return item.parentNode; });
  var flat = null;
  box.hidden = false;

  function newest(item) {
    var time = item.querySelector(".la time");
    var when = time ? Date.parse(time.getAttribute("datetime")) : NaN;
    return isNaN(when) ? -Infinity : when;
  }
  // One list of every card, newest first (ties keep the page's order), under a heading of its
  // own so the cards' headings keep their level.
  function showNewestFirst(on) {
    if (on && !flat) {
      flat = document.createElement("div");
      flat.className = "sec";
      var heading = document.createElement("h2");
      heading.className = "vh";
      heading.id = "newest-first";
      heading.textContent = "All conversations, newest first";
      var list = document.createElement("ul");
      list.className = "convs";
      list.setAttribute("aria-labelledby", "newest-first");
      flat.append(heading, list);
      var sorted = items.map(function (item, index) { return [newest(item), index, item]; });
      sorted.sort(function (a, b) { return (b[0] - a[0]) || (a[1] - b[1]); });
      sorted.forEach(function (entry) { list.appendChild(entry[2]); });
      main.insertBefore(flat, sections[0] || null);
      sections.forEach(function (section) { section.classList.add("off"); });
    } else if (!on && flat) {
      items.forEach(function (item, index) { homes[index].appendChild(item); });
      flat.remove();
      flat = null;
      sections.forEach(function (section) { section.classList.remove("off"); });
    }
  }

  function apply() {
    // Search operators (from:ana, has:image) narrow messages, not conversations.
    var words = (input ? input.value : "").toLocaleLowerCase().split(/\s+/).filter(function (word) {
      return word && !/^(from|in|has|before|after):/.test(word);
    });
    var shown = 0;
    items.forEach(function (item, index) {
      var match = words.every(function (word) { return texts[index].indexOf(word) !== -1; });
      item.hidden = !match;
      if (match) shown += 1;
    });
    // A section whose conversations are all filtered out hides its heading too.
    sections.forEach(function (section) {
      section.hidden = !section.querySelector(".convs > li:not([hidden])");
    });
    status.textContent = words.length ? shown + " of " + items.length + " conversations shown" : "";
  }
  if (input) input.addEventListener("input", apply);
  if (order) {
    order.addEventListener("change", function () { showNewestFirst(order.value === "newest"); });
    showNewestFirst(order.value === "newest");  // a form value the browser restored on Back
  }
  apply();
})();
