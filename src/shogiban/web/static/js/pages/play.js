// The home page: start a game (computer, friend by link, or two players on this device) and
// find your recent games.

import { createBoard } from "../board.js";
import { currentLanguage, onLanguageChange, t } from "../i18n.js";
import { icon } from "../icons.js";
import { api, errorText, forgetGame, h, postJson, recentGames, rememberGame, toast, fill } from "../util.js";

const SETTINGS_KEY = "shogiban.newgame";
const SETUP_KEY = "shogiban.setup";
const TIME_PRESETS = [
  { id: "none", kind: "none" },
  { id: "10m30s", kind: "byoyomi", main: 10, byoyomi: 30 },
  { id: "5m10s", kind: "byoyomi", main: 5, byoyomi: 10 },
  { id: "0m30s", kind: "byoyomi", main: 0, byoyomi: 30 },
  { id: "3m2s", kind: "fischer", main: 3, increment: 2 },
  { id: "custom", kind: "custom" },
];

function loadSettings() {
  const defaults = {
    mode: "computer", opponent: "engine", level: 2, color: "b", handicap: "平手",
    time: "none", kind: "byoyomi", main: 10, byoyomi: 30, increment: 5, rule: "",
  };
  try {
    return { ...defaults, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") };
  } catch (error) {
    return defaults;
  }
}

function loadSetup() {
  try {
    const setup = JSON.parse(sessionStorage.getItem(SETUP_KEY) || "null");
    return setup && typeof setup.sfen === "string" ? setup : null;
  } catch (error) {
    return null;
  }
}

export async function mount(root) {
  const settings = loadSettings();
  let setup = loadSetup();
  let config = { levels: [1, 2, 3, 4, 5, 6, 7, 8], engine: true, usi: null, handicaps: [], learn: false };
  try {
    config = await api("/api/config");
  } catch (error) {
    toast(errorText(error.code, error.message), "error");
  }
  if (setup && setup.mode) settings.mode = setup.mode;

  const formHost = h("div", { class: "card newgame-card" });
  const preview = h("div", { class: "preview-board" });
  const side = h("div", { class: "home-side" });
  fill(root, h("div", { class: "home-layout" },
    h("section", { class: "home-main" }, h("div", { class: "hero" },
      h("h1", { class: "hero-title", "data-i18n": "ui.play.title" }),
      h("p", { class: "hero-sub", "data-i18n": "ui.play.subtitle" })), formHost),
    h("aside", { class: "home-aside" }, preview, side)));

  const previewBoard = createBoard(preview, { interactive: false, language: currentLanguage(), coordinates: true, animation: false });

  function handicapSfen() {
    if (setup) return typeof setup.position === "string" ? setup.position : setup.sfen;
    const found = config.handicaps.find((x) => x.japanese === settings.handicap);
    return found ? found.sfen : "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
  }

  // The name in the page's language, with the Japanese name beside it when that differs
  // (平手 is 平手 in Chinese too: no "平手（平手）").
  function handicapLabel(hc) {
    const name = currentLanguage() === "ja" ? hc.japanese : t(`ui.handicap.${hc.english}`);
    if (name === hc.japanese) return name;
    return currentLanguage() === "en" ? `${name} (${hc.japanese})` : `${name}（${hc.japanese}）`;
  }

  /** "b" or "w": the side to move in the position the game will start from. */
  function sideToMove() {
    return handicapSfen().trim().split(/\s+/)[1] === "w" ? "w" : "b";
  }

  function isHandicap() {
    return !setup && settings.handicap && settings.handicap !== "平手";
  }

  function save() {
    try {
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
    } catch (error) {
      // Not remembered: the form still works.
    }
  }

  function radioGroup(name, options, value, onChange) {
    return h("div", { class: `segmented seg-${name}`, role: "radiogroup" }, options.map((option) => {
      const id = `${name}-${option.value}`;
      const input = h("input", { type: "radio", name, id, value: option.value, checked: String(option.value) === String(value) });
      input.addEventListener("change", () => { onChange(option.value); });
      return h("label", { for: id, class: option.className || null, title: option.title || null }, input,
        h("span", { class: "seg-text" }, option.label, option.sub ? h("small", { text: option.sub }) : null));
    }));
  }

  // A field's title names its control: a <label> for a single control (a select), else the
  // title of the group (the tiles, the segmented buttons).
  function field(labelKey, control, help = null) {
    const labelId = `label-${labelKey.replaceAll(".", "-")}`;
    const single = ["SELECT", "INPUT", "TEXTAREA"].includes(control.tagName) && control.id;
    const label = single
      ? h("label", { class: "field-label", id: labelId, for: control.id, text: t(labelKey) })
      : h("div", { class: "field-label", id: labelId, text: t(labelKey) });
    if (!single) {
      if (!control.hasAttribute("role")) control.setAttribute("role", "group");
      control.setAttribute("aria-labelledby", labelId);
    }
    return h("div", { class: "field" }, label, control, help ? h("p", { class: "field-help", text: help }) : null);
  }

  function renderForm() {
    const parts = [];
    parts.push(field("ui.play.opponent", h("div", { class: "tiles" }, [
      ["computer", "computer", "ui.play.computer", "ui.play.computer_desc"],
      ["friend", "link", "ui.play.friend", "ui.play.friend_desc"],
      ["local", "people", "ui.play.local", "ui.play.local_desc"],
    ].map(([mode, iconName, title, desc]) => {
      const id = `mode-${mode}`;
      const input = h("input", { type: "radio", name: "mode", id, value: mode, checked: settings.mode === mode });
      input.addEventListener("change", () => { settings.mode = mode; save(); renderForm(); });
      return h("label", { class: "tile", for: id }, input,
        h("span", { class: "tile-icon" }, icon(iconName)),
        h("span", { class: "tile-title", text: t(title) }),
        h("span", { class: "tile-desc", text: t(desc) }));
    }))));

    if (settings.mode === "computer") {
      if (config.usi) {
        parts.push(field("ui.play.engine", radioGroup("opponent", [
          { value: "engine", label: t("ui.play.builtin") },
          { value: "usi", label: config.usi },
        ], settings.opponent, (v) => { settings.opponent = v; save(); renderForm(); })));
      }
      if (settings.opponent !== "usi" || !config.usi) {
        if (!config.engine) parts.push(h("p", { class: "warning", text: t("ui.play.engine_missing") }));
        parts.push(field("ui.play.level", radioGroup("level", config.levels.map((level) => ({
          value: level, label: String(level), title: t(`ui.level.${level}`),
        })), settings.level, (v) => { settings.level = Number(v); save(); renderForm(); }), t(`ui.level.${settings.level}`)));
      }
    }

    if (settings.mode !== "local") {
      const handicap = isHandicap();
      // Who moves first is the position's side to move (gote in a set-up or handicap position).
      const first = sideToMove();
      const order = (color) => t(color === first ? "ui.play.moves_first" : "ui.play.moves_second");
      parts.push(field("ui.play.side", radioGroup("color", [
        { value: "b", label: handicap ? `☗ ${t("side.shitate")}` : `☗ ${t("side.sente")}`, sub: handicap ? t("ui.play.receives") : order("b") },
        { value: "w", label: handicap ? `☖ ${t("side.uwate")}` : `☖ ${t("side.gote")}`, sub: handicap ? t("ui.play.gives") : order("w") },
        { value: "random", label: t("ui.play.random"), sub: t("ui.play.random_sub") },
      ], settings.color, (v) => { settings.color = v; save(); })));
    }

    if (setup) {
      // A record's moves are played on from the move reached; without moves (the position
      // editor, or a record's start) the game starts from the position as it was set up.
      const played = setup.moves ? setup.moves.length : 0;
      parts.push(h("div", { class: "field from-record" },
        h("p", { id: "setup-banner", text: played ? t("ui.play.from_record", { n: played }) : t("ui.play.from_position") }),
        h("button", { type: "button", class: "btn small", text: t("ui.play.clear_record"),
          onclick: () => { setup = null; sessionStorage.removeItem(SETUP_KEY); renderForm(); } })));
    } else {
      const select = h("select", { name: "handicap", id: "handicap-select" }, config.handicaps.map((hc) => h("option", {
        value: hc.japanese, selected: hc.japanese === settings.handicap,
        text: handicapLabel(hc),
      })));
      select.addEventListener("change", () => { settings.handicap = select.value; save(); renderForm(); });
      parts.push(field("ui.play.handicap", select, isHandicap() ? t("ui.play.handicap_help") : null));
    }

    parts.push(field("ui.play.time", radioGroup("time", TIME_PRESETS.map((preset) => ({
      value: preset.id, label: t(`ui.time.${preset.id}`),
    })), settings.time, (v) => { settings.time = v; save(); renderForm(); })));
    if (settings.time === "custom") {
      const number = (key, labelKey, min, max) => {
        const input = h("input", { type: "number", min, max, step: 1, value: settings[key], name: key, id: `time-${key}` });
        input.addEventListener("change", () => { settings[key] = Math.max(min, Math.min(max, Number(input.value) || 0)); save(); });
        return h("label", { class: "inline-field" }, h("span", { text: t(labelKey) }), input);
      };
      parts.push(h("div", { class: "field custom-time" },
        radioGroup("kind", [
          { value: "byoyomi", label: t("ui.play.byoyomi") },
          { value: "fischer", label: t("ui.play.fischer") },
        ], settings.kind, (v) => { settings.kind = v; save(); renderForm(); }),
        h("div", { class: "row wrap" },
          number("main", "ui.play.main_minutes", 0, 600),
          settings.kind === "byoyomi" ? number("byoyomi", "ui.play.byoyomi_seconds", 0, 600) : number("increment", "ui.play.increment_seconds", 0, 600))));
    }

    const rule = h("select", { name: "rule", id: "rule-select" }, ["", "27", "24", "27h", "24h", "none"].map((value) => h("option", {
      value, selected: value === settings.rule, text: t(value ? `ui.rule.${value}` : "ui.rule.default"),
    })));
    rule.addEventListener("change", () => { settings.rule = rule.value; save(); });
    parts.push(h("details", { class: "advanced" }, h("summary", { text: t("ui.play.advanced") }),
      field("ui.play.rule", rule, t("ui.play.rule_help"))));

    const start = h("button", { type: "submit", class: "btn primary big", id: "start-button", text: t("ui.play.start") });
    const form = h("form", { class: "newgame-form" }, ...parts, h("div", { class: "row end" }, start));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      start.disabled = true;
      try {
        await startGame();
      } finally {
        start.disabled = false;
      }
    });
    fill(formHost, form);
    previewBoard.setPosition({ sfen: handicapSfen(), lastMove: setup && setup.lastMove ? setup.lastMove : null });
    previewBoard.setFlipped(settings.mode !== "local" && settings.color === "w");
  }

  function timeControl() {
    const preset = TIME_PRESETS.find((p) => p.id === settings.time) || TIME_PRESETS[0];
    let kind = preset.kind;
    let main = preset.main;
    let byoyomi = preset.byoyomi;
    let increment = preset.increment;
    if (kind === "custom") {
      kind = settings.kind;
      main = settings.main;
      byoyomi = settings.byoyomi;
      increment = settings.increment;
    }
    if (kind === "none") return null;
    if (kind === "byoyomi") return { main: main * 60, byoyomi };
    return { main: main * 60, increment };
  }

  async function startGame() {
    const body = {
      mode: settings.mode,
      opponent: config.usi ? settings.opponent : "engine",
      level: settings.level,
      color: settings.color,
      time: timeControl(),
      rule: settings.rule || null,
    };
    if (setup) {
      body.sfen = setup.sfen;
      body.moves = setup.moves || [];
    } else {
      body.handicap = settings.handicap;
    }
    try {
      const answer = await postJson("/api/games", body);
      rememberGame({ id: answer.id, mode: settings.mode, color: settings.mode === "local" ? "both" : answer.color, label: "" });
      sessionStorage.removeItem(SETUP_KEY);
      location.assign(answer.url);
    } catch (error) {
      toast(errorText(error.code, error.message), "error");
    }
  }

  // Entries written before the opponent was kept (a label in some language) show the mode.
  function recentLabel(game) {
    const opponent = game.opponent;
    if (opponent && opponent.kind === "engine") return t("ui.player.computer", { level: opponent.level });
    if (opponent && opponent.kind === "usi") return opponent.name || t("ui.player.usi");
    return t(`ui.play.${["computer", "friend", "local"].includes(game.mode) ? game.mode : "local"}`);
  }

  function renderSide() {
    const games = recentGames();
    const cards = [];
    if (games.length) {
      cards.push(h("div", { class: "card recent-card" },
        h("h2", { class: "card-title", text: t("ui.play.recent") }),
        h("ul", { class: "recent-list" }, games.map((game) => h("li", {},
          h("a", { href: `/game/${encodeURIComponent(game.id)}` },
            h("span", { class: "recent-mode", text: recentLabel(game) }),
            h("span", { class: "recent-date", text: new Date(game.at).toLocaleString(currentLanguage()) }),
            game.over ? h("span", { class: "badge", text: t("ui.play.finished") }) : null),
          h("button", { class: "icon-btn", type: "button", "aria-label": t("ui.play.forget"), title: t("ui.play.forget"), text: "×",
            onclick: () => { forgetGame(game.id); renderSide(); } }))))));
    }
    cards.push(h("a", { class: "card link-card", href: "/record" },
      h("span", { class: "link-card-icon" }, icon("record")),
      h("span", {}, h("strong", { text: t("ui.nav.record") }), h("small", { text: t("ui.play.open_record_desc") }))));
    if (config.learn) {
      cards.push(h("a", { class: "card link-card", href: "/learn" },
        h("span", { class: "link-card-icon" }, icon("learn")),
        h("span", {}, h("strong", { text: t("ui.nav.learn") }), h("small", { text: t("ui.play.learn_desc") }))));
      cards.push(h("a", { class: "card link-card", href: "/puzzles" },
        h("span", { class: "link-card-icon" }, icon("puzzle")),
        h("span", {}, h("strong", { text: t("ui.nav.puzzles") }), h("small", { text: t("ui.play.puzzles_desc") }))));
    }
    fill(side, ...cards);
  }

  renderForm();
  renderSide();
  onLanguageChange((language) => {
    previewBoard.setLanguage(language);
    renderForm();
    renderSide();
  });
}


