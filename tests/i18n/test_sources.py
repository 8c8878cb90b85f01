"""Scans of the sources: every code the code base refuses or fails with has words, every key the
code asks for exists, and the front ends keep no strings or code tables of their own."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from shogiban import i18n

SRC = Path(__file__).resolve().parents[2] / "src" / "shogiban"
STATIC = SRC / "web" / "static"
SCRIPTS = sorted(STATIC.rglob("*.js"))


def _without_comments(source: str) -> str:
    source = re.sub(r"/\*[\s\S]*?\*/", "", source)
    return re.sub(r"(?m)(^|\s)//[^\n]*", r"\1", source)


def _codes(patterns: list[str], files: list[Path]) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        for pattern in patterns:
            for code in re.findall(pattern, text):
                found.setdefault(code, path.name)
    return found


def test_every_refusal_of_the_rules_has_words_in_the_rules_domain() -> None:
    # The core's refusal codes (today's ``return "nifu", ...`` in rules.py, and Refusal(...)
    # wherever it is built), and the refusals the notation and the game refuse with.
    files = sorted(SRC.rglob("*.py"))
    refusals = _codes([r'Refusal\(\s*(?:code\s*=\s*)?"(\w+)"', r'ActionRefused\(\s*"(\w+)"'], files)
    refusals.update(_codes([r'return "(\w+)", ', r'code\s*=\s*"(\w+)"'], [SRC / "rules.py"]))
    refusals.update(dict.fromkeys(
        ["nifu", "uchifuzume", "self_check", "dead_piece", "no_piece", "not_your_piece", "cannot_reach",
         "not_in_hand", "must_promote", "cannot_promote", "occupied_by_own", "game_over"], "design"))
    assert len(refusals) > 15
    missing = {code: where for code, where in refusals.items() if not i18n.has_key(f"rules.{code}")}
    assert not missing, missing


def test_every_code_the_code_base_raises_has_words() -> None:
    files = sorted(SRC.rglob("*.py"))
    codes = _codes([
        r'\bcode = "(\w+)"',  # the error classes
        r'(?:RequestError|RoomError)\(\s*"(\w+)"',
        r'\bcode="(\w+)"', r'json_code="(\w+)"',
        r'Param\([^\n]*?, "(\w+)", \d+',
    ], files)
    assert len(codes) > 40
    missing = {code: where for code, where in codes.items()
               if not (i18n.has_key(f"rules.{code}") or i18n.has_key(f"error.{code}"))}
    assert not missing, missing


def test_every_termination_has_words() -> None:
    from shogiban.outcome import Termination

    for termination in Termination:
        assert i18n.has_key(f"termination.{termination.value}"), termination


def test_every_key_the_python_code_asks_for_exists() -> None:
    call = re.compile(r"""\b(?:translate|template|self\.t|t)\(\s*f?"([a-z_][a-z_.0-9{}]*)"[,)]""")
    asked = 0
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for key in call.findall(text):
            asked += 1
            if "{" in key:  # an f-string: its fixed start must begin some key
                prefix = key.split("{")[0]
                assert any(k.startswith(prefix) for k in i18n.messages("en")), (path.name, key)
                continue
            assert i18n.has_key(key), (path.name, key)
    assert asked > 60


def test_every_key_the_scripts_ask_for_exists() -> None:
    english = i18n.web_messages("en")
    used: set[str] = set()
    prefixes: set[str] = set()
    for path in SCRIPTS:
        source = _without_comments(path.read_text(encoding="utf-8"))
        used |= set(re.findall(r"""\b(?:t|has)\(\s*["']([^"'$]+)["']""", source))
        used |= set(re.findall(r"""(?:data-i18n[a-z-]*|i18n)["']?\s*:\s*["']([^"'$]+)["']""", source))
        prefixes |= set(re.findall(r"""\b(?:t|has)\(\s*`([^`$]+)\$\{""", source))
        prefixes |= set(re.findall(r"""i18n\s*:\s*`([^`$]+)\$\{""", source))
    assert len(used) > 120
    assert sorted(key for key in used if key not in english) == []
    assert prefixes
    assert all(any(key.startswith(prefix) for key in english) for prefix in prefixes), prefixes
    # The shell's own keys too.
    shell = (SRC / "web" / "pages.py").read_text(encoding="utf-8")
    for key in re.findall(r"""(?:t\(|data-i18n=")['"]?f?['"]?(ui\.[a-z_.]+)""", shell):
        if key.endswith("."):  # a key made from a name ("ui.notation.{name}"): its group exists
            assert any(k.startswith(key) for k in english), key
        else:
            assert key in english, key


def test_the_scripts_keep_no_strings_of_their_own() -> None:
    # No string tables beside the catalogue...
    assert not list(STATIC.rglob("*.json"))
    # ...no table of refusal codes (what a code means is the catalogue's)...
    codes = {key.split(".", 1)[1] for key in i18n.messages("en") if key.startswith("rules.")}
    for path in SCRIPTS:
        literals = set(re.findall(r"""["'`]([a-z_]+)["'`]""", _without_comments(path.read_text(encoding="utf-8"))))
        assert not literals & codes, (path.name, sorted(literals & codes))
    # ...and no English put on the page: user-facing properties are filled by t().
    shown = re.compile(
        r"""(?:\b(?:text|title|label|placeholder|sub|alt)\s*:|["']aria-label["']\s*:|"""
        r"""\.(?:textContent|innerText|placeholder|title)\s*=|\b(?:toast|alert|confirm|prompt)\(|"""
        r"""setAttribute\(\s*["'](?:title|aria-label|placeholder|alt)["']\s*,)\s*(["'`])((?:(?!\1).)*)\1""")
    for path in SCRIPTS:
        for _, literal in shown.findall(_without_comments(path.read_text(encoding="utf-8"))):
            words = re.sub(r"\$\{[^}]*\}|shogiban", "", literal)
            assert not re.search(r"[A-Za-z]{2}", words), (path.name, literal)
            # Japanese or Chinese typed into a script would be a copy of the catalogue's text.
            assert not re.search(r"[\u3040-\u30ff\u3400-\u9fff]", words), (path.name, literal)


def test_the_terminal_prints_no_literal_text() -> None:
    said = re.compile(r"""\b(?:say|print|console\.print)\(\s*f?(["'])((?:(?!\1).)*[A-Za-z]{3,}(?:(?!\1).)*)\1""")
    for path in [*sorted((SRC / "play").glob("*.py")), SRC / "commands" / "play.py"]:
        source = re.sub(r'"""[\s\S]*?"""', "", path.read_text(encoding="utf-8"))
        assert said.findall(source) == [], path.name


def test_every_lesson_text_is_in_the_catalogue_and_no_other() -> None:
    data = tomllib.loads((SRC / "lessons" / "lessons.toml").read_text(encoding="utf-8"))
    wanted = set()
    for lesson in data["lesson"]:
        wanted.add(f"lessons.{lesson['id']}.title")
        for section in lesson["section"]:
            assert isinstance(section["text"], str), (lesson["id"], section)
            wanted.add(f"lessons.{lesson['id']}.{section['text']}")
            # A tactic's explanations of plausible wrong moves are texts of its lesson too.
            whys = section.get("exercise", {}).get("why", {}).values()
            wanted.update(f"lessons.{lesson['id']}.{why}" for why in whys)
    present = {key for key in i18n.messages("en") if key.startswith("lessons.")}
    assert wanted == present, (sorted(wanted - present), sorted(present - wanted))
    from shogiban.lessons.content import check_lessons

    assert check_lessons() == []
