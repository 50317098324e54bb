// The crusades position page (position.html): a position file pasted or opened is POSTed to
// api/crusades.position, whose answer is `odds crusades position --json`'s object: the odds
// from here, the moderator's three options, the morale tests due now and the board drawn here.
"use strict";
const $ = (id) => document.getElementById(id);  // (posting.js, loaded first, declares none)
const SVG = "http://www.w3.org/2000/svg";
const pct = (p) => `${(100 * p).toFixed(1)}%`;
const words = (key) => key.replaceAll("_", " ");

function node(parent, tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  parent.append(el);
  return el;
}

function drawBoard(board) {
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${board.width} ${board.height}`);
  const kinds = { ".": "open", "#": "wall", c: "city" };
  board.terrain.forEach((row, y) => [...row].forEach((ch, x) =>
    node(svg, "rect", { x, y, width: 1, height: 1, class: `${kinds[ch]} ` })));
  for (let x = 0; x < board.width; x++) node(svg, "rect", { x, y: 0, width: 1, height: board.height, class: "grid" });
  for (let y = 0; y < board.height; y++) node(svg, "rect", { x: 0, y, width: board.width, height: 1, class: "grid" });
  for (const [side, [x, y]] of Object.entries(board.headquarters)) {
    node(svg, "rect", { x: x + .06, y: y + .06, width: .88, height: .88, class: "hq" });
    node(svg, "text", { x: x + .5, y: y + .92, class: "dark" }, `HQ ${side[0].toUpperCase()}`);
  }
  for (const u of board.units) {
    const fleeing = u.state === "fleeing" ? " fleeing" : "";
    node(svg, "circle", { cx: u.x + .5, cy: u.y + .5, r: .42, class: `${u.side}${fleeing}` });
    if (u.p_flees_now !== null) node(svg, "circle", { cx: u.x + .5, cy: u.y + .5, r: .47, class: "ring" });
    const dark = fleeing ? " dark" : "";
    node(svg, "text", { x: u.x + .5, y: u.y + .45, class: dark.trim() }, u.type.slice(0, 5));
    node(svg, "text", { x: u.x + .5, y: u.y + .75, class: dark.trim() }, `${u.health}/${u.of}`);
    const tip = node(svg, "title", {});
    tip.textContent = `${u.side} ${u.type} at [${u.x}, ${u.y}], health ${u.health} of ${u.of}, ${u.state}` +
      (u.p_flees_now !== null ? `, tests morale now: flees ${pct(u.p_flees_now)}` : "");
  }
}

function row(table, cells, head) {
  const tr = document.createElement("tr");
  cells.forEach((text, i) => {
    const td = document.createElement(i === 0 && head ? "th" : "td");
    td.textContent = text;
    tr.append(td);
  });
  table.append(tr);
}

function show(a) {
  const b = a.board, o = a.options;
  $("where").textContent = `${b.title}: round ${b.turn}, the ${b.to_move} to move`;
  drawBoard(b);
  $("headline").textContent = `attacker wins ${pct(a.attacker_win)}, defender wins ${pct(a.defender_win)}`;
  const t = $("outcomes");
  t.replaceChildren();
  row(t, ["outcome", "chance", "95% interval"], true);
  for (const key of ["attacker_win", "defender_win", "undecided", "attacker_headquarters_falls",
                     "defender_headquarters_falls"]) {
    const [lo, hi] = (a.intervals || {})[key] || [a[key], a[key]];  // decided: no interval
    row(t, [words(key), pct(a[key]), `${pct(lo)} to ${pct(hi)}`], true);
  }
  const dl = $("options");
  dl.replaceChildren();
  const add = (term, text) => {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term; dd.textContent = text; dl.append(dt, dd);
  };
  const board = Object.entries(o.award.on_board).map(([s, v]) =>
    `${s} ${v.active} active (${v.health} health), ${v.fleeing} fleeing`).join("; ");
  add("Award", (o.award.ahead ? `the ${o.award.ahead} is ahead by ${pct(o.award.by)} in P(win)`
    : "neither side is ahead") + `. On the board: ${board}.`);
  add("Auto-battle", `draws attacker wins ${pct(o.auto_battle.attacker_win)}, defender wins ` +
    `${pct(o.auto_battle.defender_win)}, undecided ${pct(o.auto_battle.undecided)} ` +
    "(odds crusades autobattle FILE --draw TEXT plays it once, anyone can re-run it)");
  add("Separate", Object.entries(o.separate).map(([s, v]) => `${s} loses ${v.units.toFixed(2)} ` +
    `units (${Object.entries(v.per_type).map(([k, n]) => `${k} ${n.toFixed(2)}`).join(", ")})`).join("; ") +
    ": the expected losses from here if fought out");
  $("tests").replaceChildren(...a.morale_tests_now.map((m) => {
    const li = document.createElement("li");
    li.textContent = `${m.unit}: flees ${pct(m.p_flees)} (modifier ${m.modifier >= 0 ? "+" : ""}${m.modifier})`;
    return li;
  }));
  $("tests-box").hidden = !a.morale_tests_now.length;
  $("status").textContent = a.method === "exact" ? a.notes[0] :
    `Monte Carlo, ${a.battles.toLocaleString("en")} battles played on from here` +
    (a.partial ? " (stopped by the server's time budget)" : "");
  $("result").hidden = false;
}

postingPage({
  url: "api/crusades.position", button: "go", sample: "static/position-sample.toml",
  busy: "Playing the battle on…", show, ready: null,
  empty: "position: empty (paste a position, open a file, or load the sample)",
  notText: (name) => `position: ${name} is not UTF-8 text (allowed: a TOML position saved as UTF-8)`,
});
