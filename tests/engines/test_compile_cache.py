"""Compiled code cannot go stale: an edited rule is followed by the next process, by the batch
kernel and by the Python API alike, whether numba's cache is the project's own folder or the
user's ``NUMBA_CACHE_DIR`` (engines/__init__.py keys both on a hash of the compiled sources).

numba's own cache notices an edit to a function's own file only: the kernel (in
``sim/kernels/``) and the Python API's compiled calls (``engines/core/streams.py``) inline the
rules of another file, so without the key they would replay the old rule from the cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engines", "agents", "sim")
# Le pouilleux compiles quickest of the games; its ranking rule is edited: the players who
# emptied their hand rank by when they did, earlier better.  Reversed, later is better.
RULES = Path("engines/games/pouilleux/rules.py")
RULE, EDITED = "eq >= 0 and (ep < 0 or eq < ep)", "eq >= 0 and (ep < 0 or eq > ep)"
GAMES = 60

# The players table of one chunk played by the kernel, then by the Python API (the runner's
# two paths: the kernel when every agent has a compiled twin, which is forced off the second
# time), as lists of ranks.
SCRIPT = textwrap.dedent(f"""
    import json
    import engines
    from sim.batch import tables
    from sim.batch.spec import RunSpec

    spec = RunSpec(game="pouilleux", params=engines.load("pouilleux").params,
                   agents=("random",) * 3, seating="rotate", seed=3, games={GAMES},
                   chunk_size={GAMES})
    kernel = tables.play_chunk(spec, 0, {GAMES})["players"]
    tables.kernel_plays = lambda game, agents: False
    python = tables.play_chunk(spec, 0, {GAMES})["players"]
    print(json.dumps({{"kernel": kernel.column("rank").to_pylist(),
                      "python": python.column("rank").to_pylist()}}))
""")


def copy_of_the_project(where: Path) -> Path:
    """The compiled packages copied into ``where`` (no cache, no byte code)."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, where / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return where


def play(project: Path, cache: Path | None) -> dict:
    """Ranks of the chunk played by a fresh process in ``project`` (``cache``: the user's
    NUMBA_CACHE_DIR, None: unset)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    env["PYTHONPATH"] = str(project)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=project, env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.slow
def test_an_edited_rule_is_followed_by_the_kernel_and_the_python_api(tmp_path):
    """With NUMBA_CACHE_DIR set, where numba alone would replay the old rule.  The project's
    own folder is keyed by the same function (tests/engines/test_numba_cache.py checks the
    key follows an edit); compiling the game twice more here would double the test's time."""
    project = copy_of_the_project(tmp_path / "project")
    cache = tmp_path / "numba-cache"
    before = play(project, cache)                     # compiles into the cache
    assert before == play(project, cache)            # loaded from it: the same games
    assert before["kernel"] == before["python"]
    rules = project / RULES
    assert rules.read_text().count(RULE) == 1
    rules.write_text(rules.read_text().replace(RULE, EDITED))
    after = play(project, cache)
    assert after["kernel"] == after["python"]
    assert after["kernel"] != before["kernel"]
    assert len([p for p in cache.iterdir() if p.is_dir()]) == 2   # a copy per source hash
