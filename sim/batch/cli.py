"""The command line of ``python -m sim.batch``: its options, ``--list``, the checks that
turn them into a run, ``--resume``, and the exit status (0 done, 1 a chunk failed, 2 bad
input, 130 interrupted)."""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

import agents
import engines
from agents import profiles
from sim import results, runlock
from sim.batch.backends import BACKENDS
from sim.batch.run import check_chunks, check_profiles, new_run, play_run
from sim.batch.seating import SEATINGS
from sim.batch.spec import RunSpec, default_chunk_size
from sim.batch.summary import format_summary
from sim.batch.tables import kernel_plays, play_chunk
from sim.cli import (
    Parser,
    UsageError,
    announce_compile,
    check_room,
    check_seed,
    seed_arg,
    usage_error,
    variant_params,
    wants_progress,
)
from sim.kernels import has_kernel, kernel_for
from sim.manifest import ManifestError

DEFAULT_GAMES = 10_000
JOBS_HELP = ("parallel workers, 1 to this machine's cores (default: every core this process "
             "may use)")
# Bytes of tables per game above every game's measured so far (paris-damis: about 1 kB);
# a run that fits with it is not measured.
GAME_BYTES_CEILING = 64_000
SAMPLE_GAMES = 16           # games played in memory to measure a game's bytes per game
# How every command's help names a bot of one's own.
OWN_BOT = "your own bot as package.module:Class (docs/write-a-bot.md)"


def build_parser() -> argparse.ArgumentParser:
    """The options of ``python -m sim.batch`` (a bad one raises UsageError)."""
    p = Parser(
        prog="python -m sim.batch",
        description="Play many seeded games in parallel, store every result (Parquet tables "
                    "in a run directory) and print a summary.  Game i of a run with seed S "
                    "depends only on (S, i): the tables are the same whatever --jobs, "
                    "--chunk-size or --backend.",
        epilog="Examples:\n  python -m sim.batch paris-damis --games 100000\n"
               "  python -m sim.batch paris-damis --players 3 --variant jokers=2 "
               "--variant joker_rule=tiebreak\n  python -m sim.batch --resume "
               "runs/paris-damis-20261129T120000Z\n  python -m sim.batch --list",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", help="game slug (see --list)")
    p.add_argument("--list", action="store_true",
                   help="list games, agents (and saved profiles) and each game's variant keys "
                        "with defaults")
    p.add_argument("--games", type=int,
                   help=f"games to play, a whole number (default {DEFAULT_GAMES:,}); more "
                        f"than the free disk or memory can take is refused")
    p.add_argument("--players", type=int, help="player count (default: the game's usual)")
    p.add_argument("--agents", help="one agent for every seat, or one per seat, comma-"
                                    "separated (default: random); NAME@PROFILE plays a "
                                    "bot with a saved parameter profile, and a plain NAME "
                                    "its game's NAME@default where --list shows one "
                                    f"(docs/agents.md); {OWN_BOT}")
    p.add_argument("--seating", choices=SEATINGS,
                   help="rotate: agent i at seat (i + game index) mod K (default); fixed: "
                        "agent i at seat i; random: a seeded permutation per game")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule parameter, repeatable (see --list)")
    p.add_argument("--seed", type=seed_arg, help="run seed, 0 to 2**63 - 1 (default 0)")
    p.add_argument("--jobs", type=int, help=JOBS_HELP)
    p.add_argument("--chunk-size", type=int,
                   help="games per chunk, the unit of work and of resumption (default: "
                        "about 8 chunks per worker: 500 to 20,000 games with the compiled "
                        "kernel, 1 to 500 through the Python API)")
    p.add_argument("--backend", choices=BACKENDS, default="auto",
                   help="auto (default): threads when the compiled kernel plays (it "
                        "releases the GIL, and threads start at once), loky otherwise; "
                        "threads; loky: local worker processes (joblib); dask: a Dask "
                        "cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --backend dask: tcp://HOST:PORT of a running scheduler "
                        "(default: a local cluster started for the run)")
    p.add_argument("--out", help="run directory, new or empty (default runs/<game>-<UTC "
                                 "timestamp>); a directory another process writes is refused")
    p.add_argument("--resume", metavar="DIR",
                   help="continue an interrupted run, playing only its missing chunks and "
                        "those whose files no longer match the manifest's checksums")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="summary format on stdout (default table)")
    p.add_argument("--csv", action="store_true",
                   help="also write the finished tables as CSV in RUN_DIR/csv/ (one "
                        "<table>.csv each, list columns as text), as python -m sim.export "
                        "does")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return p


def listing() -> str:
    """What ``--list`` prints: every game with its variant keys and defaults, its agents
    and the agents its kernel plays."""
    lines = ["games:"]
    for slug in engines.available():
        cls = engines.game_class(slug)
        lines.append(f"  {slug}  ({cls.title})")
        lines.append(f"    rules: docs/rules/{slug}.md (a [ref] below is its section #ref)")
        for info in cls.Params.describe():
            ref = f" [{info.ref}]" if info.ref else ""
            choices = f" (one of: {', '.join(map(str, info.choices))})" if info.choices else ""
            lines.append(f"      {info.key}={info.default}{ref}  {info.help}{choices}")
        own = agents.available(slug)       # a kernel shared by several games: this one's
        kernel = ", kernel: " + ", ".join(sorted(n for n in kernel_for(slug).POLICIES
                                                 if n in own)) if has_kernel(slug) else ""
        lines.append(f"    agents: {', '.join(own)}{kernel}")
        held = profile_names(slug)
        if held:
            lines.append(f"    profiles: {', '.join(held)}")
    return "\n".join(lines)


def profile_names(game: str) -> list[str]:
    """The game's saved profiles as ``NAME@PROFILE`` (a file that cannot be read says
    so)."""
    try:
        held = profiles.read(game)
    except ValueError as error:
        return [f"({error})"]
    return [f"{agent}{profiles.SEPARATOR}{name}" for agent, names in held.items()
            for name in names]


def spec_from_args(args: argparse.Namespace) -> RunSpec:
    """Validate the arguments into a RunSpec (raises UsageError naming valid choices)."""
    if not args.game:
        raise UsageError("a game is required; available games: "
                         f"{', '.join(engines.available())}")
    try:
        params = variant_params(args.game, args.variant, args.players)
    except ValueError as error:
        raise UsageError(str(error)) from None
    k = params.players
    names = (args.agents or "random").split(",")
    names = [n.strip() for n in names]
    if len(names) == 1:
        names = names * k
    if len(names) != k:
        raise UsageError(f"--agents takes one agent or {k} (one per seat), got {len(names)}")
    check_agents(args.game, names)
    games = DEFAULT_GAMES if args.games is None else args.games
    if games < 1:
        raise UsageError(f"--games must be at least 1, got {games}")
    seed = check_seed(0 if args.seed is None else args.seed, "--seed")
    jobs = resolve_jobs(args.jobs)
    chunk = args.chunk_size if args.chunk_size is not None \
        else default_chunk_size(games, jobs, kernel_plays(args.game, names))
    if chunk < 1:
        raise UsageError(f"--chunk-size must be at least 1, got {chunk}")
    return RunSpec(game=args.game, params=params, agents=tuple(names),
                   seating=args.seating or "rotate", seed=seed, games=games,
                   chunk_size=chunk)


def check_agents(game: str, names: Sequence[str]) -> None:
    """UsageError naming the valid choices unless every agent (``NAME`` or
    ``NAME@PROFILE``) can play ``game``."""
    for name in names:
        try:
            agents.check(name, game)
        except ValueError as error:
            raise UsageError(str(error)) from None


def add_workers(p: argparse.ArgumentParser) -> None:
    """The options of a command whose games run as runs: ``--jobs``, ``--backend`` and
    ``--scheduler``, as for sim.batch."""
    p.add_argument("--jobs", type=int, help=JOBS_HELP)
    p.add_argument("--backend", choices=BACKENDS, default="auto",
                   help="where the games run, as for sim.batch (default auto)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --backend dask: tcp://HOST:PORT of a running scheduler")


def resolve_jobs(jobs: int | None) -> int:
    """``--jobs``, by default every core this process may use (UsageError outside 1 to the
    machine's core count; -1 and 0 mean nothing special)."""
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else (os.cpu_count() or 1)
    if jobs is None:
        return available
    limit = max(os.cpu_count() or 1, available)
    if not 1 <= jobs <= limit:
        raise UsageError(f"--jobs must be from 1 to {limit} (this machine's cores), got "
                         f"{jobs}; leave it out to use the {available} this process may use")
    return jobs


@functools.cache
def bytes_per_game(game: str, params: tuple[str, ...]) -> float:
    """Bytes of the tables of one game of ``game`` with ``params`` (``KEY=VALUE`` items;
    Arrow in memory, more than Parquet on disk), measured on a few games of random players
    played in memory."""
    rules = variant_params(game, [p for p in params if not p.startswith("players=")],
                           int(dict(p.split("=", 1) for p in params)["players"]))
    spec = RunSpec(game=game, params=rules, agents=("random",) * rules.players,
                   seating="rotate", seed=0, games=SAMPLE_GAMES, chunk_size=SAMPLE_GAMES)
    tables = play_chunk(spec, 0, SAMPLE_GAMES)
    return sum(t.nbytes for t in tables.values()) / SAMPLE_GAMES


def check_games_room(runs: Sequence[tuple[RunSpec, int]], out: Path, jobs: int,
                     written: bool = True) -> None:
    """UsageError, before any game is played, when ``runs`` (each spec's parameters with a
    number of games) would write more than the disk under ``out`` has free (when their
    tables are ``written``), or hold more in memory at once (a chunk per worker) than the
    machine has available; the message gives the estimate.  Bytes per game are measured
    only when the generous ceiling does not fit."""
    if not runs:
        return
    games = sum(n for _, n in runs) if written else 0
    chunk = max(min(spec.chunk_size, n) for spec, n in runs)
    what = f"{sum(n for _, n in runs):,} games"
    try:
        check_room(games * GAME_BYTES_CEILING, chunk * jobs * GAME_BYTES_CEILING, out, what)
        return
    except UsageError:
        pass
    per = {spec: bytes_per_game(spec.game, tuple(spec.params.to_strings()))
           for spec, _ in runs}
    check_room(sum(n * per[spec] for spec, n in runs) if written else 0,
               chunk * jobs * max(per.values()), out, what)


def resume_dir(args: argparse.Namespace) -> Path:
    """The directory ``--resume`` names (UsageError when it is not a directory)."""
    run_dir = Path(args.resume)
    if not run_dir.is_dir():
        raise UsageError(f"--resume {run_dir}: " + (
            "no such run directory" if not run_dir.exists() else "not a run directory (a file)"))
    return run_dir


def resume_spec(args: argparse.Namespace, run_dir: Path) -> RunSpec:
    """The spec of the run ``--resume`` names (read while holding its lock); UsageError
    when its manifest is missing or does not fit (naming the field) or other options
    contradict the run's own."""
    try:
        manifest = results.read_manifest(run_dir)
        spec = RunSpec.from_json(manifest["spec"])
    except ManifestError as error:
        raise UsageError(f"--resume {error}") from None
    try:
        check_profiles(manifest, spec, run_dir)
    except ValueError as error:
        raise UsageError(f"--resume {error}") from None
    given = {"game": args.game, "games": args.games, "seed": args.seed,
             "seating": args.seating, "chunk_size": args.chunk_size}
    for key, value in given.items():
        if value is not None and value != getattr(spec, key):
            raise UsageError(f"--resume {run_dir}: the run has {key}={getattr(spec, key)}, "
                             f"not {value}; resuming with other parameters is refused")
    if args.out:
        raise UsageError(f"--resume {run_dir} writes to the run's own directory; drop --out")
    if args.variant or args.players is not None or args.agents:
        # the run's own parameters, overridden by what was given, must be the run's
        run_params = [p for p in spec.params.to_strings() if not p.startswith("players=")]
        agents_given = args.agents or ",".join(spec.agents)
        try:
            other = spec_from_args(argparse.Namespace(**(vars(args) | {
                "game": spec.game, "games": spec.games, "seed": spec.seed,
                "seating": spec.seating, "chunk_size": spec.chunk_size,
                "variant": run_params + list(args.variant),
                "players": args.players if args.players is not None else len(spec.agents),
                "agents": agents_given})))
        except UsageError as error:
            raise UsageError(f"--resume {run_dir}: {error}; resuming with other parameters "
                             f"is refused") from None
        if other != spec:
            raise UsageError(f"--resume {run_dir}: the run was made with other parameters; "
                             f"resuming with other parameters is refused")
    return spec


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sim.batch ARGV``: returns the exit status."""
    parser = build_parser()
    with ExitStack() as held:
        try:
            args = parser.parse_args(argv)
            if args.list:
                print(listing())
                return 0
            if args.scheduler and args.backend != "dask":
                raise UsageError("--scheduler goes with --backend dask")
            jobs = resolve_jobs(args.jobs)
            if args.resume:
                run_dir = resume_dir(args)
                owner = held.enter_context(runlock.writing(run_dir))
                spec = resume_spec(args, run_dir)
                for line in check_chunks(run_dir):
                    print(f"sim.batch: {line}", file=sys.stderr)
            else:
                spec = spec_from_args(args)
                check_games_room([(spec, spec.games)], Path(args.out or "runs"), jobs)
                run_dir, owner = held.enter_context(new_run(spec, args.out))
        except UsageError as error:
            return usage_error("sim.batch", error)
        progress = wants_progress(args)
        announce_compile(spec.game)
        try:
            summary = play_run(spec, run_dir, owner, jobs, args.backend, args.scheduler,
                               progress)
        except KeyboardInterrupt:
            print(f"\nsim.batch: interrupted; continue with: python -m sim.batch --resume "
                  f"{run_dir}", file=sys.stderr)
            return 130
        except Exception as error:          # a chunk failed: finished chunks are kept
            print(f"sim.batch: error: {error}", file=sys.stderr)
            print(f"sim.batch: finished chunks are kept; continue with: python -m sim.batch "
                  f"--resume {run_dir}", file=sys.stderr)
            return 1
        written = []
        if args.csv:                        # written while the run is still held
            from sim.export import export  # pandas, only when asked
            try:
                written = export(run_dir, "csv")
            except (OSError, ValueError) as error:
                print(f"sim.batch: error: the run is complete, but its CSV export failed: "
                      f"{error}", file=sys.stderr)
                return 1
    if args.format == "json":
        extra = {"csv": [str(p) for p in written]} if args.csv else {}
        json.dump(summary | {"run_dir": str(run_dir)} | extra, sys.stdout, indent=2)
        print()
    else:
        print(format_summary(summary))
        print(f"results: {run_dir}  (sim.load({str(run_dir)!r}))")
        if written:
            print(f"csv: {written[0].parent}")
    return 0
