// Shared start-up of the learn and puzzle pages: the catalogue, the language switcher, and requests.
//
// The pages are rule-free: every legal target, refusal reason and solver answer comes from the
// server's JSON endpoints (shogiban.web.learn).

import { currentLanguage, describeError, LANGUAGES, ready, setLanguage, translateDom } from "/static/js/i18n.js";
import "/static/js/notation.js"; // wires the header's notation menu

/** Wait for the catalogue (it holds the learn pages' strings too), wire the language menu. */
export async function startPage() {
  await ready;
  const select = document.getElementById("language-select");
  if (select) {
    select.value = currentLanguage();
    select.addEventListener("change", async () => {
      if (LANGUAGES.includes(select.value)) await setLanguage(select.value);
    });
  }
  translateDom(document);
}

/** Mark the page as drawn (tests and styles wait for it). */
export function pageReady() {
  translateDom(document);
  document.body.classList.add("ready");
}

/** GET or POST JSON; on failure throws an Error whose message is the refusal in the page's
 * language (the server's English message only for codes the catalogue lacks), with its code. */
export async function request(url, body = undefined) {
  const options = body === undefined
    ? {}
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(url, { credentials: "same-origin", ...options });
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const code = (data && data.code) || "http";
    const failure = new Error(describeError(code, (data && data.message) || `HTTP ${response.status}`, data && data.params));
    failure.code = code;
    throw failure;
  }
  return data;
}

/** Build an element: el("p", {class: "x", text: "..."}, child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "i18n") node.dataset.i18n = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The language code the server expects (it accepts the page's codes as they are). */
export function lang() {
  return currentLanguage();
}
