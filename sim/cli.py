"""What every ``python -m sim.*`` command shares: bad input is one line and exit status 2,
strict JSON on stdout, and a line on stderr before a game's first, long compile."""

from __future__ import annotations

import argparse
import datetime as dt
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import numba

import engines

# In numba's cache folder for the current sources: one empty file per game whose games have
# been played to the end with those sources (its compiled code is then in the cache).
COMPILED_MARKS = "tapis-vert-compiled"


class UsageError(Exception):
    """Bad input: one line for the user, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` (the command prints it as
    one line and exits with status 2) instead of printing the usage."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def variant_params(slug: str, variants: Sequence[str], players: int | None = None) -> Any:
    """A game's parameters from ``--variant KEY=VALUE`` items and ``--players`` (None: the
    game's usual count).  A bad item raises ValueError naming the valid keys or values."""
    cls = engines.game_class(slug)
    values: dict[str, str] = {}
    for item in variants:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--variant takes KEY=VALUE, got {item!r}; valid keys: "
                             f"{', '.join(cls.Params.keys())}")
        if key.strip() == "players":
            raise ValueError("set the player count with --players")
        values[key.strip()] = value
    if players is not None:
        values["players"] = str(players)
    return cls.Params.from_strings(values)


def usage_error(command: str, error: Exception) -> int:
    """Print bad input as the command's one line on stderr (``<command>: error: <message>``);
    return 2, the exit status for it."""
    print(f"{command}: error: {error}", file=sys.stderr)
    return 2


def wants_progress(args: argparse.Namespace) -> bool:
    """Whether a command shows progress: not asked not to (``--no-progress``) and stderr is
    a terminal."""
    return not args.no_progress and sys.stderr.isatty()


def new_out_dir(out: str | None, name: str) -> Path:
    """The output directory ``--out`` names, or by default ``runs/<name>-<UTC timestamp>``;
    refused (UsageError) when it is a file, not empty, or not writable."""
    path = Path(out) if out else Path("runs") / (
        f"{name}-{dt.datetime.now(dt.UTC).strftime('%Y%m%dT%H%M%SZ')}")
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UsageError(f"--out {path} exists and is not an empty directory; choose a new one")
    parent = next((p for p in [path, *path.parents] if p.exists()), Path("."))
    try:
        probe = parent / ".tapis-vert-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise UsageError(f"cannot write to --out {path}: {error.strerror}") from None
    return path


def without_nan(value: Any) -> Any:
    """``value`` with every NaN (an interval without resamples) as None, for strict JSON."""
    if isinstance(value, dict):
        return {k: without_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_nan(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def compiled_mark(slug: str) -> Path | None:
    """The file that says ``slug``'s code is in numba's cache for the current sources (in
    ``numba.config.CACHE_DIR``, whose name hashes them; see ``engines._numba_cache_dir``), or
    None when nothing is compiled (``NUMBA_DISABLE_JIT``) or cached."""
    cache = getattr(numba.config, "CACHE_DIR", "")
    if getattr(numba.config, "DISABLE_JIT", False) or not cache:
        return None
    return Path(cache) / COMPILED_MARKS / slug


def compile_pending(slug: str) -> bool:
    """Whether playing ``slug`` will first compile its rules: no run of it has finished
    since the compiled sources last changed (a fresh cache folder holds no mark)."""
    mark = compiled_mark(slug)
    return mark is not None and not mark.exists()


def mark_compiled(slug: str) -> None:
    """Record that ``slug``'s games have been played to the end with the current sources,
    so its code is in the cache (a cache folder that cannot be written is left alone)."""
    mark = compiled_mark(slug)
    if mark is None or mark.exists():
        return
    try:
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()
    except OSError:
        pass


def announce_compile(slug: str) -> None:
    """Before a command plays ``slug``: one line on stderr (a terminal or a log) when its
    rules are about to be compiled, since that first run waits a minute or more."""
    if compile_pending(slug):
        print(f"compiling the rules of {slug} (first run only, about a minute)...",
              file=sys.stderr, flush=True)
