"""Standard handicaps (駒落ち).  The giver (上手) plays gote and moves first, so every handicap
start position has ``w`` to move.

三枚落ち is not defined the same way everywhere; like Kifu for JS (JKF) and lishogi we remove the
giver's rook, bishop and the lance on 9一.

>>> find_handicap("香落ち").english
'lance'
>>> find_handicap("two-piece").sfen
'lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1'
"""

from __future__ import annotations

from dataclasses import dataclass

from shogiban.sfen import STARTING_SFEN


@dataclass(frozen=True, slots=True)
class Handicap:
    """A handicap: names and start position."""

    japanese: str
    """Name as KIF's 手合割 writes it, e.g. ``香落ち``."""
    english: str
    """English name, e.g. ``lance``."""
    sfen: str
    """Start position (gote, the giver, to move; 平手 has sente to move)."""
    csa: str
    """CSA ``PI`` line with the removed squares (``PI11KY``)."""

    @property
    def is_even(self) -> bool:
        """Whether this is the even game (平手)."""
        return self.sfen == STARTING_SFEN


_TAIL = "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"

HANDICAPS: tuple[Handicap, ...] = (
    Handicap("平手", "even", STARTING_SFEN, "PI"),
    Handicap("香落ち", "lance", "lnsgkgsn1/1r5b1" + _TAIL, "PI11KY"),
    Handicap("右香落ち", "right lance", "1nsgkgsnl/1r5b1" + _TAIL, "PI91KY"),
    Handicap("角落ち", "bishop", "lnsgkgsnl/1r7" + _TAIL, "PI22KA"),
    Handicap("飛車落ち", "rook", "lnsgkgsnl/7b1" + _TAIL, "PI82HI"),
    Handicap("飛香落ち", "rook and lance", "lnsgkgsn1/7b1" + _TAIL, "PI82HI11KY"),
    Handicap("二枚落ち", "two-piece", "lnsgkgsnl/9" + _TAIL, "PI82HI22KA"),
    Handicap("三枚落ち", "three-piece", "1nsgkgsnl/9" + _TAIL, "PI82HI22KA91KY"),
    Handicap("四枚落ち", "four-piece", "1nsgkgsn1/9" + _TAIL, "PI82HI22KA11KY91KY"),
    Handicap("五枚落ち", "five-piece", "2sgkgsn1/9" + _TAIL, "PI82HI22KA11KY91KY81KE"),
    Handicap("左五枚落ち", "left five-piece", "1nsgkgs2/9" + _TAIL, "PI82HI22KA11KY91KY21KE"),
    Handicap("六枚落ち", "six-piece", "2sgkgs2/9" + _TAIL, "PI82HI22KA11KY91KY21KE81KE"),
    Handicap("左七枚落ち", "left seven-piece", "2sgkg3/9" + _TAIL, "PI82HI22KA11KY91KY21KE81KE31GI"),
    Handicap("右七枚落ち", "right seven-piece", "3gkgs2/9" + _TAIL, "PI82HI22KA11KY91KY21KE81KE71GI"),
    Handicap("八枚落ち", "eight-piece", "3gkg3/9" + _TAIL, "PI82HI22KA11KY91KY21KE81KE31GI71GI"),
    Handicap("十枚落ち", "ten-piece", "4k4/9" + _TAIL, "PI82HI22KA11KY91KY21KE81KE31GI71GI41KI61KI"),
)

_ALIASES = {"七枚落ち": "右七枚落ち", "seven-piece": "right seven-piece", "平手（対等）": "平手", "hirate": "even"}


def _key(name: str) -> str:
    return name.strip().strip("\u3000").lower().replace("_", " ").replace("  ", " ")


_BY_NAME: dict[str, Handicap] = {}
for _h in HANDICAPS:
    _BY_NAME[_key(_h.japanese)] = _h
    _BY_NAME[_key(_h.english)] = _h
    _BY_NAME[_key(_h.english).replace(" ", "-")] = _h
    _BY_NAME[_key(_h.english).replace("-", " ")] = _h
for _alias, _target in _ALIASES.items():
    _BY_NAME[_key(_alias)] = _BY_NAME[_key(_target)]


def find_handicap(name: str) -> Handicap:
    """The handicap called *name* (Japanese or English, any case; ``-``, ``_`` or spaces).

    :raises ValueError: if no handicap has that name.
    """
    found = _BY_NAME.get(_key(name)) if isinstance(name, str) else None
    if found is None:
        names = ", ".join(h.english for h in HANDICAPS)
        raise ValueError(f"unknown handicap: {name!r} (known: {names})")
    return found


def handicap_of_sfen(sfen: str) -> Handicap | None:
    """The handicap whose start position is *sfen* (move number ignored), if any."""
    board_side_hand = " ".join(sfen.split()[:3])
    for h in HANDICAPS:
        if " ".join(h.sfen.split()[:3]) == board_side_hand:
            return h
    return None
