"""Record headers: ordered ``key -> value`` pairs, unknown keys kept verbatim and in order.

Keys are KIF's Japanese names (``先手``, ``棋戦``, ``開始日時``); CSA and JKF readers translate
their own names to these, so any writer finds them.  A key may occur more than once (``備考``
lines); indexing gives the first value, :meth:`Headers.get_all` every one.

>>> h = Headers([("先手", "羽生善治"), ("後手", "藤井聡太")])
>>> h["先手"]
'羽生善治'
>>> h["棋戦"] = "竜王戦"
>>> list(h)
['先手', '後手', '棋戦']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, MutableMapping

#: CSA ``$KEY`` names and the KIF header names they are stored under.  ``$TIME_LIMIT`` and
#: ``$TIME`` keep their names: ``HH:MM+SS`` is not what 持ち時間 says (see
#: :mod:`shogiban.kifu.timecontrol`, which every writer turns them into its own format with).
CSA_TO_KIF = {
    "EVENT": "棋戦",
    "SITE": "場所",
    "START_TIME": "開始日時",
    "END_TIME": "終了日時",
    "OPENING": "戦型",
    "NOTE": "備考",
}
KIF_TO_CSA = {v: k for k, v in CSA_TO_KIF.items()}

#: Player keys of the even game and of a handicap game (下手 = sente, 上手 = gote).
BLACK_KEYS = ("先手", "下手")
WHITE_KEYS = ("後手", "上手")
#: The keys of the players' names (one line in every format).
PLAYER_KEYS = BLACK_KEYS + WHITE_KEYS


class Headers(MutableMapping[str, str]):
    """Ordered header pairs with dict access."""

    __slots__ = ("_pairs",)

    def __init__(self, pairs: Iterable[tuple[str, str]] | None = None) -> None:
        self._pairs: list[tuple[str, str]] = []
        for key, value in pairs or ():
            self.add(key, value)

    def add(self, key: str, value: str) -> None:
        """Append a pair, even when *key* already occurs."""
        self._pairs.append((key, value))

    def get_all(self, key: str) -> list[str]:
        """Every value of *key*, in order."""
        return [v for k, v in self._pairs if k == key]

    def pairs(self) -> list[tuple[str, str]]:
        """Every pair in order, repeated keys included."""
        return list(self._pairs)

    def __getitem__(self, key: str) -> str:
        for k, v in self._pairs:
            if k == key:
                return v
        raise KeyError(key)

    def __setitem__(self, key: str, value: str) -> None:
        for i, (k, _) in enumerate(self._pairs):
            if k == key:
                self._pairs[i] = (key, value)
                self._pairs[i + 1:] = [p for p in self._pairs[i + 1:] if p[0] != key]
                return
        self._pairs.append((key, value))

    def __delitem__(self, key: str) -> None:
        before = len(self._pairs)
        self._pairs = [p for p in self._pairs if p[0] != key]
        if len(self._pairs) == before:
            raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        seen: set[str] = set()
        for k, _ in self._pairs:
            if k not in seen:
                seen.add(k)
                yield k

    def __len__(self) -> int:
        return len({k for k, _ in self._pairs})

    def rename(self, old: str, new: str) -> None:
        """Rename every *old* key to *new* in place (keeps the order)."""
        self._pairs = [(new if k == old else k, v) for k, v in self._pairs]

    def copy(self) -> Headers:
        """A copy."""
        return Headers(self._pairs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Headers):
            return self._pairs == other.pairs()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Headers({self._pairs!r})"

    def first(self, keys: Iterable[str]) -> str | None:
        """The value of the first of *keys* that is present."""
        for key in keys:
            for k, v in self._pairs:
                if k == key:
                    return v
        return None
