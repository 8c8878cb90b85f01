"""What the commands share for their arguments: numbers checked against a documented range
(argparse ``type=`` functions: a bad value is one line and exit status 2, as argparse's own
errors), and the check that an output does not write over an input.

>>> count = int_in(1, 500)
>>> count("3")
3
>>> count("1000000000")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: invalid value '1000000000': must be an integer from 1 to 500
>>> seconds = float_in(0.0, 3600.0, low_open=True)
>>> seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: invalid value 'nan': must be a number above 0 and at most 3600
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from shogiban.notation.excerpt import excerpt


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer from *low* to *high*."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"invalid value {excerpt(text)}: must be an integer from {low} to {high}")
        return value

    parse.__name__ = "integer"  # what argparse names in its own messages
    return parse


def float_in(low: float, high: float, *, low_open: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number from *low* (above it, if *low_open*) to *high*."""

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            value = math.nan
        above = value > low if low_open else value >= low
        if not math.isfinite(value) or not above or value > high:
            lower = f"above {low:g}" if low_open else f"at least {low:g}"
            raise argparse.ArgumentTypeError(
                f"invalid value {excerpt(text)}: must be a number {lower} and at most {high:g}")
        return value

    parse.__name__ = "number"
    return parse


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def same_file(a: Path, b: Path) -> bool:
    """Whether *a* and *b* name one existing file (links and relative paths resolved)."""
    first = _identity(a)
    return first is not None and first == _identity(b)


def inputs_overwritten(outputs: Iterable[Path], inputs: Iterable[Path]) -> list[Path]:
    """The *outputs* that are one of the *inputs* (a file that does not exist yet is none)."""
    sources = {identity for identity in map(_identity, inputs) if identity is not None}
    return [out for out in outputs if _identity(out) in sources]


__all__ = ["float_in", "inputs_overwritten", "int_in", "same_file"]
