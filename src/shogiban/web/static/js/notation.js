// The notation the player reads moves in (a setting in the header of every page).
//
//   import { currentNotation, moveText, onNotationChange } from "/static/js/notation.js";
//   moveText(entry);   // entry = {label, usi, forms}: the move in the chosen notation
//
// The server sends each move in every notation (shogiban.notation.forms: japanese, western,
// kitao, csa, usi); this module only chooses, so the page needs no rules of its own.  The
// default is Japanese, western (Hodges, P-7f) for English pages.

import { currentLanguage, moveLabel, onLanguageChange } from "./i18n.js";

const STORAGE_KEY = "shogiban.notation";
export const NOTATIONS = ["japanese", "western", "kitao", "csa", "usi"];
const listeners = new Set();

function saved() {
  try {
    const value = globalThis.localStorage && localStorage.getItem(STORAGE_KEY);
    return NOTATIONS.includes(value) ? value : null;
  } catch (error) {
    return null; // storage disabled: the default stands
  }
}

/** The chosen notation, else the language's default. */
export function currentNotation() {
  return saved() || (currentLanguage() === "en" ? "western" : "japanese");
}

/** Choose a notation, remember it, tell the listeners. */
export function setNotation(notation) {
  if (!NOTATIONS.includes(notation)) throw new Error(`unknown notation: ${notation}`);
  try {
    localStorage.setItem(STORAGE_KEY, notation);
  } catch (error) {
    // Not remembered; this page still follows the choice.
  }
  syncSelect();
  for (const callback of [...listeners]) callback(notation);
}

/** Call callback(notation) after each change; returns a function that unsubscribes. */
export function onNotationChange(callback) {
  listeners.add(callback);
  return () => listeners.delete(callback);
}

/** A move entry {label, usi, forms} in the chosen notation: Japanese in the page's own forms
 * (步 in Chinese), or the server's text for the others; the Japanese label if that is missing. */
export function moveText(entry) {
  if (!entry) return "";
  const notation = currentNotation();
  if (notation !== "japanese") {
    if (entry.forms && entry.forms[notation]) return entry.forms[notation];
    if (notation === "usi" && entry.usi) return entry.usi;
  }
  return moveLabel(entry.label);
}

/** The lang attribute for move text: Japanese script, or plain Latin for the others. */
export function moveTextLang() {
  const notation = currentNotation();
  if (notation === "japanese") return currentLanguage() === "en" ? "ja" : currentLanguage();
  return notation === "kitao" ? "ja" : "en";
}

function syncSelect() {
  const select = globalThis.document && document.getElementById("notation-select");
  if (select) select.value = currentNotation();
}

if (globalThis.document) {
  const select = document.getElementById("notation-select");
  if (select) {
    syncSelect();
    select.addEventListener("change", () => setNotation(select.value));
  }
  // The default follows the language (English: western) until a notation is chosen.
  onLanguageChange(() => {
    syncSelect();
    if (!saved()) for (const callback of [...listeners]) callback(currentNotation());
  });
}
