// The crusades position page (position.html): a position file pasted or opened is POSTed to
// api/crusades.position, whose answer is `odds crusades position --json`'s object: the odds
// from here, the moderator's three options, the morale tests due now and the board drawn here.
"use strict";
const $ = (id) => document.getElementById(id);  // (posting.js, loaded first, declares none)
const SVG = "http://www.w3.org/2000/svg";
const pct = (p) => percent(p);
const words = (key) => key.replaceAll("_", " ");
const OUTCOMES = ["attacker_win", "defender_win", "undecided", "attacker_headquarters_falls", "defender_headquarters_falls"];
const OUTCOME_WORDS = { attacker_win: N_("attacker win"), defender_win: N_("defender win"), undecided: N_("undecided"),
  attacker_headquarters_falls: N_("attacker headquarters falls"), defender_headquarters_falls: N_("defender headquarters falls") };
const STATES = [N_("active"), N_("fleeing"), N_("dead"), N_("captured"), N_("escaped")];  // a unit's, for the catalog

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
    tip.textContent = t("{side} {type} at [{x}, {y}], health {health} of {of}, {state}", { ...u, side: t(u.side), state: t(u.state) }) +
      (u.p_flees_now !== null ? t(", tests morale now: flees {p}", { p: pct(u.p_flees_now) }) : "");
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
  $("where").textContent = t("{title}: round {turn}, the {side} to move", { title: b.title, turn: b.turn, side: t(b.to_move) });
  drawBoard(b);
  $("headline").textContent = t("attacker wins {a}, defender wins {d}", { a: pct(a.attacker_win), d: pct(a.defender_win) });
  const table = $("outcomes");
  table.replaceChildren();
  row(table, [t("outcome"), t("chance"), t("95% interval")], true);
  for (const key of OUTCOMES) {
    const [lo, hi] = (a.intervals || {})[key] || [a[key], a[key]];  // decided: no interval
    row(table, [t(OUTCOME_WORDS[key]), pct(a[key]), t("{low} to {high}", { low: pct(lo), high: pct(hi) })], true);
  }
  const dl = $("options");
  dl.replaceChildren();
  const add = (term, text) => {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term; dd.textContent = text; dl.append(dt, dd);
  };
  const board = Object.entries(o.award.on_board).map(([s, v]) =>
    t("{side} {active} active ({health} health), {fleeing} fleeing", { side: t(s), ...v })).join("; ");
  add(t("Award"), (o.award.ahead ? t("the {side} is ahead by {by} in P(win)", { side: t(o.award.ahead), by: pct(o.award.by) })
    : t("neither side is ahead")) + t(". On the board: {board}.", { board }));
  add(t("Auto-battle"), t("draws attacker wins {a}, defender wins {d}, undecided {u}", { a: pct(o.auto_battle.attacker_win),
    d: pct(o.auto_battle.defender_win), u: pct(o.auto_battle.undecided) }) + " " +
    t("(`odds crusades autobattle FILE --draw TEXT` plays it once, anyone can re-run it)"));
  add(t("Separate"), Object.entries(o.separate).map(([s, v]) => t("{side} loses {units} units ({types})", { side: t(s),
    units: num(v.units, 2), types: Object.entries(v.per_type).map(([k, n]) => `${k} ${num(n, 2)}`).join(", ") })).join("; ") +
    t(": the expected losses from here if fought out"));
  $("tests").replaceChildren(...a.morale_tests_now.map((m) => {
    const li = document.createElement("li");
    li.textContent = t("{unit}: flees {p} (modifier {m})", { unit: m.unit, p: pct(m.p_flees), m: (m.modifier >= 0 ? "+" : "") + m.modifier });
    return li;
  }));
  $("tests-box").hidden = !a.morale_tests_now.length;
  $("status").textContent = a.method === "exact" ? a.notes[0] :
    tn("Monte Carlo, {n} battle played on from here", "Monte Carlo, {n} battles played on from here", a.battles) +
    (a.partial ? t(" (stopped by the server's time budget)") : "");
  $("result").hidden = false;
}

postingPage({
  url: "api/crusades.position", button: "go", sample: "static/position-sample.toml",
  busy: t("Playing the battle on…"), show, ready: null,
  empty: t("position: empty (paste a position, open a file, or load the sample)"),
  notText: (name) => t("position: {file} is not UTF-8 text (allowed: a TOML position saved as UTF-8)", { file: name }),
});
