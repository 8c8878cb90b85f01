"""The transposition table of the mate search, with hand superiority (優越関係).

Entries are keyed by the board and side to move; each entry carries the attacker's hand (packed,
see :mod:`shogiban.tsume.hands`).  Since every piece is on the board or in a hand, the board and
the attacker's hand fix the defender's hand too.  An entry is a list ``[hand, pn, dn, depth,
move]``:

* proven (``pn == 0``): *hand* holds the proof pieces (証明駒), the least hand the proof needed,
  *depth* the length of the proof found and *move* the mating move.  It decides any query with a
  hand holding at least *hand* and a depth bound of at least *depth*.
* refuted (``dn == 0``): *hand* is the refuted hand and *depth* the bound it was refuted under
  (``DEPTH_INF`` when the bound played no part).  It decides any query with a hand holding at
  most *hand* and a bound of at most *depth*.
* undecided: the proof and disproof numbers last searched with exactly this hand and bound.
"""

from __future__ import annotations

from shogiban.tsume.hands import GUARDS

__all__ = ["DEPTH_INF", "Table"]

#: The depth stored with a refutation that holds at any depth.
DEPTH_INF = 1 << 20
# Entries kept per board before decided entries start pruning the undecided ones they cover.
_CROWDED = 6


class Table:
    """Board key -> entries (see the module documentation)."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: dict[int, list[list[int]]] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def lookup(self, key: int, hand: int, depth: int) -> list[int] | None:
        """The entry that decides (key, hand) at *depth*, else the undecided one searched with
        that hand at that depth (or two plies less, as a starting estimate), else None."""
        entries = self.entries.get(key)
        if entries is None:
            return None
        exact = None
        for e in entries:
            if e[1] == 0:
                if e[3] <= depth and ((hand | GUARDS) - e[0]) & GUARDS == GUARDS:
                    return e
            elif e[2] == 0:
                if e[3] >= depth and ((e[0] | GUARDS) - hand) & GUARDS == GUARDS:
                    return e
            elif e[0] == hand and (e[3] == depth or (e[3] == depth - 2 and exact is None)):
                # The numbers of the previous, shallower iteration seed a node's new search.
                exact = e
        return exact

    def store(self, key: int, hand: int, pn: int, dn: int, depth: int, move: int = 0) -> None:
        """Record a search result (see the module documentation for the meaning of the fields)."""
        entries = self.entries.get(key)
        if entries is None:
            self.entries[key] = [[hand, pn, dn, depth, move]]
            return
        if pn and dn:
            for e in entries:
                if e[0] == hand and e[3] == depth and e[1] and e[2]:
                    e[1] = pn
                    e[2] = dn
                    return
        elif len(entries) > _CROWDED:
            # A decided entry: drop the undecided ones it covers.
            if pn == 0:
                entries[:] = [
                    e for e in entries
                    if not (e[1] and e[2] and e[3] >= depth and ((e[0] | GUARDS) - hand) & GUARDS == GUARDS)
                ]
            else:
                entries[:] = [
                    e for e in entries
                    if not (e[1] and e[2] and e[3] <= depth and ((hand | GUARDS) - e[0]) & GUARDS == GUARDS)
                ]
        entries.append([hand, pn, dn, depth, move])

    def shrink(self) -> None:
        """Forget everything but proofs and refutations that hold at any depth."""
        kept: dict[int, list[list[int]]] = {}
        for key, entries in self.entries.items():
            keep = [e for e in entries if e[1] == 0 or (e[2] == 0 and e[3] >= DEPTH_INF)]
            if keep:
                kept[key] = keep
        self.entries = kept
