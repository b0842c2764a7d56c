"""Game parameters: frozen dataclasses, validated once, printable, parsed from ``key=value``.

A game declares its parameters as a frozen dataclass that inherits :class:`Params` and uses
:func:`param` for every field, so each parameter carries its documentation (help text, the
spec's reference such as "A3") and its constraints (choices, range, list length) where it is
defined.  ``Params`` then provides, for every game alike:

* validation at construction (``ValueError`` naming the valid keys or values);
* conversion of string values (integers, real numbers, true/false, text, integer lists,
  ``none`` for an optional value), so
  ``from_strings(["discard=all", "correct_bet_cards=12,10,9,8"])`` and
  ``Cls(discard="all", correct_bet_cards=(12, 10, 9, 8))`` build the same object;
* ``to_strings()`` / ``str()`` that round-trip through ``from_strings``.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def param(default: Any, help: str, *, ref: str | None = None,
          choices: tuple | None = None, min: int | None = None, max: int | None = None,
          length: tuple[int, ...] | None = None, tuned: bool = True) -> Any:
    """Declare a parameter field with its documentation and constraints.

    ``choices`` lists the valid values of a text parameter; ``min``/``max`` bound a number
    (or every entry of an integer list); ``length`` lists the allowed lengths of a list.  A
    field typed ``T | None`` takes ``none`` for None.  ``tuned=False`` marks a bounded
    setting that is not a matter of skill (a handicap), which ``sim.tune`` leaves at its
    default.
    """
    meta = {"help": help, "ref": ref, "choices": choices, "min": min, "max": max,
            "length": length, "tuned": tuned}
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True)
class ParamInfo:
    """What a user needs to know about one parameter (for ``--list`` and docs)."""

    key: str
    default: str
    help: str
    ref: str | None
    choices: tuple | None


@dataclass(frozen=True)
class Params:
    """Base of every game's parameters; subclasses are frozen dataclasses using :func:`param`."""

    game: ClassVar[str] = "game"

    # -- construction ------------------------------------------------------------------
    def __post_init__(self) -> None:
        hints = typing.get_type_hints(type(self))
        for f in dataclasses.fields(self):
            value = _convert(self.game, f.name, getattr(self, f.name), hints[f.name])
            _check(self.game, f, value)
            object.__setattr__(self, f.name, value)
        self.validate()

    def validate(self) -> None:
        """Cross-parameter checks of a game (override); raise ``ValueError``."""

    def check_seat(self, name: str) -> None:
        """Refuse the seat parameter ``name`` (a first dealer, a first player; None where
        its type allows none: chosen at random) at or above the number of ``players``."""
        seat = getattr(self, name)
        if seat is not None and seat >= self.players:   # type: ignore[attr-defined]
            n = self.players                            # type: ignore[attr-defined]
            hint = typing.get_type_hints(type(self))[name]
            none = "none, " if type(None) in typing.get_args(hint) else ""
            raise ValueError(f"{self.game}: bad value for {name}: {seat}; valid values: "
                             f"{none}0..{n - 1} with {n} players")

    @classmethod
    def keys(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def from_kwargs(cls, **values: Any) -> Self:
        """Build from keyword values (typed or strings); unknown keys name the valid ones."""
        unknown = sorted(set(values) - set(cls.keys()))
        if unknown:
            raise ValueError(
                f"unknown parameter {', '.join(map(repr, unknown))} for {cls.game}; "
                f"valid keys: {', '.join(cls.keys())}")
        return cls(**values)

    @classmethod
    def from_strings(cls, items: Iterable[str] | Mapping[str, str]) -> Self:
        """Build from ``key=value`` strings (or a mapping of strings)."""
        if isinstance(items, Mapping):
            return cls.from_kwargs(**items)
        values: dict[str, str] = {}
        for item in items:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"expected key=value, got {item!r}; valid keys for "
                                 f"{cls.game}: {', '.join(cls.keys())}")
            values[key.strip()] = value.strip()
        return cls.from_kwargs(**values)

    @classmethod
    def describe(cls) -> list[ParamInfo]:
        """Every parameter with its default, help text, spec reference and choices."""
        defaults = cls()
        return [ParamInfo(f.name, _format(getattr(defaults, f.name)), f.metadata["help"],
                          f.metadata["ref"], f.metadata["choices"])
                for f in dataclasses.fields(cls)]

    # -- presentation ------------------------------------------------------------------
    def to_strings(self) -> list[str]:
        """``key=value`` strings that :meth:`from_strings` turns back into an equal object."""
        return [f"{f.name}={_format(getattr(self, f.name))}" for f in dataclasses.fields(self)]

    def changed(self) -> dict[str, Any]:
        """The parameters that differ from their defaults."""
        defaults = type(self)()
        return {k: getattr(self, k) for k in self.keys()
                if getattr(self, k) != getattr(defaults, k)}

    def __str__(self) -> str:
        return " ".join(self.to_strings())


def _format(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _convert(game: str, key: str, value: Any, hint: Any) -> Any:
    """Turn a string (or a loosely typed value) into the field's declared type."""
    def bad(expected: str) -> ValueError:
        return ValueError(f"{game}: bad value for {key}: {value!r} (expected {expected})")

    if typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in \
            typing.get_args(hint):                      # an optional value: "none" is None
        if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
            return None
        (inner,) = [h for h in typing.get_args(hint) if h is not type(None)]
        return _convert(game, key, value, inner)
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise bad("true or false")
    if hint is int:
        if isinstance(value, bool):
            raise bad("an integer")
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                raise bad("an integer") from None
        if hasattr(value, "__index__"):
            return int(value)
        raise bad("an integer")
    if hint is float:
        if isinstance(value, bool):
            raise bad("a number")
        if isinstance(value, str):
            try:
                value = float(value.strip())
            except ValueError:
                raise bad("a number") from None
        if not hasattr(value, "__float__") or not math.isfinite(float(value)):
            raise bad("a finite number")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise bad("text")
        return value.strip()
    if typing.get_origin(hint) is tuple:
        if isinstance(value, str):
            parts = [p for p in value.replace(" ", "").split(",") if p]
        elif isinstance(value, Iterable):
            parts = list(value)
        else:
            parts = [value]
        try:
            return tuple(_convert(game, key, p, int) for p in parts)
        except ValueError:
            raise bad("comma-separated integers, e.g. 12,10,9,8") from None
    raise TypeError(f"unsupported parameter type {hint} for {key}")


def _check(game: str, f: dataclasses.Field, value: Any) -> None:
    meta = f.metadata
    choices, lo, hi, length = meta["choices"], meta["min"], meta["max"], meta["length"]
    if choices is not None and value not in choices:
        raise ValueError(f"{game}: bad value for {f.name}: {_format(value)!r}; valid values: "
                         f"{', '.join(_format(c) for c in choices)}")
    if value is None:
        return
    entries = value if isinstance(value, tuple) else (value,)
    if length is not None and len(entries) not in length:
        raise ValueError(f"{game}: {f.name} takes {' or '.join(map(str, length))} values, "
                         f"got {len(entries)} ({_format(value)})")
    for v in entries:
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
            raise ValueError(f"{game}: bad value for {f.name}: {_format(value)}; "
                             f"valid values: {span}")
