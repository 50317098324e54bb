// Every page's language (loaded first): the server sets <html lang> and inlines the page's
// messages from odds' catalog (web/pages.py). t("…{x}…", {x}) is a message in that language,
// tn(singular, plural, n) a counted one, tc(context, words) a game's own words; num/percent
// format numbers by the language (Intl: "83,7 %"); api(url) adds lang= to an API call; the
// [data-t] texts of the HTML (and its [data-t-attr] attributes) are translated here, and the
// header gets the switch English / Русский (a link keeping the page's query).
"use strict";
const LANG = document.documentElement.lang || "en";
const MESSAGES = JSON.parse(document.getElementById("messages")?.textContent || "{}");
const NUMBERS = LANG === "qps" ? "en" : LANG;  // the pseudo language counts as English
const SWITCH = { en: "English", ru: "Русский" };

const N_ = (message) => message;  // a message marked for the catalog, translated where shown
const fill = (text, fields = {}) => text.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? fields[k] : m));
const t = (message, fields) => fill(typeof MESSAGES[message] === "string" ? MESSAGES[message] : message, fields);

function tn(singular, plural, n, fields = {}) {
  const forms = MESSAGES[singular];
  const rule = new Intl.PluralRules(NUMBERS).select(n);
  const form = Array.isArray(forms) ? forms[Math.min(forms.length - 1, { one: 0, few: 1 }[rule] ?? (forms.length > 2 ? 2 : 1))]
    : n === 1 ? singular : plural;
  return fill(form, { n: integer(n), ...fields });
}

// a game's own words where the catalog has them, else the common ones
const tc = (context, message, fields) => {
  const own = MESSAGES[`${context}\u0004${message}`];
  return typeof own === "string" && own !== message ? fill(own, fields) : t(message, fields);
};

const formats = {};
const format = (options) => (formats[JSON.stringify(options)] ||= new Intl.NumberFormat(NUMBERS, options));
// a number to `d` places (no grouping), a whole number grouped, a probability in percent
const num = (x, d) => format({ minimumFractionDigits: d, maximumFractionDigits: d, useGrouping: false }).format(x);
const integer = (n) => format({ maximumFractionDigits: 0 }).format(n);
const percent = (p, d = 1) => format({ style: "percent", minimumFractionDigits: d, maximumFractionDigits: d }).format(p);

// an API call in the page's language
const api = (url) => url + (url.includes("?") ? (url.endsWith("?") ? "" : "&") : "?") + "lang=" + LANG;

// this page in language `lang`: its query kept, lang= set
function inLanguage(lang) {
  const q = new URLSearchParams(location.search);
  q.set("lang", lang);
  return location.pathname + "?" + q;
}

function translatePage() {
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.textContent.trim().replace(/\s+/g, " "));
  for (const e of document.querySelectorAll("[data-t-attr]"))
    for (const name of e.dataset.tAttr.split(" ")) e.setAttribute(name, t(e.getAttribute(name)));
  const nav = document.createElement("nav");
  nav.className = "languages";
  nav.setAttribute("aria-label", t("language"));
  for (const [lang, name] of Object.entries(SWITCH)) {
    const a = document.createElement(lang === LANG ? "strong" : "a");
    a.textContent = name;
    a.lang = lang;
    if (lang !== LANG) { a.href = inLanguage(lang); a.addEventListener("click", () => { a.href = inLanguage(lang); }); }
    nav.append(a);
  }
  const away = document.querySelector("header.top .away");  // after the luck link, or at the end
  if (away) away.after(nav); else document.querySelector("header.top")?.append(nav);
}

translatePage();
