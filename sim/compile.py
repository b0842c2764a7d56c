"""``python -m sim.compile [GAME ...]``: compile the games' rules, bots and batch kernels now.

numba compiles each game's code the first time it runs and keeps it in its cache (see
docs/architecture.md), so a first run of a game waits for that, up to minutes for the
largest.  This command does it for every game (or the ones named), several games at once,
with a progress bar (a line a game when the output is a log), so later commands start
at once; make test runs it before the suite, so the test processes do not each compile
the same code.

    python -m sim.compile                 # every game, on every core
    python -m sim.compile paris-damis tarot --jobs 1
    python -m sim.compile --searches paris-damis,rikiki   # and those kernels' searches

The batch kernel's searches (``flatmc`` and ``ismcts`` seats) are about two thirds of a
kernel's compile, so they are compiled only for the games given to ``--searches`` (``all``:
every game); a run with a search seat in another game's kernel compiles them on its first
use.  The searches through the Python API are compiled for every game.
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from tqdm import tqdm

import agents
import engines
from agents.compiled_search import SEARCHES
from agents.search import FlatMCParams, ISMCTSParams
from sim.batch.cli import resolve_jobs
from sim.cli import Parser, UsageError, mark_compiled, usage_error
from sim.kernels import kernel_for
from sim.runner import play_python

# The searches at one iteration a decision: enough to compile them.
BRIEF_SEARCHES = {"flatmc": FlatMCParams(iterations=1), "ismcts": ISMCTSParams(iterations=1)}


def compile_game(slug: str, kernel_searches: bool = False) -> tuple[str, float]:
    """Run each compiled part of a game once (which compiles it, or loads it from the cache):
    the batch kernel with every compiled policy of the game (and, with ``kernel_searches``, its
    loop with the search policies too), then a game through the Python API with
    observations, determinization, a playout and the searches, and one game of each
    compiled bot through its Python agent.  Returns the game and the CPU seconds it took.

    The kernel comes first, the loop with the searches first of all: numba compiles a
    function once per argument types in a process, under the flags of the first caller, so
    rules the Python API compiled first (with reference counting) would be linked into a
    kernel that runs without it (paris-damis, betzanbloo: about a fifth slower), and cached
    so."""
    started = time.process_time()
    game = engines.load(slug)
    kernel = kernel_for(slug)
    names = list(kernel.policies)
    lineups: list[list[tuple[str, Any]]] = [[(name, None) for name in names]]
    if kernel_searches:
        lineups.insert(0, lineups[0] + [(name, BRIEF_SEARCHES[name]) for name in SEARCHES])
    for lineup in lineups:
        ids, weights = kernel.lineup(lineup)
        seats = np.array([[ids[(g + p) % len(ids)] for p in range(game.num_players)]
                          for g in range(len(ids))], dtype=np.int32)
        kernel.play(game, seats, 0, 0, len(ids), weights=weights)
    rng = np.random.default_rng(0)
    state = game.new_state(seed=0)
    state.clone().playout(rng)
    searches = [agents.load(name, iterations=1) for name in SEARCHES]
    while not state.is_terminal():
        observation = state.observation(state.current_player)
        observation.determinize(rng)
        legal = state.legal_actions()
        while len(legal) > 1 and searches:             # once, where there is a choice
            searches.pop().act(observation, legal, rng)
        state.apply(legal[int(rng.integers(len(legal)))])
    state.records()
    for name in kernel.bots(slug):
        play_python(game, [agents.load(name, game=slug)] * game.num_players, seed=1)
    mark_compiled(slug)
    return slug, time.process_time() - started


def longest_first(games: Sequence[str]) -> list[str]:
    """The games in the order to compile them: by the size of their package's sources,
    largest first (a rough measure of the compile time, so the longest does not start last),
    and a game sharing its package with one before it (the tarots, the belotes) at the end,
    where it finds that one's code in the cache."""
    packages = {slug: Path(inspect.getfile(engines.game_class(slug))).parent for slug in games}
    size = {slug: sum(f.stat().st_size for f in packages[slug].glob("*.py")) for slug in games}
    ordered = sorted(games, key=lambda slug: (-size[slug], slug))
    first = [slug for i, slug in enumerate(ordered)
             if packages[slug] not in {packages[s] for s in ordered[:i]}]
    return first + [slug for slug in ordered if slug not in first]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m sim.compile",
                    description="Compile the games' rules, bots and batch kernels now.",
                    formatter_class=argparse.RawDescriptionHelpFormatter,
                    epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help="games to compile (default: every game; see python -m sim.batch "
                             "--list)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="games compiled at once, one process each (default: every core)")
    parser.add_argument("--searches", default=None, metavar="GAME,...",
                        help="games (compiled too if not named) whose batch kernel is compiled "
                             "with the search policies (flatmc, ismcts) too, comma-separated, "
                             "or 'all' for every game compiled (default: none; a kernel run "
                             "with a search seat compiles them on first use)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        searched = ([] if args.searches in (None, "all")
                    else [slug for slug in args.searches.split(",") if slug])
        for slug in args.games:
            if slug not in engines.available():
                raise UsageError(f"unknown game {slug!r}; available games: "
                                 f"{', '.join(engines.available())}")
        for slug in searched:
            if slug not in engines.available():
                raise UsageError(f"--searches: unknown game {slug!r}; give 'all' or games "
                                 f"among: {', '.join(engines.available())}")
        games = list(dict.fromkeys([*(args.games or engines.available()), *searched]))
        if args.searches == "all":
            searched = games
        jobs = min(resolve_jobs(args.jobs), len(games))
    except UsageError as error:
        return usage_error("sim.compile", error)
    started = time.perf_counter()
    done = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")(
        delayed(compile_game)(slug, slug in searched) for slug in longest_first(games))
    seconds: dict[str, float] = {}
    if sys.stderr.isatty():
        seconds = dict(tqdm(done, total=len(games), desc="compiling", unit="game",
                            file=sys.stderr))
    else:                       # a log: one line a game, so a long first run is not silent
        for slug, cpu in done:
            seconds[slug] = cpu
            print(f"compiled {slug} ({len(seconds)}/{len(games)}, {cpu:.0f} CPU s)",
                  file=sys.stderr, flush=True)
    slowest = max(seconds, key=seconds.__getitem__)
    print(f"{len(games)} game{'s' if len(games) > 1 else ''} ready in "
          f"{time.perf_counter() - started:.0f} s "
          f"({sum(seconds.values()):.0f} CPU s; longest {slowest}, {seconds[slowest]:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
