// The record viewer: open a KIF/KI2/CSA/JKF/SFEN record (file, drop or paste), step through it
// with its comments and variations, download it in another format, or play on from any position.
// The server reads the record and gives every node its position: the browser knows no rules.

import { createBoard } from "../board.js";
import { currentLanguage, formatButton, has, onLanguageChange, t } from "../i18n.js";
import { moveText, moveTextLang, onNotationChange } from "../notation.js";
import { icon } from "../icons.js";
import { api, ApiError, errorText, h, toast, fill } from "../util.js";

const SETUP_KEY = "shogiban.setup";
const HEADER_ORDER = ["棋戦", "開始日時", "終了日時", "場所", "持ち時間", "手合割", "先手", "下手", "後手", "上手", "戦型"];
const EXAMPLE = `# shogiban example record
開始日時：2024/01/01 10:00:00
手合割：平手
先手：先手さん
後手：後手さん
手数----指手---------消費時間--
*対局開始。
   1 ７六歩(77)   ( 0:03/00:00:03)
*角道を開ける、最も多い初手です。
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 ２六歩(27)   ( 0:04/00:00:07)
   4 ４四歩(43)   ( 0:05/00:00:07)
*角道を止めて、振り飛車を目指します。
   5 ２五歩(26)   ( 0:02/00:00:09)
   6 ３三角(22)   ( 0:03/00:00:10)
   7 ４八銀(39)   ( 0:06/00:00:15)
   8 ４二飛(82)   ( 0:04/00:00:14)
*四間飛車の完成。

変化：4手
   4 ８四歩(83)   ( 0:03/00:00:05)
*居飛車で戦う手もあります。
   5 ２五歩(26)   ( 0:02/00:00:09)
   6 ８五歩(84)   ( 0:02/00:00:07)
`;

export async function mount(root) {
  let tree = null;
  let source = null; // what was uploaded, for "download as"
  let line = [];
  let index = 0;
  let viewFlipped = false;

  const fileInput = h("input", { type: "file", id: "record-file", class: "visually-hidden",
    accept: ".kif,.kifu,.ki2,.ki2u,.csa,.jkf,.json,.sfen,.usi,.txt" });
  const textArea = h("textarea", { id: "record-text", rows: 8, spellcheck: "false" });
  const openCard = h("div", { class: "card open-card" });
  const viewer = h("div", { class: "viewer-layout", hidden: true });
  fill(root, h("h1", { class: "page-title", "data-i18n": "ui.record.title" }), openCard, viewer);

  // -- opening -------------------------------------------------------------------------------
  function renderOpen() {
    const drop = h("label", { class: "drop-zone", for: "record-file" },
      h("span", { class: "drop-icon" }, icon("folder")),
      h("strong", { text: t("ui.record.choose_file") }),
      h("small", { text: t("ui.record.drop_here") }));
    for (const type of ["dragenter", "dragover"]) {
      drop.addEventListener(type, (event) => { event.preventDefault(); drop.classList.add("over"); });
    }
    for (const type of ["dragleave", "drop"]) drop.addEventListener(type, () => drop.classList.remove("over"));
    drop.addEventListener("drop", (event) => {
      event.preventDefault();
      const file = event.dataTransfer.files && event.dataTransfer.files[0];
      if (file) openFile(file);
    });
    textArea.placeholder = t("ui.record.paste_placeholder");
    fill(openCard,
      h("div", { class: "open-grid" },
        h("div", {}, fileInput, drop),
        h("div", { class: "paste" },
          h("label", { for: "record-text", class: "field-label", text: t("ui.record.paste") }),
          textArea,
          h("div", { class: "row wrap end" },
            h("button", { class: "btn ghost", type: "button", id: "example-button", text: t("ui.record.example"),
              onclick: () => { textArea.value = EXAMPLE; openText(EXAMPLE); } }),
            h("button", { class: "btn primary", type: "button", id: "open-button", text: t("ui.record.open"),
              onclick: () => openText(textArea.value) })))),
      h("p", { class: "muted small", text: t("ui.record.formats") }));
  }
  fileInput.addEventListener("change", () => {
    if (fileInput.files && fileInput.files[0]) openFile(fileInput.files[0]);
  });

  async function openFile(file) {
    const bytes = await file.arrayBuffer();
    await openBody(bytes, "application/octet-stream");
  }

  async function openText(text) {
    if (!text.trim()) {
      toast(t("error.empty_record"), "error");
      return;
    }
    await openBody(JSON.stringify({ text }), "application/json");
  }

  async function openBody(body, type) {
    try {
      const answer = await api("/api/records", { method: "POST", headers: { "Content-Type": type }, body });
      source = { body, type };
      show(answer);
    } catch (error) {
      toast(errorText(error.code, error.message), "error");
    }
  }

  // -- viewing -------------------------------------------------------------------------------
  let boardApi = null;
  const info = h("div", { class: "record-info" });
  const list = h("ol", { class: "move-list record-moves" });
  const comment = h("div", { class: "comment-box", "aria-live": "polite" });
  const nav = h("div", { class: "step-buttons" });
  const warnings = h("div", { class: "warnings", hidden: true });
  const actions = h("div", { class: "card tools-card" });

  function buildViewer() {
    const boardHost = h("div", { class: "board-host", id: "board" });
    fill(viewer,
      h("section", { class: "board-column" }, boardHost, nav),
      h("aside", { class: "side-column" },
        h("div", { class: "card" }, info, warnings),
        h("div", { class: "card moves-card" }, h("h2", { class: "card-title", text: t("ui.game.moves") }), list),
        h("div", { class: "card comment-card" }, h("h2", { class: "card-title", text: t("ui.record.comment") }), comment),
        actions));
    if (boardApi) boardApi.destroy();
    boardApi = createBoard(boardHost, { interactive: false, language: currentLanguage(), flipped: viewFlipped });
  }

  function show(answer) {
    tree = answer;
    line = mainLineFrom(0);
    index = 0;
    openCard.hidden = true;
    viewer.hidden = false;
    buildViewer();
    renderAll();
  }

  function mainLineFrom(id) {
    const path = [];
    let node = tree.nodes[id];
    while (node) {
      path.unshift(node.id);
      node = node.parent === null ? null : tree.nodes[node.parent];
    }
    let tail = tree.nodes[id];
    while (tail.children.length) {
      tail = tree.nodes[tail.children[0]];
      path.push(tail.id);
    }
    return path;
  }

  function current() {
    return tree.nodes[line[index]];
  }

  function go(newIndex) {
    index = Math.max(0, Math.min(line.length - 1, newIndex));
    renderPosition();
  }

  function nodeLabel(node) {
    if (node.result) {
      const key = `ui.recres.${node.result}`;
      return has(key) ? t(key) : node.word || node.result;
    }
    return node.label ? moveText(node) : t("ui.record.start");
  }

  function renderPosition() {
    const node = current();
    const positionNode = node.usi === null && node.result ? tree.nodes[node.parent] : node;
    boardApi.setPosition({
      sfen: positionNode.sfen,
      lastMove: positionNode.usi,
      check: positionNode.check,
    });
    fill(comment, node.comment ? h("p", { class: "comment-text", text: node.comment })
      : h("p", { class: "muted", text: t("ui.record.no_comment") }));
    for (const item of list.querySelectorAll("li[data-index]")) {
      item.classList.toggle("current", Number(item.dataset.index) === index);
    }
    const active = list.querySelector("li.current");
    if (active) {
      const top = active.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = top - list.clientHeight / 2;
    }
    renderNav();
  }

  // The counter says what the list says: each entry's own number, the result entry (投了,
  // 詰み ...) included, as KIF numbers it (44 投了 after 43 moves), out of the line's last number.
  function plyCount(node) {
    return { n: node.ply, total: tree.nodes[line[line.length - 1]].ply };
  }

  function renderNav() {
    const node = current();
    const button = (id, iconName, title, target, disabled) => h("button", {
      class: "btn step", id, type: "button", title, "aria-label": title, disabled,
      onclick: () => go(target),
    }, icon(iconName));
    fill(nav,
      button("first-button", "first", t("ui.record.first"), 0, index === 0),
      button("prev-button", "prev", t("ui.record.prev"), index - 1, index === 0),
      h("span", { class: "step-count", text: t("ui.record.ply", plyCount(node)) }),
      button("next-button", "next", t("ui.record.next"), index + 1, index >= line.length - 1),
      button("last-button", "last", t("ui.record.last"), line.length - 1, index >= line.length - 1),
      h("button", { class: "btn ghost step", id: "flip-button", type: "button", title: t("ui.game.flip"), "aria-label": t("ui.game.flip"),
        onclick: () => { viewFlipped = !viewFlipped; boardApi.setFlipped(viewFlipped); } }, icon("flip")));
  }

  function renderList() {
    const items = [h("li", { dataset: { index: 0 }, class: "start-entry", onclick: () => go(0) },
      h("span", { class: "ply" }), h("span", { class: "label", text: t("ui.record.start") }))];
    for (let i = 1; i < line.length; i++) {
      const node = tree.nodes[line[i]];
      const parent = tree.nodes[node.parent];
      const item = h("li", { dataset: { index: i }, class: node.result ? "result-entry" : null },
        h("span", { class: "ply", text: String(node.ply) }),
        h("span", { class: "label", lang: moveTextLang(), text: nodeLabel(node) }),
        node.comment ? h("span", { class: "has-comment", title: t("ui.record.comment") }, icon("comment")) : null);
      item.addEventListener("click", () => go(i));
      items.push(item);
      if (parent.children.length > 1) {
        items.push(h("li", { class: "variations" },
          h("span", { class: "ply" }),
          h("span", { class: "var-list" }, h("small", { text: t("ui.record.variations") }),
            parent.children.map((childId) => {
              const child = tree.nodes[childId];
              return h("button", {
                type: "button", class: `chip${childId === node.id ? " active" : ""}`, lang: moveTextLang(),
                text: nodeLabel(child),
                onclick: () => {
                  line = mainLineFrom(childId);
                  index = line.indexOf(childId);
                  renderList();
                  renderPosition();
                },
              });
            }))));
      }
    }
    fill(list, ...items);
  }

  function renderInfo() {
    const headers = tree.headers || {};
    const rows = [];
    const keys = [...HEADER_ORDER.filter((k) => k in headers), ...Object.keys(headers).filter((k) => !HEADER_ORDER.includes(k))];
    for (const key of keys.slice(0, 12)) {
      const label = has(`ui.header.${key}`) ? t(`ui.header.${key}`) : key;
      rows.push(h("dt", { text: label }), h("dd", { text: key === "手合割" ? handicapText(headers[key]) : headers[key] }));
    }
    fill(info,
      h("h2", { class: "card-title", text: titleOf(headers) }),
      rows.length ? h("dl", { class: "headers" }, rows) : null);
    warnings.hidden = !(tree.errors && tree.errors.length);
    if (!warnings.hidden) {
      fill(warnings, h("details", {},
        h("summary", { text: t("ui.record.warnings", { n: tree.errors.length }) }),
        h("ul", {}, tree.errors.slice(0, 20).map((e) => h("li", { text: e })))));
    }
  }

  // The handicap in the page's language, the record's Japanese name beside it where that differs.
  function handicapText(value) {
    const key = `ui.handicap.${tree.handicap_english}`;
    if (currentLanguage() === "ja" || !tree.handicap_english || !has(key)) return value;
    const name = t(key);
    if (name === value) return name;
    return currentLanguage() === "en" ? `${name} (${value})` : `${name}（${value}）`;
  }

  function titleOf(headers) {
    const black = headers["先手"] || headers["下手"];
    const white = headers["後手"] || headers["上手"];
    const handicap = !!(headers["下手"] || headers["上手"]);
    const side = (color) => t(handicap ? (color === "b" ? "side.shitate" : "side.uwate") : (color === "b" ? "side.sente" : "side.gote"));
    if (black || white) return `☗${black || side("b")} — ☖${white || side("w")}`;
    return t("ui.record.untitled");
  }

  function renderActions() {
    const downloads = ["kif", "ki2", "csa", "usi", "sfen"].map((fmt) => h("button", {
      class: "btn small", type: "button", text: formatButton(fmt), dataset: { format: fmt },
      title: t(`ui.format.${fmt}`), "aria-label": t(`ui.format.${fmt}`),
      onclick: () => download(fmt),
    }));
    fill(actions,
      h("h2", { class: "card-title", text: t("ui.record.play_from_here") }),
      h("p", { class: "muted", text: t("ui.record.play_from_here_text") }),
      h("div", { class: "row wrap" },
        h("button", { class: "btn primary", type: "button", id: "continue-computer", text: t("ui.record.vs_computer"), onclick: () => playFromHere("computer") }),
        h("button", { class: "btn", type: "button", id: "continue-friend", text: t("ui.record.vs_friend"), onclick: () => playFromHere("friend") }),
        h("button", { class: "btn", type: "button", text: t("ui.play.local"), onclick: () => playFromHere("local") })),
      h("div", { class: "row wrap" }, h("button", { class: "btn", type: "button", id: "analyse-record", text: t("ui.record.analyse"),
        onclick: async () => { // the main line from the start, analysed on the server (its page: a shareable link)
          const moves = [];
          for (let node = tree.nodes[0]; node && node.children && node.children.length;) {
            node = tree.nodes[node.children[0]];
            if (node.usi) moves.push(node.usi);
          }
          try {
            const answer = await api("/api/records/analysis", { method: "POST", headers: { "Content-Type": "application/json" },
              body: JSON.stringify({ sfen: tree.start_sfen, moves }) });
            location.assign(answer.url);
          } catch (error) {
            toast(errorText(error.code, error.message), "error");
          }
        } })),
      h("h2", { class: "card-title", text: t("ui.record.download") }),
      h("div", { class: "row wrap" }, downloads),
      h("div", { class: "row wrap" }, h("button", { class: "btn ghost", type: "button", id: "another-button", text: t("ui.record.another"),
        onclick: () => { viewer.hidden = true; openCard.hidden = false; } })));
  }

  function playFromHere(mode) {
    let node = current();
    if (node.result) node = tree.nodes[node.parent];
    const moves = line.slice(1, line.indexOf(node.id) + 1).map((id) => tree.nodes[id].usi).filter(Boolean);
    // position: the board after the moves, for the home page's preview (the game starts from
    // sfen + moves, so its record keeps the whole game).
    const setup = { sfen: tree.start_sfen, moves, mode, lastMove: node.usi, position: node.sfen };
    sessionStorage.setItem(SETUP_KEY, JSON.stringify(setup));
    location.assign("/");
  }

  async function download(fmt) {
    if (!source) return;
    try {
      const response = await fetch(`/api/records/export?format=${fmt}`, {
        method: "POST", headers: { "Content-Type": source.type }, body: source.body,
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        throw new ApiError(body.code || "http", body.message || `HTTP ${response.status}`);
      }
      const disposition = response.headers.get("Content-Disposition") || "";
      const match = /filename="([^"]+)"/.exec(disposition);
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: match ? match[1] : `record.${fmt}` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      toast(errorText(error.code, error.message), "error");
    }
  }

  function renderAll() {
    if (!tree) return;
    renderInfo();
    renderList();
    renderActions();
    renderPosition();
  }

  document.addEventListener("keydown", (event) => {
    if (!tree || viewer.hidden || /input|textarea|select/i.test(event.target.tagName)) return;
    if (event.key === "ArrowRight") go(index + 1);
    else if (event.key === "ArrowLeft") go(index - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(line.length - 1);
    else return;
    event.preventDefault();
  });

  renderOpen();
  onNotationChange(() => { if (tree) renderAll(); });
  onLanguageChange((language) => {
    renderOpen();
    if (tree) {
      buildViewer();
      boardApi.setLanguage(language);
      renderAll();
    }
  });

  const params = new URLSearchParams(location.search);
  const gameId = params.get("game");
  if (gameId) {
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/record.kif`);
      if (!response.ok) throw new ApiError("unknown_game", `HTTP ${response.status}`);
      await openBody(await response.arrayBuffer(), "application/octet-stream");
    } catch (error) {
      toast(errorText(error.code, error.message), "error");
    }
  }
}

