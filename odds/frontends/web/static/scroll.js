// Both pages: a table wider than its box is laid out as rows instead (each record a block, each
// value under its column's name: class `rows`, style.css), so a phone shows every column
// without scrolling sideways; back to columns once the box is wide enough. A box that still
// overflows (a long word) scrolls sideways and is marked `data-more`, which shows a line saying so.
"use strict";
(() => {
  const label = (table) => {  // each cell's column name, for the rows layout
    const heads = [...(table.tHead?.rows[0]?.cells || [])].map((c) => c.textContent);
    for (const row of table.tBodies[0]?.rows || [])
      [...row.cells].forEach((c, i) => { if (heads[i]) c.dataset.label = heads[i]; });
  };
  const fit = (box) => {
    for (const table of box.querySelectorAll("table")) {
      table.classList.remove("rows");
      if (table.offsetWidth > box.clientWidth + 1) {
        label(table);
        table.classList.add("rows");
      }
    }
    box.toggleAttribute("data-more", box.scrollWidth > box.clientWidth + 1);
  };
  const watch = new ResizeObserver((boxes) => boxes.forEach((b) => fit(b.target)));
  const boxes = () => document.querySelectorAll(".scroll");
  const follow = () => boxes().forEach((box) => { watch.observe(box); fit(box); });
  new MutationObserver(follow).observe(document.body, { childList: true, subtree: true });
  follow();
})();
