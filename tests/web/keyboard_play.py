"""Playing on the board with the keyboard alone, as a blind player would (board.js: arrow keys move
the cursor, Enter picks and places, Tab reaches the hand pieces, the promotion choice takes the
arrow keys and Enter).  The cursor's square is read from the board's ``aria-activedescendant``."""

from __future__ import annotations

from typing import Any

RANKS = "abcdefghi"


def cursor_square(board: Any) -> str:
    """The square under the keyboard cursor of *board* (a locator of the board's host)."""
    active: str = board.locator(".sb-board-main").get_attribute("aria-activedescendant")
    return active.rsplit("-", 1)[1]


def cursor_to(page: Any, board: Any, square: str) -> None:
    """Move the cursor to *square* with the arrow keys (the board seen from sente's side)."""
    here = cursor_square(board)
    files = int(square[0]) - int(here[0])
    ranks = RANKS.index(square[1]) - RANKS.index(here[1])
    keys = ["ArrowLeft"] * files if files > 0 else ["ArrowRight"] * -files
    keys += ["ArrowDown"] * ranks if ranks > 0 else ["ArrowUp"] * -ranks
    for key in keys:
        page.keyboard.press(key)
    page.wait_for_function("([el, id]) => el.getAttribute('aria-activedescendant').endsWith(id)",
                           arg=[board.locator(".sb-board-main").element_handle(), f"-{square}"])


def play_by_keyboard(page: Any, board: Any, usi: str) -> None:
    """Make the move *usi* with the keyboard on *board*, whose main part has the focus."""
    main = board.locator(".sb-board-main")
    if usi[1] == "*":
        for _ in range(10):  # Tab from the board to the hand piece
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.dataset.piece") == usi[0]:
                break
        else:
            raise AssertionError(f"no hand piece {usi[0]} reached with Tab")
        page.keyboard.press("Enter")
        page.wait_for_function("el => document.activeElement === el", arg=main.element_handle())
    else:
        cursor_to(page, board, usi[:2])
        page.keyboard.press("Enter")
    cursor_to(page, board, usi[2:4])
    page.keyboard.press("Enter")
    if board.locator(".sb-promo-choice").count():
        if not usi.endswith("+"):
            page.keyboard.press("ArrowDown")
            board.locator(".sb-promo-choice.sb-promo-focus[data-choice='=']").wait_for()
        page.keyboard.press("Enter")
