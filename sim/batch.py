"""``python -m sim.batch GAME``: play many seeded games in parallel and keep every result.

Game ``i`` of a run with seed ``S`` depends only on ``(S, i)`` (its streams, and its seating
under ``--seating random``), so the tables are identical whatever ``--jobs``,
``--chunk-size`` or ``--backend``.  Chunks run in the game's compiled kernel when it has one
and every agent has a compiled twin, otherwise through the Python API; both give the same
tables.  Results go to a run directory (see :mod:`sim.results`), chunk by chunk, so an
interrupted run resumes with ``--resume DIR``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

import agents
import engines
from sim import results, stats
from sim.cli import Parser, UsageError, variant_params
from sim.kernels import has_kernel, kernel_for
from sim.runner import play_python

if TYPE_CHECKING:
    from engines import GameParams

DEFAULT_GAMES = 10_000
SEATINGS = ("rotate", "fixed", "random")
BACKENDS = ("auto", "threads", "loky", "dask")
SEATING_BLOCK = 16


# --------------------------------------------------------------------------------------
# What a run is
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's tables (and nothing that does not)."""

    game: str
    params: GameParams               # the game's validated parameters
    agents: tuple[str, ...]          # agent i of the seating rule
    seating: str
    seed: int
    games: int
    chunk_size: int

    def __post_init__(self) -> None:
        if not isinstance(self.params, engines.params_class(self.game)):
            raise TypeError(f"RunSpec.params must be {self.game}'s parameters "
                            f"(engines.params_class({self.game!r})), got {self.params!r}")

    def load_game(self) -> Any:
        return engines.game_class(self.game)(self.params)

    def chunks(self) -> list[tuple[int, int]]:
        return [(start, min(self.chunk_size, self.games - start))
                for start in range(0, self.games, self.chunk_size)]

    def to_json(self) -> dict[str, Any]:
        """The manifest's ``spec``: every parameter as text, defaults included."""
        return {f.name: getattr(self, f.name) for f in fields(self)} | {
            "params": dict(item.split("=", 1) for item in self.params.to_strings())}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunSpec:
        params = engines.params_class(data["game"]).from_strings(
            {k: str(v) for k, v in data["params"].items()})
        return cls(game=data["game"], params=params,
                   agents=tuple(data["agents"]), seating=data["seating"],
                   seed=int(data["seed"]), games=int(data["games"]),
                   chunk_size=int(data["chunk_size"]))


def seating(spec: RunSpec, start: int, count: int) -> np.ndarray:
    """Agent index at each seat, shape (count, players), for games start..start+count-1.

    ``rotate``: agent i sits at seat (i + game index) mod K; ``fixed``: agent i at seat i;
    ``random``: a permutation drawn from ``SeedSequence(seed, spawn_key=(block, 1))`` for
    each block of 16 games, so it depends only on (seed, game index)."""
    k = len(spec.agents)
    index = np.arange(start, start + count)
    if spec.seating == "fixed":
        return np.tile(np.arange(k), (count, 1))
    if spec.seating == "rotate":
        return (np.arange(k)[None, :] - index[:, None]) % k
    out = np.empty((count, k), dtype=np.int64)
    first_block, last_block = start // SEATING_BLOCK, (start + count - 1) // SEATING_BLOCK
    for block in range(first_block, last_block + 1):
        rng = np.random.default_rng(np.random.SeedSequence(spec.seed, spawn_key=(block, 1)))
        perms = np.array([rng.permutation(k) for _ in range(SEATING_BLOCK)])
        lo = max(start, block * SEATING_BLOCK)
        hi = min(start + count, (block + 1) * SEATING_BLOCK)
        out[lo - start:hi - start] = perms[lo - block * SEATING_BLOCK:hi - block * SEATING_BLOCK]
    return out


# --------------------------------------------------------------------------------------
# One chunk (runs in a worker)
# --------------------------------------------------------------------------------------
def uses_kernel(spec: RunSpec) -> bool:
    return kernel_plays(spec.game, spec.agents)


def kernel_plays(game: str, agent_names: Sequence[str]) -> bool:
    """Whether the game has a compiled kernel with a compiled twin of every agent."""
    return has_kernel(game) and all(a in kernel_for(game).POLICIES for a in agent_names)


def play_chunk(spec: RunSpec, start: int, count: int) -> dict[str, pa.Table]:
    """The result tables of games start..start+count-1."""
    game = spec.load_game()
    seats = seating(spec, start, count)
    if uses_kernel(spec):
        kernel = kernel_for(spec.game)
        ids = kernel.policy_ids(list(spec.agents))
        out = kernel.play(game, ids[seats], spec.seed, start, count)
        rows, rounds, round_counts = out.rows, out.rounds, out.round_counts
    else:
        bots = [agents.load(a, game=spec.game) for a in spec.agents]
        rows_list, rounds_list, counts = [], [], []
        for g in range(count):
            try:
                state = play_python(game, [bots[a] for a in seats[g]], spec.seed, start + g)
            except Exception as error:
                raise GameFailed(start + g, error) from error
            row, game_rounds = state.records()
            rows_list.append(row)
            rounds_list.append(game_rounds)
            counts.append(len(game_rounds))
        rows, rounds = np.stack(rows_list), np.concatenate(rounds_list)
        round_counts = np.array(counts)
    return build_tables(game, spec, start, count, seats, rows, rounds, round_counts)


def build_tables(game: Any, spec: RunSpec, start: int, count: int, seats: np.ndarray,
                 rows: np.ndarray, rounds: np.ndarray | None,
                 round_counts: np.ndarray) -> dict[str, pa.Table]:
    """The games, players and rounds tables of a chunk from its records."""
    summary = game.summary
    n = game.num_players
    game_id = np.arange(start, start + count, dtype=np.int64)
    players = summary.player_columns(game.params, rows)
    ranks = players["rank"]
    games = {"game_id": game_id, "seed": np.full(count, spec.seed, dtype=np.int64),
             "n_players": np.full(count, n, dtype=np.int8)}
    games |= summary.game_columns(game.params, rows)
    winners = ranks == 1
    offsets = np.concatenate([[0], np.cumsum(winners.sum(axis=1))]).astype(np.int32)
    seats_won = np.nonzero(winners)[1].astype(np.int8)
    games["winner_seats"] = pa.ListArray.from_arrays(pa.array(offsets), pa.array(seats_won))
    games_table = pa.table(games)
    agent_index = seats.reshape(-1).astype(np.int8)
    player_cols = {"game_id": np.repeat(game_id, n),
                   "seat": np.tile(np.arange(n, dtype=np.int8), count),
                   "agent": agent_column(spec.agents, agent_index),
                   "agent_index": agent_index}
    player_cols |= {k: v.reshape(-1) for k, v in players.items()}
    tables = {"games": games_table, "players": pa.table(player_cols)}
    if rounds is not None:
        round_cols: dict[str, Any] = {"game_id": np.repeat(game_id, round_counts)}
        for name, column in summary.round_columns(game.params, rounds).items():
            round_cols[name] = categorical(*column) if isinstance(column, tuple) else column
        tables["rounds"] = pa.table(round_cols)
    return tables


def agent_column(names: Sequence[str], agent_index: np.ndarray) -> pa.DictionaryArray:
    """The agent name of each row, from the run's agent indices."""
    unique = list(dict.fromkeys(names))
    code_of = np.array([unique.index(n) for n in names], dtype=np.int8)
    return categorical(code_of[agent_index], unique)


def categorical(codes: np.ndarray, categories: Sequence[str]) -> pa.DictionaryArray:
    """A string column stored as codes into its categories (read back as text)."""
    return pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(list(categories)))


def bet_columns(slug: str) -> tuple[str, str]:
    """The rounds table's bet column and the column that says whether the bet was met, for
    the summary's bet accuracy: ``("bet", "bet_correct")`` unless the game's summary names
    its own in ``BET_COLUMNS`` (rikiki: ``("bid", "made")``)."""
    return getattr(engines.game_class(slug).summary, "BET_COLUMNS", ("bet", "bet_correct"))


class GameFailed(Exception):
    """A game raised: carries its index so that it can be replayed."""

    def __init__(self, index: int, error: Exception) -> None:
        super().__init__(index, error)
        self.index = index
        self.error = error


@dataclass
class ChunkFigures:
    """What the summary needs from one chunk (small, returned by workers)."""

    start: int
    count: int
    seat_wins: list[float]
    agent_wins: dict[str, float]
    agent_seats: dict[str, int]
    decisions: np.ndarray
    rounds: np.ndarray
    bets: dict[str, list[int]] = field(default_factory=dict)  # bet value -> [correct, total]


def run_chunk(spec: RunSpec, run_dir: str, start: int, count: int) -> ChunkFigures:
    """Play a chunk, write its tables, return its figures (the unit of parallel work)."""
    try:
        tables = play_chunk(spec, start, count)
    except GameFailed as failure:
        raise RuntimeError(f"game {failure.index} (seed {spec.seed}) failed: "
                           f"{failure.error!r}; replay it with python -m sim.replay RUN_DIR "
                           f"--game {failure.index}") from failure.error
    except Exception as error:
        raise RuntimeError(f"the chunk of games {start}..{start + count - 1} (seed "
                           f"{spec.seed}) failed: {error!r}") from error
    results.write_chunk(Path(run_dir), start, tables)
    return figures_of(spec, start, count, tables)


def figures_of(spec: RunSpec, start: int, count: int, tables: dict[str, pa.Table]
               ) -> ChunkFigures:
    players = tables["players"]
    seat = players["seat"].to_numpy()
    share = players["win_share"].to_numpy().astype(np.float64)
    agent_index = players["agent_index"].to_numpy()
    k = len(spec.agents)
    agent_wins: dict[str, float] = {}
    agent_seats: dict[str, int] = {}
    by_index = np.bincount(agent_index, weights=share, minlength=k)
    seats_by_index = np.bincount(agent_index, minlength=k)
    for i, name in enumerate(spec.agents):
        agent_wins[name] = agent_wins.get(name, 0.0) + float(by_index[i])
        agent_seats[name] = agent_seats.get(name, 0) + int(seats_by_index[i])
    bets: dict[str, list[int]] = {}
    rounds = tables.get("rounds")
    bet_name, correct_name = bet_columns(spec.game)
    if rounds is not None and {bet_name, correct_name} <= set(rounds.column_names):
        bet = rounds[bet_name].to_numpy().astype(np.int64)
        correct = rounds[correct_name].to_numpy().astype(np.int64)
        totals = np.bincount(bet)
        hits = np.bincount(bet, weights=correct, minlength=len(totals))
        bets = {str(v): [int(hits[v]), int(totals[v])] for v in np.flatnonzero(totals)}
    games = tables["games"]
    return ChunkFigures(
        start=start, count=count,
        seat_wins=np.bincount(seat, weights=share, minlength=k).tolist(),
        agent_wins=agent_wins, agent_seats=agent_seats,
        decisions=games["decisions"].to_numpy().astype(np.int32),
        rounds=games["rounds"].to_numpy().astype(np.int16), bets=bets)


# --------------------------------------------------------------------------------------
# Running the chunks
# --------------------------------------------------------------------------------------
def execute(spec: RunSpec, run_dir: Path, todo: list[tuple[int, int]], jobs: int,
            backend: str, scheduler: str | None) -> Iterator[ChunkFigures]:
    """Run the chunks, yielding their figures as they finish (in any order)."""
    if backend == "dask":
        yield from _execute_dask(spec, run_dir, todo, jobs, scheduler)
        return
    from joblib import Parallel, delayed
    backend = resolve_backend(spec, backend)
    parallel = Parallel(n_jobs=jobs, backend="threading" if backend == "threads" else "loky",
                        return_as="generator_unordered")
    yield from parallel(delayed(run_chunk)(spec, str(run_dir), start, count)
                        for start, count in todo)


def resolve_backend(spec: RunSpec, backend: str) -> str:
    """``auto``: threads when the compiled kernel plays (it releases the GIL), else loky."""
    if backend != "auto":
        return backend
    return "threads" if uses_kernel(spec) else "loky"


def _execute_dask(spec: RunSpec, run_dir: Path, todo: list[tuple[int, int]],
                  jobs: int, scheduler: str | None) -> Iterator[ChunkFigures]:
    from distributed import Client, LocalCluster, as_completed
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(scheduler)
    try:
        futures = [client.submit(run_chunk, spec, str(run_dir), start, count,
                                 pure=False) for start, count in todo]
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# --------------------------------------------------------------------------------------
# Summary
# --------------------------------------------------------------------------------------
def summarize(spec: RunSpec, figures: Sequence[ChunkFigures], wall: float,
              played: int | None = None) -> dict[str, Any]:
    """The run's summary over every chunk's figures; games/s counts the ``played`` games
    (default: all) over ``wall`` seconds."""
    games = sum(f.count for f in figures)
    played = games if played is None else played
    seat = [stats.proportion(sum(f.seat_wins[p] for f in figures), games)
            for p in range(len(spec.agents))]
    agent_names = sorted({a for f in figures for a in f.agent_wins})
    agent = {a: stats.proportion(sum(f.agent_wins.get(a, 0.0) for f in figures),
                                 sum(f.agent_seats.get(a, 0) for f in figures))
             for a in agent_names}
    decisions = np.concatenate([f.decisions for f in figures]) if figures else np.array([])
    rounds = np.concatenate([f.rounds for f in figures]) if figures else np.array([])
    out: dict[str, Any] = {
        "game": spec.game, "games": games, "players": len(spec.agents),
        "win_share_by_seat": {str(p): s for p, s in enumerate(seat)},
        "win_share_by_agent": agent,
        "decisions": stats.distribution(decisions),
        "rounds": stats.distribution(rounds),
        "games_played": played, "wall_seconds": wall,
        "games_per_second": played / wall if wall > 0 else math.nan,
    }
    bet_values = sorted({v for f in figures for v in f.bets}, key=int)
    if bet_values:
        totals = {v: [sum(f.bets.get(v, [0, 0])[i] for f in figures) for i in (0, 1)]
                  for v in bet_values}
        correct = sum(t[0] for t in totals.values())
        total = sum(t[1] for t in totals.values())
        out["bet_accuracy"] = stats.proportion(correct, total)
        out["bet_accuracy_by_value"] = {v: stats.proportion(c, t)
                                        for v, (c, t) in totals.items()}
    return out


def format_summary(summary: dict[str, Any]) -> str:
    def share(p: dict[str, float]) -> str:
        return f"{p['p']:6.1%}  [{p['low']:6.1%}, {p['high']:6.1%}]  n={p['n']:,}"

    lines = [f"{summary['game']}: {summary['games']:,} games, {summary['players']} players",
             "", "win share by seat (95% Wilson interval)"]
    lines += [f"  seat {s}   {share(p)}" for s, p in summary["win_share_by_seat"].items()]
    lines += ["", "win share by agent"]
    lines += [f"  {a:<8} {share(p)}" for a, p in summary["win_share_by_agent"].items()]
    if "bet_accuracy" in summary:
        lines += ["", f"bet accuracy    {share(summary['bet_accuracy'])}"]
        lines += [f"  bet {v}        {share(p)}"
                  for v, p in summary["bet_accuracy_by_value"].items()]
    lines += [""]
    for name in ("decisions", "rounds"):
        d = summary[name]
        lines.append(f"{name + ' per game':<20} mean {d['mean']:.1f}  median {d['median']:.0f}"
                     f"  95th percentile {d['p95']:.0f}")
    lines.append(f"wall time {summary['wall_seconds']:.1f} s, {summary['games_played']:,} "
                 f"games played, {summary['games_per_second']:,.0f} games/s")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
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
                   help="list games, agents and each game's variant keys with defaults")
    p.add_argument("--games", type=int, help=f"games to play (default {DEFAULT_GAMES:,})")
    p.add_argument("--players", type=int, help="player count (default: the game's usual)")
    p.add_argument("--agents", help="one agent for every seat, or one per seat, comma-"
                                    "separated (default: random)")
    p.add_argument("--seating", choices=SEATINGS,
                   help="rotate: agent i at seat (i + game index) mod K (default); fixed: "
                        "agent i at seat i; random: a seeded permutation per game")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule parameter, repeatable (see --list)")
    p.add_argument("--seed", type=int, help="run seed (default 0)")
    p.add_argument("--jobs", type=int, help="parallel workers (default: all cores)")
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
    p.add_argument("--out", help="run directory (default runs/<game>-<UTC timestamp>)")
    p.add_argument("--resume", metavar="DIR",
                   help="continue an interrupted run, playing only its missing chunks")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="summary format on stdout (default table)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return p


def listing() -> str:
    lines = ["games:"]
    for slug in engines.available():
        cls = engines.game_class(slug)
        lines.append(f"  {slug}  ({cls.title})")
        for info in cls.Params.describe():
            ref = f" [{info.ref}]" if info.ref else ""
            choices = f" (one of: {', '.join(map(str, info.choices))})" if info.choices else ""
            lines.append(f"      {info.key}={info.default}{ref}  {info.help}{choices}")
        kernel = ", kernel: " + ", ".join(sorted(kernel_for(slug).POLICIES)) \
            if has_kernel(slug) else ""
        lines.append(f"    agents: {', '.join(agents.available(slug))}{kernel}")
    return "\n".join(lines)


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
    valid = agents.available(args.game)
    for name in names:
        if name not in valid:
            raise UsageError(f"unknown agent {name!r} for {args.game}; available agents: "
                             f"{', '.join(valid)}")
    games = DEFAULT_GAMES if args.games is None else args.games
    if games < 1:
        raise UsageError(f"--games must be at least 1, got {games}")
    seed = 0 if args.seed is None else args.seed
    if seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {seed}")
    jobs = resolve_jobs(args.jobs)
    chunk = args.chunk_size if args.chunk_size is not None \
        else default_chunk_size(games, jobs, kernel_plays(args.game, names))
    if chunk < 1:
        raise UsageError(f"--chunk-size must be at least 1, got {chunk}")
    return RunSpec(game=args.game, params=params, agents=tuple(names),
                   seating=args.seating or "rotate", seed=seed, games=games,
                   chunk_size=chunk)


def resolve_jobs(jobs: int | None) -> int:
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else (os.cpu_count() or 1)
    if jobs is None:
        return available
    if jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    return jobs


def default_chunk_size(games: int, jobs: int, compiled: bool = True) -> int:
    """About 8 chunks per worker: 500 to 20,000 games when the compiled kernel plays (a
    chunk must outweigh its Parquet files), 1 to 500 through the Python API (slow bots must
    still spread over every worker)."""
    low, high = (500, 20_000) if compiled else (1, 500)
    return int(min(high, max(low, math.ceil(games / (8 * jobs)))))


def git_revision() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=5, check=False)
    except OSError:
        return None
    return out.stdout.strip() or None


def package_version() -> str:
    try:
        return metadata.version("tapis-vert")
    except metadata.PackageNotFoundError:
        return "unknown"


def prepare_run_dir(spec: RunSpec, out: str | None) -> Path:
    """Create the run directory (checking it is writable) and its manifest."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    run_dir = Path(out) if out else Path("runs") / f"{spec.game}-{stamp}"
    if run_dir.exists() and not run_dir.is_dir():
        raise UsageError(f"--out {run_dir} is a file, not a directory; choose a new directory")
    if run_dir.exists() and any(run_dir.iterdir()):
        raise UsageError(f"--out {run_dir} exists and is not empty; choose a new directory "
                         f"or continue it with --resume {run_dir}")
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        probe = run_dir / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise UsageError(f"cannot write to --out {run_dir}: {error.strerror}") from None
    results.write_manifest(run_dir, {
        "spec": spec.to_json(), "status": "running", "version": package_version(),
        "git_revision": git_revision(), "started": now(), "finished": None})
    return run_dir


def resume_spec(args: argparse.Namespace) -> tuple[RunSpec, Path]:
    run_dir = Path(args.resume)
    try:
        manifest = results.read_manifest(run_dir)
        spec = RunSpec.from_json(manifest["spec"])
    except (OSError, ValueError, KeyError):
        raise UsageError(f"--resume {run_dir}: not a run directory (no readable "
                         f"manifest.json)") from None
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
    return spec, run_dir


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def play_run(spec: RunSpec, run_dir: Path, jobs: int, backend: str = "auto",
             scheduler: str | None = None, progress: bool = False) -> dict[str, Any]:
    """Play the missing chunks of the prepared run in ``run_dir``, mark its manifest
    complete and return its summary (``progress``: a tqdm bar on stderr).  A failing chunk
    raises; the chunks already written are kept for ``--resume``."""
    manifest = results.read_manifest(run_dir)
    done = results.done_chunks(run_dir)
    todo = [(s, c) for s, c in spec.chunks() if s not in done]
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=spec.games, initial=spec.games - sum(c for _, c in todo),
                   unit="games", desc=spec.game, file=sys.stderr, smoothing=0.1)
    began = time.perf_counter()
    figures: list[ChunkFigures] = []
    try:
        for chunk in execute(spec, run_dir, todo, jobs, backend, scheduler):
            figures.append(chunk)
            if bar is not None:
                bar.update(chunk.count)
    finally:
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - began
    played = sum(f.count for f in figures)
    if done:        # figures of chunks played before the resume
        figures += [figures_of(spec, s, c, _read_chunk(run_dir, s))
                    for s, c in spec.chunks() if s in done]
    summary = summarize(spec, figures, wall, played)
    manifest |= {"status": "complete", "finished": now(), "wall_seconds": wall,
                 "games_played": played, "games_per_second": summary["games_per_second"],
                 "jobs": jobs, "backend": resolve_backend(spec, backend),
                 "kernel": uses_kernel(spec)}
    results.write_manifest(run_dir, manifest)
    return summary


def ensure_run(spec: RunSpec, run_dir: Path, jobs: int, progress: bool = False) -> Path:
    """The run of ``spec`` in ``run_dir``, complete: played when the directory is new or
    empty, resumed when it holds this run unfinished, reused when it holds it finished.
    Raises ValueError when it holds another run."""
    if run_dir.is_dir() and any(run_dir.iterdir()):
        try:
            manifest = results.read_manifest(run_dir)
        except (OSError, ValueError):
            manifest = {}
        try:
            held = RunSpec.from_json(manifest["spec"])
        except (KeyError, TypeError, ValueError):
            held = None
        # the chunk size only splits the work: the run's own is kept
        if held is None or replace(held, chunk_size=spec.chunk_size) != spec:
            raise ValueError(f"{run_dir} holds another run (not {spec.game} with these "
                             f"parameters, agents, seed and games); remove it or choose "
                             f"another output directory")
        if manifest.get("status") == "complete":
            return run_dir
        spec = held
    else:
        prepare_run_dir(spec, str(run_dir))
    play_run(spec, run_dir, jobs, progress=progress)
    return run_dir


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.list:
            print(listing())
            return 0
        if args.scheduler and args.backend != "dask":
            raise UsageError("--scheduler goes with --backend dask")
        jobs = resolve_jobs(args.jobs)
        if args.resume:
            spec, run_dir = resume_spec(args)
        else:
            spec = spec_from_args(args)
            run_dir = prepare_run_dir(spec, args.out)
    except UsageError as error:
        print(f"sim.batch: error: {error}", file=sys.stderr)
        return 2

    progress = not args.no_progress and sys.stderr.isatty()
    try:
        summary = play_run(spec, run_dir, jobs, args.backend, args.scheduler, progress)
    except KeyboardInterrupt:
        print(f"\nsim.batch: interrupted; continue with: python -m sim.batch --resume "
              f"{run_dir}", file=sys.stderr)
        return 130
    except Exception as error:          # a chunk failed: finished chunks are kept
        print(f"sim.batch: error: {error}", file=sys.stderr)
        print(f"sim.batch: finished chunks are kept; continue with: python -m sim.batch "
              f"--resume {run_dir}", file=sys.stderr)
        return 1
    if args.format == "json":
        json.dump(summary | {"run_dir": str(run_dir)}, sys.stdout, indent=2)
        print()
    else:
        print(format_summary(summary))
        print(f"results: {run_dir}  (sim.load({str(run_dir)!r}))")
    return 0


def _read_chunk(run_dir: Path, start: int) -> dict[str, pa.Table]:
    import pyarrow.parquet as pq
    tables = {}
    for name in results.TABLES:
        path = run_dir / name / results.part_name(start)
        if path.exists():
            tables[name] = pq.read_table(path)
    return tables


if __name__ == "__main__":
    sys.exit(main())
