"""Benchmarks: ``python -m sim.bench [GAME ...]``.

Measures how fast a game plays with random agents: on one core through its compiled kernel
and through the Python API, and end to end with ``python -m sim.batch`` on all cores (Parquet
writing included), against the project's targets; prints games/s, parallel efficiency, wall
time and peak memory.  Compilation happens before the clock starts (a warm-up batch).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

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


def best_of(repeat: int, run) -> float:
    """The shortest of ``repeat`` timings of ``run()`` (the least disturbed by other load)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_kernel(game, games: int, seed: int, repeat: int) -> Measure:
    names = ["random"] * game.num_players
    play_kernel(game, names, seed, 0, 16)                       # compile / load cache
    seconds = best_of(repeat, lambda: play_kernel(game, names, seed, 0, games))
    target = TARGETS.get(game.slug, (None, None))[0]
    return Measure(game.slug, "kernel", game.num_players, games, seconds, games / seconds,
                   target)


def bench_python(game, games: int, seed: int, repeat: int) -> Measure:
    seats = [agents.load("random")] * game.num_players
    play_python(game, seats, seed, 0)                           # compile / load cache

    def run() -> None:
        for index in range(games):
            play_python(game, seats, seed, index)
    seconds = best_of(repeat, run)
    target = TARGETS.get(game.slug, (None, None))[1]
    return Measure(game.slug, "python", game.num_players, games, seconds, games / seconds,
                   target)


def bench_batch(game, games: int, seed: int, jobs: int, kernel: Measure | None) -> Measure:
    """End to end: ``python -m sim.batch`` in a subprocess, Parquet writing included."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "sim.batch", game.slug, "--games", str(games),
                   "--players", str(game.num_players), "--seed", str(seed), "--jobs",
                   str(jobs), "--out", str(Path(tmp) / "run"), "--no-progress",
                   "--format", "json"]
        for item in game.params.to_strings():
            if not item.startswith("players="):
                command += ["--variant", item]
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - start
    measure = Measure(game.slug, "batch", game.num_players, games, seconds, games / seconds,
                      None)
    if kernel is not None:
        # the target: at most 1.3x the time the kernel alone needs on these cores
        measure.target = kernel.games_per_second * jobs / 1.3
    return measure


def peak_memory_mib() -> tuple[float, float]:
    """Peak RSS of this process and of the largest finished child process, in MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sim.bench",
        description="Measure games per second with random agents against the project's "
                    "targets: on one core through the compiled kernel and through the Python "
                    "API, and end to end with python -m sim.batch on all cores (Parquet "
                    "writing included; parallel efficiency and peak memory).")
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"games to measure (default: all; available: "
                             f"{', '.join(engines.available())})")
    parser.add_argument("--players", type=int, default=None,
                        help="player count (default: each game's usual count)")
    parser.add_argument("--kernel-games", type=int, default=50_000, metavar="N",
                        help="games timed on the kernel path (default 50000)")
    parser.add_argument("--python-games", type=int, default=500, metavar="N",
                        help="games timed on the Python API path (default 500)")
    parser.add_argument("--batch-games", type=int, default=100_000, metavar="N",
                        help="games of the end-to-end sim.batch run, all cores (default "
                             "100000; 0 skips it)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="workers for the end-to-end run (default: all cores)")
    parser.add_argument("--repeat", type=int, default=3, metavar="R",
                        help="time the one-core measures R times and keep the best "
                             "(default 3; this machine's speed varies with other load)")
    parser.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument("--json", action="store_const", const="json", dest="format",
                        help="same as --format json")
    args = parser.parse_args(argv)

    slugs = args.games or engines.available()
    try:
        extra = {} if args.players is None else {"players": args.players}
        games = [engines.load(slug, **extra) for slug in slugs]
        if args.kernel_games < 1 or args.python_games < 1 or args.seed < 0 \
                or args.batch_games < 0 or args.repeat < 1:
            raise ValueError("--kernel-games and --python-games take a positive number, "
                             "--batch-games and --seed a non-negative one")
        jobs = args.jobs or len(os.sched_getaffinity(0))
    except ValueError as error:
        parser.exit(2, f"sim.bench: error: {error}\n")

    wall = time.perf_counter()
    measures = []
    for game in games:
        kernel = None
        if has_kernel(game.slug):
            kernel = bench_kernel(game, args.kernel_games, args.seed, args.repeat)
            measures.append(kernel)
        measures.append(bench_python(game, args.python_games, args.seed, args.repeat))
        if args.batch_games:
            measures.append(bench_batch(game, args.batch_games, args.seed, jobs, kernel))
    wall = time.perf_counter() - wall
    memory, child_memory = peak_memory_mib()

    if args.format == "json":
        json.dump({"measures": [asdict(m) | {"meets_target": m.meets_target}
                                for m in measures],
                   "jobs": jobs, "wall_seconds": wall, "peak_memory_mib": memory,
                   "peak_child_memory_mib": child_memory}, sys.stdout, indent=2)
        print()
        return 0
    print(f"{'game':<14}{'path':<8}{'players':>8}{'games':>9}{'seconds':>9}"
          f"{'games/s':>11}{'target':>9}  ok")
    for m in measures:
        ok = {None: "-", True: "yes", False: "NO"}[m.meets_target]
        target = f"{m.target:,.0f}" if m.target else "-"
        print(f"{m.game:<14}{m.path:<8}{m.players:>8}{m.games:>9,}{m.seconds:>9.2f}"
              f"{m.games_per_second:>11,.0f}{target:>9}  {ok}")
    print(f"kernel and python: one core, best of {args.repeat}; batch: {jobs} workers, one run, "
          f"target = kernel games/s x workers / 1.3 (>= 75% parallel efficiency)")
    for m in measures:
        if m.path == "batch" and m.target:
            print(f"{m.game} batch efficiency: {m.games_per_second / (m.target * 1.3):.0%}")
    print(f"wall time {wall:.1f} s (after compilation); peak memory {memory:.0f} MiB here, "
          f"{child_memory:.0f} MiB in the largest child process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
