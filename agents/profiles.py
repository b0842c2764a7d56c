"""Named parameter sets of the bots: ``NAME@PROFILE``.

A game's profiles live in ``agents/profiles/<game>.toml``, one table per ``agent.profile``
(``[greedy.tuned]``) holding the parameters that differ from the bot's own defaults or all of
them; ``python -m sim.tune ... --save PROFILE`` writes them.  ``TAPIS_VERT_PROFILES`` names
another directory of profile files (the tests' own, a private set).  Comment lines just above a
table belong to it (the command that made it): saving a profile again replaces its table and
comment and keeps every other table as written.  A bot's ``default`` profile for a game is
what its plain name plays there (:func:`agents.named_profile`).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
SEPARATOR = "@"
# The profile a bot's plain name plays, where a game's file has one for it.
DEFAULT = "default"
NAME = re.compile(r"^[A-Za-z0-9_-]+$")      # a profile's name: a bare TOML key
_HEADER = re.compile(r"^\[([^\[\]]+)\]\s*$")


def profile_dir() -> Path:
    """The directory of the profile files: ``TAPIS_VERT_PROFILES`` or ``agents/profiles``."""
    return Path(os.environ.get("TAPIS_VERT_PROFILES") or PROFILE_DIR)


def split(name: str) -> tuple[str, str | None]:
    """An agent name as its bot and its profile (None without ``@``)."""
    base, sep, profile = name.partition(SEPARATOR)
    return base.strip(), (profile.strip() if sep else None)


def path_for(game: str, directory: Path | None = None) -> Path:
    """The profile file of a game."""
    return (directory or profile_dir()) / f"{game}.toml"


def read(game: str, directory: Path | None = None) -> dict[str, dict[str, dict[str, Any]]]:
    """Every profile of a game: agent -> profile -> parameter values (empty without a
    file); a file that is not TOML of tables of tables raises ValueError."""
    path = path_for(game, directory)
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ValueError(f"cannot read the profiles of {game} ({path}): {error}") from None
    for agent, profiles in data.items():
        if not isinstance(profiles, dict) or not all(isinstance(v, dict)
                                                     for v in profiles.values()):
            raise ValueError(f"{path}: {agent!r} must hold tables [{agent}.PROFILE] of "
                             f"parameter values")
    return data


def values(game: str, agent: str, profile: str,
           directory: Path | None = None) -> dict[str, Any]:
    """The parameter values of ``agent@profile`` for ``game``; an unknown profile names the
    agent's profiles for the game (and the games where that profile exists)."""
    held = read(game, directory).get(agent, {})
    if profile in held:
        return dict(held[profile])
    elsewhere = [other for other in games_with(agent, profile, directory) if other != game]
    hint = f" ({profile!r} is a profile of {agent} for {', '.join(elsewhere)})" \
        if elsewhere else ""
    choices = ", ".join(f"{agent}{SEPARATOR}{p}" for p in sorted(held)) or "none"
    raise ValueError(f"unknown profile {profile!r} of {agent} for {game}{hint}; "
                     f"profiles of {agent} for {game}: {choices}")


def games_with(agent: str, profile: str, directory: Path | None = None) -> list[str]:
    """The games whose profile file holds ``agent@profile``."""
    found = []
    for path in sorted((directory or profile_dir()).glob("*.toml")):
        try:
            if profile in read(path.stem, directory).get(agent, {}):
                found.append(path.stem)
        except ValueError:
            continue
    return found


def table_key(agent: str, profile: str) -> str:
    """The TOML header key of ``agent@profile`` (a plugin's import path quoted)."""
    return f"{agent if NAME.match(agent) else toml_value(agent)}.{profile}"


def render(agent: str, profile: str, params: Mapping[str, Any], comment: str = "") -> str:
    """The TOML text of one profile table, with ``comment`` lines above it."""
    lines = [f"# {line}".rstrip() for line in comment.splitlines()]
    lines.append(f"[{table_key(agent, profile)}]")
    lines += [f"{key} = {toml_value(value)}" for key, value in params.items()]
    return "\n".join(lines) + "\n"


def toml_value(value: Any) -> str:
    """A parameter value as TOML (a boolean, number, text or list of integers)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if value is None:
        raise ValueError("a profile cannot hold none (TOML has no null)")
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def with_table(text: str, agent: str, profile: str, table: str) -> str:
    """A profile file's text with the table of ``agent.profile`` (and its comment) replaced
    by ``table``, or ``table`` appended."""
    blocks = _blocks(text)
    key = table_key(agent, profile)
    if key in (k for k, _ in blocks):
        blocks = [(k, table if k == key else b) for k, b in blocks]
    else:
        blocks.append((key, table))
    return "\n".join(b.strip("\n") + "\n" for _, b in blocks if b.strip())


def _blocks(text: str) -> list[tuple[str, str]]:
    """A file's text as (table key, its text with the comment lines just above it) blocks;
    the text before the first table (the file's preamble) has the key ''."""
    blocks: list[tuple[str, list[str]]] = [("", [])]
    for line in text.splitlines():
        header = _HEADER.match(line.strip())
        if header:
            current = blocks[-1][1]
            cut = len(current)
            while cut > 0 and current[cut - 1].lstrip().startswith("#"):
                cut -= 1
            blocks[-1] = (blocks[-1][0], current[:cut])
            blocks.append((header.group(1).strip(), current[cut:] + [line]))
        else:
            blocks[-1][1].append(line)
    return [(k, "\n".join(lines)) for k, lines in blocks]


def save(game: str, agent: str, profile: str, params: Mapping[str, Any], comment: str = "",
         directory: Path | None = None) -> Path:
    """Write ``agent@profile`` into the game's profile file (its other tables kept);
    returns the file."""
    path = path_for(game, directory)
    old = path.read_text() if path.exists() else \
        f"# Parameter profiles of the {game} bots, loaded as NAME@PROFILE (docs/agents.md).\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(with_table(old, agent, profile, render(agent, profile, params, comment)))
    return path
