"""Engine options: :class:`Option` (as a USI engine declares it, or the built-in engine) and the
case-insensitive :class:`Options` map.

>>> option = Option("Level", "spin", 8, 1, 8)
>>> option.usi(), option.value_text(3)
('option name Level type spin default 8 min 1 max 8', '3')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

from shogiban.errors import EngineError

ConfigValue: TypeAlias = "str | int | bool | None"
"""A value given to ``configure``: None for a button."""

OptionType: TypeAlias = Literal["check", "spin", "combo", "button", "string", "filename"]
OPTION_TYPES: tuple[str, ...] = ("check", "spin", "combo", "button", "string", "filename")


@dataclass(frozen=True, slots=True)
class Option:
    """An engine option, as declared by an ``option name ... type ...`` line."""

    name: str
    """The name (may contain spaces in engines that break the USI rule, e.g. ``Skill Level``)."""
    type: OptionType
    """``check``, ``spin``, ``combo``, ``button``, ``string`` or ``filename``."""
    default: str | int | bool | None = None
    """The default value, typed: bool for check, int for spin, str otherwise (``''`` for ``<empty>``)."""
    min: int | None = None
    """Smallest value of a spin option."""
    max: int | None = None
    """Largest value of a spin option."""
    var: tuple[str, ...] = ()
    """The choices of a combo option."""

    def is_managed(self) -> bool:
        """Whether the name is ``USI_`` prefixed: fixed meaning, normally set by the GUI."""
        return self.name.startswith("USI_")

    def value_text(self, value: str | int | bool | None) -> str | None:
        """Check *value* for this option and return the text for ``setoption ... value``
        (None for a button, which takes no value).

        :raises EngineError: if the value does not fit the option.
        """
        if self.type == "button":
            if value not in (None, True, ""):
                raise EngineError(f"invalid value for button option {self.name!r}: {value!r} (buttons take none)")
            return None
        if value is None:
            raise EngineError(f"missing value for option {self.name!r}")
        if self.type == "check":
            return _check_text(self.name, value)
        if self.type == "spin":
            return str(_spin_value(self, value))
        text = str(value)
        if "\n" in text or "\r" in text:
            raise EngineError(f"invalid value for option {self.name!r}: {value!r} (line break)")
        if self.type == "combo" and self.var and text not in self.var:
            choices = ", ".join(self.var)
            raise EngineError(f"invalid value for combo option {self.name!r}: {value!r} (choices: {choices})")
        return text if text else "<empty>"

    def usi(self) -> str:
        """The ``option`` line that declares this option."""
        line = f"option name {self.name} type {self.type}"
        if self.type == "check":
            line += f" default {'true' if self.default else 'false'}"
        elif self.type == "spin":
            line += f" default {self.default} min {self.min} max {self.max}"
        elif self.type == "combo":
            line += f" default {self.default}" + "".join(f" var {v}" for v in self.var)
        elif self.type in ("string", "filename"):
            line += f" default {self.default or '<empty>'}"
        return line


def _check_text(name: str, value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value).lower()
    if text in ("true", "false"):
        return text
    raise EngineError(f"invalid value for check option {name!r}: {value!r} (expected true or false)")


def _spin_value(option: Option, value: str | int | bool) -> int:
    try:
        number = int(value)
    except ValueError:
        raise EngineError(f"invalid value for spin option {option.name!r}: {value!r} (expected an integer)") from None
    if isinstance(value, bool) or (option.min is not None and number < option.min) or (
        option.max is not None and number > option.max
    ):
        raise EngineError(
            f"invalid value for spin option {option.name!r}: {value!r} (range {option.min}..{option.max})"
        )
    return number


class Options(Mapping[str, Option]):
    """An engine's options by name; lookups ignore case, as engines and GUIs disagree on it."""

    def __init__(self) -> None:
        self._items: dict[str, Option] = {}

    def add(self, option: Option) -> None:
        """Add or replace *option*."""
        self._items[option.name.lower()] = option

    def __getitem__(self, name: str) -> Option:
        return self._items[name.lower()]

    def __iter__(self) -> Iterator[str]:
        return (option.name for option in self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Options({list(self)!r})"


__all__ = ["OPTION_TYPES", "ConfigValue", "Option", "OptionType", "Options"]
