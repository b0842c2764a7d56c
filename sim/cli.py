"""What every ``python -m sim.*`` command shares: bad input is one line and exit status 2,
strict JSON on stdout, and a line on stderr before a game's first, long compile."""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import re
import shutil
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


# Seeds are 0 .. 2**63 - 1: numpy's SeedSequence takes any non-negative integer, but the
# games table stores a run's seed as a 64-bit signed integer.
MAX_SEED = 2**63 - 1

# A name that becomes one folder of an output (a variant, a lineup, a trial): letters,
# digits and . _ + @ = , - : (agents' NAME@PROFILE and package.module:Class, lineups' X+Y),
# not starting with a dot.
NAME = re.compile(r"[A-Za-z0-9_+@=,:-][A-Za-z0-9._+@=,:-]*")


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors raise :class:`UsageError` (the command prints it as
    one line and exits with status 2) instead of printing the usage.  An empty text given to
    any option or argument is refused here, once for every command."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None
                         ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        for action in self._actions:
            value = getattr(parsed, action.dest, None)
            values = value if isinstance(value, list) else [value]
            if any(isinstance(v, str) and not v.strip() for v in values):
                name = "/".join(action.option_strings) or action.metavar or action.dest
                raise UsageError(f"{name} is empty; give a value (see --help)")
        return parsed, extra


def finite(text: str) -> float:
    """argparse type of a real option: a finite number (``inf`` and ``nan`` refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return value


def seed_arg(text: str) -> int:
    """argparse type of ``--seed``: a whole number in 0 .. MAX_SEED."""
    try:
        return check_seed(int(text))
    except (ValueError, UsageError):
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to 2**63 - 1, "
                                         f"got {text!r}") from None


def check_seed(value: Any, name: str = "seed") -> int:
    """``value`` as a seed: a whole number in 0 .. MAX_SEED (UsageError naming ``name``
    otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise UsageError(f"{name} must be a whole number from 0 to 2**63 - 1, got {value!r}")
    return value


def safe_name(name: str, what: str) -> str:
    """``name`` when it can be one folder of an output (UsageError otherwise: empty, a
    path, a leading dot, or characters other than letters, digits and ``._+@=,-:``)."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise UsageError(f"{what} {name!r} cannot name a folder: use letters, digits and "
                         f". _ + @ = , - : (not starting with a dot)")
    return name


def child(base: Path, name: str, what: str) -> Path:
    """``base / name`` for a name checked by :func:`safe_name` (never outside ``base``)."""
    return base / safe_name(name, what)


def check_room(disk_bytes: float, memory_bytes: float, where: Path, what: str) -> None:
    """UsageError when ``what`` would need more disk under ``where`` or more memory than
    the machine has free, with the estimates in the message."""
    folder = next((p for p in [where, *where.parents] if p.exists()), Path("."))
    free_disk = shutil.disk_usage(folder).free
    reason = unwritable(where) if disk_bytes > free_disk else None
    if reason:
        raise UsageError(f"cannot write to {where}: {reason}")
    if disk_bytes > free_disk:
        raise UsageError(f"{what} would write about {size(disk_bytes)} but {folder} has "
                         f"{size(free_disk)} free; play fewer games")
    free_memory = available_memory()
    if free_memory is not None and memory_bytes > free_memory:
        raise UsageError(f"{what} would hold about {size(memory_bytes)} in memory at once "
                         f"but {size(free_memory)} is available; play fewer games, or "
                         f"lower --jobs or --chunk-size")


def available_memory() -> int | None:
    """Bytes of memory free now (None where the system does not say)."""
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def size(n: float) -> str:
    """A number of bytes for people (``1.2 GB``)."""
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"


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


def check_source(source: str) -> None:
    """UsageError saying what ``source`` is when it is neither a game nor a run directory
    (a path that does not exist, a file, a folder without ``manifest.json``)."""
    if source in engines.available() or (Path(source) / "manifest.json").is_file():
        return
    path = Path(source)
    games = f"games: {', '.join(engines.available())}"
    if not path.exists():
        raise UsageError(f"{source!r} is neither a game ({games}) nor a directory (no such "
                         f"file or directory)")
    if not path.is_dir():
        raise UsageError(f"{source} is a file, not a run directory nor a game ({games})")
    raise UsageError(f"{source} is a directory without manifest.json, not a run directory "
                     f"(nor a game; {games})")


def usage_error(command: str, error: Exception) -> int:
    """Print bad input as the command's one line on stderr (``<command>: error: <message>``,
    a line break or other control character given in the input shown escaped); return 2,
    the exit status for it."""
    print(f"{command}: error: {one_line(str(error))}", file=sys.stderr)
    return 2


def one_line(text: str) -> str:
    """``text`` with its unprintable characters escaped (``\\n``, ``\\x0c``)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


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
    reason = unwritable(path)
    if reason:
        raise UsageError(f"cannot write to --out {path}: {reason}")
    return path


def unwritable(path: Path) -> str | None:
    """Why nothing can be written where ``path`` is or would be made (None: it can): a
    file is written and removed in its nearest existing folder."""
    parent = next((p for p in [path, *path.parents] if p.exists()), Path("."))
    try:
        probe = parent / ".tapis-vert-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        return error.strerror or str(error)
    return None


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
    ``numba.config.CACHE_DIR``, whose name hashes them; see ``engines.numba_cache.cache_dir``), or
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
