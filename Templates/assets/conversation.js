// Scrollback's conversation page: the bar's floating date (the day of the message at the top of
// the screen: the last day separator above the bar's lower edge, as a messenger shows it) and
// the "Latest" link, hidden while the end of the list is on screen. Without script the bar shows
// the title and "Latest" is always there; both are plain HTML.
"use strict";
(function () {
  var bar = document.querySelector(".cbar");
  var date = bar && bar.querySelector(".cb-d");
  var list = document.querySelector(".ml");
  if (!bar || !date || !list) return;
  // The list's own separators, in document order (a thread opened in place has its own).
  var days = Array.prototype.filter.call(list.children, function (element) {
    return element.classList.contains("day");
  });
  var pending = false;
  function update() {
    pending = false;
    var edge = bar.getBoundingClientRect().bottom + 1;
    // Binary search: separators are in document order, so their tops only grow.
    var low = 0, high = days.length - 1, found = -1;
    while (low <= high) {
      var middle = (low + high) >> 1;
      if (days[middle].getBoundingClientRect().top <= edge) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    var text = found < 0 ? "" : days[found].textContent;
    if (date.textContent !== text) date.textContent = text;
  }
  function schedule() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(update);
  }
  window.addEventListener("scroll", schedule, { passive: true });
  window.addEventListener("resize", schedule);
  window.addEventListener("hashchange", schedule);
  update();

  var jump = document.querySelector(".cb-l");
  var end = document.getElementById("latest");
  if (jump && end && "IntersectionObserver" in window) {
    new IntersectionObserver(function (entries) {
      jump.classList.toggle("near", entries[entries.length - 1].isIntersecting);
    }, { rootMargin: "0px 0px 200px 0px" }).observe(end);
  }
})();

// Photos: each is a link to its full-size file (which works without script); with script a
// click opens it in a viewer instead: arrow keys and a swipe move through the page's photos,
// Escape (the dialog's own) and the close button close it.
(function () {
  var links = Array.prototype.slice.call(document.querySelectorAll("a.pht"));
  if (!links.length || typeof HTMLDialogElement !== "function") return;
  var dialog = document.createElement("dialog");
  dialog.className = "pv";
  dialog.setAttribute("aria-label", "Photo");
  function button(cls, label, text) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = cls;
    element.setAttribute("aria-label", label);
    element.textContent = text;
    dialog.appendChild(element);
    return element;
  }
  var image = document.createElement("img");
  dialog.appendChild(image);
  var count = document.createElement("p");
  dialog.appendChild(count);
  var close = button("pv-x", "Close", "×");
  var previous = button("pv-p", "Previous photo", "‹");
  var next = button("pv-n", "Next photo", "›");
  previous.hidden = next.hidden = links.length < 2;
  document.body.appendChild(dialog);
  var current = 0;
  function show(index) {
    current = (index + links.length) % links.length;
    var thumbnail = links[current].querySelector("img");
    image.src = links[current].href;
    image.alt = thumbnail ? thumbnail.alt : "";
    count.textContent = links.length > 1 ? current + 1 + " / " + links.length : "";
  }
  links.forEach(function (link, index) {
    link.addEventListener("click", function (event) {
      if (event.button || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      show(index);
      dialog.showModal();
    });
  });
  close.addEventListener("click", function () { dialog.close(); });
  previous.addEventListener("click", function () { show(current - 1); });
  next.addEventListener("click", function () { show(current + 1); });
  // A click on the backdrop (the dialog itself, outside its parts) closes it.
  dialog.addEventListener("click", function (event) {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      show(current + (event.key === "ArrowRight" ? 1 : -1));
    }
  });
  var startX = null;
  dialog.addEventListener("touchstart", function (event) {
    startX = event.touches.length === 1 ? event.touches[0].clientX : null;
  }, { passive: true });
  dialog.addEventListener("touchend", function (event) {
    if (startX === null || links.length < 2) return;
    var distance = event.changedTouches[0].clientX - startX;
    startX = null;
    if (Math.abs(distance) > 50) show(current + (distance < 0 ? 1 : -1));
  });
  dialog.addEventListener("close", function () { image.removeAttribute("src"); });
})();

// Printing: threads and pins opened in place print open (a closed <details> prints only its
// summary), and are closed again afterwards as the reader left them.
(function () {
  var opened = [];
  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details:not([open])"), function (details) {
      details.open = true;
      opened.push(details);
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (details) { details.open = false; });
    opened = [];
  });
})();
