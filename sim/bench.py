"""Benchmarks: ``python -m sim.bench [GAME ...]``.

Measures how fast a game plays with random agents: on one core through its compiled kernel
(and again with four copies of each compiled strategy bot, ``kernel greedy``, ..., and with
one ``ismcts`` seat, ``kernel ismcts+rnd``, against the Python path on the same games where
that search rolls out with a bot; and how fast ``ismcts`` decides, compiled and in Python, on
the same positions) and
through the Python API (and the kernel's speed over the Python path's on the same random
games, ``kernel/python``, target 10x); on all cores through the kernel alone (``kernel*``: a fresh
process that plays the games in sim.batch's chunks and keeps nothing); and end to end with
``python -m sim.batch`` on all cores (Parquet writing included).  The batch target is at most
1.3x the kernel-alone time on the same cores.  ``--variant KEY=VALUE`` (repeatable, as for
sim.batch) times every named game with those parameters, e.g. ``rikiki --variant hands=5``
(one 5-card deal per game) to compare with other engines like for like; targets belong to
one variant of a game (``TARGETS``).  Prints games/s against the targets, parallel
efficiency, wall time and peak memory.  One-core measures start after a warm-up game and
are timed by the process's CPU time (other processes on the machine do not lengthen it);
the all-core ones by wall time, including each process's start-up (imports, numba cache
loading).
"""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

import agents
import engines
from agents.search import SearchParams
from engines.core.chance import uniform_index
from engines.core.params import Params
from sim.batch.cli import resolve_jobs
from sim.cli import Parser, UsageError, seed_arg, usage_error, variant_params
from sim.kernels import has_kernel, kernel_for
from sim.runner import play_kernel, play_python

# games/s on one core with random agents: (kernel, Python API), from the issues, for a game
# and variant: the parameters changed from the defaults, "players" aside (variant_key);
# paris-damis's kernel 60,000 since issue 22 (a search is as fast as its rollouts; 25,000
# before)
TARGETS = {("paris-damis", ""): (60_000, 500), ("huit-americain", ""): (2_600, None),
           ("bataille", ""): (20_000, None),
           # issue 8, like for like with OpenSpiel: oh_hell's C++ engine with its random bots
           # (one 5-card deal, 4 players); hearts driven from Python (one deal)
           ("rikiki", "hands=5"): (60_000, None),
           ("chasse-coeur", "num_hands=1"): (None, 3_000),
           ("petasse", "num_hands=1"): (None, 3_000),
           # issue 12: gin_rummy driven from Python (one hand), here with eager seats
           ("rami", "num_hands=1"): (None, 300)}
# the bot at every seat on the Python path where random play rarely ends a game (random
# rummy players seldom lay; random empereur hands keep growing): path "python NAME"
PYTHON_AGENTS = {"rami": "eager", "petite-ecole": "climber", "empereur": "hoarder"}
# games/s on one core through the kernel with every seat a copy of one strategy bot
STRATEGY_TARGETS = {("paris-damis", ""): 10_000}
# every game's kernel plays its random games at least this many times faster than its Python
# path plays the same games, both on one core in the same run (issue 21)
KERNEL_SPEEDUP = 10
# games/s on one core through the kernel with one ismcts seat as it plays by default in the
# game (its default profile there, if any: paris-damis's rolls out with greedy@tuned), the
# others random (issue 22)
SEARCH_TARGETS = {("paris-damis", ""): 20}
# games of the searched table where it has a target, unless --search-games says otherwise
SEARCH_GAMES = 10
# the compiled ismcts decides at least this many times faster than the Python one at equal
# budget (issue 22), measured twice: at the class defaults (200 iterations, random rollouts,
# which the Python search plays through the state's compiled playout) on the same positions
# (``ismcts c/py``); and as the game plays it by default where it rolls out with a bot (its
# tree and rollouts then in Python, as at the filing) on the same games
# (``ismcts+rnd k/p``)
SEARCH_SPEEDUP = 50


def variant_key(params: Params) -> str:
    """The parameters that differ from the game's defaults, ``players`` aside, as
    ``key=value`` items in field order (``""``: the defaults)."""
    changed = params.changed()
    return " ".join(item for item in params.to_strings()
                    if item.partition("=")[0] in changed and not item.startswith("players="))


@dataclass
class Measure:
    game: str
    variant: str
    path: str
    players: int
    games: int
    seconds: float
    games_per_second: float
    target: float | None

    @property
    def meets_target(self) -> bool | None:
        return None if self.target is None else self.games_per_second >= self.target

    @property
    def label(self) -> str:
        """The game, with its variant if any: ``rikiki hands=5``."""
        return f"{self.game} {self.variant}" if self.variant else self.game


def best_of(repeat: int, run, clock=time.perf_counter) -> float:
    """The shortest of ``repeat`` timings of ``run()`` by ``clock`` (the least disturbed by
    other load)."""
    times = []
    for _ in range(repeat):
        start = clock()
        run()
        times.append(clock() - start)
    return min(times)


def best_cpu_time(repeat: int, run) -> float:
    """The shortest CPU time of this process over ``repeat`` runs of ``run()``: the one-core
    measures' clock, which other processes on a shared machine do not lengthen (wall time
    grows with every process the scheduler runs in turn)."""
    return best_of(repeat, run, time.process_time)


def kernel_seconds(game, names: list[str], games: int, seed: int, repeat: int) -> float:
    """The best CPU time of the kernel playing ``games`` games with ``names`` at the seats,
    after a warm-up game (compilation, cache loading)."""
    play_kernel(game, names, seed, 0, 1)
    return best_cpu_time(repeat, lambda: play_kernel(game, names, seed, 0, games))


def bench_kernel(game, games: int, seed: int, repeat: int, agent: str = "random") -> Measure:
    """The kernel on one core with ``agent`` at every seat (path ``kernel``, or ``kernel
    NAME`` for a strategy bot)."""
    seconds = kernel_seconds(game, [agent] * game.num_players, games, seed, repeat)
    variant = variant_key(game.params)
    if agent == "random":
        path, target = "kernel", TARGETS.get((game.slug, variant), (None, None))[0]
    else:
        path, target = f"kernel {agent}", STRATEGY_TARGETS.get((game.slug, variant))
    return Measure(game.slug, variant, path, game.num_players, games, seconds,
                   games / seconds, target)


def bench_python(game, games: int, seed: int, repeat: int, agent: str | None = None
                 ) -> Measure:
    """The Python API on one core with ``agent`` at every seat (default: random, or the
    game's :data:`PYTHON_AGENTS` bot)."""
    agent = agent or PYTHON_AGENTS.get(game.slug, "random")
    seats = [agents.load(agent, game=game.slug)] * game.num_players
    play_python(game, seats, seed, 0)                           # compile / load cache

    def run() -> None:
        for index in range(games):
            play_python(game, seats, seed, index)
    seconds = best_cpu_time(repeat, run)
    variant = variant_key(game.params)
    target = TARGETS.get((game.slug, variant), (None, None))[1]
    path = "python" if agent == "random" else f"python {agent}"
    return Measure(game.slug, variant, path, game.num_players, games, seconds,
                   games / seconds, target)


def speedup(kernel: Measure, python: Measure) -> Measure:
    """The kernel's games/s over the Python path's, both with random seats (the same
    games), as a measure whose target is :data:`KERNEL_SPEEDUP`."""
    return Measure(kernel.game, kernel.variant, "kernel/python", kernel.players, kernel.games,
                   kernel.seconds, kernel.games_per_second / python.games_per_second,
                   KERNEL_SPEEDUP)


def bench_search_table(game, games: int, seed: int, repeat: int) -> Measure:
    """The kernel on one core with ``ismcts`` as it plays the game by default (its default
    profile there, if any) in seat 0 and ``random`` elsewhere (path ``kernel
    ismcts+rnd``)."""
    names = ["ismcts"] + ["random"] * (game.num_players - 1)
    seconds = kernel_seconds(game, names, games, seed, repeat)
    variant = variant_key(game.params)
    return Measure(game.slug, variant, "kernel ismcts+rnd", game.num_players, games,
                   seconds, games / seconds, SEARCH_TARGETS.get((game.slug, variant)))


def bench_search_speedup(game, games: int, seed: int, repeat: int) -> list[Measure]:
    """The first ``games`` games of ``kernel ismcts+rnd`` through the Python API, where
    ``ismcts``, rolling out with a bot as it plays the game by default, runs its tree and
    its rollouts in Python (path ``python ismcts+rnd``), and the kernel's speed over it on
    the same games (``ismcts+rnd k/p``, target :data:`SEARCH_SPEEDUP`): the same decisions
    on both paths, so the ratio of games/s is that of the search's decisions/s (the random
    seats cost next to nothing on either)."""
    names = ["ismcts"] + ["random"] * (game.num_players - 1)
    seats = [agents.load(name, game=game.slug) for name in names]

    def run() -> None:
        for index in range(games):
            play_python(game, seats, seed, index)
    python_seconds = best_cpu_time(repeat, run)
    kernel = kernel_seconds(game, names, games, seed, repeat)
    variant = variant_key(game.params)
    python = Measure(game.slug, variant, "python ismcts+rnd", game.num_players, games,
                     python_seconds, games / python_seconds, None)
    return [python, Measure(game.slug, variant, "ismcts+rnd k/p", game.num_players, games,
                            kernel, python_seconds / kernel, SEARCH_SPEEDUP)]


def search_games(game, asked: int | None) -> int:
    """The games of ``game`` the searched table (``kernel ismcts+rnd``) plays: ``asked``, or
    by default :data:`SEARCH_GAMES` where :data:`SEARCH_TARGETS` sets a target for the game
    and none elsewhere."""
    if asked is not None:
        return asked
    return SEARCH_GAMES if (game.slug, variant_key(game.params)) in SEARCH_TARGETS else 0


def rolls_out_with_a_bot(game) -> bool:
    """Whether ``ismcts`` rolls out with a bot as it plays the game by default (its default
    profile's ``rollout``), so that its Python path runs in Python throughout."""
    params = agents.params_for("ismcts", game.slug)
    return isinstance(params, SearchParams) and params.rollout != "random"


class PythonSearchView:
    """An observation as the Python searches see one: :class:`agents.search.ISMCTS` then runs
    its tree in Python, its rollouts the state's compiled playout."""

    def __init__(self, observation) -> None:
        self.observation = observation

    def determinize(self, rng):
        return self.observation.determinize(rng)


def search_positions(game, count: int, seed: int) -> list:
    """``count`` states with a choice (two legal actions or more) of random games."""
    rng = np.random.default_rng(seed)
    positions: list = []
    index = 0
    while len(positions) < count:
        state = game.new_state(seed + index)
        index += 1
        while not state.is_terminal() and len(positions) < count:
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.2:
                positions.append(state.clone())
            state.apply(legal[uniform_index(rng, len(legal))])
    return positions


def bench_search_decisions(game, decisions: int, seed: int, repeat: int) -> list[Measure]:
    """``ismcts`` at its class defaults deciding in the same positions, compiled and in
    Python (decisions/s, paths ``ismcts compiled`` and ``ismcts python``), and the compiled
    one's speed over the Python one's (``ismcts c/py``, target :data:`SEARCH_SPEEDUP`)."""
    bot = agents.load("ismcts")
    positions = search_positions(game, decisions, seed)

    def decide(view) -> None:
        for state in positions:
            observation = state.observation(state.current_player)
            bot.act(view(observation), state.legal_actions(), np.random.default_rng(seed))
    decide(lambda o: o)                                         # compile / load cache
    variant = variant_key(game.params)
    measures = []
    for path, view in (("ismcts compiled", lambda o: o), ("ismcts python", PythonSearchView)):
        seconds = best_cpu_time(repeat, lambda view=view: decide(view))
        measures.append(Measure(game.slug, variant, path, game.num_players, decisions,
                                seconds, decisions / seconds, None))
    compiled, python = measures
    measures.append(Measure(game.slug, variant, "ismcts c/py", game.num_players, decisions,
                            compiled.seconds,
                            compiled.games_per_second / python.games_per_second,
                            SEARCH_SPEEDUP))
    return measures


def kernel_alone(slug: str, params: list[str], games: int, seed: int, jobs: int) -> None:
    """Play ``games`` games with parameters ``params`` (``key=value`` items) through the
    kernel on ``jobs`` threads, in the chunks sim.batch would use, and keep nothing: the time
    the kernel alone needs on these cores."""
    from concurrent.futures import ThreadPoolExecutor

    from sim.batch.spec import default_chunk_size
    cls = engines.game_class(slug)
    game = cls(cls.Params.from_strings(params))
    names = ["random"] * game.num_players
    chunk = default_chunk_size(games, jobs)
    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(lambda start: play_kernel(game, names, seed, start,
                                                min(chunk, games - start)),
                      range(0, games, chunk)))


def timed_process(command: list[str], repeat: int) -> float:
    """The shortest wall time of ``repeat`` runs of ``command`` in a fresh process (imports
    and numba cache loading included)."""
    return best_of(repeat, lambda: subprocess.run(command, check=True,
                                                  stdout=subprocess.DEVNULL))


def bench_all_cores(game, games: int, seed: int, jobs: int, repeat: int
                    ) -> tuple[Measure | None, Measure]:
    """The kernel alone on ``jobs`` cores (a fresh process, nothing written), then
    ``python -m sim.batch`` end to end (Parquet writing included), whose target is at most
    1.3x the kernel-alone time."""
    alone = None
    variant = variant_key(game.params)
    if has_kernel(game.slug):
        code = (f"from sim.bench import kernel_alone; kernel_alone({game.slug!r}, "
                f"{game.params.to_strings()!r}, {games}, {seed}, {jobs})")
        seconds = timed_process([sys.executable, "-c", code], repeat)
        alone = Measure(game.slug, variant, "kernel*", game.num_players, games, seconds,
                        games / seconds, None)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        command = [sys.executable, "-m", "sim.batch", game.slug, "--games", str(games),
                   "--players", str(game.num_players), "--seed", str(seed), "--jobs",
                   str(jobs), "--out", str(out), "--no-progress", "--format", "json"]
        for item in game.params.to_strings():
            if not item.startswith("players="):
                command += ["--variant", item]

        def run() -> None:
            shutil.rmtree(out, ignore_errors=True)
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        seconds = best_of(repeat, run)
    batch = Measure(game.slug, variant, "batch", game.num_players, games, seconds,
                    games / seconds, None if alone is None else alone.games_per_second / 1.3)
    return alone, batch


def peak_memory_mib() -> tuple[float, float]:
    """Peak RSS of this process and of the largest finished child process, in MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def build_parser() -> Parser:
    """The options of ``python -m sim.bench`` (a bad one raises UsageError)."""
    parser = Parser(
        prog="python -m sim.bench",
        description="Measure games per second with random agents against the project's "
                    "targets: on one core through the compiled kernel (also with each "
                    "compiled strategy bot, and with one ismcts seat) and "
                    "through the Python API; ismcts decisions/s compiled and in Python; and "
                    "end to end with python -m sim.batch on all cores (Parquet "
                    "writing included; parallel efficiency and peak memory).")
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"games to measure (default: all; available: "
                             f"{', '.join(engines.available())})")
    parser.add_argument("--players", type=int, default=None,
                        help="player count (default: each game's usual count)")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule parameter of every game measured, repeatable (as for "
                             "sim.batch), e.g. rikiki --variant hands=5; targets belong to "
                             "one variant")
    parser.add_argument("--kernel-games", type=int, default=50_000, metavar="N",
                        help="games timed on the kernel path (default 50000)")
    parser.add_argument("--python-games", type=int, default=500, metavar="N",
                        help="games timed on the Python API path (default 500)")
    parser.add_argument("--batch-games", type=int, default=100_000, metavar="N",
                        help="games of the end-to-end sim.batch run, all cores (default "
                             "100000; 0 skips it)")
    parser.add_argument("--search-games", type=int, default=None, metavar="N",
                        help="games timed on the kernel with one ismcts seat as it plays the "
                             "game by default (its default profile there, if any), the "
                             "others random (default: 10 where a target is set for it, "
                             "Paris d'amis, none elsewhere, where such a table can take "
                             "minutes a game: random l'empereur and rummy seats seldom end a "
                             "hand; N: N games of every game named; 0 skips it)")
    parser.add_argument("--search-python-games", type=int, default=1, metavar="N",
                        help="where ismcts rolls out with a bot as it plays the game by "
                             "default (Paris d'amis, Betzanbloo, rikiki, the huit américain, "
                             "the tarot and the taré), the first N of the --search-games also "
                             "through the Python API, where its tree and rollouts then run in "
                             "Python, to compare the two paths' speeds (default 1, a few "
                             "seconds a game; 0 skips it)")
    parser.add_argument("--search-decisions", type=int, default=20, metavar="N",
                        help="positions of random games in which ismcts decides at its "
                             "class defaults, compiled and in Python, to compare their "
                             "speeds (default 20; 0 skips it)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="workers for the end-to-end run (default: all cores)")
    parser.add_argument("--repeat", type=int, default=3, metavar="R",
                        help="time the one-core measures R times and keep the best "
                             "(default 3; this machine's speed varies with other load)")
    parser.add_argument("--seed", type=seed_arg, default=0, help="run seed (default 0)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument("--json", action="store_const", const="json", dest="format",
                        help="same as --format json")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        slugs = args.games or engines.available()
        unknown = [slug for slug in slugs if slug not in engines.available()]
        if unknown:
            raise ValueError(f"unknown game {unknown[0]!r}; available games: "
                             f"{', '.join(engines.available())}")
        games = [engines.game_class(slug)(variant_params(slug, args.variant, args.players))
                 for slug in slugs]
        if args.kernel_games < 1 or args.python_games < 1 or args.seed < 0 \
                or min(args.batch_games, args.search_games or 0, args.search_python_games,
                       args.search_decisions) < 0 \
                or args.repeat < 1:
            raise ValueError("--kernel-games, --python-games and --repeat take a positive "
                             "number, --batch-games, --search-games, --search-python-games, "
                             "--search-decisions and --seed a non-negative one")
        jobs = resolve_jobs(args.jobs)
    except (UsageError, ValueError) as error:
        return usage_error("sim.bench", error)

    wall = time.perf_counter()
    measures = []
    for game in games:
        kernel = None
        if has_kernel(game.slug):
            kernel = bench_kernel(game, args.kernel_games, args.seed, args.repeat)
            measures.append(kernel)
            measures += [bench_kernel(game, args.kernel_games, args.seed, args.repeat, name)
                         for name in kernel_for(game.slug).bots(game.slug)]
        python = bench_python(game, args.python_games, args.seed, args.repeat)
        measures.append(python)
        if kernel is not None:
            if python.path != "python":      # a bot's games: time random ones too, fewer
                python = bench_python(game, max(1, args.python_games // 10), args.seed,
                                      args.repeat, "random")
                measures.append(python)
            measures.append(speedup(kernel, python))
            searched = search_games(game, args.search_games)
            if searched:
                measures.append(bench_search_table(game, searched, args.seed, args.repeat))
                if args.search_python_games and rolls_out_with_a_bot(game):
                    measures += bench_search_speedup(
                        game, min(args.search_python_games, searched), args.seed,
                        args.repeat)
        if args.search_decisions:
            measures += bench_search_decisions(game, args.search_decisions, args.seed,
                                               args.repeat)
        if args.batch_games:
            alone, batch = bench_all_cores(game, args.batch_games, args.seed, jobs,
                                           args.repeat)
            measures += [m for m in (alone, batch) if m is not None]
    wall = time.perf_counter() - wall
    memory, child_memory = peak_memory_mib()

    if args.format == "json":
        json.dump({"measures": [asdict(m) | {"meets_target": m.meets_target}
                                for m in measures],
                   "jobs": jobs, "wall_seconds": wall, "peak_memory_mib": memory,
                   "peak_child_memory_mib": child_memory}, sys.stdout, indent=2)
        print()
        return 0
    width = max(14, *(len(m.label) + 2 for m in measures))
    print(f"{'game':<{width}}{'path':<18}{'players':>8}{'games':>9}{'seconds':>9}"
          f"{'games/s':>11}{'target':>9}  ok")
    for m in measures:
        ok = {None: "-", True: "yes", False: "NO"}[m.meets_target]
        if m.path in ("kernel/python", "ismcts c/py", "ismcts+rnd k/p"):
            print(f"{m.label:<{width}}{m.path:<18}{m.players:>8}{'':>9}{'':>9}"
                  f"{m.games_per_second:>10,.1f}x{m.target:>8}x  {ok}")
            continue
        target = f"{m.target:,.0f}" if m.target else "-"
        speed = f"{m.games_per_second:,.{1 if m.games_per_second < 10 else 0}f}"
        print(f"{m.label:<{width}}{m.path:<18}{m.players:>8}{m.games:>9,}{m.seconds:>9.2f}"
              f"{speed:>11}{target:>9}  {ok}")
    print(f"kernel, python: one core, this process's CPU time, best of {args.repeat} (kernel "
          f"NAME, python NAME: every seat that bot).  kernel*: the kernel alone on "
          f"{jobs} cores, fresh process, nothing written; batch: python -m sim.batch on "
          f"{jobs} cores, Parquet included (both best of {args.repeat}, start-up included); "
          f"batch target = kernel* games/s / 1.3; kernel/python: the kernel's speed over the "
          f"Python path's with random seats (the same games), target {KERNEL_SPEEDUP}x.  "
          f"kernel ismcts+rnd: one ismcts seat as it plays the game by default (its default "
          f"profile there, if any), the others random; where it rolls out with a bot, "
          f"python ismcts+rnd: the first of those games through the Python API (the search's "
          f"tree and rollouts in Python), and ismcts+rnd k/p: the kernel's speed over it on "
          f"the same games (the same decisions), target {SEARCH_SPEEDUP}x.  "
          f"ismcts compiled, ismcts python: decisions/s (not games/s) of ismcts at its "
          f"class defaults in the same positions of random games, compiled and with its "
          f"tree in Python (rollouts compiled either way); ismcts c/py: their ratio, target "
          f"{SEARCH_SPEEDUP}x")
    for m in measures:
        if m.path == "batch":
            one = next((k for k in measures if k.label == m.label and k.path == "kernel"),
                       None)
            alone = next((k for k in measures if k.label == m.label and k.path == "kernel*"),
                         None)
            if one and alone:
                ratio = alone.games_per_second / m.games_per_second
                print(f"{m.label}: batch time / kernel* time {ratio:.2f}; "
                      f"parallel efficiency against {jobs} x the one-core kernel: kernel* "
                      f"{alone.games_per_second / (one.games_per_second * jobs):.0%}, batch "
                      f"{m.games_per_second / (one.games_per_second * jobs):.0%}")
    print(f"wall time {wall:.1f} s (after compilation); peak memory {memory:.0f} MiB here, "
          f"{child_memory:.0f} MiB in the largest child process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
