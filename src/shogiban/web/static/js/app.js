// Entry point of every page: the language switcher, then the page's own module
// (<body data-page="play|game|record|editor|analysis">).

import { currentLanguage, LANGUAGES, ready, setLanguage, translateDom } from "./i18n.js";
import "./notation.js"; // wires the header's notation menu

const PAGES = {
  play: () => import("./pages/play.js"),
  game: () => import("./pages/game.js"),
  record: () => import("./pages/record.js"),
  editor: () => import("./pages/editor.js"),
  analysis: () => import("./pages/analysis.js"),
};

async function main() {
  await ready;
  const select = document.getElementById("language-select");
  if (select) {
    select.value = currentLanguage();
    select.addEventListener("change", async () => {
      if (LANGUAGES.includes(select.value)) await setLanguage(select.value);
    });
  }
  const loader = PAGES[document.body.dataset.page];
  const root = document.getElementById("app");
  if (loader && root) {
    const page = await loader();
    await page.mount(root);
  }
  translateDom(document);
  document.body.classList.add("ready");
}

main().catch((error) => {
  console.error(error);
  const root = document.getElementById("app");
  if (root) root.textContent = `shogiban: ${error}`;
});
