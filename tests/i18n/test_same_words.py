"""The terminal and the web say the same thing for the same code: the page scripts' translation
(run in Node.js on the served catalogue) against the Python one."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from shogiban import Board, Color, Move, Outcome, Termination, i18n
from shogiban.notation.entry import format_move
from shogiban.notation.japanese import make_ki2_move
from shogiban.play.explain import explain_outcome
from shogiban.web.pages import sentence

JS = Path(__file__).resolve().parents[2] / "src" / "shogiban" / "web" / "static" / "js"

REFUSALS: list[tuple[str, dict[str, Any]]] = [
    ("nifu", {"file": 5}),
    ("nifu", {}),
    ("uchifuzume", {}),
    ("no_piece_in_hand", {"piece": "pawn"}),
    ("no_piece_in_hand", {}),
    ("bad_piece_move", {"piece": "silver", "from_square": "5e", "square": "4e"}),
    ("bad_piece_move", {"piece": "+R", "from_square": "9a"}),
    ("must_promote", {"piece": 1}),
    ("dead_piece", {"piece": "N", "square": "3b"}),
    ("occupied", {"square": "5i"}),
    ("wrong_side", {"side": "w"}),
    ("not_your_turn", {}),
    ("too_few_points", {"points": 27, "need": 28}),
    ("too_few_points", {}),
]
ERRORS = ["bad_invite", "unknown_game", "too_fast", "no_such_error"]
MOVES = [
    (None, "7g7f"), ("4k4/9/9/9/9/9/9/9/4K4 b RSNB 1", "R*5e"), ("4k4/9/9/9/9/9/9/9/4K4 b RSNB 1", "S*5e"),
    ("4k4/9/9/9/9/9/9/+R8/4K4 b - 1", "9h9a"), ("4k4/9/9/9/9/9/9/+B8/4K4 b - 1", "9h8g"),
    ("4k4/9/4S4/9/9/9/9/9/4K4 b - 1", "5c4b+"),
]
ENDS = [
    ("checkmate", "b", ""), ("no_legal_moves", "w", ""), ("repetition", None, ""), ("perpetual_check", "w", ""),
    ("max_moves", None, ""), ("illegal_move", "b", "gote: illegal move 5a5c"), ("resignation", "w", ""),
    ("time_forfeit", "b", ""), ("abandoned", None, ""),
]

def _board(sfen: str | None) -> Board:
    return Board(sfen) if sfen else Board()


SCRIPT = """
import { installCatalogue, setLanguage, describeError, moveLabel, pieceGlyph, refusalText, t } from "%(js)s/i18n.js";
import { resultReason } from "%(js)s/render.js";
import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf-8"));  // stdin: the catalogues are larger than one argument may be
const out = {};
for (const [tag, table] of Object.entries(input.catalogues)) {
  installCatalogue(tag, table);
  await setLanguage(tag);
  out[tag] = {
    refusals: input.refusals.map(([code, params]) => describeError(code, "the message", params)),
    errors: input.errors.map((code) => describeError(code, "the message")),
    ends: input.ends.map(([termination, winner, detail]) =>
      resultReason({ outcome: { termination, winner, detail }, game: { handicap: null } })),
    ui: t("ui.game.resign"),
    unknown: [refusalText("no_such_code"), refusalText("param.square")],
    labels: input.labels.map((label) => moveLabel(label)),
    glyphs: ["P", "S", "R", "+B", "+R", "K"].map((type) => pieceGlyph(type, "b")).concat([pieceGlyph("K", "w")]),
  };
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def web_words(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed (it runs the page scripts' translation)")
    script = tmp_path_factory.mktemp("js") / "words.mjs"
    script.write_text(SCRIPT % {"js": JS.as_uri()}, encoding="utf-8")
    data = {
        "catalogues": {i18n.language_tag(lang): i18n.web_messages(lang) for lang in i18n.LANGUAGES},
        "refusals": REFUSALS,
        "errors": ERRORS,
        "ends": ENDS,
        "labels": [make_ki2_move(_board(sfen), Move.from_usi(usi)) for sfen, usi in MOVES],
    }
    done = subprocess.run([node, str(script)], input=json.dumps(data), capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_refusals_read_the_same(web_words: dict[str, Any], language: i18n.Language) -> None:
    shown = web_words[i18n.language_tag(language)]["refusals"]
    for (code, params), text in zip(REFUSALS, shown, strict=True):
        assert text == sentence(i18n.refusal_text(code, params, language)), (code, params)
    assert "{" not in "".join(shown)
    # A code the catalogue does not know, or one of its stand-in words, reads as "not allowed".
    unknown = i18n.refusal_text("no_such_code", {}, language)
    assert web_words[i18n.language_tag(language)]["unknown"] == [unknown, unknown]
    assert unknown == i18n.refusal_text("param.square", {}, language) == i18n.translate("rules.illegal", language)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_errors_read_the_same(web_words: dict[str, Any], language: i18n.Language) -> None:
    shown = web_words[i18n.language_tag(language)]["errors"]
    assert shown[:-1] == [i18n.translate(f"error.{code}", language) for code in ERRORS[:-1]]
    assert shown[-1] == "the message"  # a code the catalogue does not know: the server's words


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_game_ends_read_the_same(web_words: dict[str, Any], language: i18n.Language) -> None:
    shown = web_words[i18n.language_tag(language)]["ends"]
    for (termination, winner, detail), text in zip(ENDS, shown, strict=True):
        color = None if winner is None else Color("bw".index(winner))
        outcome = Outcome(Termination(termination), color, detail)
        assert text == explain_outcome(outcome, Board(), language), termination
    assert web_words[i18n.language_tag(language)]["ui"] == i18n.translate("ui.game.resign", language)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_boards_draw_the_same_characters(web_words: dict[str, Any], language: i18n.Language) -> None:
    from shogiban.notation.names import PIECE_NAMES
    from shogiban.pieces import PieceType as P

    glyphs = web_words[i18n.language_tag(language)]["glyphs"]
    types = [P.PAWN, P.SILVER, P.ROOK, P.PROM_BISHOP, P.PROM_ROOK, P.KING]
    assert glyphs == [PIECE_NAMES[language][piece] for piece in types] + ["王"]


@pytest.mark.parametrize("language", ["ja", "zh-hant", "zh-hans"])
def test_move_labels_read_as_the_terminal_writes_them(web_words: dict[str, Any], language: i18n.Language) -> None:
    # The server labels moves in Japanese (KI2); the pages write them in the language's own
    # characters, as the terminal does (English pages keep the Japanese labels).
    shown = web_words[i18n.language_tag(language)]["labels"]
    expected = [format_move(_board(sfen), Move.from_usi(usi), language) for sfen, usi in MOVES]
    assert shown == expected
    if language == "zh-hans":
        assert "银" in "".join(shown)
        assert "龙" in "".join(shown)
        assert "銀" not in "".join(shown)
