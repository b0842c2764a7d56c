"""Where numba caches compiled code: a folder keyed on a hash of the compiled sources.

numba's own cache does not notice an edit to a function that a cached function calls from
another module, so the folder is named after a hash of every source that compiled code can
depend on, and an edit to any of them starts a fresh cache.  The rule, checked by
``tests/engines/test_numba_cache.py``:

* a source **holds compiled code** when it imports numba (a module-level or nested
  ``import numba`` / ``from numba ...``), in ``engines/``, ``agents/`` or ``sim/kernels/``;
* the hashed set is those sources; every source of ``sim/kernels/`` (the kernel
  declarations the compiled game loop is specialised from), and, transitively, every project
  module they import at module level,
  since compiled code reads their globals (constants, layouts, other compiled functions) as
  frozen values (``import a.b`` and ``from a import b`` count module ``a.b``, ``from a import
  name`` module ``a``);
* and the ``__init__.py`` of a package there that imports a compiled source at module level
  (it runs before they compile: ``engines/core/__init__.py`` adapts numba's typing);
* but never the registries (:data:`PYTHON_ONLY`: ``engines/__init__.py``,
  ``agents/__init__.py`` and their helpers), which hold no value compiled code reads.

A pure-Python module that no compiled source imports at module level (a bot written in
Python, the registry in ``agents/__init__.py``, the command lines) is not hashed: editing it
compiles nothing again.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Where compiled sources are looked for.
COMPILED_PACKAGES = ("engines", "agents", "sim/kernels")
# Never hashed: the registries of games and bots and their helpers.  Compiled code reads
# none of their values (they hold names, paths and Python objects); engines/__init__.py
# imports numba only to set the cache folder.  A test checks they define no compiled code.
PYTHON_ONLY = ("engines/__init__.py", "engines/numba_cache.py", "engines/core/plugins.py",
               "agents/__init__.py", "agents/base.py", "agents/profiles.py")
# Hashed whole: the kernel declarations configure the compiled game loop.
WHOLE_PACKAGES = ("sim/kernels",)
# What each source was found to hold, by its path, size and modification time.
_SCAN = "sources.json"
# The top-level packages whose modules a compiled source may import.
PROJECT_PACKAGES = ("engines", "agents", "sim")


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_bytes(), filename=str(path))


def scan(path: Path, root: Path = ROOT) -> tuple[bool, list[str]]:
    """Whether a source imports numba, and the project modules it imports at module
    level."""
    tree = _parse(path)
    return imports_numba(tree), _imported_names(tree, path, root)


def imports_numba(tree: ast.Module) -> bool:
    """Whether a module imports numba anywhere in its text."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "numba"
                                                for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "numba":
            return True
    return False


def _module_level(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements run when a module is imported (inside ``if`` and ``try`` too,
    not inside functions or classes)."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            yield from _module_level(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            yield from _module_level(node.body + node.orelse + node.finalbody
                                     + [s for h in node.handlers for s in h.body])


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _source_of(name: str, root: Path) -> list[Path]:
    """The source of module ``name`` (a package's ``__init__.py``); none outside the
    project or for a name that is not a module."""
    parts = name.split(".")
    if parts[0] not in PROJECT_PACKAGES:
        return []
    base = root.joinpath(*parts)
    return [c for c in (base / "__init__.py", base.with_suffix(".py")) if c.is_file()]


def _imported_names(tree: ast.Module, path: Path, root: Path) -> list[str]:
    """The modules (or, after ``from``, the names that may be modules) a module imports at
    module level."""
    here = _module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    names: list[str] = []
    for node in _module_level(tree.body):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
            continue
        base = package[:len(package) - node.level + 1] if node.level else []
        module = ".".join(base + ([node.module] if node.module else []))
        # ``from pkg import name``: the submodule pkg.name where there is one, else pkg
        names += [f"{module}.{a.name}" if _source_of(f"{module}.{a.name}", root) else module
                  for a in node.names]
    return [n for n in dict.fromkeys(names) if n.split(".")[0] in PROJECT_PACKAGES]


class Sources:
    """What the sources of a checkout hold, each scanned once (and remembered across
    processes in ``scans``, a JSON file, by path, size and modification time)."""

    def __init__(self, root: Path = ROOT, scans: Path | None = None) -> None:
        self.root = root
        self.scans = scans
        # scans made by another version of this rule are not reused
        self.rule = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()
        self.known: dict[str, list[Any]] = {}
        if scans is not None:
            try:
                held = json.loads(scans.read_text())
                if held.get("rule") == self.rule:
                    self.known = held["files"]
            except (OSError, ValueError, KeyError, AttributeError):
                self.known = {}
        self.changed = False
        self.modules: dict[str, list[Path]] = {}

    def info(self, path: Path) -> tuple[bool, list[str]]:
        """Whether ``path`` imports numba, and the modules it imports at module level."""
        key = path.relative_to(self.root).as_posix()
        stat = path.stat()
        held = self.known.get(key)
        if held is not None and held[:2] == [stat.st_size, stat.st_mtime_ns]:
            return bool(held[2]), list(held[3])
        numba_, names = scan(path, self.root)
        self.known[key] = [stat.st_size, stat.st_mtime_ns, numba_, names]
        self.changed = True
        return numba_, names

    def save(self) -> None:
        """Remember the scans (atomically; a read-only place is skipped)."""
        if self.scans is None or not self.changed:
            return
        try:
            self.scans.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.scans.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"rule": self.rule, "files": self.known}))
            os.replace(tmp, self.scans)
        except OSError:
            pass

    def imported(self, path: Path) -> list[Path]:
        """The project sources ``path`` imports at module level."""
        found = []
        for name in self.info(path)[1]:
            if name not in self.modules:
                self.modules[name] = _source_of(name, self.root)
            found += self.modules[name]
        return found

    def compiled(self) -> list[Path]:
        """The sources that hold compiled code (see the module's docstring)."""
        return [path for package in COMPILED_PACKAGES
                for path in sorted((self.root / package).rglob("*.py")) if self.info(path)[0]]

    def hashed(self) -> list[Path]:
        """The sources the cache is keyed on, in order (see the module's docstring)."""
        compiled = self.compiled()
        inits = [path for package in COMPILED_PACKAGES
                 for path in (self.root / package).rglob("__init__.py")
                 if set(self.imported(path)) & set(compiled)]
        seen: set[Path] = set()
        todo = compiled + inits + [path for package in WHOLE_PACKAGES
                                   for path in (self.root / package).rglob("*.py")]
        skip = {self.root / name for name in PYTHON_ONLY}
        while todo:
            path = todo.pop()
            if path not in seen and path not in skip:
                seen.add(path)
                todo += self.imported(path)
        return sorted(seen)


def hashed_sources(root: Path = ROOT) -> list[Path]:
    """The sources the numba cache is keyed on."""
    return Sources(root).hashed()


def digest(paths: Iterable[Path], root: Path = ROOT) -> str:
    """A short hash of the sources' paths and contents."""
    h = hashlib.sha1()
    for path in paths:
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir(root: Path = ROOT, user_dir: str | None = None) -> Path:
    """The cache folder of the current sources: under ``user_dir`` (the user's
    ``NUMBA_CACHE_DIR``) when given, else in the checkout, or in the user's cache when the
    checkout is read-only."""
    if user_dir:
        base = Path(user_dir)
    elif os.access(root, os.W_OK):
        base = root / ".numba-cache"
    else:
        base = Path.home() / ".cache" / "tapis-vert" / "numba"
    sources = Sources(root, base / _SCAN)
    hashed = sources.hashed()
    sources.save()
    return base / digest(hashed, root)
