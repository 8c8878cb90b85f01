// shogiban i18n: the page's language and the server's text catalogue (an ES module).
//
//   import { t, ready, currentLanguage, setLanguage, onLanguageChange, translateDom, describeError }
//     from "/static/js/i18n.js";
//   await ready;                                   // the current language's catalogue is loaded
//   t("ui.game.resign");                           // "投了" in Japanese
//   t("ui.info.byoyomi", { main: 10, s: 30 });     // "{name}" placeholders are filled in
//   refusalText("nifu", { file: 5 });              // a refusal code, its details put into words
//   describeError(code, message, params);          // refusal (rules.*), error (error.*) or message
//   const off = onLanguageChange((lang) => ...);   // called after the new catalogue is loaded
//   await setLanguage("zh-Hant");                  // remembered in a cookie and localStorage
//   translateDom(root);                            // fill [data-i18n], [data-i18n-title],
//                                                  // [data-i18n-placeholder], [data-i18n-aria-label]
//
// Every string comes from GET /i18n/<lang>.json (shogiban.i18n: the same catalogue the terminal
// and the lessons use; the server fills gaps with English).  This module keeps no strings, no
// language names and no table of codes of its own.  The server decides the language of a page
// (the remembered choice, else Accept-Language) and writes it in <html lang>, with the
// languages it offers in the #language-select menu.

const STORAGE_KEY = "shogiban.lang";
const COOKIE = "shogiban_lang";
const SQUARE_PARAMS = new Set(["square", "from_square", "to_square"]);
const PIECE_LETTERS = { P: "pawn", L: "lance", N: "knight", S: "silver", G: "gold", B: "bishop", R: "rook", K: "king" };

/** The languages the server offers (the options of its language menu), as tags ("zh-Hant"). */
export const LANGUAGES = (() => {
  const options = globalThis.document ? [...document.querySelectorAll("#language-select option")] : [];
  const tags = options.map((option) => option.value).filter(Boolean);
  return tags.length ? tags : [pageLanguage() || "en"];
})();

const tables = new Map(); // tag -> catalogue
const listeners = new Set();
let language = initialLanguage();

function pageLanguage() {
  return (globalThis.document && document.documentElement.lang) || null;
}

function initialLanguage() {
  // A choice made in this browser wins (the cookie tells the server for the next page).
  try {
    const saved = globalThis.localStorage && localStorage.getItem(STORAGE_KEY);
    if (saved && LANGUAGES.includes(saved)) return saved;
  } catch (error) {
    // Storage can be disabled (private mode): the server's choice stands.
  }
  const page = pageLanguage();
  return page && LANGUAGES.includes(page) ? page : LANGUAGES[0];
}

function catalogueUrl(lang) {
  const meta = globalThis.document && document.querySelector('meta[name="i18n-version"]');
  const version = (meta && meta.content) || "";
  return `/i18n/${encodeURIComponent(lang)}.json${version ? `?v=${encodeURIComponent(version)}` : ""}`;
}

async function loadLanguage(lang) {
  if (tables.has(lang)) return tables.get(lang);
  let table = {};
  try {
    const response = await fetch(catalogueUrl(lang));
    if (response.ok) table = await response.json();
  } catch (error) {
    console.warn(`i18n: cannot load the ${lang} catalogue`, error);
  }
  // A catalogue installed meanwhile wins over a failed fetch.
  if (!tables.has(lang)) tables.set(lang, table);
  return tables.get(lang);
}

/** Put a catalogue in place without fetching it (tests, and pages that embed one). */
export function installCatalogue(lang, table) {
  tables.set(lang, table);
}

function lookup(key, lang = language) {
  const table = tables.get(lang);
  return table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** Fill the {name} placeholders of text from params (unknown names stay as they are). */
export function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name) => (
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : match));
}

/** The translation of key in the current language, placeholders filled from params (the key
 * itself when the catalogue has no such key). */
export function t(key, params = null) {
  const text = lookup(key);
  return fill(text === undefined ? key : text, params);
}

/** Whether the catalogue has key. */
export function has(key) {
  return lookup(key) !== undefined;
}

/** A square ("7f") as the language writes it: "7f", "７六". */
export function squareLabel(square) {
  const name = String(square);
  const file = "123456789".indexOf(name[0]);
  const rank = "abcdefghi".indexOf(name[1]);
  if (name.length !== 2 || file < 0 || rank < 0) return name;
  return t("format.files")[file] + t("format.ranks")[rank];
}

/** File 1..9 in words: "file 7", "７筋", "第7筋". */
export function fileLabel(file) {
  const number = Number(file);
  if (!(number >= 1 && number <= 9)) return String(file);
  return t("format.file", { file: t("format.file_digits")[number - 1] });
}

/** A piece's name: piece is a catalogue name ("prom_rook"), an SFEN symbol ("+R") or a number. */
export function pieceName(piece) {
  const names = ["", "pawn", "lance", "knight", "silver", "bishop", "rook", "gold", "king"];
  let name = typeof piece === "number"
    ? (piece > 8 ? `prom_${names[piece - 8]}` : names[piece])
    : String(piece);
  const letter = PIECE_LETTERS[name.replace("+", "").toUpperCase()];
  if (letter && name.length <= 2) name = name.startsWith("+") ? `prom_${letter}` : letter;
  return has(`piece.${name.toLowerCase()}`) ? t(`piece.${name.toLowerCase()}`) : String(piece);
}

/** The character on a piece ("P", "+R"; color "b" or "w"), as the language's boards draw it:
 * 銀 in Japanese, 银 in simplified Chinese; gote's king is 王. */
export function pieceGlyph(type, color = "b") {
  const base = String(type).replace("+", "").toUpperCase();
  const name = PIECE_LETTERS[base];
  if (!name) return "?";
  if (base === "K" && color === "w") return t("piece.glyph.king_gote");
  return t(`piece.glyph.${String(type).startsWith("+") ? "prom_" : ""}${name}`);
}

/** A move label the server writes in Japanese (▲４二銀) in the language's own characters
 * (▲４二银 in simplified Chinese), as the terminal writes moves: format.move_forms lists the
 * pairs (Japanese, own) that differ, "-" when none do. */
export function moveLabel(label) {
  const pairs = t("format.move_forms").split(" ").filter((pair) => pair.length === 2);
  if (!label || !pairs.length) return label;
  const forms = new Map(pairs.map((pair) => [pair[0], pair[1]]));
  return [...String(label)].map((c) => forms.get(c) || c).join("");
}

/** Sente or gote ("b"/"w", 0/1, "sente"/"gote"). */
export function sideLabel(color) {
  const black = color === 0 || ["b", "black", "sente"].includes(String(color).toLowerCase());
  return t(black ? "side.sente" : "side.gote");
}

/** A refusal's parameters put into words (squares, file, piece, side), as the server does. */
export function localize(params) {
  const words = {};
  for (const [name, value] of Object.entries(params || {})) {
    if (SQUARE_PARAMS.has(name)) words[name] = squareLabel(value);
    else if (name === "file") words[name] = fileLabel(value);
    else if (name === "piece") words[name] = pieceName(value);
    else if (name === "side") words[name] = sideLabel(value);
    else words[name] = value;
  }
  return words;
}

/** Why the rules refused (the code of a refusal, its parameters): rules.<code> filled in, a
 * neutral word (rules.param.<name>) standing for a detail the refusal did not carry. */
export function refusalText(code, params = null) {
  const key = has(`rules.${code}`) && !String(code).startsWith("param.") ? `rules.${code}` : "rules.illegal";
  const text = t(key);
  const words = localize(params);
  for (const [, name] of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    if (name in words) continue;
    if (!has(`rules.param.${name}`)) return t("rules.illegal");
    words[name] = t(`rules.param.${name}`);
  }
  return fill(text, words);
}

/** A refusal's clause as a sentence on its own: a capital first letter. */
export function sentence(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** What to tell the user about a refused request {code, message, params}: the refusal
 * (rules.<code>) or the error (error.<code>) in words, else the server's message. */
export function describeError(code, message = "", params = null) {
  if (has(`rules.${code}`)) return sentence(refusalText(code, params));
  // A refusal that names what it found (the candidates of an ambiguous move ...) says it.
  if (params && has(`error.${code}_detail`)) return t(`error.${code}_detail`, params);
  if (has(`error.${code}`)) return t(`error.${code}`);
  return message || t("error.unknown");
}

/** A record format's download button: its name, and what it holds where the name alone does
 * not say (SFEN: the position now; USI: the start position and the moves). */
export function formatButton(format) {
  return has(`ui.format.button.${format}`) ? t(`ui.format.button.${format}`) : format.toUpperCase();
}

/** The current language tag. */
export function currentLanguage() {
  return language;
}

function reflect() {
  if (globalThis.document) document.documentElement.lang = language;
}

function remember(lang) {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch (error) {
    // Not remembered in this browser's storage; the cookie may still be.
  }
  if (globalThis.document) {
    document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=31536000; samesite=lax`;
  }
}

/** Switch language: load its catalogue, remember it, update <html lang>, tell the listeners. */
export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang) && !tables.has(lang)) throw new Error(`unknown language: ${lang}`);
  await loadLanguage(lang);
  language = lang;
  remember(lang);
  reflect();
  if (globalThis.document) translateDom(document);
  for (const callback of [...listeners]) callback(lang);
}

/** Call callback(lang) after each language change; returns a function that unsubscribes. */
export function onLanguageChange(callback) {
  listeners.add(callback);
  return () => listeners.delete(callback);
}

/** Fill the translatable attributes under root (a document or an element). */
export function translateDom(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const [data, attr] of [["i18nTitle", "title"], ["i18nPlaceholder", "placeholder"], ["i18nAriaLabel", "aria-label"]]) {
    const selector = `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const node of root.querySelectorAll(selector)) node.setAttribute(attr, t(node.dataset[data]));
  }
}

/** Resolves once the current language's catalogue is loaded. */
export const ready = loadLanguage(language).then(() => {
  if (language !== pageLanguage()) remember(language); // tell the server the choice made here
  reflect();
  return language;
});
