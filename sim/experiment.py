"""``python -m sim.experiment experiments/FILE.toml``: one designer's question, played and
measured.

An experiment file names a game, its rule variants, player counts, lineups of bots and games
per cell (the format: docs/experiments.md).  Every combination (a *cell*) is an ordinary run;
the variants of each (players, lineup) are compared with the first one (``sim.compare``'s
tables and reports); optional tournaments rate bots under each (variant, players).  Results:

    OUT/cells/<variant>-<K>p-<lineup>/      one run per cell
    OUT/cells.csv                          one row of headline figures per cell
    OUT/comparisons/<K>p-<lineup>/         comparison report of the variants, table.csv
    OUT/comparisons.csv                    every comparison row
    OUT/tournaments/<variant>-<K>p/        tournament runs, tournament.json and report
    OUT/tournaments.csv                    skill chain, luck, best bot against random

OUT defaults to ``runs/experiments/<file name>``.  Finished cells are reused, so running an
experiment again only plays what is missing (and ``--games`` smaller than the file's makes a
quick trial in another OUT).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

import engines
from sim import runlock
from sim.analysis import Run, analyze, compare
from sim.analysis.questions import ANALYSES
from sim.analysis.stats import bet_accuracy, win_share
from sim.batch.cli import JOBS_HELP, check_games_room, resolve_jobs, spec_from_args
from sim.batch.run import ensure_run
from sim.batch.spec import RunSpec
from sim.cli import (
    Parser,
    UsageError,
    announce_compile,
    child,
    safe_name,
    usage_error,
    wants_progress,
)
from sim.report import write_comparison_report
from sim.schema import read_experiment
from sim.tournament import lineup_specs, play_tournament


@dataclass(frozen=True)
class Variant:
    """A named set of rule parameters (``key=value`` strings; none: the defaults)."""

    name: str
    params: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cell:
    """One run of an experiment: a variant at a player count with a lineup."""

    variant: Variant
    players: int
    lineup: str
    spec: RunSpec

    @property
    def name(self) -> str:
        return f"{self.variant.name}-{self.players}p-{self.lineup}"

    @property
    def group(self) -> str:
        """The cells compared with each other: same players and lineup."""
        return f"{self.players}p-{self.lineup}"


@dataclass(frozen=True)
class Experiment:
    """An experiment file, validated (see docs/experiments.md)."""

    path: Path
    title: str
    question: str
    game: str
    games: int
    seed: int
    players: tuple[int, ...]
    lineups: tuple[str, ...]
    variants: tuple[Variant, ...]
    tournament_agents: tuple[str, ...] = ()
    tournament_games: int = 0
    analyses: tuple[str, ...] = ()
    cells: tuple[Cell, ...] = field(default=(), repr=False)

    @classmethod
    def load(cls, path: str | Path, games: int | None = None) -> Experiment:
        """Read and validate an experiment file (``games`` overrides its games per cell and
        per tournament lineup).  Raises UsageError naming what is wrong."""
        path = Path(path)
        data = read_experiment(path)
        where = f"{path.name}: "
        for lineup in data.lineups:
            safe_name(lineup, f"{where}lineup")
        usual = engines.load(data.game).num_players
        tournament = data.tournament
        experiment = cls(
            path=path, title=data.title, question=data.question, game=data.game,
            games=games or data.games, seed=data.seed,
            players=tuple(data.players or [usual]), lineups=tuple(data.lineups),
            variants=tuple(Variant(v.name, tuple(f"{key}={_text(value)}"
                                                 for key, value in v.params.items()))
                           for v in data.variants),
            tournament_agents=tuple(tournament.agents) if tournament else (),
            tournament_games=games or (tournament.games or 0 if tournament else 0),
            analyses=tuple(data.analyses))
        return experiment.with_cells(where)

    def with_cells(self, where: str) -> Experiment:
        """This experiment with its cells' run specs (each validated like sim.batch's)."""
        cells = []
        for variant in self.variants:
            for k in self.players:
                for lineup in self.lineups:
                    given = argparse.Namespace(
                        game=self.game, variant=list(variant.params), players=k,
                        agents=seat_agents(lineup, k), games=self.games, seed=self.seed,
                        seating="rotate", jobs=None, chunk_size=None)
                    try:
                        spec = spec_from_args(given)
                    except UsageError as error:
                        raise UsageError(f"{where}variant {variant.name}, {k} players, "
                                         f"lineup {lineup}: {error}") from None
                    cells.append(Cell(variant, k, lineup, spec))
        for variant in self.variants:          # check tournaments before any game is played
            for k in self.players:
                self.tournament_specs(variant, k)
        return replace(self, cells=tuple(cells))

    def runs(self) -> list[tuple[RunSpec, int]]:
        """Every run the experiment plays (cells and tournament lineups) with its games."""
        lineups = [spec for v in self.variants for k in self.players
                   for _, spec in self.tournament_specs(v, k)]
        return [(spec, spec.games) for spec in [c.spec for c in self.cells] + lineups]

    def tournament_specs(self, variant: Variant, players: int
                         ) -> list[tuple[str, RunSpec]]:
        """The lineups of the tournament under ``variant`` at ``players`` (none without a
        tournament)."""
        if not self.tournament_agents:
            return []
        given = argparse.Namespace(
            game=self.game, agents=",".join(self.tournament_agents), players=players,
            variant=list(variant.params), games=self.tournament_games or self.games,
            seed=self.seed, jobs=None)
        try:
            return lineup_specs(given)
        except UsageError as error:
            raise UsageError(f"{self.path.name}: tournament, variant {variant.name}, "
                             f"{players} players: {error}") from None


def _text(value: Any) -> str:
    """A TOML value as sim.batch's ``key=value`` text (lists comma-separated)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def seat_agents(lineup: str, players: int) -> str:
    """A lineup as sim.batch's ``--agents``: ``X`` fills every seat, ``X+Y`` seats one X and
    Y everywhere else."""
    names = lineup.split("+")
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return ",".join([names[0]] + [names[1]] * (players - 1))
    raise UsageError(f"lineup {lineup!r}: use X (every seat) or X+Y (one X, the rest Y)")


# --------------------------------------------------------------------------------------
# Headline figures of a cell
# --------------------------------------------------------------------------------------
def _interval(prefix: str, value: float, low: float, high: float) -> dict[str, float]:
    return {prefix: value, f"{prefix}_low": low, f"{prefix}_high": high}


def cell_figures(cell: Cell, run: Run, analyses: Sequence[str]) -> dict[str, Any]:
    """The headline figures of a cell's run, one flat row (see docs/experiments.md)."""
    figures = analyze(run)
    edge = figures["first_player_edge"]
    row: dict[str, Any] = {"variant": cell.variant.name, "params": " ".join(
        cell.variant.params), "players": cell.players, "lineup": cell.lineup,
        "games": len(run.games)}
    row |= _interval("first_player_edge", edge["edge"], edge["low"], edge["high"])
    row["seat_equality_p"] = figures["seat_equality"]["p_value"]
    for name in ("decisions", "rounds", "decisions_per_player"):
        if name in figures:
            row[f"mean_{name}"] = figures[name]["mean"]
            row[f"p95_{name}"] = figures[name]["p95"]
    shared = figures["decisive"].get("shared_win")
    if shared:
        row |= _interval("shared_win", shared["p"], shared["low"], shared["high"])
    tiebreak = figures["decisive"].get("tiebreak")
    if tiebreak:
        row |= _interval("tiebreak", tiebreak["p"], tiebreak["low"], tiebreak["high"])
    if "bet_accuracy" in figures:
        overall = figures["bet_accuracy"].iloc[0]
        row |= _interval("bet_accuracy", overall["accuracy"], overall["low"], overall["high"])
    if "hand_size_by_round" in figures:
        hand_end = run.rounds_table()["hand_end"]
        row["mean_hand_end"] = float(hand_end.mean())
        row["max_hand_end"] = int(hand_end.max())
    lead = cell.lineup.split("+")[0]
    if "+" in cell.lineup:
        share = win_share(run.players, "agent").set_index("agent").loc[lead]
        row |= _interval("lead_win_share", share["share"], share["low"], share["high"])
        if run.rounds is not None and "bet_correct" in run.rounds.columns:
            accuracy = bet_accuracy(run.rounds, "agent", run.players).set_index(
                "agent").loc[lead]
            row |= _interval("lead_bet_accuracy", accuracy["accuracy"], accuracy["low"],
                             accuracy["high"])
    for name in analyses:
        row |= ANALYSES[name](run)
    return row


# --------------------------------------------------------------------------------------
# Running an experiment
# --------------------------------------------------------------------------------------
def run_experiment(experiment: Experiment, out: Path, jobs: int, progress: bool = False,
                   log: Callable[[str], None] = lambda line: None) -> dict[str, Path]:
    """Play every cell and tournament of ``experiment`` into ``out`` (finished ones are
    reused), write the tables and reports, and return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    runs: dict[str, Run] = {}
    rows = []
    for cell in experiment.cells:
        log(f"cell {cell.name}")
        run_dir = ensure_run(cell.spec, child(out / "cells", cell.name, "cell"), jobs,
                             progress)
        runs[cell.name] = Run.open(run_dir, label=cell.variant.name)
        rows.append(cell_figures(cell, runs[cell.name], experiment.analyses))
    paths = {"cells": out / "cells.csv"}
    pd.DataFrame(rows).to_csv(paths["cells"], index=False)

    if len(experiment.variants) > 1:
        tables = []
        for group in dict.fromkeys(c.group for c in experiment.cells):
            members = [runs[c.name] for c in experiment.cells if c.group == group]
            table = compare(members)
            folder = child(out / "comparisons", group, "group")
            write_comparison_report(members, table, folder / "report")
            table.to_csv(folder / "table.csv", index=False)
            tables.append(table.assign(group=group))
        paths["comparisons"] = out / "comparisons.csv"
        pd.concat(tables, ignore_index=True).to_csv(paths["comparisons"], index=False)

    if experiment.tournament_agents:
        rows = []
        for variant in experiment.variants:
            for k in experiment.players:
                log(f"tournament {variant.name}-{k}p")
                where = child(out / "tournaments", f"{variant.name}-{k}p", "tournament")
                result, _ = play_tournament(experiment.tournament_specs(variant, k), where,
                                            jobs, progress, variant.params)
                rows.append(tournament_row(variant, k, result))
        paths["tournaments"] = out / "tournaments.csv"
        pd.DataFrame(rows).to_csv(paths["tournaments"], index=False)
    return paths


def tournament_row(variant: Variant, players: int, result: Any) -> dict[str, Any]:
    """A tournament's headline figures: skill chain, pooled luck, best bot against random."""
    pooled = result.luck.iloc[-1]
    row = {"variant": variant.name, "params": " ".join(variant.params), "players": players,
           "skill_chain": " < ".join(result.chain), "chain_length": len(result.chain),
           "best": result.ratings.iloc[0]["agent"],
           "best_rating": result.ratings.iloc[0]["rating"]}
    row |= _interval("luck", pooled["share"], pooled["low"], pooled["high"])
    if len(result.versus_random):
        top = result.versus_random.sort_values("share").iloc[-1]
        row |= {"best_vs_random": top["agent"]}
        row |= _interval("best_vs_random_share", top["share"], top["low"], top["high"])
    return row


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="python -m sim.experiment",
               description="Run an experiment file: every cell (variant x players x lineup) "
                           "as a run, the variants compared within each (players, lineup), "
                           "optional tournaments; writes cells.csv, comparisons.csv, "
                           "tournaments.csv and reports.  Finished cells are reused, so a "
                           "second invocation only plays what is missing.  Format: "
                           "docs/experiments.md.",
               epilog="Example:\n  python -m sim.experiment experiments/01-seat-fairness.toml"
                      "\n  python -m sim.experiment experiments/03-jokers.toml --games 2000 "
                      "--out /tmp/trial",
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE.toml", help="experiment files")
    p.add_argument("--out", metavar="DIR",
                   help="output directory, one file only (default runs/experiments/<file "
                        "name>)")
    p.add_argument("--games", type=int,
                   help="games per cell and per tournament lineup, overriding the file's "
                        "(for a quick trial)")
    p.add_argument("--jobs", type=int, help=JOBS_HELP)
    p.add_argument("--no-progress", action="store_true", help="no progress on stderr")
    return p


def out_dir(out: str | None, experiment: Experiment) -> Path:
    """``--out``, by default ``runs/experiments/<file name>``."""
    return Path(out) if out else Path("runs") / "experiments" / experiment.path.stem


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.games is not None and args.games < 1:
            raise UsageError(f"--games must be at least 1, got {args.games}")
        if args.out and len(args.files) > 1:
            raise UsageError("--out takes one experiment file; give each its own --out")
        experiments = [Experiment.load(f, args.games) for f in args.files]
        jobs = resolve_jobs(args.jobs)
        for experiment in experiments:
            check_games_room(experiment.runs(), out_dir(args.out, experiment), jobs)
    except UsageError as error:
        return usage_error("sim.experiment", error)
    progress = wants_progress(args)
    log = (lambda line: print(f"sim.experiment: {line}", file=sys.stderr)) \
        if progress else (lambda line: None)
    for experiment in experiments:
        announce_compile(experiment.game)
        out = out_dir(args.out, experiment)
        try:
            out.mkdir(parents=True, exist_ok=True)
            with runlock.writing(out):      # one writer per experiment: a second is refused
                paths = run_experiment(experiment, out, jobs, progress, log)
        except KeyboardInterrupt:
            print(f"\nsim.experiment: interrupted; run it again to finish {out}",
                  file=sys.stderr)
            return 130
        except UsageError as error:         # the experiment or a cell's run is in use
            return usage_error("sim.experiment", error)
        except Exception as error:
            print(f"sim.experiment: error: {experiment.path.name}: {error}", file=sys.stderr)
            return 1
        print(f"{experiment.title}: {len(experiment.cells)} cells in {out}")
        for name, path in paths.items():
            print(f"  {name}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
