"""``python -m sim.design``: let the toolkit propose rules.

    python -m sim.design paris-damis --players 3,4 \\
        --space "discard;jokers=0..2;correct_bet_cards=[4..12]x4" \\
        --objectives seat_unfairness,skill,length --agents greedy@tuned,aggressive,cautious
    python -m sim.design experiments/10-design-paris-damis.toml

A multi-objective search over the game's rule parameters (the *space*) with optuna (NSGA-II
by default, or TPE): every candidate rule set plays ``--games-per-trial`` games at each player
count, in mixed tables of the agents with rotating seats, on the same seeds for every
candidate (common random numbers), and is scored on the objectives (balance figures of
:mod:`sim.analysis.design`, each the worst over the player counts).  The study lives in
optuna's storage (SQLite in the output directory by default), so ``--resume DIR`` continues
it and several processes given one ``--storage`` URL work on one study.  The Pareto front
is then played again on fresh seeds with more games beside the default rules, every
objective with a bootstrap interval, and reported.  See docs/design.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import agents
import engines
from sim.analysis import Run
from sim.analysis.design import (
    MINIMIZE,
    Objective,
    bootstrap,
    check_columns,
    pareto_front,
    parse_objective,
    worst,
)
from sim.analysis.figures import Figure, design_front
from sim.batch.cli import (
    OWN_BOT,
    add_workers,
    check_agents,
    check_games_room,
    resolve_jobs,
    spec_from_args,
)
from sim.batch.run import ensure_run
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk
from sim.cli import (
    Parser,
    UsageError,
    announce_compile,
    child,
    new_out_dir,
    seed_arg,
    usage_error,
    variant_params,
    wants_progress,
    without_nan,
)
from sim.report import Bullets, Heading, Table, Text, publish
from sim.schema import DesignFile, read_design, validated
from sim.tune import open_storage

DEFAULT_OBJECTIVES = "seat_unfairness,skill,length"
DEFAULT_TRIALS = 40
DEFAULT_GAMES_PER_TRIAL = 1000
FINAL_FACTOR = 5            # fresh games of the front's evaluation, per game of a trial
FRONT_LIMIT = 8             # rule sets of the front played again (the first found)
DEFAULT_RESAMPLES = 200
SETTINGS = "design-settings.json"
SAMPLERS = ("nsga2", "tpe")
SAMPLE_GAMES = 8            # games played in memory to check the objectives' columns


# --------------------------------------------------------------------------------------
# The space
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Dimension:
    """One searched parameter: a choice among ``choices``, a number in ``low..high`` (a
    real one when ``real``), or a list of ``length`` whole numbers each in ``low..high``."""

    key: str
    choices: tuple[Any, ...] = ()
    low: float = 0
    high: float = 0
    length: int = 0
    real: bool = False              # a real number (else a whole one)

    def suggest(self, trial: Any) -> Any:
        """The trial's value."""
        if self.choices:
            return trial.suggest_categorical(self.key, list(self.choices))
        if self.real:
            return trial.suggest_float(self.key, self.low, self.high)
        low, high = int(self.low), int(self.high)
        if self.length:
            return tuple(trial.suggest_int(f"{self.key}[{i}]", low, high)
                         for i in range(self.length))
        return trial.suggest_int(self.key, low, high)

    def given(self, value: Any) -> dict[str, Any] | None:
        """``value`` as the trial parameters that suggest it (None: outside the space)."""
        if self.choices:
            return {self.key: value} if value in self.choices else None
        if self.length:
            entries = tuple(value) * self.length if len(value) == 1 else tuple(value)
            if len(entries) != self.length or not all(self.low <= v <= self.high
                                                      for v in entries):
                return None
            return {f"{self.key}[{i}]": v for i, v in enumerate(entries)}
        return {self.key: value} if self.low <= value <= self.high else None

    def text(self) -> str:
        """The dimension as the space's syntax."""
        if self.choices:
            return f"{self.key}={'|'.join(as_text(c) for c in self.choices)}"
        if self.length:
            return f"{self.key}=[{self.low}..{self.high}]x{self.length}"
        if self.real:
            return f"{self.key}={self.low:g}..{self.high:g}"
        return f"{self.key}={self.low}..{self.high}"


def as_text(value: Any) -> str:
    """A parameter value as ``--variant`` text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return str(value)


def space_items(text: str) -> dict[str, str]:
    """``KEY[=SPEC]`` items separated by ``;`` as {key: spec} (UsageError for a key given
    twice)."""
    out: dict[str, str] = {}
    for item in filter(None, (i.strip() for i in text.split(";"))):
        key, _, spec = item.partition("=")
        key = key.strip()
        if key in out:
            raise UsageError(f"--space: {key} is given twice")
        out[key] = spec.strip()
    return out


def toml_items(table: dict[str, Any]) -> dict[str, str]:
    """A TOML ``[space]`` table as {key: spec}: a list of values, ``{min, max}`` or
    ``{min, max, length}``, or ``true`` (the parameter's own range)."""
    out = {}
    for key, spec in table.items():
        if spec is True:
            out[key] = ""
        elif isinstance(spec, list):
            out[key] = "|".join(as_text(v) for v in spec)
        elif isinstance(spec, dict) and {"min", "max"} <= set(spec) <= {"min", "max", "length"}:
            bounds = f"{spec['min']}..{spec['max']}"
            out[key] = f"[{bounds}]x{spec['length']}" if "length" in spec else bounds
        else:
            raise UsageError(f"space: {key} takes a list of values, {{min, max}}, {{min, max, "
                             f"length}} or true, got {spec!r}")
    return out


def parse_space(game: str, items: dict[str, str], fixed: Sequence[str],
                players: Sequence[int]) -> list[Dimension]:
    """The searched dimensions, each checked against the game's parameters (UsageError
    naming the valid choices): a known key other than ``players``, not also fixed by
    ``--variant``, a non-empty range inside the parameter's limits, choices it accepts."""
    cls = engines.params_class(game)
    fields = {f.name: f for f in dataclasses.fields(cls)}     # type: ignore[arg-type]
    fixed_keys = {item.partition("=")[0].strip() for item in fixed}
    if not items:
        raise UsageError(f"the space is empty; search at least one of: "
                         f"{', '.join(k for k in fields if k != 'players')}")
    dims = []
    for key, spec in items.items():
        if key not in fields or key == "players":
            raise UsageError(f"--space: unknown parameter {key!r} of {game}; valid keys: "
                             f"{', '.join(k for k in fields if k != 'players')} (the player "
                             f"counts are --players)")
        if key in fixed_keys:
            raise UsageError(f"--space: {key} is both searched and fixed by --variant; "
                             f"choose one")
        dims.append(dimension(game, fields[key], spec))
    for k in players:
        check_values(game, dims, fixed, k)
    for dim in dims:
        for end in (dim.low, dim.high) if dim.real else ():
            if not any(rules_valid(game, fixed, {dim.key: end}, k) for k in players):
                try:
                    rule_params(game, fixed, {dim.key: end}, players[0])
                except ValueError as error:
                    raise UsageError(f"--space: {dim.text()}: {error}") from None
    return dims


def dimension(game: str, f: Any, spec: str) -> Dimension:
    """One dimension from its spec (empty: the parameter's own range)."""
    meta, key = f.metadata, f.name
    lo, hi = meta.get("min"), meta.get("max")
    if not spec:
        if meta.get("choices"):
            return Dimension(key, choices=tuple(meta["choices"]))
        if f.type in ("bool", bool):
            return Dimension(key, choices=(True, False))
        if lo is not None and hi is not None and f.type in ("int", int):
            return Dimension(key, low=lo, high=hi)
        raise UsageError(f"--space: {key} has no range of its own; give one "
                         f"({key}=A..B, {key}=a|b|c or {key}=[A..B]xN)")
    if ".." in spec:
        length = 0
        body = spec
        if spec.startswith("["):
            body, _, times = spec[1:].partition("]")
            try:
                length = int(times.lstrip("x"))
            except ValueError:
                raise UsageError(f"--space: {key}=[A..B]xN needs a whole N, got "
                                 f"{spec!r}") from None
            allowed = meta.get("length")
            if allowed is None:
                raise UsageError(f"--space: {key} is not a list; give {key}=A..B")
            if length not in allowed:
                raise UsageError(f"--space: {key} takes lists of length "
                                 f"{' or '.join(map(str, allowed))}, not {length}")
        real = f.type in ("float", float) and not length
        number = float if real else int
        try:
            low, high = (number(v) for v in body.split(".."))
            if not (math.isfinite(low) and math.isfinite(high)):
                raise ValueError("not finite")
        except ValueError:
            kind = "range of finite numbers" if real else "whole range"
            raise UsageError(f"--space: {key}={spec} is not a {kind} A..B") from None
        if low > high:
            raise UsageError(f"--space: {key}={spec} is empty ({low} > {high})")
        if (lo is not None and low < lo) or (hi is not None and high > hi):
            raise UsageError(f"--space: {key}={spec} leaves the parameter's limits "
                             f"{lo}..{hi}")
        return Dimension(key, low=low, high=high, length=length, real=real)
    cls = engines.params_class(game)
    choices = []
    for text in filter(None, (c.strip() for c in spec.split("|"))):
        try:
            choices.append(getattr(cls.from_strings([f"{key}={text}"]), key))
        except ValueError as error:
            raise UsageError(f"--space: {error}") from None
    if len(set(choices)) < 2:
        raise UsageError(f"--space: {key} needs two or more different values to search, "
                         f"got {spec!r}")
    return Dimension(key, choices=tuple(dict.fromkeys(choices)))


def check_values(game: str, dims: Sequence[Dimension], fixed: Sequence[str],
                 players: int) -> None:
    """UsageError when no value of some dimension gives valid rules at ``players``."""
    for dim in dims:
        ends = [dim.low, dim.high] if not dim.real else [dim.low]
        values = dim.choices or ([(int(dim.low),) * dim.length] if dim.length else ends)
        if not any(rules_valid(game, fixed, {dim.key: v}, players) for v in values):
            raise UsageError(f"--space: no value of {dim.text()} gives valid rules at "
                             f"{players} players")


def rules_valid(game: str, fixed: Sequence[str], values: dict[str, Any], players: int
                ) -> bool:
    """Whether the fixed variants and ``values`` make valid rules at ``players``."""
    try:
        rule_params(game, fixed, values, players)
    except ValueError:
        return False
    return True


def rule_params(game: str, fixed: Sequence[str], values: dict[str, Any], players: int) -> Any:
    """The game's parameters: ``fixed`` variants, then ``values``, at ``players``."""
    return variant_params(game, [*fixed, *(f"{k}={as_text(v)}" for k, v in values.items())],
                          players)


# --------------------------------------------------------------------------------------
# Settings
# --------------------------------------------------------------------------------------
def in_turn(agents: Sequence[str], players: int) -> list[str]:
    """The agents seated in turn at ``players`` seats (agent i at seat i mod their number)."""
    return [agents[i % len(agents)] for i in range(players)]


@dataclass(frozen=True)
class Design:
    """A design search's settings (what its trials depend on, and how many to run)."""

    game: str
    players: tuple[int, ...]
    space: tuple[Dimension, ...]
    objectives: tuple[str, ...]
    agents: tuple[str, ...]
    variant: tuple[str, ...]
    games: int
    final_games: int
    seed: int
    sampler: str
    trials: int
    storage: str
    study: str
    own_storage: bool = True        # the default storage, in the output directory

    def lineup(self, players: int) -> list[str]:
        """The agents in turn at ``players`` seats."""
        return in_turn(self.agents, players)

    def attrs(self) -> dict[str, Any]:
        """What the trials depend on (a study resumed must hold the same)."""
        return {"game": self.game, "players": list(self.players),
                "space": [d.text() for d in self.space], "objectives": list(self.objectives),
                "agents": list(self.agents), "variant": list(self.variant),
                "games_per_trial": self.games, "seed": self.seed, "sampler": self.sampler}

    def to_json(self) -> dict[str, Any]:
        return self.attrs() | {"final_games": self.final_games, "trials": self.trials,
                               "storage": None if self.own_storage else self.storage,
                               "study": self.study}

    def command(self) -> str:
        """The command that reproduces the search."""
        words = ["python", "-m", "sim.design", self.game,
                 "--players", ",".join(map(str, self.players)),
                 "--space", ";".join(d.text() for d in self.space),
                 "--objectives", ",".join(self.objectives),
                 "--agents", ",".join(self.agents), "--trials", str(self.trials),
                 "--games-per-trial", str(self.games), "--final-games", str(self.final_games),
                 "--seed", str(self.seed), "--sampler", self.sampler]
        for item in self.variant:
            words += ["--variant", item]
        return shlex.join(words)


def objectives_of(design: Design) -> list[Objective]:
    return [parse_objective(name) for name in design.objectives]


# --------------------------------------------------------------------------------------
# Playing a rule set
# --------------------------------------------------------------------------------------
def play(design: Design, values: dict[str, Any], folder: Path, seed: int, games: int,
         jobs: int, backend: str, scheduler: str | None, progress: bool) -> list[Run]:
    """The runs of rule set ``values`` (one per player count, ``folder/<K>p``): mixed
    tables of the agents with rotating seats, games 0..games-1 of ``seed``."""
    runs = []
    for k in design.players:
        spec = spec_from_args(argparse.Namespace(
            game=design.game, variant=[*design.variant,
                                       *(f"{key}={as_text(v)}" for key, v in values.items())],
            players=k, agents=",".join(design.lineup(k)), games=games, seed=seed,
            seating="rotate", jobs=jobs, chunk_size=None))
        runs.append(Run.open(ensure_run(spec, folder / f"{k}p", jobs, progress, backend,
                                        scheduler)))
    return runs


def scores(objectives: Sequence[Objective], runs: Sequence[Run]) -> list[float]:
    """Each objective's worst value over the player counts."""
    return [worst([o.of(run) for run in runs], o.direction) for o in objectives]


def open_design_study(design: Design) -> Any:
    """The study, created or loaded (UsageError when it was made with other settings)."""
    import optuna

    storage = open_storage(design.storage)
    sampler = (optuna.samplers.NSGAIISampler(seed=design.seed) if design.sampler == "nsga2"
               else optuna.samplers.TPESampler(seed=design.seed, multivariate=True))
    study = optuna.create_study(
        storage=storage, study_name=design.study, load_if_exists=True, sampler=sampler,
        directions=[optuna.study.StudyDirection.MINIMIZE if o.direction == MINIMIZE
                    else optuna.study.StudyDirection.MAXIMIZE for o in objectives_of(design)])
    held = study.user_attrs.get("design")
    if held is None:
        study.set_user_attr("design", design.attrs())
        baseline: dict[str, Any] = {}
        defaults = rule_params(design.game, design.variant, {}, design.players[0])
        for dim in design.space:
            baseline |= dim.given(getattr(defaults, dim.key)) or {}
        study.enqueue_trial(baseline)
    elif held != design.attrs():
        diff = ", ".join(f"{k}={held.get(k)}" for k in design.attrs()
                         if held.get(k) != design.attrs()[k])
        raise UsageError(f"study {design.study!r} in {design.storage} was made with {diff}; "
                         f"resume it with those or choose another --study")
    return study


def search(design: Design, out: Path, jobs: int, backend: str, scheduler: str | None,
           progress: bool) -> Any:
    """Run trials until the study holds ``design.trials`` finished ones (whichever process
    sharing it ran them); returns it."""
    import optuna

    study = open_design_study(design)
    objectives = objectives_of(design)
    finished = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)

    def objective(trial: Any) -> list[float]:
        values = {dim.key: dim.suggest(trial) for dim in design.space}
        if not all(rules_valid(design.game, design.variant, values, k)
                   for k in design.players):
            raise optuna.TrialPruned()          # rules the game refuses
        trial.set_user_attr("rules", {k: as_text(v) for k, v in values.items()})
        runs = play(design, values, out / "trials" / str(trial.number), design.seed,
                    design.games, jobs, backend, scheduler, False)
        return scores(objectives, runs)

    def left() -> int:           # other processes sharing the study may add trials too
        return design.trials - len(study.get_trials(deepcopy=False, states=finished))

    bar = None
    if progress and left() > 0:
        from tqdm import tqdm
        bar = tqdm(total=left(), unit="trials", desc=f"design {design.game}",
                   file=sys.stderr)
    while left() > 0:
        study.optimize(objective, n_trials=1, catch=())
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return study


# --------------------------------------------------------------------------------------
# The front, played again
# --------------------------------------------------------------------------------------
def rules_of(design: Design, trial: Any) -> dict[str, Any]:
    """A trial's rule set as typed values."""
    params = rule_params(design.game, design.variant, trial.user_attrs["rules"],
                         design.players[0])
    return {dim.key: getattr(params, dim.key) for dim in design.space}


def changes(design: Design, values: dict[str, Any]) -> str:
    """What a rule set changes from the defaults (with the fixed variants)."""
    defaults = rule_params(design.game, design.variant, {}, design.players[0])
    moved = [f"{k}={as_text(v)}" for k, v in values.items() if getattr(defaults, k) != v]
    return ", ".join(moved) or "the defaults"


def front_trials(design: Design, study: Any) -> list[Any]:
    """The finished trials no other dominates, first found first (at most
    :data:`FRONT_LIMIT`), one per rule set."""
    import optuna

    done = [t for t in study.get_trials(deepcopy=False,
                                        states=(optuna.trial.TrialState.COMPLETE,))
            if "rules" in t.user_attrs and all(np.isfinite(t.values))]
    directions = [o.direction for o in objectives_of(design)]
    chosen, seen = [], set()
    for i in pareto_front([t.values for t in done], directions):
        key = json.dumps(done[i].user_attrs["rules"], sort_keys=True)
        if key not in seen:
            seen.add(key)
            chosen.append(done[i])
    return chosen[:FRONT_LIMIT]


def final_rows(design: Design, study: Any, out: Path, jobs: int, backend: str,
               scheduler: str | None, progress: bool, resamples: int) -> pd.DataFrame:
    """The defaults and the front played again on fresh seeds (``design.seed`` + 1,
    ``design.final_games`` games): one row per rule set, each objective's value with its
    bootstrap interval, the search's value beside it, and whether it is still on the front
    of the fresh values."""
    objectives = objectives_of(design)
    candidates: list[tuple[str, Any, dict[str, Any]]] = [("defaults", None, {})] + [
        (f"trial {t.number}", t, rules_of(design, t)) for t in front_trials(design, study)]
    rows = []
    for name, trial, values in candidates:
        runs = play(design, values, child(out / "final", name.replace(" ", "-"), "trial"),
                    design.seed + 1,
                    design.final_games, jobs, backend, scheduler, progress)
        row: dict[str, Any] = {"rule_set": name, "changes": changes(design, values),
                               "rules": {k: as_text(v) for k, v in values.items()}}
        for i, o in enumerate(objectives):
            figure = bootstrap(o, runs, resamples, design.seed + i)
            row |= {o.name: figure["value"], f"{o.name}_low": figure["low"],
                    f"{o.name}_high": figure["high"],
                    f"{o.name}_search": trial.values[i] if trial is not None else np.nan}
            for k, run in zip(design.players, runs, strict=True):
                row[f"{o.name}_{k}p"] = o.of(run)
        rows.append(row)
    table = pd.DataFrame(rows)
    fresh = [[row[o.name] for o in objectives] for row in rows]
    front = set(pareto_front(fresh, [o.direction for o in objectives]))
    return table.assign(on_front=[i in front for i in range(len(rows))])


# --------------------------------------------------------------------------------------
# The answers
# --------------------------------------------------------------------------------------
def value_text(o: Objective, row: Any) -> str:
    """An objective's fresh value with its interval."""
    digits = 3 if abs(row[o.name]) < 10 else 1
    return (f"{row[o.name]:.{digits}f} [{row[f'{o.name}_low']:.{digits}f}, "
            f"{row[f'{o.name}_high']:.{digits}f}]")


def front_table(design: Design, table: pd.DataFrame) -> pd.DataFrame:
    """The rule sets as text: what each changes, each objective with its interval."""
    objectives = objectives_of(design)
    text = pd.DataFrame({"rule set": table["rule_set"], "changes": table["changes"]})
    for o in objectives:
        arrow = "↓" if o.direction == MINIMIZE else "↑"
        text[f"{o.name} {arrow}"] = [value_text(o, row) for _, row in table.iterrows()]
    text["on the fresh front"] = table["on_front"].map({True: "yes", False: "no"})
    return text


def sentences(design: Design, table: pd.DataFrame) -> list[str]:
    """One line per proposed rule set, against the defaults."""
    objectives = objectives_of(design)
    base = table.iloc[0]
    out = ["Defaults: " + "; ".join(f"{o.name} {value_text(o, base)}" for o in objectives)
           + "."]
    for _, row in table.iloc[1:].iterrows():
        parts = []
        for o in objectives:
            diff = row[o.name] - base[o.name]
            better = diff < 0 if o.direction == MINIMIZE else diff > 0
            overlap = row[f"{o.name}_low"] <= base[f"{o.name}_high"] and \
                base[f"{o.name}_low"] <= row[f"{o.name}_high"]
            verdict = "about the same" if overlap else ("better" if better else "worse")
            parts.append(f"{o.name} {value_text(o, row)} ({verdict})")
        status = "" if row["on_front"] else " It is dominated on the fresh games."
        out.append(f"{row['rule_set']} ({row['changes']}): " + "; ".join(parts) + "."
                   + status)
    return out


def report_blocks(design: Design, table: pd.DataFrame, trials: int) -> list:
    """The report: what was searched, the front, one line per rule set, the command."""
    objectives = objectives_of(design)
    counts = ", ".join(map(str, design.players))
    blocks: list = [
        Heading(f"{design.game}: rule design search", 1),
        Text(f"{trials} rule sets were tried, each on {design.games:,} games per player count "
             f"({counts} players; the same deals for every rule set), in mixed tables of "
             f"{', '.join(design.agents)} with rotating seats; the front was then played "
             f"again on {design.final_games:,} fresh games beside the defaults. Each "
             f"objective is the worst over the player counts, with a 95% bootstrap "
             f"interval. Every figure holds for these players only."),
        Heading("Proposed rule sets"), Bullets(tuple(sentences(design, table))),
        Table("The front on fresh games (↓ minimised, ↑ maximised)",
              front_table(design, table))]
    if len(objectives) >= 2:
        blocks.append(front_figure(design, table))
    blocks += [Heading("Objectives"),
               Bullets(tuple(f"{o.name} ({o.direction}d): {o.about}." for o in objectives)),
               Heading("Search"),
               Bullets(tuple([f"space: {'; '.join(d.text() for d in design.space)}",
                              f"fixed: {' '.join(design.variant) or 'nothing'}",
                              f"sampler: {design.sampler}, seed {design.seed}",
                              f"reproduce: {design.command()}"]))]
    return blocks


def front_figure(design: Design, table: pd.DataFrame) -> Figure:
    """The first two objectives of every rule set played again, with intervals."""
    a, b = objectives_of(design)[:2]
    return design_front(table, a.name, b.name)


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="python -m sim.design",
        description="Rule design search: optuna's multi-objective search over the game's "
                    "rule parameters (--space), each candidate played at every player count "
                    "in mixed tables of the agents on the same deals and scored on balance "
                    "objectives; the Pareto front is played again on fresh games beside the "
                    "defaults and reported with intervals (docs/design.md).",
        epilog="Examples:\n  python -m sim.design paris-damis --players 3,4 --space "
               "\"discard;jokers=0..2;correct_bet_cards=[4..12]x4\" --objectives "
               "seat_unfairness,skill,length --trials 40\n"
               "  python -m sim.design experiments/10-design-paris-damis.toml",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", nargs="?",
                   help="a game slug, or a TOML file holding these settings")
    p.add_argument("--players", help="player counts, comma-separated (default: the game's "
                                     "usual)")
    p.add_argument("--space", help="the parameters searched, ';'-separated: KEY (its own "
                                   "range), KEY=a|b|c, KEY=A..B, KEY=[A..B]xN (a list of N)")
    p.add_argument("--objectives", help=f"comma-separated (default {DEFAULT_OBJECTIVES}): "
                                        f"seat_unfairness, skill, luck, length, "
                                        f"deck_shortage, target_length=N, TABLE.COLUMN; "
                                        f"NAME:min or NAME:max sets the direction")
    p.add_argument("--agents", help="the players, seated in turn (default: the game's "
                                    f"strategy bots); {OWN_BOT}")
    p.add_argument("--variant", action="append", default=None, metavar="KEY=VALUE",
                   help="a rule parameter held fixed, repeatable")
    p.add_argument("--trials", type=int, help=f"rule sets to try (default {DEFAULT_TRIALS})")
    p.add_argument("--games-per-trial", type=int,
                   help=f"games per player count and trial (default "
                        f"{DEFAULT_GAMES_PER_TRIAL:,})")
    p.add_argument("--final-games", type=int,
                   help=f"fresh games per player count for the front (default "
                        f"{FINAL_FACTOR} x --games-per-trial)")
    p.add_argument("--sampler", choices=SAMPLERS, help="optuna's sampler (default nsga2)")
    p.add_argument("--seed", type=seed_arg, help="seed of the trials' games and the sampler "
                                            "(default 0; the front's games use seed + 1)")
    p.add_argument("--storage", help="optuna database URL (default sqlite:///OUT/study.db); "
                                     "processes sharing one work on one study")
    p.add_argument("--study", help="study name in the storage (default design-<game>)")
    p.add_argument("--bootstrap", type=int, default=DEFAULT_RESAMPLES, metavar="B",
                   help=f"bootstrap resamples for the intervals (default {DEFAULT_RESAMPLES})")
    add_workers(p)
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default runs/design-<game>-<UTC timestamp>)")
    p.add_argument("--resume", metavar="DIR",
                   help="continue the search in DIR (its settings kept; --trials may raise "
                        "its number of trials)")
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="answers on stdout as text (default) or as one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    return p


def design_from_args(args: argparse.Namespace) -> tuple[Design, Path]:
    """The search's settings and output directory (UsageError for bad input)."""
    if args.resume:
        out = Path(args.resume)
        given = [n for n, v in (("a game", args.source), ("--space", args.space),
                                ("--objectives", args.objectives), ("--agents", args.agents),
                                ("--players", args.players), ("--variant", args.variant),
                                ("--seed", args.seed), ("--out", args.out)) if v]
        if given:
            raise UsageError(f"--resume DIR keeps the search's settings; drop "
                             f"{', '.join(given)} (--trials may be given)")
        try:
            held = json.loads((out / SETTINGS).read_text())
        except (OSError, ValueError):
            raise UsageError(f"--resume {out}: not a design directory (no readable "
                             f"{SETTINGS})") from None
        held = validated(DesignFile, held, f"--resume {out / SETTINGS}").settings()
        if args.trials is not None:
            held["trials"] = args.trials
        return build_design(held, out), out
    if not args.source:
        raise UsageError(f"a game or a design file is required; available games: "
                         f"{', '.join(engines.available())}")
    settings: dict[str, Any] = {}
    if args.source.endswith(".toml"):
        settings = read_design(Path(args.source))
    else:
        settings["game"] = args.source
    for key in ("players", "space", "objectives", "agents", "variant", "trials",
                "games_per_trial", "final_games", "sampler", "seed", "storage", "study"):
        value = getattr(args, key)
        if value is not None:
            settings[key] = value
    game = settings.get("game")
    if game not in engines.available():
        raise UsageError(f"unknown game {game!r}; available games: "
                         f"{', '.join(engines.available())}")
    out = new_out_dir(args.out, f"design-{game}")
    return build_design(settings, out), out


def build_design(settings: dict[str, Any], out: Path) -> Design:
    """A checked :class:`Design` from settings (command line, file or a saved search)."""
    game = settings["game"]
    players = counts(game, settings.get("players"))
    fixed = tuple(settings.get("variant") or ())
    try:
        for k in players:
            rule_params(game, fixed, {}, k)
    except ValueError as error:
        raise UsageError(str(error)) from None
    space = settings.get("space") or ""
    items = toml_items(space) if isinstance(space, dict) else \
        space_items(";".join(space) if isinstance(space, list) else str(space))
    dims = parse_space(game, items, fixed, players)
    names = settings.get("objectives") or DEFAULT_OBJECTIVES
    names = [n.strip() for n in (names.split(",") if isinstance(names, str) else names)
             if n.strip()]
    if len(set(names)) != len(names):
        raise UsageError(f"--objectives: an objective is given twice in {','.join(names)}")
    try:
        [parse_objective(n) for n in names]
    except ValueError as error:
        raise UsageError(str(error)) from None
    pool = settings.get("agents") or ",".join(agents.written_for(game)) or "random"
    pool_names = [a.strip() for a in (pool.split(",") if isinstance(pool, str) else pool)
                  if a.strip()]
    check_agents(game, pool_names)
    if len(pool_names) > min(players):
        raise UsageError(f"--agents: {len(pool_names)} agents do not fit at "
                         f"{min(players)} seats; give at most {min(players)}")
    if {"skill", "luck"} & {n.partition(":")[0] for n in names} and len(set(pool_names)) < 2:
        raise UsageError("the skill and luck objectives need two or more different agents "
                         "(--agents)")
    check_objectives(game, fixed, players[0], pool_names, names)
    games = positive(settings.get("games_per_trial", DEFAULT_GAMES_PER_TRIAL),
                     "--games-per-trial")
    trials = positive(settings.get("trials", DEFAULT_TRIALS), "--trials")
    final = positive(settings.get("final_games", FINAL_FACTOR * games), "--final-games")
    seed = settings.get("seed", 0)
    if not isinstance(seed, int) or seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {seed!r}")
    sampler = settings.get("sampler", "nsga2")
    if sampler not in SAMPLERS:
        raise UsageError(f"--sampler: unknown sampler {sampler!r}; valid samplers: "
                         f"{', '.join(SAMPLERS)}")
    storage = settings.get("storage") or f"sqlite:///{(out / 'study.db').as_posix()}"
    return Design(game=game, players=players, space=tuple(dims), objectives=tuple(names),
                  agents=tuple(pool_names), variant=fixed, games=games, final_games=final,
                  seed=seed, sampler=sampler, trials=trials, storage=storage,
                  study=settings.get("study") or f"design-{game}",
                  own_storage=not settings.get("storage"))


def check_objectives(game: str, fixed: Sequence[str], players: int, pool: Sequence[str],
                     names: Sequence[str]) -> None:
    """UsageError when an objective reads a table or column the game's runs lack (checked
    on a few games played in memory)."""
    spec = spec_from_args(argparse.Namespace(
        game=game, variant=list(fixed), players=players, agents=",".join(in_turn(pool, players)),
        games=SAMPLE_GAMES, seed=0, seating="rotate", jobs=1, chunk_size=None))
    tables = {name: table.to_pandas() for name, table in
              play_chunk(spec, 0, SAMPLE_GAMES).items()}
    rounds = tables.get("rounds")
    sample = Run(path=Path("."), manifest={"spec": spec.to_json()}, games=tables["games"],
                 players=tables["players"],
                 rounds=None if rounds is None or rounds.empty else rounds, label="sample")
    for name in names:
        try:
            check_columns(parse_objective(name), sample)
        except ValueError as error:
            raise UsageError(str(error)) from None


def design_games(design: Design) -> list[tuple[RunSpec, int]]:
    """The games a search may play at each player count (every trial, then the front's
    rule sets and the defaults on fresh games), for :func:`check_games_room`."""
    games = design.trials * design.games + (FRONT_LIMIT + 1) * design.final_games
    return [(spec_from_args(argparse.Namespace(
        game=design.game, variant=list(design.variant), players=k,
        agents=",".join(design.lineup(k)), games=design.games, seed=design.seed,
        seating="rotate", jobs=None, chunk_size=None)), games) for k in design.players]


def counts(game: str, given: Any) -> tuple[int, ...]:
    """The player counts (UsageError for a bad list)."""
    if given is None:
        return (int(engines.load(game).num_players),)
    items = given.split(",") if isinstance(given, str) else list(given)
    try:
        values = tuple(int(str(v).strip()) for v in items if str(v).strip())
    except ValueError:
        raise UsageError(f"--players takes player counts such as 3,4, got {given!r}") from None
    if not values or len(set(values)) != len(values):
        raise UsageError(f"--players takes different player counts such as 3,4, got "
                         f"{given!r}")
    return values


def positive(value: Any, name: str) -> int:
    """A whole number of at least 1 (UsageError otherwise)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise UsageError(f"{name} must be a whole number of at least 1, got {value!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.bootstrap < 0:
            raise UsageError(f"--bootstrap must be 0 or more, got {args.bootstrap}")
        if args.scheduler and args.backend != "dask":
            raise UsageError("--scheduler goes with --backend dask")
        design, out = design_from_args(args)
        jobs = resolve_jobs(args.jobs)
        check_games_room(design_games(design), out, jobs)
        if not design.own_storage:
            open_storage(design.storage)            # checked before anything is written
        out.mkdir(parents=True, exist_ok=True)
        study = open_design_study(design)
    except UsageError as error:
        return usage_error("sim.design", error)
    (out / SETTINGS).write_text(json.dumps(design.to_json(), indent=2))
    progress = wants_progress(args)
    announce_compile(design.game)
    try:
        study = search(design, out, jobs, args.backend, args.scheduler, progress)
        table = final_rows(design, study, out, jobs, args.backend, args.scheduler, progress,
                           args.bootstrap)
    except KeyboardInterrupt:
        print(f"\nsim.design: interrupted; continue with: python -m sim.design --resume "
              f"{out}", file=sys.stderr)
        return 130
    except UsageError as error:             # a trial's run is in use by another process
        return usage_error("sim.design", error)
    trials = len(study.trials)
    answers = without_nan({"settings": design.to_json(), "trials": trials,
                           "command": design.command(),
                           "rule_sets": table.to_dict("records")})
    (out / "design.json").write_text(json.dumps(answers, indent=2))
    table.drop(columns=["rules"]).to_csv(out / "front.csv", index=False)
    report = publish(report_blocks(design, table, trials), out / "report")
    if args.format == "json":
        json.dump(answers | {"out": str(out)}, sys.stdout, indent=2)
        print()
        return 0
    print(front_table(design, table).to_string(index=False))
    print()
    print("\n".join(sentences(design, table)))
    print(f"report: {report / 'report.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
