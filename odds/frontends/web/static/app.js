// odds web calculator: builds the form from GET api/procedures, asks GET api/<procedure>
// (debounced) as the inputs change, and keeps the whole state in the URL query string.
// Plans (KEY=VALUE words changing the battle) are compared by GET api/<procedure>/compare and
// kept in the URL as repeated `plan` entries; "what do I need" asks GET api/<procedure>/need
// (need=P, vary=NAME, event=NAME, kept in the URL too).
"use strict";

const GAMES = { his: "Here I Stand", vq: "Virgin Queen", oath: "Oath", crusades: "Crusades" };
const LISTS = ["cards", "ints", "pairs"];
const DEBOUNCE_MS = 250;
const $ = (id) => document.getElementById(id);

let catalogue = null;   // the JSON of api/procedures
let spec = null;        // the chosen procedure's description
let controls = {};      // parameter name -> {get(): string|null, set(string|null)}
let timer = 0;
let plans = [];         // the plans' texts, in order (blank ones are not asked)
const typed = {};       // procedure name -> its query as last typed (kept for the visit)
const inFlight = {};    // kind of request ("answer", "compare", "need") -> its AbortController

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

const words = (name) => name.replace(/_/g, " ");
// a number to `d` places; one that rounds to zero is "0.00", never "-0.00"
// (in the page's language: num, percent from i18n.js)
const zero = (x, d) => Number(x.toFixed(d)) === 0;
const fixed = (x, d) => num(zero(x, d) ? 0 : x, d);
const pct = (p) => (p === null ? "–" : p > 0 && p < 0.0005 ? "<" + percent(0.001) : p < 1 && p > 0.9995 ? ">" + percent(0.999) : percent(p));
const game = (name) => name.split(".")[0];
const OR = " " + t("or") + " ", AND = " " + t("and") + " ";  // between words of a list

// ---- values: every control reads and writes the text that goes into the query string ----

function text(value) {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

// a whole number typed as text (inputmode numeric): what is typed goes to the server as typed,
// so "3e" or "1.." is refused beside its field (a type=number input reads them as empty)
function stepper(p, id, onchange) {
  const input = el("input", { id, type: "text", inputmode: "numeric", autocomplete: "off",
                              oninput: onchange });
  const bump = (d) => () => {
    const typed = Number(input.value);
    const now = input.value.trim() === "" || !Number.isInteger(typed)
      ? (p.low ?? 0) - (d > 0 ? 1 : 0) : typed;
    let next = now + d;
    if (p.low !== undefined) next = Math.max(p.low, next);
    if (p.high !== undefined) next = Math.min(p.high, next);
    input.value = next;
    onchange();
  };
  const box = el("span", { class: "stepper" },
    el("button", { type: "button", "aria-label": t("less {field}", { field: fieldWords(p) }), onclick: bump(-1) }, "−"),
    input,
    el("button", { type: "button", "aria-label": t("more {field}", { field: fieldWords(p) }), onclick: bump(1) }, "+"));
  return { node: box, get: () => (input.value.trim() === "" ? null : input.value.trim()),
           set: (v) => { input.value = v ?? ""; } };
}

function leaderPicker(p, id, onchange) {
  // a leader by name ("suleiman (2)" in the choices; the name goes in the query) or a rating
  const sel = el("select", { id, onchange }, el("option", { value: "0" }, t("no leader (0)")));
  for (const choice of p.choices) {
    const name = choice.split(" (")[0];
    sel.append(el("option", { value: name }, choice.replace(name, p.names?.[name] ?? nameWords(name))));
  }
  for (let r = 1; r <= (p.high ?? 6); r++) sel.append(el("option", { value: String(r) }, t("rating {r}", { r })));
  return { node: sel, get: () => sel.value, set: (v) => {
    const key = String(v ?? 0).split(" (")[0].toLowerCase();
    if ([...sel.options].some((o) => o.value === key)) sel.value = key;
  } };
}

function cardPicker(p, id, onchange) {
  const chips = el("span", { class: "cards" });
  const names = p.choices || Object.keys(catalogue.cards);
  const add = el("select", { id, "aria-label": t("add a card to {field}", { field: fieldWords(p) }) });
  const refresh = () => {
    const used = new Set([...chips.querySelectorAll(".chip")].map((c) => c.dataset.card));
    add.replaceChildren(el("option", { value: "" }, `+ ${label(p)}…`),
      ...names.filter((n) => !used.has(n)).map((n) => el("option", { value: n }, n)));
  };
  const chip = (spec) => {
    const [name, policy] = spec.split(":");
    const offered = p.policies?.[name] || catalogue.cards[name]?.policies || [];
    const policies = policy && !offered.includes(policy) ? [...offered, policy] : offered;
    const c = el("span", { class: "chip", "data-card": name }, name);
    if (policies.length) {
      const ps = el("select", { "aria-label": t("{card} policy", { card: name }), onchange }, ...policies.map((x) => el("option", { value: x }, x.replace(/-/g, " "))));
      ps.value = policy || policies[0];
      c.append(ps);
    }
    c.append(el("button", { type: "button", "aria-label": t("remove {card}", { card: name }),
                            onclick: () => { c.remove(); refresh(); onchange(); } }, "×"));
    chips.insertBefore(c, add);
  };
  // arrow keys browse the list without adding; Enter (or a pick with the mouse) adds
  let browsing = false;
  const adopt = () => {
    if (!add.value) return;
    chip(add.value);
    refresh();
    onchange();
  };
  add.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); browsing = false; adopt(); }
    else browsing = e.key.startsWith("Arrow") || ["Home", "End", "PageUp", "PageDown"].includes(e.key);
  });
  add.addEventListener("pointerdown", () => { browsing = false; });
  add.addEventListener("change", () => { if (!browsing) adopt(); });
  chips.append(add);
  refresh();
  return { node: chips, get: () => [...chips.querySelectorAll(".chip")].map((c) => {
      const policy = c.querySelector("select");
      return c.dataset.card + (policy ? ":" + policy.value : "");
    }).join(","),
    set: (v) => {
      chips.querySelectorAll(".chip").forEach((c) => c.remove());
      (v ? v.split(",") : []).filter(Boolean).forEach(chip);
      refresh();
    } };
}

// Rank my targets' spaces as rows: a name, each side's base dice, in the target zone (unticked:
// the item's ":out"); the query keeps NAME=A:D[:out] items, comma-separated
function targetRows(p, id, onchange) {
  const list = el("div", { class: "rows" });
  const dice = (label, v) => el("input", { type: "text", inputmode: "numeric", autocomplete: "off",
                                           "aria-label": label, value: v, oninput: onchange });
  const row = (name = "", a = "1", d = "1", inZone = true) => {
    const n = el("input", { type: "text", "aria-label": t("space"), placeholder: t("space"), value: name, oninput: onchange });
    const da = dice(t("attacker dice"), a), dd = dice(t("defender dice"), d);
    const zone = el("input", { type: "checkbox", "aria-label": t("in the target zone"), onchange });
    zone.checked = inZone;
    const r = el("div", { class: "target-row" }, n, da, dd, zone,
      el("button", { type: "button", class: "drop", "aria-label": t("remove this space"),
                     onclick: () => { r.remove(); onchange(); } }, "×"));
    r.item = () => (n.value.trim() ? `${n.value.trim()}=${da.value || 0}:${dd.value || 0}${zone.checked ? "" : ":out"}` : "");
    list.append(r);
  };
  const head = el("div", { class: "target-row head", "aria-hidden": "true" },
    el("span", {}, t("space")), el("span", {}, t("attacker dice")), el("span", {}, t("defender dice")), el("span", {}, t("in zone")), el("span"));
  const add = el("button", { type: "button", class: "copy", id, onclick: () => { row(); onchange(); } }, t("+ add a space"));
  return { node: el("div", { class: "targets" }, head, list, add),
           get: () => [...list.children].map((r) => r.item()).filter(Boolean).join(",") || null,
           set: (v) => {
             list.replaceChildren();
             for (const t of (v ? v.split(",") : []).map((x) => x.trim()).filter(Boolean)) {
               const m = t.match(/^(.*?)=(\d+):(\d+)(:out)?$/);
               if (m) row(m[1], m[2], m[3], !m[4]); else row(t);
             }
           } };
}

// Rank my targets' links as rows of two spaces picked from the targets above; the query keeps
// A=B items, comma-separated
function linkRows(p, id, onchange) {
  const list = el("div", { class: "rows" });
  const names = () => (controls.targets?.get() || "").split(",").map((t) => t.split("=")[0].trim()).filter(Boolean);
  const pick = (label, v) => {
    const s = el("select", { "aria-label": label, onchange });
    const fill = () => {  // the targets as they are now, and the space chosen before
      const keep = s.value || v;
      s.replaceChildren(...[...new Set([...names(), ...(keep ? [keep] : [])])].map((n) => el("option", { value: n }, n)));
      s.value = keep;
    };
    s.addEventListener("focus", fill);
    s.addEventListener("pointerdown", fill);
    fill();
    return s;
  };
  const row = (a = "", b = "") => {
    const [first] = names();
    const sa = pick(t("a space"), a || first || ""), sb = pick(t("the space next to it"), b || names()[1] || "");
    const r = el("div", { class: "link-row" }, sa, el("span", {}, t("next to")), sb,
      el("button", { type: "button", class: "drop", "aria-label": t("remove this link"),
                     onclick: () => { r.remove(); onchange(); } }, "×"));
    r.item = () => (sa.value && sb.value ? `${sa.value}=${sb.value}` : "");
    list.append(r);
  };
  const add = el("button", { type: "button", class: "copy", id, onclick: () => { row(); onchange(); } }, t("+ link two spaces"));
  return { node: el("div", { class: "targets" }, list, add),
           get: () => [...list.children].map((r) => r.item()).filter(Boolean).join(",") || null,
           set: (v) => {
             list.replaceChildren();
             for (const t of (v ? v.split(",") : []).map((x) => x.trim()).filter(Boolean)) row(...t.split("="));
           } };
}

// a list's items entered as rows
const FORMATS = { "NAME=A:D[:out]": targetRows, "A=B": linkRows };

function control(p, onchange, id = "f-" + p.name) {
  if (p.kind === "leader") return leaderPicker(p, id, onchange);
  if (FORMATS[p.format]) return FORMATS[p.format](p, id, onchange);
  if (p.kind === "int") return stepper(p, id, onchange);
  if (p.kind === "bool") {
    const box = el("input", { id, type: "checkbox", onchange });
    return { node: box, get: () => String(box.checked), set: (v) => { box.checked = v === "true"; } };
  }
  if (p.kind === "choice") {
    // a choice that may be left out (its default none: a foreign war's card) has a "none" entry
    const none = p.default === null ? [el("option", { value: "" }, t("none"))] : [];
    const sel = el("select", { id, onchange }, ...none, ...p.choices.map((c) => el("option", { value: c }, choiceWords(c))));
    return { node: sel, get: () => (sel.value === "" ? null : sel.value),
             set: (v) => { if (v !== null || none.length) sel.value = v ?? ""; } };
  }
  if (p.kind === "cards") return cardPicker(p, id, onchange);
  // a list's hint: an item from its help ("e.g. galley=2, …"), never a form's code (TYPE=N)
  const sample = LISTS.includes(p.kind) && (p.help || "").match(/\b[a-z][\w.-]*=\w+/);
  const hint = !LISTS.includes(p.kind) ? "" : sample ? t("e.g. {item}, …", { item: sample[0] }) : t("comma-separated");
  const box = el("input", { id, type: "text", placeholder: hint, inputmode: p.kind === "float" ? "decimal" : null, oninput: onchange });
  return { node: box, get: () => (box.value.trim() === "" ? null : box.value.trim()),
           set: (v) => { box.value = v ?? ""; } };
}

// ---- the form ----

const GROUPS = [N_("attacker"), N_("defender"), N_("battle")];

function group(p) {
  const m = p.name.match(/^(attacker|defender)(_|$)/);
  return m ? m[1] : "battle";
}

// a field as the page names it: its group (attacker, defender) and its label
const fieldWords = (p) => (group(p) === "battle" ? label(p) : t("{side} {field}", { side: side(group(p)), field: label(p) }));
// a side or a group of fields in the game's own words ("attacker", Oath's «напавший»)
const side = (g) => tc(game(spec.name), g);

// a field's label: the server's, in the page's language (api/procedures)
function label(p) {
  return p.label ?? (words(p.name.replace(/^(attacker|defender)(_|$)/, "")) || "units");
}

function buildForm(values) {
  const form = $("form");
  form.replaceChildren();
  controls = {};
  for (const kept of [cleared, satisfied]) Object.keys(kept).forEach((k) => delete kept[k]);  // another procedure's
  const sets = {};
  const field = (p, parent) => {
    const c = control(p, () => { satisfy(p); clearOthers(p); changed(); });
    controls[p.name] = c;
    const wide = p.kind === "text" || LISTS.includes(p.kind);
    parent.append(el("div", { class: "field" + (wide ? " wide" : ""), "data-name": p.name },
      el("label", { for: "f-" + p.name }, label(p)),
      c.node, p.help ? el("small", {}, say(p.help)) : null));
  };
  for (const g of GROUPS) {
    const ps = spec.parameters.filter((p) => group(p) === g);
    if (!ps.length) continue;
    form.append(sets[g] = el("fieldset", {}, el("legend", {}, side(g))));
    ps.forEach((p) => field(p, sets[g]));
  }
  const engine = el("details", { class: "engine" }, el("summary", {}, t("Engine (exact or Monte Carlo)")));
  spec.engine.forEach((p) => field(p, engine));
  form.append(engine);
  for (const p of [...spec.parameters, ...spec.engine]) controls[p.name].set(initial(p, values));
}

// a field given that others cannot be given with (p.clears): they go back to their defaults,
// kept in `cleared`; set back to its own default, it gives them back (each one no other given
// field still clears: that field keeps it instead), so an undone switch restores the question
const cleared = {};  // field name -> {a field it cleared: the value that field had}
const isDefault = (name) => [null, "", text(fieldOf(name).default) ?? ""].includes(controls[name].get());

function clearOthers(p) {
  if (!p.clears) return;
  if (isDefault(p.name)) {
    const kept = cleared[p.name] || {};
    delete cleared[p.name];
    for (const [name, was] of Object.entries(kept)) {
      const blocker = (fieldOf(name).clears || []).find((n) => controls[n] && !isDefault(n));
      if (blocker) (cleared[blocker] ||= {})[name] = was;
      else controls[name].set(was);
    }
    return;
  }
  const kept = cleared[p.name] ||= {};
  for (const name of p.clears) {
    if (!controls[name] || isDefault(name)) continue;
    kept[name] = controls[name].get();
    controls[name].set(text(fieldOf(name).default));
  }
}

// ---- what may be chosen now: a choice's ways (p.only_with), a field's needs (p.needs) ----

const nowOf = (name) => controls[name]?.get() ?? text(fieldOf(name)?.default) ?? "";

// a condition in words: "with naval", "without naval", "with attacker power ottoman",
// "not with attacker power ottoman" (when it allows most of the choices)
function condition(name, values) {
  const q = fieldOf(name), shown = values.map(text);
  if (q.kind === "bool") return shown[0] === "true" ? t("with {field}", { field: fieldWords(q) }) : t("without {field}", { field: fieldWords(q) });
  const all = q.choices || [];
  const or = (cs) => cs.map(choiceWords).join(OR);
  if (all.length && shown.length > all.length / 2)
    return t("not with {field} {values}", { field: fieldWords(q), values: or(all.filter((c) => !shown.includes(c))) });
  return t("with {field} {values}", { field: fieldWords(q), values: or(shown) });
}

// null when option `o` of `p` may be chosen as the form stands; else {why} in words, and
// `sets` ([name, value]) when one choice of another field would allow it (Janissaries: the
// side's power Ottoman), which picking it then sets
function barred(p, o, setting = true) {
  const ways = p.only_with?.[o];
  if (!ways) return null;
  const holds = (way) => Object.entries(way).every(([k, vs]) => !controls[k] || vs.map(text).includes(nowOf(k)));
  if (ways.some(holds)) return null;
  const [way] = ways, keys = Object.keys(way);
  if (setting && ways.length === 1 && keys.length === 1 && way[keys[0]].length === 1 && fieldOf(keys[0]).kind === "choice")
    return { why: t("sets {field} {value}", { field: fieldWords(fieldOf(keys[0])), value: choiceWords(text(way[keys[0]][0])) }),
             sets: [keys[0], text(way[keys[0]][0])] };
  return { why: t("only {ways}", { ways: ways.map((w) => Object.entries(w).map(([k, vs]) => condition(k, vs)).join(AND)).join("," + OR) }) };
}

// each picker's options as the form stands: a barred one disabled with its reason (or saying
// what it sets); a field that needs another (p.needs) offers only its default until one is given
function offerChoices() {
  for (const p of spec.parameters) {
    const sel = $("f-" + p.name);
    if (sel?.type === "checkbox") offerSwitch(p, sel);
    if (!sel || sel.tagName !== "SELECT") continue;
    const waiting = p.needs?.length && p.kind !== "int" && !p.needs.some(given);
    for (const o of sel.options) {
      if (!o.value || o.value === "0" && p.kind === "leader") continue;
      o.dataset.words ??= o.textContent;
      const bar = waiting && o.value !== text(p.default)
        ? { why: giveFirst(p) } : barred(p, o.value);
      o.disabled = Boolean(bar) && !bar.sets;
      o.textContent = o.dataset.words + (bar ? ` (${bar.why})` : "");
    }
  }
}

// a switch that may not be turned on as the form stands (p.only_with of "true"): disabled, the
// reason beside it (one turned on before stays so, to be refused beside its field)
const giveFirst = (p) => t("give {fields} first", { fields: p.needs.map((n) => fieldWords(fieldOf(n))).join(OR) });

function offerSwitch(p, box) {
  const bar = barred(p, "true", false);
  box.disabled = Boolean(bar) && !box.checked;
  const field = box.closest(".field");
  let why = field.querySelector("label .why");
  if (!why) field.querySelector("label").append(why = el("small", { class: "why" }));
  why.textContent = box.disabled ? ` (${bar.why})` : "";
}

// a choice picked that sets what it needs (p.only_with): the other field set to allow it, its
// value before kept in `satisfied`; the choice undone, that field gets it back (unless changed since)
const satisfied = {};  // "field:choice" -> [the field it set, its value before, the value set]

function satisfy(p) {
  if (p.kind === "bool") return;  // a switch is disabled instead (offerSwitch)
  const v = controls[p.name].get();
  const picked = (v ? v.split(",") : []).map((x) => x.split(":")[0]);
  for (const [key, [name, was, set]] of Object.entries(satisfied)) {
    const [field, o] = key.split(":");
    if (field !== p.name || picked.includes(o)) continue;
    delete satisfied[key];
    if (controls[name].get() === set) controls[name].set(was);
  }
  for (const o of picked) {
    const bar = barred(p, o);
    if (!bar?.sets) continue;
    satisfied[`${p.name}:${o}`] = [bar.sets[0], controls[bar.sets[0]].get(), bar.sets[1]];
    controls[bar.sets[0]].set(bar.sets[1]);
  }
}

function initial(p, values) {
  // a list may come as repeated entries (sites=1&sites=2) or comma-separated; a starting value
  // gives way to a given field that cannot go with it (the Diet's hands clear its cards)
  if (values.has(p.name)) return values.getAll(p.name).join(",");
  const cleared = spec.parameters.some((q) => (q.clears || []).includes(p.name)
                                              && values.get(q.name) && values.get(q.name) !== text(q.default));
  if (p.name in spec.start && !cleared) return text(spec.start[p.name]);
  return text(p.default);
}

function link() {
  // every field as it stands, blanks too: a link reopens exactly this question (a field left
  // out of a link would be filled from the page's starting values, which may differ)
  return [...spec.parameters, ...spec.engine].map((p) => [p.name, controls[p.name].get() ?? ""]);
}

function query() {
  // the question for the server: every value that differs from the default (and every required one)
  const q = new URLSearchParams();
  for (const p of [...spec.parameters, ...spec.engine]) {
    const v = controls[p.name].get();
    if (v === null || (!p.required && v === (text(p.default) ?? ""))) continue;
    if (v === "" && !LISTS.includes(p.kind)) continue;
    q.set(p.name, v);
  }
  return q;
}

// ---- asking the server ----

const asked = () => plans.map((p) => p.trim()).filter(Boolean);

const COPY = t("Copy link to this battle");  // the copy button's words until it has copied

function changed() {
  offerNeeds();
  offerChoices();
  const q = query();
  const state = new URLSearchParams([["procedure", spec.name], ...link(),
                                     ...asked().map((p) => ["plan", p]), ...needQuery(), ["lang", LANG]]);
  typed[spec.name] = state;
  history.replaceState(null, "", "?" + state);
  $("copy").textContent = COPY;  // "Link copied" was of the link before this change
  $("answer").classList.add("busy");
  clearTimeout(timer);
  // a question in flight is no longer the form's: its answer must not land as this one's
  Object.keys(inFlight).forEach(cancel);
  timer = setTimeout(() => { ask(q); compare(q); need(q); }, DEBOUNCE_MS);
}

function cancel(kind) {
  inFlight[kind]?.abort();
  inFlight[kind] = null;
}

// One request of each kind in flight: a newer one aborts the older. Resolves to
// {status, ok, body, wait (s, for a 503)}, or null when aborted; a network failure is an error body.
async function request(kind, url) {
  cancel(kind);
  const mine = inFlight[kind] = new AbortController();
  let response, body;
  try {
    response = await fetch(api(url), { signal: mine.signal });
    body = await response.json();
  } catch (e) {
    if (e.name === "AbortError") return null;
    body = { error: t("the server did not answer ({why})", { why: e.message }) };
  }
  if (inFlight[kind] !== mine) return null;
  inFlight[kind] = null;
  return { status: response?.status, ok: Boolean(response?.ok), body,
           wait: Number(response?.headers.get("Retry-After") || 2) };
}

async function ask(q) {
  const r = await request("answer", `api/${spec.name}?${q}`);
  if (!r) return;
  if (r.status === 503) {
    showError(t("busy: asking again in {s} s", { s: r.wait }));
    timer = setTimeout(() => ask(q), r.wait * 1000);
  } else if (!r.ok) refused(r.body.error);
  else show(r.body);
}

function showError(message) {
  $("answer").classList.remove("busy");
  $("error").hidden = false;
  $("error").textContent = message;
}

// A refused question: the answer on screen is no longer this question's, so it is greyed and
// the top bar says so; the fields the server names (its first words: "attacker_cavalry: ...",
// "attacker_mercenaries + attacker_cavalry: ...") are marked, with the message beside them in
// the page's words.
function refused(message) {
  const { names, text } = inWords(message);
  unmark();
  showError(names.length ? t("No answer: {why} (marked below)", { why: text }) : text);
  $("answer").classList.add("stale");
  if (!shown) $("headline").textContent = t("No answer");
  $("peek").textContent = names.length ? t("No answer: fix {fields}", { fields: names.map((n) => fieldWords(fieldOf(n))).join(AND) })
    : t("No answer: fix the question");
  const boxes = names.map((n) => $("form").querySelector(`.field[data-name="${n}"]`));
  boxes.forEach((box, i) => {
    box.classList.add("invalid");
    box.querySelectorAll("input, select").forEach((x) => x.setAttribute("aria-invalid", "true"));
    if (i === boxes.length - 1) box.append(el("small", { class: "field-error", role: "alert" }, text));
  });
}

// a server's message in the page's words, and the fields its first words name
function inWords(message) {
  const [head, ...rest] = message.split(": ");
  const names = head.split(/\s*[+,]\s*/).filter((n) => controls[n]);
  return { names, text: names.length
    ? `${names.reduce((h, n) => h.replace(n, fieldWords(fieldOf(n))), head)}: ${say(rest.join(": "))}` : say(message) };
}

// a message about KEY=VALUE words ("vary attacker=1: defender: ...") in the page's words: each
// setting by its field's name ("attacker units 1"), then the field names of the rest
function speak(message) {
  const assigned = String(message).replace(/\b([a-z][a-z_]*)=([^\s:,;)]*)/g, (m, name, v) =>
    (fieldOf(name) ? `${fieldWords(fieldOf(name))} ${v}` : m));
  const m = assigned.match(/^vary (.*?): (.*)$/s);
  return m ? t("with {values}: {why}", { values: m[1], why: inWords(m[2]).text }) : inWords(assigned).text;
}

// a compare error: (the plan's index on the page, or -1 for the battle itself or none named;
// its message in the page's words)
function planError(message) {
  const m = message.match(/^plan (.*?): (.*)$/s);
  const i = m ? plans.findIndex((p) => p.trim() === m[1]) : -1;
  return [i, m && m[1] === "base" ? t("the battle above: {why}", { why: speak(m[2]) }) : speak(m ? m[2] : message)];
}

const fieldOf = (name) => [...spec.parameters, ...spec.engine].find((p) => p.name === name);

function unmark() {
  $("answer").classList.remove("stale");
  $("form").querySelectorAll(".field.invalid").forEach((f) => f.classList.remove("invalid"));
  $("form").querySelectorAll("[aria-invalid]").forEach((i) => i.removeAttribute("aria-invalid"));
  $("form").querySelectorAll(".field-error").forEach((e) => e.remove());
}

// ---- the answer ----

const row = (name, text) => el("div", { class: "row" }, el("dt", {}, name), el("dd", {}, text));

let shown = null;  // the result on screen

function show(r) {
  shown = r;
  unmark();
  $("answer").classList.remove("busy");
  $("error").hidden = true;
  const p = r[spec.main];
  // a Monte Carlo number with its 95% interval (Wilson's, from the server) and its trials
  const within = (k) => (r.intervals && r.intervals[k] ? r.intervals[k] : null);
  const pm = within(spec.main) && el("span", { class: "pm" },
    t("95% interval {low} to {high} ({trials})", { low: pct(within(spec.main)[0]), high: pct(within(spec.main)[1]), trials: trials(r.trials) }));
  const caveat = r.caveat && el("small", { class: "caveat", id: "caveat" }, say(r.caveat));
  // an answer that moves by more than 5 points with the readings it rests on says so
  const range = r.range && r.range.wide ? r.range : null;
  const main = el("span", { class: "pct", id: "main-pct", "data-p": p }, pct(p));
  const [span, why, end] = range ? rangeParts(range.words) : [];
  $("headline").replaceChildren(spec.headline + " ", ...(range
    ? [span, el("small", { class: "range", id: "range" }, say(why), main, end)] : [main]),
    ...(pm ? [" ", pm] : []), ...(caveat ? [caveat] : []));
  $("peek").textContent = `${spec.headline} ${range ? say(range.headline) : pct(p)}`;
  readings(r);
  $("method").textContent = r.method === "exact" ? t("exact")
    : t("Monte Carlo, {trials}, seed {seed}", { trials: trials(r.trials), seed: r.seed }) + (r.partial ? t(" (stopped early)") : "");
  const pmfs = pmfsOf(r);
  const events = Object.keys(r).filter((k) => r[k + "_se"] !== undefined && k !== spec.main);
  // an event is a probability; a family of them (e.g. win within k losses) is an object
  const chance = (v, k) => (typeof v === "number" ? pct(v) + (within(k) ? ` [${between(within(k))}]` : "")
    : Object.entries(v).map(([k, x]) => `${k}: ${pct(x)}`).join(", "));
  $("events").replaceChildren(...events.map((k) => row(nameOf(k), chance(r[k], k))));
  eventsPicker([spec.main, ...events.filter((k) => typeof r[k] === "number")]);
  chances = new Set(Object.keys(r).filter((k) => r[k + "_se"] !== undefined));
  const extras = Object.keys(r).filter((k) => !META.includes(k) && !k.endsWith("_se")
    && r[k + "_se"] === undefined && !pmfs.includes(k) && !k.startsWith("expected_") && !(k in r.settings));
  // a list of records (the ranking of targets), or one inside an extra (Oath's decision table),
  // is a table of its own; the rest of the extras are settings
  $("tables").replaceChildren(...extras.flatMap((k) => tablesOf(k, r[k])).map(([k, v]) => table(k, v)));
  const rest = extras.map((k) => [k, untabled(r[k])]).filter(([, v]) => v !== undefined);
  $("settings").replaceChildren(...[...Object.entries(r.settings), ...rest]
    .map(([k, v]) => row(fieldOf(k) ? fieldWords(fieldOf(k)) : nameOf(k), say(plain(typeof v === "string" ? t(v) : v)) + ((r.readings || []).includes(k) ? t(" (reading)") : ""))));
  $("explain").replaceChildren(...(r.explain || []).map((line) => el("li", {}, say(line))));
  $("advice").replaceChildren(...(r.advice || []).map((line) => el("li", {}, say(line))));
  $("notes").replaceChildren(...[...(r.notes || []), ...(r.assumptions || [])].map((n) => el("li", {}, say(n))));
  chart(r);
}

// The readings the answer rests on (r.flips): each other value tried, the rest held, as one
// table ordered by the change in the headline, with the main means; those not tried, and why.
function readings(r) {
  const flips = r.flips || [];
  $("readings").hidden = !flips.length;
  const rows = flips.flatMap((f) => f.alternatives.filter((a) => a.p !== null && a.p !== undefined)
    .map((a) => ({ f, a, change: a.p - f.p })))
    .sort((x, y) => Math.abs(y.change) - Math.abs(x.change));
  const means = [...new Set(flips.flatMap((f) => Object.keys(f.means || {})))];
  const moved = (d, places) =>  // "+1.25", "−0.50"; "0.00" with no sign when it rounds to zero
    (zero(d, places) ? "" : d > 0 ? "+" : "−") + fixed(Math.abs(d), places);
  const cell = (v, base) => (v === null || v === undefined ? "–" : `${fixed(v, 2)} (${moved(v - base, 2)})`);
  const points = (d) => moved(100 * d, 1);
  const table = $("readings-table");
  table.hidden = !rows.length;
  table.replaceChildren(
    el("thead", {}, el("tr", {}, ...[t("instead"), spec.headline, t("change (points)"),
                                     ...means.map((m) => t("mean {what}", { what: nameOf(m) }))].map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows.map(({ f, a, change }) => el("tr", {},
      el("th", {}, say(a.value).replace(/=/g, " ")),
      el("td", {}, pct(a.p) + (a.interval ? ` [${between(a.interval)}]` : "")),
      el("td", {}, points(change)),
      ...means.map((m) => el("td", {}, cell(a.means?.[m], f.means?.[m])))))));
  // each reading as assumed, then those not tried and why (a reason shared said once, after)
  const shared = (why) => flips.filter((f) => f.not_computed === why).length > 1;
  const reasons = [...new Set(flips.map((f) => f.not_computed).filter((why) => why && shared(why)))];
  $("readings-notes").replaceChildren(...flips.map((f) => el("li", {},
    t("{what}: {value} assumed ({p})", { what: say(t(f.what)), value: say(t(f.assumed)), p: pct(f.p) })
    + (f.not_computed && !shared(f.not_computed) ? t("; not tried: {why}", { why: say(f.not_computed) }) : ""))),
    ...reasons.map((why) => el("li", {}, t("not tried above: {why}", { why: say(why) }))));
}

const isRecord = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const isRecords = (v) => Array.isArray(v) && v.length > 0 && v.every(isRecord);
// an extra's tables: itself when a list of records, else the lists of records it holds
const tablesOf = (k, v) => (isRecords(v) ? [[k, v]]
  : isRecord(v) ? Object.entries(v).filter(([, x]) => isRecords(x)).map(([m, x]) => [`${k} ${m}`, x]) : []);
// what of an extra is not in a table (undefined: nothing)
function untabled(v) {
  if (isRecords(v)) return undefined;
  if (!isRecord(v)) return v;
  const left = Object.entries(v).filter(([, x]) => !isRecords(x));
  return left.length ? Object.fromEntries(left) : undefined;
}

// a list of records as a table: one row per record, a column per key (numbers right-aligned)
function table(key, records) {
  const title = nameOf(key);
  const keys = Object.keys(records[0]);
  // a mean (expected_...) or a payoff to two places, another fraction a chance in percent, the
  // rest in the page's words
  const cell = (k, v) => (typeof v === "number" || v === null ? number(k, v) : say(plain(v, k)));
  return el("table", { class: "compare-table", "aria-label": title },
    el("caption", {}, title),
    el("thead", {}, el("tr", {}, ...keys.map((k) => el("th", {}, fieldOf(k) ? fieldWords(fieldOf(k)) : nameOf(k))))),
    el("tbody", {}, ...records.map((rec) => el("tr", {}, ...keys.map((k, i) =>
      el(i ? "td" : "th", {}, cell(k, rec[k])))))));
}

// a wide range's words up to its number ("40.1% to 54.5% depending on ... assumed, ") as its
// span and its why, and what follows the number (")"): cut where the message's words after
// {high} begin, in the page's language
function rangeParts(text) {
  const message = t("{low} to {high} depending on {what} ({readings}: {assumed} assumed, {p})");
  const cut = message.slice(message.indexOf("{high}") + "{high}".length, message.indexOf("{what}")).trimEnd();
  const end = message.slice(message.indexOf("{p}") + "{p}".length), at = text.indexOf(cut);
  return at < 0 ? [text, "", end] : [text.slice(0, at), text.slice(at).trimStart(), end];
}

// a pmf is an object with its mean beside it; other objects are extra data (e.g. a ruleset)
const pmfsOf = (r) => Object.keys(r).filter((k) => r["expected_" + k] !== undefined);
const META = ["procedure", "method", "trials", "seed", "partial", "settings", "notes", "assumptions",
              "explain", "advice", "zero", "intervals", "caveat", "readings", "flips", "range"];
const trials = (n) => tn("{n} trial", "{n} trials", n);
// a pmf's mean in words; where its entry 0 is not a count, what 0 means instead (r.zero)
const mean = (r, k) => (r.zero && k in r.zero ? `0: ${r.zero[k]}` : t("mean {x}", { x: fixed(r["expected_" + k], 2) }));
// a value's name in words as the catalog says it (core/outcomes.label): "attacker_win" ->
// "attacker win", in the game's own words; a name ending in a number is its "{k}" message
function nameOf(key) {
  const w = words(key), m = w.match(/^(.*\D) (\d+)$/);
  return m ? tc(game(spec.name), m[1] + " {k}", { k: m[2] }) : tc(game(spec.name), w);
}
// a 95% interval: "81.2% to 85.0%"
const between = ([low, high]) => t("{low} to {high}", { low: pct(low), high: pct(high) });

// The library's words as the page says them: a card's policies in brackets
// ("janissaries[:always|if-needed]") are the chip's own picker, a command-line flag
// ("--fortified") or a parameter's name ("defense_dice") is its field's label, true/false yes/no,
// a flag that is "repeatable" takes "one or more".
function say(text) {
  const named = Object.fromEntries([...spec.parameters, ...spec.engine].map((p) => [p.name, fieldWords(p)]));
  return String(text)
    .replace(new RegExp(`(?<!odds [a-z]+ )${spec.name.replace(".", "\\.")}`, "g"), short(spec))  // not in a command
    .replace(/\[:[^\]]*\]/g, "")
    // Python's words in a message: a tuple ('a', 'b'), a value in quotes, True/False (a switch)
    .replace(/\(((?:'[^']*',?\s*)+)\)/g, (m, items) => items.replace(/'/g, "").replace(/,\s*$/, ""))
    .replace(/(^|[\s(\[])'([^'\s][^']*?)'(?=[\s,;:.)\]]|$)/g, "$1$2")
    .replace(/\b([a-z][a-z_]*)=(True|False)\b/g, (m, n, v) => (named[n] ?? words(n)) + (v === "True" ? "" : " " + t("off")))
    .replace(/\bTrue\b/g, t("on")).replace(/\bFalse\b/g, t("off"))
    .replace(/\b([a-z][a-z-]*[a-z]):([a-z][a-z-]*[a-z])\b/g, (m, card, policy) => `${card} (${policy.replace(/-/g, " ")})`)
    .replace(/\b[a-z]+-[ivx]+\b|\b[a-z]+(?:,[a-z]+)+\b/g, choiceWords)
    .replace(/([A-Z][\w'-]*)=(\d+):(\d+)(:out)?/g, (m, name, a, d, out) => `${name} ${a} v ${d}` + (out ? t(" (out of the zone)") : ""))
    .replace(/--([a-z][a-z-]*)/g, (m, flag) => named[flag.replace(/-/g, "_")] ?? words(flag.replace(/-/g, "_")))
    .replace(/(?<!\/)\b[a-z]+(?:_[a-z]+)+\b/g, (m) => named[m] ?? nameOf(m))  // not a path's (docs/rules_crusades.md)
    .replace(/^(true|false)$/, (m) => (m === "true" ? t("yes") : t("no")))
    .replace(/\brepeatable\b/g, t("one or more"));  // a flag given again; here a list or chips
}

// a leader's name as a player writes it: "henry-viii" -> "Henry VIII", "duke-of-alva" -> "Duke of Alva"
const nameWords = (name) => name.split("-").map((w) => (/^[ivx]+$/.test(w) ? w.toUpperCase()
  : w === "of" ? w : w[0].toUpperCase() + w.slice(1))).join(" ");

// a choice as a player says it: a pope or a king by his name and number ("leo-x" -> "Leo X"),
// an order by its steps ("squadron,vp,card" -> "squadron, then VP, then card")
function choiceWords(c) {
  if (/^[a-z]+(,[a-z]+)+$/.test(c)) return c.split(",").map((w) => t(w.length <= 2 ? w.toUpperCase() : w)).join(t(", then "));
  const m = String(c).match(/^([a-z-]+)-([ivx]+)$/);
  const name = m && m[1].split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ") + " " + m[2].toUpperCase();
  return m ? t(name) : String(c);
}

// a number of the value named `k`: a chance (a probability of the answer shown: `chances`, or a
// fraction) in percent, a mean, a payoff or a ratio to two places, a count as it is, none a dash
let chances = new Set();
const number = (k, x) => (x === null ? "–" : chances.has(k) ? pct(x)
  : /^(expected|payoff)|_per_/.test(k) ? fixed(x, 2) : Number.isInteger(x) ? String(x)
  : x > 1 || x < 0 ? fixed(x, 2) : pct(x));

// a value in words at any depth (`k` its name, for its numbers): an object inside is bracketed,
// never "[object Object]"
function plain(v, k = "") {
  if (Array.isArray(v)) return v.map((x) => (x && typeof x === "object" ? plain(x, k) : typeof x === "number" ? number(k, x) : x)).join(v.some((x) => x && typeof x === "object") ? "; " : ", ") || t("none");
  if (v && typeof v === "object")
    return Object.entries(v).map(([key, x]) => `${key}: ${x && typeof x === "object" ? `(${plain(x, key)})`
      : typeof x === "number" || x === null ? number(key, x) : x}`).join(", ");
  return typeof v === "number" && !Number.isInteger(v) ? format({ maximumFractionDigits: 3, useGrouping: false }).format(v) : String(v);
}

function pairs(pmfs) {
  // "attacker_losses" + "defender_losses" -> one chart "losses"; lone pmfs chart alone
  const out = new Map();
  for (const k of pmfs) {
    const m = k.match(/^(attacker|defender)_(.+)$/);
    const key = m ? m[2] : k;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(k);
  }
  return out;
}

let chartChoice = null;

function chart(r) {
  const groups = pairs(pmfsOf(r));
  const fig = $("chart");
  fig.replaceChildren();
  if (!groups.size) return;
  if (!groups.has(chartChoice))
    chartChoice = [...groups.keys()].find((k) => /loss|lost/.test(k)) || groups.keys().next().value;
  if (groups.size > 1) {
    const sel = el("select", { "aria-label": t("distribution"), onchange: () => { chartChoice = sel.value; chart(r); } },
      ...[...groups.keys()].map((k) => el("option", { value: k }, nameOf(k))));
    sel.value = chartChoice;
    fig.append(sel);
  }
  const series = groups.get(chartChoice);
  const svg = bars(series.map((k) => r[k]), series.map(colour));
  svg.setAttribute("aria-label", chartWords(r, series));
  fig.append(svg, el("figcaption", { class: "legend" },
    ...series.map((k, i) => el("span", {}, el("i", { style: `background: var(--${colour(k, i)})` }),
                                        nameOf(k) + (mean(r, k) && ` (${mean(r, k)})`)))));
}

const colour = (name, i) => (name.startsWith("defender") || i === 1 ? "defender" : "attacker");

// the chart in words (its text alternative): each distribution's chances by count, and its mean
const chartWords = (r, series) => series.map((k) => `${nameOf(k)}: ` + Object.entries(r[k])
  .map(([n, p]) => `${n} ${pct(p)}`).join(", ") + (mean(r, k) && `; ${mean(r, k)}`)).join(". ");

function bars(pmfs, colours) {
  // grouped bars: x = count, one bar per series (in its colour), y = probability; labels on tall bars
  const n = Math.max(...pmfs.map((p) => Object.keys(p).length));
  const top = Math.max(...pmfs.flatMap((p) => Object.values(p)), 1e-9);
  const W = Math.max(300, $("chart").clientWidth || 600), H = 220, left = 4, bottom = 22, topPad = 18;
  const slot = (W - left) / n, bar = Math.min(28, (slot - 4) / pmfs.length);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  const add = (tag, attrs, txt) => {
    const e = document.createElementNS(svg.namespaceURI, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (txt !== undefined) e.textContent = txt;
    svg.append(e);
  };
  add("line", { x1: left, x2: W, y1: H - bottom, y2: H - bottom, stroke: "#999" });
  const every = Math.ceil(n / (W / 22));
  for (let k = 0; k < n; k++) {
    const x0 = left + k * slot + (slot - bar * pmfs.length) / 2;
    if (k % every === 0)
      add("text", { x: left + (k + 0.5) * slot, y: H - 6, "text-anchor": "middle", "font-size": 12, fill: "#5d6773" }, k);
    pmfs.forEach((pmf, i) => {
      const v = pmf[String(k)] || 0, h = (H - bottom - topPad) * v / top;
      add("rect", { x: x0 + i * bar, y: H - bottom - h, width: Math.max(bar - 1, 1), height: h,
                    fill: `var(--${colours[i]})` });
      if (v >= 0.05 && bar >= 22)
        add("text", { x: x0 + (i + 0.5) * bar, y: H - bottom - h - 4, "text-anchor": "middle",
                      "font-size": 10, fill: "#1d232b" }, percent(v, 0));
    });
  }
  return svg;
}

// ---- plans side by side ----

function planExample() {
  // the first count two above its value in the form, e.g. "units 7" (a plan's first change)
  const p = spec.parameters.find((x) => x.kind === "int") || spec.parameters[0];
  const now = Number(controls[p.name].get() ?? p.low ?? 0);
  return [p.name, p.kind === "int" ? String(Math.min(now + 2, p.high ?? now + 2)) : controls[p.name].get()];
}

// A plan is changes to this battle's fields, each picked with the form's own control; its text
// (KEY=VALUE words, as the API and the link take it) is rebuilt from them on every change.
function buildPlans() {
  const [name, value] = planExample();
  $("plan-example").textContent = `${fieldWords(fieldOf(name))} ${value ?? "…"}`;
  $("plans").replaceChildren(...plans.map((text, i) => {
    const changes = el("div", { class: "changes" });
    const update = () => {
      plans[i] = [...changes.children].map((c) => c.text()).filter(Boolean).join(" ");
      changed();
    };
    const change = (key, v) => {
      const box = el("div", { class: "change" });
      const pick = el("select", { "aria-label": t("plan {i}: setting", { i: i + 1 }) },
        ...spec.parameters.map((p) => el("option", { value: p.name }, fieldWords(p))));
      let c = null;
      const place = (given) => {
        c?.node.remove();
        c = control(fieldOf(pick.value), update, `plan${i}-${changes.children.length}-${pick.value}`);
        c.set(given ?? controls[pick.value].get());
        pick.after(c.node);
      };
      pick.value = key;
      pick.addEventListener("change", () => { place(null); update(); });
      box.text = () => (c.get() === null ? "" : `${pick.value}=${c.get()}`);
      box.append(pick, el("button", { type: "button", class: "drop", "aria-label": t("remove this change from plan {i}", { i: i + 1 }),
                                      onclick: () => { box.remove(); update(); } }, "×"));
      changes.append(box);
      place(v);
    };
    const given = text.trim() ? text.trim().split(/\s+/) : [];
    given.forEach((w) => { const [k, ...rest] = w.split("="); if (controls[k]) change(k, rest.join("=")); });
    if (!given.length) change(name, value);
    if (!text.trim()) plans[i] = [...changes.children].map((c) => c.text()).filter(Boolean).join(" ");
    return el("fieldset", { class: "plan" }, el("legend", {}, t("plan {i}", { i: i + 1 })), changes,
      el("button", { type: "button", class: "copy", onclick: () => { change(name, null); update(); } }, t("+ another change")),
      el("button", { type: "button", class: "copy", "aria-label": t("remove plan {i}", { i: i + 1 }),
                     onclick: () => { plans.splice(i, 1); buildPlans(); changed(); } }, t("remove plan")));
  }));
}

// The plans against the battle: a refused plan gets its message beside it and is left out,
// and the others are asked again (at most once per plan); a refused battle hides the table.
async function compare(q) {
  cancel("compare");
  let texts = asked();
  $("compare-error").hidden = true;
  $("plans").querySelectorAll(".field-error").forEach((e) => e.remove());
  $("plans").querySelectorAll(".plan.invalid").forEach((e) => e.classList.remove("invalid"));
  const hide = () => {
    $("compare-table").hidden = true;
    $("compare-method").textContent = "";
  };
  for (let tries = 0; tries <= plans.length; tries++) {
    if (!texts.length) return hide();
    const r = await request("compare", `api/${spec.name}/compare?`
                            + new URLSearchParams([...q, ...texts.map((p) => ["plan", p])]));
    if (!r) return;
    if (r.status === 503) {
      timer = setTimeout(() => compare(q), r.wait * 1000);
      return;
    }
    if (r.ok) return showCompare(r.body);
    const [i, message] = planError(r.body.error);
    if (i < 0) {
      hide();
      $("compare-error").hidden = false;
      $("compare-error").textContent = message;
      return;
    }
    const box = $("plans").children[i];
    box.classList.add("invalid");
    box.querySelector(".changes").after(el("small", { class: "field-error", role: "alert" }, message));
    texts = texts.filter((t) => t !== plans[i].trim());
  }
}

// a plan's name as a header: one KEY=VALUE word a line, which may break after its "="
const planWords = (text) => text.split(" ").flatMap((w, i) => {
  const [key, ...rest] = w.split("=");
  const shown = fieldOf(key) ? fieldWords(fieldOf(key)) : key;
  return [i ? el("br") : null, ...(rest.length ? [shown + " ", el("wbr"), say(rest.join("="))] : [w])];
}).filter(Boolean);

function showCompare(c) {
  // one row per plan (the base first), one column per measure: the value, and its change
  // from the base below it (rows, so a phone shows every plan without scrolling sideways)
  const mc = c.method !== "exact";
  const value = (v, unit, sign) => {  // a change that rounds to zero has no sign (fixed)
    if (v === null) return "–";
    const nil = unit ? zero(100 * v, 1) : zero(v, 2);
    return (!nil && sign && v > 0 ? "+" : "") + (unit ? percent(nil ? 0 : v) : fixed(v, 2));
  };
  // a probability's 95% interval (Wilson's; Newcombe's for a change), a mean's ± 1.96 se
  const pm = (r, key, unit) => (!mc || r[key + "_se"] === null ? ""
    : !unit ? " ± " + fixed(1.96 * r[key + "_se"], 2)
      : r[key + "_low"] === null || r[key + "_low"] === undefined ? ""
        : " [" + t("{low} to {high}", { low: value(r[key + "_low"], unit, key.endsWith("_change")),
                                       high: value(r[key + "_high"], unit, key.endsWith("_change")) }) + "]");
  const measures = [[c.main, spec.headline, true], ...c.losses.map((n) => ["expected_" + n, t("mean {what}", { what: nameOf(n) }), false])];
  const head = el("tr", {}, el("th", { scope: "col" }, t("plan")),
    ...measures.map(([, title]) => el("th", { scope: "col" }, title)));
  const rows = c.plans.map((r) => el("tr", {}, el("th", { scope: "row" }, ...planWords(r.plan)),
    ...measures.map(([key, , unit]) => el("td", { "data-key": key, "data-plan": r.plan, "data-v": r[key] },
      value(r[key], unit, false) + pm(r, key, unit),
      r.plan === "base" ? null : el("span", { class: "change", "data-key": key + "_change", "data-plan": r.plan,
                                              "data-v": r[key + "_change"] ?? "" },
                                    value(r[key + "_change"], unit, true) + pm(r, key + "_change", unit))))));
  $("compare-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  $("compare-table").hidden = false;
  $("compare-method").textContent = (mc ? t("Monte Carlo, {trials} a plan, the same seed ({seed}) for every plan: common random numbers; [95% intervals]",
                                             { trials: trials(c.plans[0].trials || 0), seed: c.seed })
    : t("exact")) + (c.partial ? t(" (stopped early)") : "");
}

// ---- what do I need: the value of a count at which an event reaches a target ----

function needQuery() {
  // need=P (the target as a probability), vary, event (when not the main one); [] when unset
  const vary = $("need-vary").value, pct = $("need-target").value;
  if (!vary || pct === "") return [];
  const event = $("need-event").value;
  return [["need", String(Number(pct) / 100)], ["vary", vary],
          ...(event && event !== spec.main ? [["event", event]] : [])];
}

// a count that means nothing without another field (Andrea Doria's dice without the card) is
// offered only once that field is given
const given = (name) => !["", "0", "false", null, undefined].includes(controls[name]?.get());
const varies = (p) => !p.needs?.length || p.needs.some(given);

function offerNeeds() {
  for (const o of $("need-vary").options) {
    const p = o.value && fieldOf(o.value);
    o.disabled = Boolean(p) && !varies(p);
    if (p) o.textContent = fieldWords(p) + (o.disabled ? ` (${giveFirst(p)})` : "");
  }
  if ($("need-vary").selectedOptions[0]?.disabled) $("need-vary").value = "";
}

function buildNeed(values) {
  const counts = spec.parameters.filter((p) => p.kind === "int" || p.kind === "leader");
  $("need").hidden = !counts.length;
  $("need-vary").replaceChildren(el("option", { value: "" }, "—"),
    ...counts.map((p) => el("option", { value: p.name }, fieldWords(p))));
  $("need-vary").value = values.get("vary") || "";
  offerNeeds();
  eventsPicker([spec.main], values.get("event") || spec.main);
  const p = values.get("need");
  $("need-target").value = p === null || isNaN(Number(p)) ? "" : String(Math.round(Number(p) * 1e4) / 100);
}

function eventsPicker(names, chosen) {
  // the event picker: the main probability and the others the last answer had; the chosen one
  // stays chosen (and listed) even when this answer lacks it, so the server says what is wrong
  const now = chosen ?? $("need-event").value;
  const all = [...new Set([...names, now].filter(Boolean))];
  $("need-event").replaceChildren(...all.map((n) => el("option", { value: n }, nameOf(n))));
  $("need-event").value = now;
}

// a need refused: its message under the box; `box` (the target typed wrong) marked too
function needFailed(message, box = false) {
  $("need-answer").textContent = "";
  $("need-method").textContent = "";
  $("need-error").hidden = false;
  $("need-error").textContent = message;
  if (box) $("need-target").setAttribute("aria-invalid", "true");
}

async function need(q) {
  cancel("need");
  const extra = needQuery();
  $("need-error").hidden = true;
  $("need-target").removeAttribute("aria-invalid");
  if (!extra.length) {
    $("need-answer").textContent = "";
    $("need-method").textContent = "";
    return;
  }
  const target = $("need-target").value.trim();  // "3e" is no number: said, never dropped
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(target))
    return needFailed(t("reaches: {x} is not a number (allowed: a percent from 0 to 100)", { x: target }), true);
  if (!(Number(target) >= 0 && Number(target) <= 100))  // the page's own words, in percent
    return needFailed(t("reaches: {x}% is out of range (allowed: 0% to 100%)", { x: target }), true);
  const r = await request("need", `api/${spec.name}/need?` + new URLSearchParams([...q, ...extra]));
  if (!r) return;
  if (r.status === 503) {
    timer = setTimeout(() => need(q), r.wait * 1000);
    return;
  }
  const body = r.body;
  if (!r.ok) return needFailed(speak(body.error));
  // the varied count named as the form names it ("no defender units from 1 to 200 gives ...")
  const sentence = body.sentence.replace(/\b(no|every|least|most) (\S+) from\b/,
    (m, which, name) => (name === body.vary && fieldOf(name) ? `${which} ${fieldWords(fieldOf(name))} from` : m));
  $("need-answer").textContent = speak(sentence);
  $("need-method").textContent = (body.method === "exact" ? t("exact")
    : t("Monte Carlo, {trials} a value, seed {seed} for every value", { trials: trials(body.trials || 0), seed: body.seed }))
    + (body.monotone ? tn("; monotone at the {n} value evaluated", "; monotone at the {n} values evaluated", Object.keys(body.evaluated).length)
                     : t("; NOT monotone: every value from the low end evaluated"))
    + (body.notes.length ? "; " + body.notes.map(speak).join("; ") : "");
}

// ---- choosing a game and procedure ----

// a procedure's name in the picker: its title ("Diet of Worms"), so a phone shows it whole; the
// whole help is under the pickers
const short = (s) => s.title;

// a procedure is chosen with the values of a link, else those typed for it earlier in this
// visit, else its starting values
function choose(name, values = typed[name] || new URLSearchParams()) {
  spec = catalogue.procedures.find((s) => s.name === name);
  $("game").value = game(name);
  $("procedure").replaceChildren(...catalogue.procedures.filter((s) => game(s.name) === game(name))
    .map((s) => el("option", { value: s.name, title: s.help }, short(s))));
  $("procedure").value = name;
  $("procedure-help").textContent = spec.help;  // the full name, which the picker may cut
  buildForm(values);
  plans = values.getAll("plan");
  buildPlans();
  buildNeed(values);
  changed();
}

async function start() {
  catalogue = await (await fetch(api("api/procedures"))).json();
  const games = [...new Set(catalogue.procedures.map((s) => game(s.name)))];
  $("game").replaceChildren(...games.map((g) => el("option", { value: g }, GAMES[g] || g)));
  $("game").addEventListener("change", () =>
    choose(catalogue.procedures.find((s) => game(s.name) === $("game").value).name));
  $("procedure").addEventListener("change", () => choose($("procedure").value));
  for (const id of ["need-vary", "need-event"]) $(id).addEventListener("change", changed);
  $("need-target").addEventListener("input", changed);
  $("add-plan").addEventListener("click", () => {
    plans.push("");
    buildPlans();
    changed();
    $("plans").lastChild.querySelector("select").focus();
  });
  $("copy").addEventListener("click", async () => {
    // the clipboard needs https or localhost; on a shared LAN address, offer the link to copy
    try {
      await navigator.clipboard.writeText(location.href);
      $("copy").textContent = t("Link copied");
    } catch {
      window.prompt(t("Copy this link"), location.href);
    }
  });
  // on a phone, the headline stays in view in a bar while the form is filled in
  new IntersectionObserver(([e]) => { $("peek").hidden = e.isIntersecting; }).observe($("headline"));
  $("peek").addEventListener("click", () => $("answer").scrollIntoView({ behavior: "smooth" }));
  let resized = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => shown && chart(shown), 100);
  });
  const values = new URLSearchParams(location.search);
  const asked = catalogue.procedures.find((s) => s.name === values.get("procedure"));
  choose((asked || catalogue.procedures[0]).name, values);
}

start().catch((e) => showError(t("the calculator could not load ({why})", { why: e.message })));
