"""The numba cache's key (engines/numba_cache.py): every source compiled code depends on is
hashed, so an edit to it starts a fresh cache; a pure-Python bot or the registries are not,
so editing them compiles nothing again."""

from __future__ import annotations

import gc
import importlib
import pkgutil
import shutil
from pathlib import Path

import numba
import pytest
from numba.core.dispatcher import Dispatcher

from engines import numba_cache
from engines.numba_cache import ROOT, Sources, digest

PACKAGES = ("engines", "agents", "sim")


def import_everything() -> None:
    """Import every module of the packages that hold compiled code."""
    for package in ("engines", "agents", "sim.kernels"):
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}."):
            importlib.import_module(info.name)


def test_every_module_holding_a_numba_dispatcher_is_hashed():
    import_everything()
    hashed = set(numba_cache.hashed_sources())
    files = set()
    for obj in gc.get_objects():
        if isinstance(obj, Dispatcher):
            path = Path(obj.py_func.__code__.co_filename).resolve()
            if ROOT in path.parents and path.relative_to(ROOT).parts[0] in PACKAGES:
                files.add(path)           # the project's own (not numba's, in a .venv here)
    assert len(files) > 40      # the rules, bots and kernels of every game
    missing = sorted(str(p.relative_to(ROOT)) for p in files - hashed)
    assert not missing, f"compiled code outside the cache key: {missing}"


def test_the_registries_hold_no_compiled_code_and_are_not_hashed():
    hashed = set(numba_cache.hashed_sources())
    for name in numba_cache.PYTHON_ONLY:
        assert ROOT / name not in hashed
    import_everything()
    defined = {Path(obj.py_func.__code__.co_filename).resolve()
               for obj in gc.get_objects() if isinstance(obj, Dispatcher)}
    assert not defined & {ROOT / name for name in numba_cache.PYTHON_ONLY}


def test_a_pure_python_bot_is_not_hashed_and_a_rule_module_is():
    hashed = set(numba_cache.hashed_sources())
    assert ROOT / "agents" / "vicaire.py" not in hashed          # a bot in plain Python
    assert ROOT / "agents" / "paris_damis" / "greedy.py" in hashed    # a compiled bot
    assert ROOT / "engines" / "games" / "paris_damis" / "params.py" in hashed   # read by rules
    assert ROOT / "engines" / "core" / "__init__.py" in hashed   # adapts numba's typing
    assert ROOT / "sim" / "kernels" / "rikiki.py" in hashed      # a kernel declaration
    assert (ROOT / "sim" / "batch" / "cli.py") not in hashed


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A copy of the sources the key is taken over."""
    for package in ("engines", "agents", "sim/kernels"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "profiles"))
    shutil.copy(ROOT / "sim" / "__init__.py", tmp_path / "sim" / "__init__.py")
    return tmp_path


def key(root: Path) -> str:
    return digest(Sources(root).hashed(), root)


@pytest.mark.parametrize("edited, rekeys", [
    ("agents/vicaire.py", False),                      # a pure-Python bot
    ("agents/__init__.py", False),                     # the bots' registry
    ("engines/__init__.py", False),                    # the games' registry
    ("engines/core/cards.py", True),                   # constants the rules read
    ("engines/games/paris_damis/params.py", True),     # imported by compiled rules
    ("engines/games/pouilleux/rules.py", True),
    ("agents/paris_damis/greedy.py", True),            # a compiled bot
    ("sim/kernels/rikiki.py", True),                   # a kernel declaration
])
def test_an_edit_rekeys_the_cache_exactly_when_compiled_code_may_depend_on_it(
        checkout, edited, rekeys):
    before = key(checkout)
    path = checkout / edited
    path.write_text(path.read_text() + "\n# an edit\n")
    assert (key(checkout) != before) is rekeys


def test_a_new_bot_file_rekeys_only_when_it_holds_compiled_code(checkout):
    before = key(checkout)
    (checkout / "agents" / "mine.py").write_text("class Mine:\n    name = 'mine'\n")
    assert key(checkout) == before
    (checkout / "agents" / "fast.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef f(x):\n    return x\n")
    assert key(checkout) != before


def test_the_cache_folder_is_the_key_of_the_current_sources(tmp_path):
    assert Path(numba.config.CACHE_DIR).name == key(ROOT)
    # the user's NUMBA_CACHE_DIR is where the keyed folders go, not the folder itself
    assert numba_cache.cache_dir(user_dir=str(tmp_path)) == tmp_path / key(ROOT)
