"""``python -m sim.decisions``: which decisions matter, judged by a search.

    python -m sim.decisions RUN_DIR [--games N]
    python -m sim.decisions GAME --agents A,B,... [--players K] [--variant KEY=VALUE ...]
                            [--seed S] [--seating rotate|fixed|random] [--games N]

Games 0..N-1 of a run (or of a seed, as ``sim.batch`` would play them) are played again
through the Python API with the run's agents, and at every decision with more than one legal
action a judge, ``flatmc`` with ``--tries`` simulations per legal action (all actions tried
in the same worlds), estimates each action's win share for the deciding seat from what that
seat may know: half the simulations pick its best action and the runner-up, the other half
measure them.  The judge draws from a stream of its own, so the games are exactly the run's.
A decision *matters* when the best action leads the runner-up by at least ``--margin`` of
win share, beyond its noise (one-sided, 95%): there, choosing well pays; elsewhere any
reasonable move does about as well.

Writes ``decisions.parquet``, one row per judged decision (docs/results.md), and
``decisions.json`` (the judge's settings) into the run directory, or into ``--out DIR`` for
a game slug; ``sim.report`` then shows them.  Definitions: docs/analysis.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

import agents
from agents.search import FlatMC
from engines.core.seeding import decision_rng
from engines.core.streams import has_rounds
from sim import results, runlock
from sim.analysis.balance import DEFAULT_MARGIN, decisions_that_matter
from sim.batch.cli import JOBS_HELP, check_games_room, resolve_jobs, spec_from_args
from sim.batch.seating import seating
from sim.batch.spec import RunSpec
from sim.cli import (
    Parser,
    UsageError,
    check_source,
    finite,
    new_out_dir,
    seed_arg,
    usage_error,
    wants_progress,
    without_nan,
)
from sim.report import decision_sentences

DEFAULT_GAMES = 20
DEFAULT_TRIES = 100     # sweeps: 50 to pick the best action, 50 to measure its lead
# The judge's stream for game i of a run with seed s: SeedSequence((JUDGE_STREAM, s, i)),
# apart from the game's own streams.
JUDGE_STREAM = 0x6A75646765


def judge_stream(seed: int, index: int) -> np.random.Generator:
    """The judge's stream for game ``index`` of a run with ``seed``."""
    return np.random.Generator(np.random.SFC64(np.random.SeedSequence((JUDGE_STREAM, seed,
                                                                       index))))


class Judge:
    """``flatmc`` with ``tries`` sweeps of simulations (of ``horizon`` rounds; 0: to the
    end), each sweep trying every legal action in one determinization: it picks its best
    action and the runner-up on the first half of the sweeps and measures every action on
    the other half, so that the luck of the pick does not inflate the lead it measures."""

    def __init__(self, tries: int, horizon: int) -> None:
        self.tries = tries
        self.search = FlatMC(horizon=horizon)

    def verdict(self, observation: Any, legal: list[Any], rng: np.random.Generator
                ) -> tuple[int, int, np.ndarray, float]:
        """The best action and the runner-up (indices in ``legal``), every action's
        measured win share and the standard error of the best's lead over the runner-up
        (paired over the sweeps)."""
        rewards = self.search.sweeps(observation, legal, rng, self.tries)
        pick, measure = rewards[: self.tries // 2], rewards[self.tries // 2:]
        best, second = np.argsort(-pick.mean(axis=0), kind="stable")[:2]
        lead = measure[:, best] - measure[:, second]
        return int(best), int(second), measure.mean(axis=0), \
            float(lead.std(ddof=1) / np.sqrt(len(lead)))


def round_number(state: Any) -> int:
    """The round a state is in (1 for the first; 0 in a game without rounds)."""
    rules = getattr(state.game, "rules", None)
    if rules is None or not has_rounds(rules):
        return 0
    return int(state.s[rules.ROUNDS_PLAYED]) + 1


def judged_rows(spec: RunSpec, index: int, judge: Judge) -> list[dict[str, Any]]:
    """Game ``index`` of the run played by its agents, one row per decision with a choice:
    the judge's view of its legal actions beside the action taken."""
    game = spec.load_game()
    names = [spec.agents[a] for a in seating(spec, index, 1)[0]]
    bots = [agents.load(name, game=spec.game) for name in names]
    state = game.new_state(spec.seed, index)
    decisions, judging = decision_rng(spec.seed, index), judge_stream(spec.seed, index)
    rows = []
    decision = 0
    while not state.is_terminal():
        player = state.current_player
        legal = state.legal_actions()
        if len(legal) > 1:
            best, second, value, se = judge.verdict(state.observation(player), legal, judging)
        action = bots[player].act(state.observation(player), legal, decisions)
        if len(legal) > 1:
            chosen = legal.index(action)
            rows.append({
                "game_id": index, "seat": player, "agent": names[player],
                "decision": decision,
                "round": round_number(state),
                "phase": str(getattr(state, "phase", "")), "legal": len(legal),
                "best": value[best], "second": value[second],
                "margin": value[best] - value[second], "margin_se": se,
                "chosen": value[chosen], "regret": value[best] - value[chosen],
                "agrees": chosen == best,
                "best_action": legal[best].text, "chosen_action": action.text})
        state.apply(action)
        decision += 1
    return rows


def judged_block(spec: RunSpec, indices: Sequence[int], tries: int, horizon: int
                 ) -> list[dict[str, Any]]:
    """:func:`judged_rows` of several games, with one judge."""
    judge = Judge(tries, horizon)
    return [row for index in indices for row in judged_rows(spec, index, judge)]


def judge_games(spec: RunSpec, games: int, tries: int, horizon: int, jobs: int,
                progress: bool = False) -> pd.DataFrame:
    """The decisions table of games 0..games-1 (the same whatever ``jobs``)."""
    blocks = np.array_split(np.arange(games), min(games, 4 * jobs))
    done: Iterator[list[dict[str, Any]]] = Parallel(n_jobs=jobs, return_as="generator")(
        delayed(judged_block)(spec, block.tolist(), tries, horizon) for block in blocks)
    if progress:
        from tqdm import tqdm
        done = tqdm(done, total=len(blocks), unit="blocks", desc="judging")
    frame = pd.DataFrame([row for block in done for row in block], columns=COLUMNS)
    return frame.astype(DTYPES)


def judged_run(spec: RunSpec, out: Path, games: int, tries: int, horizon: int, jobs: int,
               progress: bool = False) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The decisions table of games 0..games-1 and the judge's settings, written to
    ``out`` (a table already there with the same settings is read, not judged again)."""
    settings = {"judge": "flatmc", "tries": tries, "horizon": horizon, "games": games,
                "game": spec.game, "agents": list(spec.agents), "seed": spec.seed}
    out.mkdir(parents=True, exist_ok=True)
    with runlock.writing(out):
        done = results.read_decisions(out)
        if done is not None and done[1] == settings:
            return done
        table = judge_games(spec, games, tries, horizon, jobs, progress)
        table.to_parquet(out / results.DECISIONS, index=False)
        (out / results.DECISIONS_SETTINGS).write_text(json.dumps(settings, indent=2))
    return table, settings


DTYPES = {"game_id": "int64", "seat": "int8", "agent": "category", "decision": "int32",
          "round": "int16", "phase": "category", "legal": "int16", "best": "float64",
          "second": "float64", "margin": "float64", "margin_se": "float64",
          "chosen": "float64", "regret": "float64", "agrees": "bool",
          "best_action": "string", "chosen_action": "string"}
COLUMNS = list(DTYPES)


# --------------------------------------------------------------------------------------
# Command
# --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="python -m sim.decisions",
        description="Which decisions matter: games of a run (or of a seed) played again by "
                    "their agents while a judge, flatmc with --tries simulations per legal "
                    "action (half to pick its best, half to measure it), estimates every "
                    "legal action's win share for the deciding seat.  A decision matters "
                    "when the judge's best action leads the next by at least --margin, "
                    "beyond its noise.  Prints the share of decisions "
                    "that matter by phase and how often each agent picks the judge's best; "
                    "writes decisions.parquet and decisions.json into the run directory "
                    "(sim.report then shows them) or into --out (docs/analysis.md).",
        epilog="Examples:\n  python -m sim.decisions runs/paris-3p --games 20\n"
               "  python -m sim.decisions paris-damis --players 3 "
               "--agents ismcts,greedy@tuned,aggressive --games 10",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", help="a run directory, or a game slug")
    p.add_argument("--games", type=int,
                   help=f"judge games 0..N-1 (default {DEFAULT_GAMES}, at most the run's)")
    p.add_argument("--tries", type=int, default=DEFAULT_TRIES, metavar="T",
                   help=f"the judge's simulations per legal action, all actions tried in "
                        f"the same worlds (default {DEFAULT_TRIES}; at least 4)")
    p.add_argument("--horizon", type=int, default=0, metavar="H",
                   help="the judge's simulations stop after H rounds, the game then ranked "
                        "on its standing (games with rounds; default 0: to the end)")
    p.add_argument("--margin", type=finite, default=DEFAULT_MARGIN,
                   help=f"the lead in win share that makes a decision matter (default "
                        f"{DEFAULT_MARGIN:g})")
    p.add_argument("--agents", help="with a game slug: one agent, or one per seat")
    p.add_argument("--players", type=int, help="with a game slug: player count")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="with a game slug: a rule parameter, repeatable")
    p.add_argument("--seed", type=seed_arg, help="with a game slug: the run seed (default 0)")
    p.add_argument("--seating", choices=("rotate", "fixed", "random"),
                   help="with a game slug: the seating (default rotate)")
    p.add_argument("--out", metavar="DIR", help="with a game slug: output directory "
                                                "(default runs/decisions-<game>-<UTC time>)")
    p.add_argument("--jobs", type=int, help=JOBS_HELP)
    p.add_argument("--format", choices=("table", "json"), default="table",
                   help="answers on stdout as text (default) or as one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return p


def source_of(args: argparse.Namespace) -> tuple[RunSpec, Path, int]:
    """The run judged, where its decisions go and how many games (UsageError for bad
    input)."""
    if args.tries < 4:
        raise UsageError(f"--tries must be at least 4, got {args.tries}")
    if args.horizon < 0:
        raise UsageError(f"--horizon must be 0 or more, got {args.horizon}")
    if not 0 < args.margin < 1:
        raise UsageError(f"--margin must be between 0 and 1 (a win share), got {args.margin}")
    if args.games is not None and args.games < 1:
        raise UsageError(f"--games must be at least 1, got {args.games}")
    check_source(args.source)
    source = Path(args.source)
    if (source / results.MANIFEST).is_file():
        given = [name for name, value in (
            ("--agents", args.agents), ("--players", args.players), ("--seed", args.seed),
            ("--variant", args.variant), ("--seating", args.seating), ("--out", args.out))
            if value]
        if given:
            raise UsageError(f"a run directory keeps its own settings; drop {', '.join(given)}")
        try:
            spec = RunSpec.from_json(results.read_manifest(source)["spec"])
        except ValueError as error:
            raise UsageError(str(error)) from None
        return spec, source, min(args.games or DEFAULT_GAMES, spec.games)
    games = args.games or DEFAULT_GAMES
    spec = spec_from_args(argparse.Namespace(
        game=args.source, variant=args.variant, players=args.players, agents=args.agents,
        games=games, seed=args.seed, jobs=1, chunk_size=1, seating=args.seating))
    return spec, new_out_dir(args.out, f"decisions-{spec.game}"), games


def text_tables(figures: dict[str, Any], settings: dict[str, Any]) -> str:
    """The answers' tables and sentences as console text."""
    def shown(frame: pd.DataFrame) -> str:
        return frame.to_string(index=False, float_format=lambda v: f"{v:.3f}")
    return "\n\n".join([shown(figures["by_phase"]), shown(figures["by_agent"]),
                        "\n".join(decision_sentences(figures, settings))])


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        spec, out, games = source_of(args)
        jobs = resolve_jobs(args.jobs)
        check_games_room([(spec, games)], out, jobs)
        FlatMC(horizon=args.horizon).params.check_game(spec.game)
    except UsageError as error:
        return usage_error("sim.decisions", error)
    except ValueError as error:
        return usage_error("sim.decisions", error)
    try:
        table, settings = judged_run(spec, out, games, args.tries, args.horizon, jobs,
                                     wants_progress(args))
    except UsageError as error:             # the run is in use, or cannot be written
        return usage_error("sim.decisions", error)
    except KeyboardInterrupt:
        print("\nsim.decisions: interrupted; nothing written", file=sys.stderr)
        return 130
    figures = decisions_that_matter(table, args.margin)
    if args.format == "json":
        json.dump(without_nan(figures | {
            "by_phase": figures["by_phase"].to_dict("records"),
            "by_agent": figures["by_agent"].to_dict("records"),
            "settings": settings, "out": str(out)}), sys.stdout, indent=2)
        print()
        return 0
    print(text_tables(figures, settings))
    print(f"decisions: {out / results.DECISIONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
