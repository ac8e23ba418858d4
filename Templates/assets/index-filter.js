// Scrollback's index filter: shows the filter box (hidden without script, so the list works
// without it) and hides the conversations whose text does not contain every word typed
// (and the sections left with none).
"use strict";
(function () {
  var box = document.querySelector(".flt");
  if (!box) return;
  var input = box.querySelector("input");
  var status = box.querySelector("output");
  var items = Array.prototype.slice.call(document.querySelectorAll(".convs > li"));
  var sections = Array.prototype.slice.call(document.querySelectorAll(".sec"));
  var texts = items.map(function (item) { return item.textContent.toLocaleLowerCase(); });
  box.hidden = false;
  function apply() {
    var words = input.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
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
    status.textContent = words.length ? shown + " of " + items.length + " shown" : "";
  }
  input.addEventListener("input", apply);
  apply();
})();
