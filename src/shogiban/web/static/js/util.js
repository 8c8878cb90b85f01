// Small helpers shared by the pages: element building, JSON requests, toasts, formatting.

import { describeError, t } from "./i18n.js";

/**
 * Build an element: h("button", {class: "btn", onclick: fn, dataset: {x: 1}}, "text", child).
 * Attribute values of null/false are skipped; "text" sets textContent.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace node's children, skipping null/undefined/false (replaceChildren would print "null"). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** An error from the server: {code, message}, translated when the code is known. */
export class ApiError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Fetch JSON; throws ApiError with the server's {code, message} on failure. */
export async function api(url, options = {}) {
  let response;
  try {
    response = await fetch(url, { credentials: "same-origin", ...options });
  } catch (error) {
    throw new ApiError("network", String(error));
  }
  let body = null;
  try {
    body = await response.json();
  } catch (error) {
    body = null;
  }
  if (!response.ok) {
    throw new ApiError(body?.code || "http", body?.message || `HTTP ${response.status}`, response.status);
  }
  return body;
}

/** POST a JSON body. */
export function postJson(url, data) {
  return api(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) });
}

/** The translated text of a refusal or error code (with its params, when the server sent
 * them), the server's English message as a fallback. */
export function errorText(code, message = "", params = null) {
  return describeError(code, message, params);
}

let toastTimer = null;
/** Show a short message at the bottom of the screen. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.dataset.kind = kind;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), kind === "error" ? 5000 : 3000);
}

/** "m:ss" (or "h:mm:ss") of milliseconds, rounded up so 0:00 means the time is gone. */
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, "0");
  if (hours) return `${hours}:${String(minutes).padStart(2, "0")}:${ss}`;
  return `${minutes}:${ss}`;
}

/** Side mark and name: ☗先手 / ☖後手, or 下手/上手 in a handicap game. */
export function sideName(color, handicap = false) {
  if (handicap) return t(color === "b" ? "side.shitate" : "side.uwate");
  return t(color === "b" ? "side.sente" : "side.gote");
}

export function sideMark(color) {
  return color === "b" ? "☗" : "☖";
}

/** Copy text to the clipboard; resolves true on success. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (error) {
    const area = h("textarea", { class: "visually-hidden" });
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand && document.execCommand("copy");
    area.remove();
    return !!ok;
  }
}

const RECENT_KEY = "shogiban.games";

/** Games this browser created or joined, newest first: [{id, mode, color, at, label}]. */
export function recentGames() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (error) {
    return [];
  }
}

/** Remember a game in the recent list (at most 12). */
export function rememberGame(entry) {
  const list = recentGames().filter((g) => g.id !== entry.id);
  list.unshift({ ...entry, at: Date.now() });
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 12)));
  } catch (error) {
    // Storage disabled: the list is a convenience only.
  }
}

/** Forget a game in the recent list. */
export function forgetGame(id) {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(recentGames().filter((g) => g.id !== id)));
  } catch (error) {
    // Storage disabled: nothing to forget.
  }
}
