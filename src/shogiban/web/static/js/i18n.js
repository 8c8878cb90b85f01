// shogiban i18n: the page's language and its strings (an ES module, no dependencies).
//
//   import { t, ready, currentLanguage, setLanguage, onLanguageChange, loadStrings, translateDom }
//     from "/static/js/i18n.js";
//   await ready;                                  // the strings of the current language are loaded
//   t("game.resign");                             // "投了" in Japanese
//   t("clock.byoyomi", { s: 30 });                // "{s}" placeholders are filled in
//   await loadStrings("/static/learn/i18n");      // add a string set: <base>/<lang>.json, reloaded
//                                                 // on every language change
//   const off = onLanguageChange((lang) => ...);  // called after the new strings are loaded
//   await setLanguage("zh-Hant");                 // remembered in localStorage["shogiban.lang"]
//   translateDom(root);                           // fill [data-i18n], [data-i18n-title],
//                                                 // [data-i18n-placeholder], [data-i18n-aria-label]
//
// Languages: "ja", "zh-Hant", "zh-Hans", "en".  The first visit follows navigator.languages (the
// server already picked one from Accept-Language for <html lang>); a choice is remembered.
// A missing key falls back to English, then to the key itself.

export const LANGUAGES = ["ja", "zh-Hant", "zh-Hans", "en"];
export const LANGUAGE_NAMES = { ja: "日本語", "zh-Hant": "繁體中文", "zh-Hans": "简体中文", en: "English" };
const STORAGE_KEY = "shogiban.lang";
const CORE_BASE = "/static/i18n";

const sources = [CORE_BASE];
const tables = new Map(); // `${base}|${lang}` -> object
const listeners = new Set();
let language = initialLanguage();

/** Map a BCP 47 tag ("zh-TW", "ja-JP", "en-GB") to one of LANGUAGES, or null. */
export function matchLanguage(tag) {
  if (!tag) return null;
  const lower = String(tag).toLowerCase();
  if (LANGUAGES.includes(tag)) return tag;
  if (lower.startsWith("ja")) return "ja";
  if (lower.startsWith("en")) return "en";
  if (lower.startsWith("zh")) {
    if (/hant|-tw|-hk|-mo/.test(lower)) return "zh-Hant";
    return "zh-Hans";
  }
  return null;
}

function initialLanguage() {
  try {
    const saved = globalThis.localStorage && localStorage.getItem(STORAGE_KEY);
    if (saved && LANGUAGES.includes(saved)) return saved;
  } catch (error) {
    // Storage can be disabled (private mode); fall back to the browser's preference.
  }
  const preferred = (globalThis.navigator && navigator.languages) || [];
  for (const tag of preferred) {
    const found = matchLanguage(tag);
    if (found) return found;
  }
  const fromPage = matchLanguage(globalThis.document && document.documentElement.lang);
  return fromPage || "en";
}

async function fetchTable(base, lang) {
  const key = `${base}|${lang}`;
  if (tables.has(key)) return tables.get(key);
  let table = {};
  try {
    const response = await fetch(`${base}/${lang}.json`);
    if (response.ok) table = await response.json();
  } catch (error) {
    console.warn(`i18n: cannot load ${base}/${lang}.json`, error);
  }
  tables.set(key, table);
  return table;
}

async function loadLanguage(lang) {
  const wanted = [];
  for (const base of sources) {
    wanted.push(fetchTable(base, lang));
    if (lang !== "en") wanted.push(fetchTable(base, "en"));
  }
  await Promise.all(wanted);
}

function lookup(key, lang) {
  for (let i = sources.length - 1; i >= 0; i--) {
    const table = tables.get(`${sources[i]}|${lang}`);
    if (table && Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  }
  return undefined;
}

/** The translation of key in the current language, with {name} placeholders filled from params. */
export function t(key, params = null) {
  let text = lookup(key, language);
  if (text === undefined) text = lookup(key, "en");
  if (text === undefined) text = key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
  }
  return text;
}

/** Whether key has a translation (in the current language or English). */
export function has(key) {
  return lookup(key, language) !== undefined || lookup(key, "en") !== undefined;
}

/** The current language code. */
export function currentLanguage() {
  return language;
}

function reflect() {
  if (globalThis.document) document.documentElement.lang = language;
}

/** Switch language: load its strings, remember it, update <html lang>, tell the listeners. */
export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) throw new Error(`unknown language: ${lang}`);
  await loadLanguage(lang);
  language = lang;
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch (error) {
    // Not remembered when storage is disabled; the switch still applies to this page.
  }
  reflect();
  if (globalThis.document) translateDom(document);
  for (const callback of [...listeners]) callback(lang);
}

/** Call callback(lang) after each language change; returns a function that unsubscribes. */
export function onLanguageChange(callback) {
  listeners.add(callback);
  return () => listeners.delete(callback);
}

/** Add a string set: JSON files at `${base}/${lang}.json`; later sets win on equal keys. */
export async function loadStrings(base) {
  const clean = String(base).replace(/\/$/, "");
  if (!sources.includes(clean)) sources.push(clean);
  await loadLanguage(language);
}

/** Fill the translatable attributes under root (a document or an element). */
export function translateDom(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const [data, attr] of [["i18nTitle", "title"], ["i18nPlaceholder", "placeholder"], ["i18nAriaLabel", "aria-label"]]) {
    const selector = `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const node of root.querySelectorAll(selector)) node.setAttribute(attr, t(node.dataset[data]));
  }
}

/** Resolves once the current language's strings are loaded. */
export const ready = loadLanguage(language).then(() => {
  reflect();
  return language;
});
