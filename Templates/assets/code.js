// Scrollback's code blocks in AI answers (issue 42.5), on pages that have one: shows each
// block's copy button (hidden without script, so no dead control) and, when the site ships
// highlight.js (Debian's libjs-highlight.js, copied at build time), loads it from beside this
// file and colours the blocks whose language it knows. Without it the code stays plain text.
"use strict";
(function () {
  var me = document.currentScript;
  var blocks = document.querySelectorAll(".code");
  Array.prototype.forEach.call(blocks, function (block) {
    var button = block.querySelector(".copy");
    var code = block.querySelector("pre");
    if (!button || !code) return;
    button.hidden = false;
    button.setAttribute("aria-label", "Copy code");
    button.addEventListener("click", function () {
      var text = code.textContent;
      var done = function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = "Copy"; }, 1500);
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { fallback(text) && done(); });
      } else if (fallback(text)) {
        done();
      }
    });
  });
  // Pages opened from file:// or over plain HTTP may have no clipboard API.
  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "vh";
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    document.body.removeChild(area);
    return copied;
  }
  if (!me || !me.hasAttribute("data-highlight") || blocks.length === 0) return;
  var base = me.src.replace(/[^/]*$/, "");
  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = base + "highlight.css";
  document.head.appendChild(style);
  var script = document.createElement("script");
  script.src = base + "highlight.min.js";
  script.onload = function () {
    var hljs = window.hljs;
    if (!hljs) return;
    var codes = document.querySelectorAll(".code pre > code[class^=\"language-\"]");
    Array.prototype.forEach.call(codes, function (element) {
      // Only languages it knows: guessing a language colours prose as code.
      if (!hljs.getLanguage(element.className.slice("language-".length))) return;
      if (hljs.highlightElement) hljs.highlightElement(element); else hljs.highlightBlock(element);
    });
  };
  document.head.appendChild(script);
})();
