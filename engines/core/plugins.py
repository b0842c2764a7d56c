"""Things found by import path (``package.module:Class``), as plugins are: what a path
names, the path that finds an object again, and the entry points installed packages
declare.  A path, unlike an entry in a registry of the running process, means the same in
every process (a worker, a later replay), so runs record plugins by it."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Collection
from functools import lru_cache
from importlib import metadata
from typing import Any

# The entry-point groups installed packages add bots and games with (name -> module:Class).
AGENTS_GROUP = "tapis_vert.agents"
GAMES_GROUP = "tapis_vert.games"


def is_path(name: str) -> bool:
    """Whether ``name`` is an import path (``module:attribute``) rather than a name."""
    return ":" in name


def check_path(path: str) -> str:
    """``path`` when it reads ``package.module:Attribute``; otherwise ValueError."""
    module, sep, attribute = path.partition(":")
    if not sep or not all(part.isidentifier() for part in module.split(".")) \
            or not all(part.isidentifier() for part in attribute.split(".")):
        raise ValueError(f"{path!r} is not an import path; write it package.module:Class")
    return path


def resolve(path: str) -> Any:
    """The object an import path names; ValueError (one line) when its module cannot be
    imported or holds no such attribute."""
    module_name, _, attribute = check_path(path).partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except Exception as error:     # a missing module, or one that fails on import
        raise ValueError(f"{path}: cannot import {module_name} ({type(error).__name__}: "
                         f"{error}); is it on the Python path (PYTHONPATH or installed)?"
                         ) from None
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise ValueError(f"{path}: {module_name} has no attribute {attribute!r}"
                             ) from None
    return target


def path_of(obj: Any) -> str:
    """The import path that finds ``obj`` again in any process; ValueError for one that
    cannot be found so (defined in ``__main__``, in a function, or a lambda)."""
    module, name = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not module or not name or module == "__main__" or "<" in name:
        raise ValueError(f"{obj!r} cannot be found again by import path (other processes "
                         f"and replays rebuild a plugin from its module); define it at the "
                         f"top level of a module on the Python path, not in __main__ or "
                         f"a function")
    path = f"{module}:{name}"
    if resolve(path) is not obj:
        raise ValueError(f"{path} does not name {obj!r}; define it at the top level of "
                         f"its module")
    return path


def registered(kind: str, name: str, target: Any, builtin: Collection[str]) -> str:
    """The import path a plugin ``kind`` (``agent``, ``game``) is registered under
    ``name`` by: ``target`` is that path or the object; ValueError for a bad name (empty,
    with spaces, ``,``, ``@`` or ``:``), a built-in one, or an object that other processes
    cannot find again."""
    if not name or any(c in name for c in ",@: ") or name != name.strip():
        raise ValueError(f"bad {kind} name {name!r}: a name such as my-{kind}, without , @ "
                         f": or spaces")
    if name in builtin:
        raise ValueError(f"{name!r} is a built-in {kind}; choose another name")
    return check_path(target) if isinstance(target, str) else path_of(target)


def entry_points(group: str) -> dict[str, str]:
    """The entry points of ``group`` that installed packages declare: name -> import
    path (read again when ``sys.path`` changes)."""
    return dict(_entry_points(group, tuple(sys.path)))


@lru_cache(maxsize=8)
def _entry_points(group: str, _path: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    found = {ep.name: ep.value for ep in metadata.entry_points(group=group)}
    return tuple(sorted(found.items()))
