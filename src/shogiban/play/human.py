"""Who plays a side at the terminal, on the game's one player protocol
(:class:`shogiban.game.Player`: ``async choose(state) -> Decision``).

* A person: :class:`HumanPlayer`, whose ``choose`` reads the terminal (through the session's
  reader and its deadline) and answers with the action typed: a move, ``resign``, ``declare``,
  ``undo``, ``quit``; help, the board, hints and saving are handled on the way.
* An engine: :class:`shogiban.game.EnginePlayer` over the built-in engine or a USI engine
  (:mod:`shogiban.engines`), as the web server and the match runner use them.
"""

from __future__ import annotations

from typing import Protocol

from shogiban.errors import ShogibanError
from shogiban.game import Decision, GameState

__all__ = ["HumanPlayer", "NotSeatedError", "Terminal"]


class NotSeatedError(ShogibanError):
    """A terminal player was asked for a decision before a session seated it at a terminal."""

    code = "not_seated"


class Terminal(Protocol):
    """Where a person's decisions are typed (the game session)."""

    async def read_decision(self, state: GameState) -> Decision:
        """The next decision typed for the side to move of *state*."""
        ...  # pragma: no cover - protocol


class HumanPlayer:
    """A person typing at the terminal: :meth:`choose` reads the session's input."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self.terminal: Terminal | None = None
        """Set by the session the player is seated at."""

    def __repr__(self) -> str:
        return f"HumanPlayer({self.name!r})"

    async def choose(self, state: GameState) -> Decision:
        """The person's decision, as typed (see :class:`shogiban.game.Player`)."""
        if self.terminal is None:
            raise NotSeatedError(f"{self.name or 'the player'} is not seated at a terminal")
        return await self.terminal.read_decision(state)
