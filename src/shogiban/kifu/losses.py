"""What a format cannot hold: writers report it instead of dropping it silently.

Every writer (and :func:`~shogiban.kifu.write_game`) takes ``losses=[]``, a list it appends a
:class:`Loss` to for each kind of thing the written text leaves out: variations in CSA or USI,
comments and times in USEN, everything but one position in BOD, a result the format has no word
for, characters CP932 lacks in a Shift_JIS file.  Nothing is appended when nothing is lost.

>>> from shogiban.kifu import read_game, write_game
>>> game = read_game("手合割：平手\\n   1 ７六歩(77)\\n*角道\\n   2 ３四歩(33)\\n変化：2手\\n   2 ８四歩(83)\\n")
>>> losses: list[Loss] = []
>>> write_game(game, "usi", losses=losses)
'position startpos moves 7g7f 3c3d\\n'
>>> [str(loss) for loss in losses]
['1 variation (usi has no variations)', '1 comment (usi has no comments)', '1 header (usi has no headers)']
"""

from __future__ import annotations

from dataclasses import dataclass

from shogiban.kifu.game import Game
from shogiban.kifu.results import Result, ResultKind

__all__ = ["Loss", "add_loss", "feature_losses", "result_kept"]


@dataclass(frozen=True, slots=True)
class Loss:
    """Something a written record leaves out."""

    what: str
    """What was left out, a stable code: ``variations``, ``comments``, ``times``,
    ``time_fractions``, ``bookmarks``, ``headers``, ``moves``, ``result``, ``characters`` or
    ``time_control`` (part of the time control: byoyomi periods, or what CSA V2.2's
    ``$TIME_LIMIT`` cannot hold)."""
    count: int
    """How many (nodes, alternatives, header pairs, results or characters)."""
    detail: str
    """Why, in English (names the format)."""

    def __str__(self) -> str:
        noun = _SINGULAR.get(self.what, self.what) if self.count == 1 else self.what
        return f"{self.count} {noun.replace('_', ' ')} ({self.detail})"


_SINGULAR = {
    "variations": "variation", "comments": "comment", "times": "time", "time_fractions": "time fraction",
    "bookmarks": "bookmark", "headers": "header", "moves": "move", "characters": "character",
    "time_control": "time control",
}


def add_loss(losses: list[Loss] | None, what: str, count: int, detail: str) -> None:
    """Append a :class:`Loss` to *losses* (when given and *count* is not zero)."""
    if losses is not None and count:
        losses.append(Loss(what, count, detail))


def feature_losses(
    game: Game,
    fmt: str,
    losses: list[Loss] | None,
    *,
    variations: bool = False,
    comments: bool = False,
    times: bool = False,
    time_fractions: bool = False,
    bookmarks: bool = False,
    headers: bool = False,
    moves: bool = False,
) -> None:
    """Report the features of *game* that *fmt* lacks (each flag: the format has none of them)."""
    if losses is None:
        return
    counts = dict.fromkeys(("variations", "comments", "times", "time_fractions", "bookmarks", "moves"), 0)
    for node in game.walk():
        parent = node.parent
        if parent is not None:
            counts["moves"] += node.move is not None
            counts["variations"] += parent.variations[0] is not node
        counts["comments"] += bool(node.comment)
        counts["bookmarks"] += bool(node.bookmark)
        if node.elapsed is not None or node.total is not None:
            counts["times"] += 1
            fractions = any(t is not None and not float(t).is_integer() for t in (node.elapsed, node.total))
            counts["time_fractions"] += fractions
    wanted = {
        "variations": variations, "comments": comments, "times": times, "time_fractions": time_fractions,
        "bookmarks": bookmarks, "moves": moves,
    }
    for what, lacking in wanted.items():
        if lacking and not (what == "time_fractions" and times):
            add_loss(losses, what, counts[what], f"{fmt} has no {what.replace('_', ' ')}")
    if headers:
        add_loss(losses, "headers", len(game.headers.pairs()), f"{fmt} has no headers")


def result_kept(original: Result, read_back: Result) -> bool:
    """Whether *read_back* (the result the written word reads as) keeps *original*: the same
    kind and winner, or a perpetual check written as a foul or 千日手 (the reader restores it
    from the repeated position)."""
    if original.kind is ResultKind.PERPETUAL_CHECK and read_back.kind in (ResultKind.ILLEGAL, ResultKind.REPETITION):
        return read_back.kind is ResultKind.REPETITION or read_back.winner == original.winner
    return read_back.kind is original.kind and read_back.winner == original.winner
