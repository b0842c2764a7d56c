"""``python -m sim.tune``: a strategy bot's parameters tuned by play.

    python -m sim.tune paris-damis --agent greedy --trials 40 --games-per-trial 400 \\
        --save tuned

Every parameter of the bot with a range (a number with a min and a max, or a choice among
values), except handicaps declared ``tuned=False`` (``random_bet``), is searched by
optuna's TPE sampler (seeded by ``--seed``) to maximise the bot's win share against a pool
of opponents (default: the game's other strategy bots, or the bot itself at its defaults
when it is the game's only one) in mixed tables with rotating seats.
Every trial plays the same games (run seed ``--seed``, games 0..G-1: common random
numbers), in blocks after which optuna's median pruner may stop a trial that trails.  The
study lives in optuna's storage (a SQLite file by default), so a second invocation adds
trials to it and several processes given one ``--storage`` URL work on one study.  The
best trial is then played again on fresh games (run seed ``--seed`` + 1) beside the default
parameters, and ``--save PROFILE`` writes it as ``agents/profiles/<game>.toml``'s
``[NAME.PROFILE]``, loaded as ``NAME@PROFILE`` (docs/agents.md).  See docs/tune.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import agents
import engines
from agents import profiles
from engines.core import plugins
from engines.core.params import Params
from sim import stats
from sim.batch.cli import OWN_BOT, check_agents, check_games_room, resolve_jobs
from sim.batch.seating import seating
from sim.batch.spec import RunSpec
from sim.cli import Parser, UsageError, seed_arg, usage_error, variant_params, wants_progress
from sim.kernels import has_kernel, kernel_for
from sim.runner import agent_params, play_python

DEFAULT_TRIALS = 30
DEFAULT_GAMES_PER_TRIAL = 400
EVAL_FACTOR = 10            # fresh games of the final evaluation, per game of a trial
BLOCKS = 4                  # a trial's games are played (and may be pruned) in this many blocks
STORAGE_DIR = Path("runs") / "tune"


@dataclass(frozen=True)
class Setup:
    """A study's settings: the games every trial plays, and how many trials to add."""

    game: str
    params: Any                      # the game's parameters
    agent: str                       # the bot tuned
    pool: tuple[str, ...]            # its opponents, NAME or NAME@PROFILE
    fixed: dict[str, Any]            # parameters held at a value, not searched
    games: int                       # per trial
    eval_games: int
    seed: int
    trials: int
    storage: str
    study: str
    save: str | None
    jobs: int

    @property
    def players(self) -> int:
        return int(self.params.players)

    def lineup(self) -> tuple[str, ...]:
        """Agent 0 the tuned bot, then the pool's bots in turn for the other seats."""
        return (self.agent,) + tuple(self.pool[i % len(self.pool)]
                                     for i in range(self.players - 1))

    def attrs(self) -> dict[str, Any]:
        """What a study's trials depend on: a study resumed must have the same."""
        return {"game": self.game, "params": self.params.to_strings(), "agent": self.agent,
                "lineup": list(self.lineup()), "fixed": {k: str(v) for k, v in
                                                         sorted(self.fixed.items())},
                "games_per_trial": self.games, "seed": self.seed}


# --- what is searched ----------------------------------------------------------------------
def search_space(cls: type[Params]) -> list[dataclasses.Field]:
    """The fields of a bot's parameters that have a range (a choice among values, or a number
    with both a min and a max) and are not marked ``tuned=False``."""
    hints = {f.name: f.type for f in dataclasses.fields(cls)}
    return [f for f in dataclasses.fields(cls)
            if f.metadata.get("tuned", True)
            and (f.metadata.get("choices") is not None
                 or (hints[f.name] in ("int", "float", int, float)
                     and f.metadata.get("min") is not None
                     and f.metadata.get("max") is not None))]


def suggest(trial: Any, cls: type[Params], fixed: dict[str, Any]) -> Params:
    """The trial's parameters: each searched field suggested in its range, the ``fixed``
    ones as given, the others at their defaults."""
    values = dict(fixed)
    for f in search_space(cls):
        if f.name in fixed:
            continue
        meta = f.metadata
        if meta["choices"] is not None:
            values[f.name] = trial.suggest_categorical(f.name, list(meta["choices"]))
        elif f.type in ("int", int):
            values[f.name] = trial.suggest_int(f.name, meta["min"], meta["max"])
        else:
            values[f.name] = trial.suggest_float(f.name, meta["min"], meta["max"])
    return cls.from_kwargs(**values)


def searched_values(params: Params, fixed: dict[str, Any]) -> dict[str, Any]:
    """The searched parameters' values (an optuna trial's params)."""
    return {f.name: getattr(params, f.name) for f in search_space(type(params))
            if f.name not in fixed}


# --- playing -------------------------------------------------------------------------------
def blocks(games: int, count: int = BLOCKS) -> list[tuple[int, int]]:
    """(first game, number of games) of the blocks a trial's games are played in."""
    edges = np.linspace(0, games, min(count, games) + 1).round().astype(int)
    return [(int(a), int(b - a)) for a, b in zip(edges[:-1], edges[1:], strict=True)]


def shares(setup: Setup, params: Params, seed: int, start: int, count: int) -> np.ndarray:
    """The tuned bot's win share (1 a sole win, 1/k a win shared by k) in each of games
    ``start .. start+count-1`` of a run with ``seed``, playing with ``params`` against the
    pool, agent i at seat (i + game index) mod K."""
    lineup = setup.lineup()
    spec = RunSpec(game=setup.game, params=setup.params, agents=lineup, seating="rotate",
                   seed=seed, games=start + count, chunk_size=count)
    game = spec.load_game()
    seats = seating(spec, start, count)
    players = [(setup.agent, params, 0.0), *agent_params(setup.game, lineup[1:])]
    if kernel_path(setup, params):
        kernel = kernel_for(setup.game)
        ids, weights = kernel.lineup(players, setup.game)
        rows = kernel.play(game, ids[seats], seed, start, count, weights=weights).rows
    else:
        bots = [agents.load(name, game=setup.game, explore=explore,
                            **(as_values(p) if p else {}))
                for name, p, explore in players]
        rows = np.stack([play_python(game, [bots[a] for a in seats[g]], seed,
                                     start + g).records()[0] for g in range(count)])
    win = game.summary.player_columns(game.params, rows)["win_share"]
    return np.asarray(win[np.arange(count), np.argmin(seats, axis=1)], dtype=np.float64)


def kernel_path(setup: Setup, params: Params) -> bool:
    """Whether the game's compiled kernel plays the tuned bot with ``params`` and the
    pool."""
    if not has_kernel(setup.game):
        return False
    kernel = kernel_for(setup.game)
    return kernel.plays(setup.agent, params) and all(
        kernel.plays(*seat) for seat in agent_params(setup.game, setup.pool))


def as_values(params: Params) -> dict[str, Any]:
    """A parameter object as keyword values."""
    return {key: getattr(params, key) for key in params.keys()}


# --- the study -----------------------------------------------------------------------------
# Attempts at opening a storage that another process may be creating at the same moment
# (its tables, or a lock on them), a growing pause between them.
STORAGE_ATTEMPTS, STORAGE_PAUSE = 6, 0.25


def open_storage(url: str) -> Any:
    """optuna's storage at the database ``url`` (UsageError when it cannot be opened).
    Processes starting together on a new database race to create its tables: the loser's
    integrity or lock error is retried after a pause."""
    import optuna
    from sqlalchemy.exc import IntegrityError, OperationalError

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    for attempt in range(1, STORAGE_ATTEMPTS + 1):
        try:
            return optuna.storages.RDBStorage(url)
        except (IntegrityError, OperationalError) as error:
            failure: Exception = error
            time.sleep(STORAGE_PAUSE * attempt)
        except Exception as error:      # SQLAlchemy and optuna raise many kinds
            failure = error
            break
    reason = str(failure).splitlines()[0] if str(failure) else type(failure).__name__
    raise UsageError(f"cannot open --storage {url} ({reason}); give a database URL such "
                     f"as sqlite:///runs/study.db")


def open_study(setup: Setup) -> Any:
    """The study, created or loaded from its storage (UsageError when the storage cannot be
    opened or the study was made for other games)."""
    import optuna

    storage = open_storage(setup.storage)
    study = optuna.create_study(
        storage=storage, study_name=setup.study, direction="maximize", load_if_exists=True,
        sampler=optuna.samplers.TPESampler(seed=setup.seed),
        pruner=optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=1))
    held = study.user_attrs.get("setup")
    if held is None:
        study.set_user_attr("setup", setup.attrs())
        cls = agents.params_class(setup.agent)
        assert cls is not None
        study.enqueue_trial(searched_values(cls(**setup.fixed), setup.fixed))
    elif held != setup.attrs():
        diff = ", ".join(f"{k}={held.get(k)}" for k in setup.attrs() if held.get(k) !=
                         setup.attrs()[k])
        raise UsageError(f"study {setup.study!r} in {setup.storage} was made with {diff}; "
                         f"resume it with those or choose another --study")
    return study


def objective(setup: Setup, cls: type[Params]) -> Callable[[Any], float]:
    """The study's objective: the tuned bot's mean win share over the trial's games,
    reported after each block so that a trailing trial can be pruned."""
    import optuna

    def run(trial: Any) -> float:
        params = suggest(trial, cls, setup.fixed)
        total, played = 0.0, 0
        for step, (start, count) in enumerate(blocks(setup.games)):
            total += float(shares(setup, params, setup.seed, start, count).sum())
            played += count
            trial.report(total / played, step)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return total / played
    return run


def optimize(setup: Setup, study: Any, cls: type[Params], progress: bool) -> None:
    """Add ``setup.trials`` trials to the study (a tqdm bar on stderr if ``progress``)."""
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=setup.trials, unit="trials", desc=f"tune {setup.agent}",
                   file=sys.stderr)
    try:
        study.optimize(objective(setup, cls), n_trials=setup.trials, n_jobs=setup.jobs,
                       callbacks=[lambda s, t: bar.update(1)] if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()


@dataclass(frozen=True)
class Evaluation:
    """The best trial's and the default parameters' win shares on the same fresh games."""

    tuned: dict[str, float]
    default: dict[str, float]
    difference: tuple[float, float, float]        # mean, 95% interval (paired games)


def evaluate(setup: Setup, tuned: Params, default: Params, progress: bool) -> Evaluation:
    """Play ``setup.eval_games`` fresh games (run seed ``setup.seed + 1``) with the tuned
    and with the default parameters."""
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=2 * setup.eval_games, unit="games", desc="fresh evaluation",
                   file=sys.stderr)
    found: list[np.ndarray] = [np.empty(0), np.empty(0)]
    for start, count in blocks(setup.eval_games, max(1, setup.eval_games // 2000)):
        for i, params in enumerate((tuned, default)):
            found[i] = np.concatenate([found[i], shares(setup, params, setup.seed + 1,
                                                        start, count)])
            if bar is not None:
                bar.update(count)
    if bar is not None:
        bar.close()
    n = setup.eval_games
    diff = found[0] - found[1]
    half = 1.96 * float(diff.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    mean = float(diff.mean())
    return Evaluation(stats.proportion(float(found[0].sum()), n),
                      stats.proportion(float(found[1].sum()), n),
                      (mean, mean - half, mean + half))


# --- the command ---------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The options of ``python -m sim.tune`` (a bad one raises UsageError)."""
    p = Parser(
        prog="python -m sim.tune",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Tune a strategy bot's parameters by play: optuna's TPE sampler "
                    "searches every parameter with a range (handicaps such as random_bet "
                    "excepted) to maximise the bot's win share "
                    "against a pool of opponents in mixed tables with rotating seats, every "
                    "trial on the same games.  The study is kept in a database, so a second "
                    "invocation adds trials to it.  The best trial is played again on fresh "
                    "games beside the defaults; --save writes it as a profile, NAME@PROFILE.",
        epilog="Prints the study (trials complete and pruned), the best trial's win share "
               "over its games (optimistic: the best of many noisy trials), its parameters "
               "beside the defaults, and both on fresh games with 95% Wilson intervals and "
               "their paired difference.\n\nExamples:\n"
               "  python -m sim.tune paris-damis --agent greedy --trials 40 --save tuned\n"
               "  python -m sim.tune paris-damis --agent cautious --players 3 "
               "--against greedy,aggressive\n  python -m sim.tune ascenseur-atouts --agent "
               "estimator --storage sqlite:///shared/tune.db --jobs 2\n\nSee docs/tune.md.")
    p.add_argument("game", nargs="?", help="game slug (python -m sim.batch --list)")
    p.add_argument("--agent", help="the bot to tune (one with parameters); " + OWN_BOT)
    p.add_argument("--players", type=int, help="player count (default: the game's usual)")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule parameter, repeatable (see python -m sim.batch --list)")
    p.add_argument("--against", metavar="POOL",
                   help="its opponents, comma-separated, NAME or NAME@PROFILE, seated in "
                        "turn at the other seats (default: the game's other strategy bots, "
                        "or the bot itself at its defaults when it is the only one)")
    p.add_argument("--fix", action="append", default=[], metavar="KEY=VALUE",
                   help="hold one of the bot's parameters at a value instead of searching "
                        "it, repeatable")
    p.add_argument("--trials", type=int, default=DEFAULT_TRIALS,
                   help=f"trials to add to the study (default {DEFAULT_TRIALS})")
    p.add_argument("--games-per-trial", type=int, default=DEFAULT_GAMES_PER_TRIAL,
                   help=f"games each trial plays, the same games for every trial (default "
                        f"{DEFAULT_GAMES_PER_TRIAL:,}); played in {BLOCKS} blocks after "
                        f"which a trailing trial may be pruned")
    p.add_argument("--eval-games", type=int,
                   help=f"fresh games of the final evaluation, with the best and with the "
                        f"default parameters each (default {EVAL_FACTOR} x games per trial)")
    p.add_argument("--storage", metavar="URL",
                   help="optuna storage: a database URL (default sqlite:///runs/tune/"
                        "<game>-<agent>.db); processes sharing it work on one study")
    p.add_argument("--study", metavar="NAME",
                   help="study name in the storage (default <game>-<agent>-<K>p)")
    p.add_argument("--save", metavar="PROFILE",
                   help="save the best parameters as agents/profiles/<game>.toml's "
                        "[AGENT.PROFILE], loaded as AGENT@PROFILE")
    p.add_argument("--seed", type=seed_arg, default=0,
                   help="seed of the trials' games and of the sampler (default 0); the "
                        "fresh evaluation plays run seed + 1")
    p.add_argument("--jobs", type=int, default=1,
                   help="trials played at once, in threads (default 1; more makes a seeded "
                        "study depend on timing)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    return p


def setup_from_args(args: argparse.Namespace) -> Setup:
    """Validate the arguments into a Setup (raises UsageError naming the valid choices)."""
    if not args.game:
        raise UsageError(f"a game is required; available games: "
                         f"{', '.join(engines.available())}")
    try:
        params = variant_params(args.game, args.variant, args.players)
    except ValueError as error:
        raise UsageError(str(error)) from None
    own = [args.agent] if args.agent and plugins.is_path(args.agent) else []
    if own:         # a bot of one's own, by import path (docs/write-a-bot.md)
        check_agents(args.game, own)
    tunable = [a for a in agents.tunable(args.game) + own
               if (cls := agents.params_class(a)) is not None and search_space(cls)]
    if not args.agent or profiles.split(args.agent)[1] is not None \
            or args.agent not in tunable:
        raise UsageError(f"--agent {args.agent or '(missing)'}: choose a bot of {args.game} "
                         f"with parameters to tune: {', '.join(tunable) or 'none'}, or "
                         f"your own as package.module:Class with a Params class")
    cls = agents.params_class(args.agent)
    assert cls is not None
    fixed = fixed_values(cls, args.fix)
    pool = tuple(n.strip() for n in args.against.split(",") if n.strip()) \
        if args.against else default_pool(args.game, args.agent)
    if not pool:
        raise UsageError("--against names no agent; give one or more, comma-separated")
    check_agents(args.game, pool)
    for name, value in (("--trials", args.trials), ("--games-per-trial",
                                                     args.games_per_trial)):
        if value < 1:
            raise UsageError(f"{name} must be at least 1, got {value}")
    eval_games = EVAL_FACTOR * args.games_per_trial if args.eval_games is None \
        else args.eval_games
    if eval_games < 2:
        raise UsageError(f"--eval-games must be at least 2, got {eval_games}")
    if args.seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {args.seed}")
    if args.save is not None and not profiles.NAME.match(args.save):
        raise UsageError(f"--save {args.save!r}: a profile name is letters, digits, _ and -")
    return Setup(game=args.game, params=params, agent=args.agent, pool=pool, fixed=fixed,
                 games=args.games_per_trial, eval_games=eval_games, seed=args.seed,
                 trials=args.trials,
                 storage=args.storage or f"sqlite:///{STORAGE_DIR}/{args.game}-"
                                         f"{args.agent.replace(':', '.')}.db",
                 study=args.study or f"{args.game}-{args.agent}-{params.players}p",
                 save=args.save, jobs=resolve_jobs(args.jobs))


def tune_games(setup: Setup) -> list[tuple[RunSpec, int]]:
    """The games of a trial and of the evaluation, in blocks held in memory (none written),
    for :func:`check_games_room`."""
    return [(RunSpec(game=setup.game, params=setup.params, agents=tuple(setup.lineup()),
                     seating="rotate", seed=setup.seed, games=n,
                     chunk_size=-(-n // BLOCKS)), n) for n in (setup.games, setup.eval_games)]


def default_pool(game: str, agent: str) -> tuple[str, ...]:
    """The game's other strategy bots, or the bot itself (at its defaults) alone."""
    return tuple(a for a in agents.written_for(game) if a != agent) or (agent,)


def fixed_values(cls: type[Params], items: Sequence[str]) -> dict[str, Any]:
    """``--fix KEY=VALUE`` items as typed values (UsageError naming the valid keys or
    values)."""
    try:
        given = cls.from_strings(list(items))
    except ValueError as error:
        raise UsageError(f"--fix: {error}") from None
    keys = [item.partition("=")[0].strip() for item in items]
    return {key: getattr(given, key) for key in keys}


def report(setup: Setup, study: Any, best: Params, default: Params,
           evaluation: Evaluation, kernel: bool) -> str:
    """What the command prints: the study, the best parameters, the fresh evaluation."""
    import optuna

    states = [t.state for t in study.trials]
    complete = states.count(optuna.trial.TrialState.COMPLETE)
    pruned = states.count(optuna.trial.TrialState.PRUNED)
    k = setup.players
    lines = [f"{setup.game}: {setup.agent} against {', '.join(setup.lineup()[1:])} "
             f"({k} players, rotating seats; "
             f"{'compiled kernel' if kernel else 'Python API'})",
             f"study {setup.study} in {setup.storage}: {len(states)} trials "
             f"({complete} complete, {pruned} pruned), {setup.games:,} games each, "
             f"seed {setup.seed}",
             f"best trial {study.best_trial.number}: win share {study.best_value:.1%} over "
             f"its {setup.games:,} games (optimistic: the best of {complete})", "",
             f"  {'parameter':<18} {'default':>10} {'tuned':>10}"]
    for key in best.keys():
        mark = "  (fixed)" if key in setup.fixed else ""
        lines.append(f"  {key:<18} {_text(getattr(default, key)):>10} "
                     f"{_text(getattr(best, key)):>10}{mark}")

    def share(p: dict[str, float]) -> str:
        return f"{p['p']:6.1%}  [{p['low']:6.1%}, {p['high']:6.1%}]"

    if best == default:
        lines.append("  (the best trial is the defaults: no trial did better)")
    mean, low, high = evaluation.difference
    lines += ["", f"fresh evaluation: {setup.eval_games:,} games each, run seed "
                  f"{setup.seed + 1} (fair share {1 / k:.1%}; 95% Wilson intervals)",
              f"  tuned     {share(evaluation.tuned)}",
              f"  default   {share(evaluation.default)}",
              f"  difference {100 * mean:+.1f} pp  [{100 * low:+.1f}, {100 * high:+.1f}] "
              f"(paired games)"]
    return "\n".join(lines)


def _text(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def save_profile(setup: Setup, best: Params, evaluation: Evaluation,
                 argv: Sequence[str]) -> Path:
    """Write the best parameters as ``[agent.profile]`` with the command and its
    evaluation in the comment above."""
    assert setup.save is not None
    t, d = evaluation.tuned, evaluation.default
    comment = (f"python -m sim.tune {shlex.join(argv)}\n"
               f"fresh evaluation ({setup.eval_games:,} games, run seed {setup.seed + 1}): "
               f"{t['p']:.1%} [{t['low']:.1%}, {t['high']:.1%}] against the defaults' "
               f"{d['p']:.1%} [{d['low']:.1%}, {d['high']:.1%}]")
    return profiles.save(setup.game, setup.agent, setup.save, as_values(best), comment)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sim.tune ARGV``: returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(argv)
        setup = setup_from_args(args)
        cls = agents.params_class(setup.agent)
        assert cls is not None
        check_games_room(tune_games(setup), STORAGE_DIR, setup.jobs, written=False)
        if args.storage is None:
            STORAGE_DIR.mkdir(parents=True, exist_ok=True)
        study = open_study(setup)
    except UsageError as error:
        return usage_error("sim.tune", error)
    progress = wants_progress(args)
    try:
        optimize(setup, study, cls, progress)
    except KeyboardInterrupt:
        print(f"\nsim.tune: interrupted; the finished trials are kept in {setup.storage} "
              f"(study {setup.study}): run the command again to continue", file=sys.stderr)
        return 130
    best = cls.from_kwargs(**(study.best_params | setup.fixed))
    default = cls()
    evaluation = evaluate(setup, best, default, progress)
    print(report(setup, study, best, default, evaluation, kernel_path(setup, best)))
    if setup.save:
        path = save_profile(setup, best, evaluation, argv)
        print(f"saved {setup.agent}{profiles.SEPARATOR}{setup.save} in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
