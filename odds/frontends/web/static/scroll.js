// Both pages: a table wider than its box scrolls sideways inside it; while it does, the box is
// marked `data-more` and shows a line saying so (style.css), so that the columns past the
// screen's edge have a visible way to be reached.
"use strict";
(() => {
  const mark = (box) => box.toggleAttribute("data-more", box.scrollWidth > box.clientWidth + 1);
  const watch = new ResizeObserver((boxes) => boxes.forEach((b) => mark(b.target)));
  const boxes = () => document.querySelectorAll(".scroll");
  const follow = () => boxes().forEach((box) => { watch.observe(box); mark(box); });
  new MutationObserver(follow).observe(document.body, { childList: true, subtree: true });
  follow();
})();
