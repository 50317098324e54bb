// "How lucky was I?" (luck.html): a record pasted or opened is POSTed to api/luck, whose
// answer is `odds luck --json`'s object: the whole game per side, the dice's own luck per side
// and kind of die, each roll, the refused rolls.
"use strict";
const $ = (id) => document.getElementById(id);
const WORDS = { hits: t("hits dealt"), wins: t("won"), losses: t("losses taken") };
const PLOTTED = { hits: t("hits dealt above expected"), wins: t("wins above expected"),
                  losses: t("losses taken above expected") };  // a side recorded by its losses alone
const DICE = { hits: t("its dice's hits"), total: t("its dice's total") };
let titles = {};  // a procedure's name in words ("field battle" for his.field): api/procedures
const titled = fetch(api("api/procedures")).then((r) => r.json())
  .then((c) => { titles = Object.fromEntries(c.procedures.map((s) => [s.name, s.title])); })
  .catch(() => {});  // without them a roll names its procedure as the record does
// a percentile as an ordinal: "83rd" (Russian «83-й»)
function ordinal(p) {
  const n = Math.min(99, Math.max(1, Math.round(p)));
  const teen = n % 100 >= 10 && n % 100 <= 20;
  return t(teen ? ORDINALS[0] : ORDINALS[n % 10] || ORDINALS[0], { n });
}
const ORDINALS = { 0: N_("{n}th"), 1: N_("{n}st"), 2: N_("{n}nd"), 3: N_("{n}rd") };

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.append(td);
  return td;
}

function luckClass(p) { return p >= 90 ? "lucky" : p <= 10 ? "unlucky" : ""; }

function table(el, head, rows) {
  el.replaceChildren();
  const thead = el.createTHead().insertRow();
  for (const h of head) {
    const th = document.createElement("th");
    th.textContent = h;
    thead.append(th);
  }
  const body = el.createTBody();
  for (const fill of rows) fill(body.insertRow());
}

// a side's row of a luck table: the side, its words, then the percentile, actual, expected,
// the 90% range and how many rolls or dice it rests on
function luckRow(tr, side, words, x, count) {
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = side;
  tr.append(th);
  for (const w of words) cell(tr, w, "text");
  cell(tr, ordinal(x.percentile), luckClass(x.percentile));
  cell(tr, x.actual);
  cell(tr, num(x.expected, 2));
  cell(tr, t("{low} to {high}", { low: x.low, high: x.high }));
  cell(tr, count);
}

function showGame(game) {
  table($("game"), [t("side"), t("measure"), t("percentile"), t("actual"), t("expected"), t("90% of games"), t("rolls")],
    game.map((g) => (tr) => {
      if (g.overall) tr.className = "overall";
      luckRow(tr, g.side, [WORDS[g.measure]], g, g.rolls);
    }));
}

// a kind of die in words, as the report says it (tools/luck/text.py): "d6 hitting on 5-6"
function dieWords(die) {
  const hitting = die.match(/^(.*) hitting on (.*)$/), read = die.match(/^(.*) read by its number$/);
  return hitting ? t("{die} hitting on {faces}", { die: hitting[1], faces: hitting[2] })
    : read ? t("{die} read by its number", { die: read[1] }) : die;
}

// a measure of the dice in words: hits, the total of the faces, a face's count ("face 1")
const diceMeasure = (m) => (m === "total" ? t("total of faces")
  : /^face \d+$/.test(m) ? t("face {k}", { k: m.split(" ")[1] }) : WORDS[m] || m);

function showDice(dice) {
  $("dice-box").hidden = !dice.length;
  table($("dice"), [t("side"), t("die"), t("measure"), t("percentile"), t("actual"), t("expected"), t("90% of games"), t("dice")],
    dice.map((d) => (tr) => luckRow(tr, d.side, [dieWords(d.die), diceMeasure(d.measure)], d, d.dice)));
}

function showRolls(rolls) {
  table($("rolls"), [t("line"), t("side"), t("measure"), t("percentile"), t("actual"), t("expected"), t("its dice"), t("role"), t("procedure")],
    rolls.map((r) => (tr) => {
      const [actual, expected] = r.measure === "hits" ? [r.hits, r.expected_hits]
        : r.measure === "losses" ? [r.losses, r.expected_losses]
        : r.measure === "dice" ? [r.dice_actual, r.dice_expected] : [r.won ? 1 : 0, r.p_win];
      cell(tr, r.line);
      cell(tr, r.side, "text");
      cell(tr, WORDS[r.measure] || t("its dice"), "text");
      cell(tr, ordinal(r.percentile), luckClass(r.percentile));
      cell(tr, actual);
      cell(tr, num(expected, 2));
      const what = r.dice_measure === "total" ? t("total {x}", { x: r.dice_actual }) : tn("{n} hit", "{n} hits", r.dice_actual);
      const of = tn("{what} of {n} die", "{what} of {n} dice", r.dice, { what });
      const own = r.dice_percentile == null ? "" : `${ordinal(r.dice_percentile)} (${of})`;
      cell(tr, own, r.dice_percentile == null ? "" : luckClass(r.dice_percentile));
      cell(tr, r.role, "text");
      cell(tr, titles[r.procedure] || r.procedure, "text");
    }));
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  parent.append(el);
  return el;
}

function plot(side, all, last, game) {
  const W = 480, H = 170, L = 34, R = 8, T = 8, B = 22;
  const rows = all.filter((r) => r.plotted), dice = all.filter((r) => r.dice_cumulative != null);
  const line = (from, key) => [0, ...from.map((r) => r[key])];
  const xs = line(rows, "x"), dx = line(dice, "x");
  const low = line(rows, "band_low"), high = line(rows, "band_high"), cum = line(rows, "cumulative");
  const dlow = line(dice, "dice_band_low"), dhigh = line(dice, "dice_band_high"), dcum = line(dice, "dice_cumulative");
  const top = Math.max(...high, ...cum, ...dhigh, ...dcum, 0.5);
  const bottom = Math.min(...low, ...cum, ...dlow, ...dcum, -0.5);
  const X = (x) => L + (W - L - R) * x / Math.max(1, last);
  const Y = (y) => T + (H - T - B) * (top - y) / (top - bottom);
  const figure = document.createElement("figure");
  const caption = document.createElement("figcaption");
  caption.textContent = side + " ";
  const words = [];
  if (rows.length) {
    const measure = rows[0].plotted;
    const total = game.find((g) => g.side === side && g.measure === measure);
    words.push(t("{measure}; {actual} against {expected}, {percentile} percentile", {
      measure: PLOTTED[measure], actual: total.actual, expected: num(total.expected, 1), percentile: ordinal(total.percentile) }));
  }
  if (dice.length) words.push(t("dashed: {what} above expected", { what: DICE[dice[0].dice_measure] }));
  const note = document.createElement("span");
  note.textContent = words.join("; ");
  caption.append(note);
  const s = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": t("{side}: {what}, after each roll, with the band of 90% of games", { side, what: words.join("; ") }) }, figure);
  const polygon = (x, hi, lo, cls) => svg("polygon", { points: x.map((v, i) => `${X(v)},${Y(hi[i])}`).concat(
    x.map((v, i) => `${X(v)},${Y(lo[i])}`).reverse()).join(" "), class: cls }, s);
  if (rows.length) polygon(xs, high, low, "band");
  for (const edge of dice.length ? [dhigh, dlow] : []) {  // the dice's band: its two edges, open
    svg("polyline", { points: dx.map((x, i) => `${X(x)},${Y(edge[i])}`).join(" "), class: "dice-band" }, s);
  }
  svg("line", { x1: L, x2: W - R, y1: Y(0), y2: Y(0), class: "axis" }, s);
  svg("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }, s);
  if (dice.length) svg("polyline", { points: dx.map((x, i) => `${X(x)},${Y(dcum[i])}`).join(" "), class: "dice-line" }, s);
  if (rows.length) {
    svg("polyline", { points: xs.map((x, i) => `${X(x)},${Y(cum[i])}`).join(" "), class: "line" }, s);
    xs.forEach((x, i) => svg("circle", { cx: X(x), cy: Y(cum[i]), r: 2.5, class: "dot" }, s));
  }
  for (const y of [Math.ceil(bottom), 0, Math.floor(top)]) {
    svg("text", { x: L - 4, y: Y(y) + 4, "text-anchor": "end" }, s).textContent = y > 0 ? `+${y}` : y;
  }
  svg("text", { x: L, y: H - 6 }, s).textContent = t("start");
  svg("text", { x: W - R, y: H - 6, "text-anchor": "end" }, s).textContent = t("roll {n}", { n: last });
  figure.prepend(caption);
  return figure;
}

function showPlots(rolls, game) {
  const order = new Map();
  for (const r of rolls) if (!order.has(r.line)) order.set(r.line, order.size + 1);
  const bySide = new Map();
  for (const r of rolls) {
    if (!r.plotted && r.dice_cumulative == null) continue;
    if (!bySide.has(r.side)) bySide.set(r.side, []);
    bySide.get(r.side).push({ ...r, x: order.get(r.line) });
  }
  $("plots").replaceChildren(...[...bySide].map(([side, rows]) => plot(side, rows, order.size, game)));
}

function show(answer) {
  showGame(answer.game);
  showDice(answer.dice);
  showPlots(answer.rolls, answer.game);
  showRolls(answer.rolls);
  $("refused").replaceChildren(...answer.refused.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  $("refused-box").hidden = !answer.refused.length;
  // the record's own title (the sample's says it is invented), with its result
  $("result-title").textContent = answer.title || "";
  $("result-title").hidden = !answer.title;
  $("result").hidden = false;
  const lines = new Set(answer.rolls.map((r) => r.line)).size;
  const situations = tn("{n} distinct situation", "{n} distinct situations", answer.situations);
  $("status").textContent = tn("{n} roll scored from {situations}, exact", "{n} rolls scored from {situations}, exact", lines,
    { situations }) +
    (answer.refused.length ? t("; {n} not counted (listed at the end)", { n: answer.refused.length }) : "");
}

postingPage({
  url: "api/luck", button: "score", sample: "luck/sample.toml", busy: t("Scoring…"), show, ready: titled,
  empty: t("record: empty (paste a record, open a file, or load the invented sample game)"),
  notText: (name) => t("record: {file} is not UTF-8 text (allowed: a TOML or CSV record saved as UTF-8)", { file: name }),
});
