"""Benchmarks: ``python -m sim.bench [GAME ...]``.

Measures, on one core, how fast a game plays with random agents through its compiled kernel
and through the Python API, against the project's targets, and prints games/s, wall time and
peak memory.  Compilation happens before the clock starts (a warm-up batch).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from dataclasses import asdict, dataclass

import agents
import engines
from sim.kernels import has_kernel
from sim.runner import play_kernel, play_python

# games/s on one core with random agents: (kernel, Python API), from the issues
TARGETS = {"paris-damis": (25_000, 500)}


@dataclass
class Measure:
    game: str
    path: str
    players: int
    games: int
    seconds: float
    games_per_second: float
    target: float | None

    @property
    def meets_target(self) -> bool | None:
        return None if self.target is None else self.games_per_second >= self.target


def bench_kernel(game, games: int, seed: int) -> Measure:
    names = ["random"] * game.num_players
    play_kernel(game, names, seed, 0, 16)                       # compile / load cache
    start = time.perf_counter()
    play_kernel(game, names, seed, 0, games)
    seconds = time.perf_counter() - start
    target = TARGETS.get(game.slug, (None, None))[0]
    return Measure(game.slug, "kernel", game.num_players, games, seconds, games / seconds,
                   target)


def bench_python(game, games: int, seed: int) -> Measure:
    seats = [agents.load("random")] * game.num_players
    play_python(game, seats, seed, 0)                           # compile / load cache
    start = time.perf_counter()
    for index in range(games):
        play_python(game, seats, seed, index)
    seconds = time.perf_counter() - start
    target = TARGETS.get(game.slug, (None, None))[1]
    return Measure(game.slug, "python", game.num_players, games, seconds, games / seconds,
                   target)


def peak_memory_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sim.bench",
        description="Measure games per second on one core with random agents: the compiled "
                    "kernel path and the Python API path, against the project's targets.")
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"games to measure (default: all; available: "
                             f"{', '.join(engines.available())})")
    parser.add_argument("--players", type=int, default=None,
                        help="player count (default: each game's usual count)")
    parser.add_argument("--kernel-games", type=int, default=50_000, metavar="N",
                        help="games timed on the kernel path (default 50000)")
    parser.add_argument("--python-games", type=int, default=500, metavar="N",
                        help="games timed on the Python API path (default 500)")
    parser.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args(argv)

    slugs = args.games or engines.available()
    try:
        extra = {} if args.players is None else {"players": args.players}
        games = [engines.load(slug, **extra) for slug in slugs]
        if args.kernel_games < 1 or args.python_games < 1 or args.seed < 0:
            raise ValueError("--kernel-games and --python-games take a positive number, "
                             "--seed a non-negative one")
    except ValueError as error:
        parser.exit(2, f"sim.bench: error: {error}\n")

    wall = time.perf_counter()
    measures = []
    for game in games:
        if has_kernel(game.slug):
            measures.append(bench_kernel(game, args.kernel_games, args.seed))
        measures.append(bench_python(game, args.python_games, args.seed))
    wall = time.perf_counter() - wall
    memory = peak_memory_mib()

    if args.format == "json":
        json.dump({"measures": [asdict(m) | {"meets_target": m.meets_target}
                                for m in measures],
                   "wall_seconds": wall, "peak_memory_mib": memory}, sys.stdout, indent=2)
        print()
        return 0
    print(f"{'game':<14}{'path':<8}{'players':>8}{'games':>9}{'seconds':>9}"
          f"{'games/s':>11}{'target':>9}  ok")
    for m in measures:
        ok = {None: "-", True: "yes", False: "NO"}[m.meets_target]
        target = f"{m.target:,.0f}" if m.target else "-"
        print(f"{m.game:<14}{m.path:<8}{m.players:>8}{m.games:>9,}{m.seconds:>9.2f}"
              f"{m.games_per_second:>11,.0f}{target:>9}  {ok}")
    print(f"wall time {wall:.1f} s (after compilation), peak memory {memory:.0f} MiB, one core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
