"""``python -m sim.replay``: replay one game from its seed and print it turn by turn.

    python -m sim.replay RUN_DIR --game N
    python -m sim.replay GAME --seed S --index N [--players K] [--variant KEY=VALUE ...]
                         [--agents A,B,...] [--seating rotate|fixed|random]

The game is played again through the Python API from the streams of (seed, index), with the
run's agents and seating, so it is the very game the run's tables record.  A game a person
played (``python -m sim.play --save DIR``) is replayed with the person's recorded moves at
their seat.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import agents
import engines
from sim import results
from sim.batch.cli import OWN_BOT, spec_from_args
from sim.batch.seating import seating
from sim.batch.spec import RunSpec
from sim.cli import Parser, UsageError, check_source, seed_arg, usage_error
from sim.runner import HUMAN, RecordedAgent, RecordingMismatch, play_python


def replay(spec: RunSpec, index: int, human: dict[str, Any] | None = None
           ) -> tuple[Any, list[str]]:
    """The final state of game ``index`` of a run, and the agent at each seat; ``human``:
    the manifest's record of a person's game (``seat`` and ``moves``)."""
    if not 0 <= index < spec.games:
        raise UsageError(f"--game {index} is not in the run: games are 0..{spec.games - 1}")
    game = spec.load_game()
    seat_agents = [spec.agents[a] for a in seating(spec, index, 1)[0]]
    bots = []
    for seat, name in enumerate(seat_agents):
        if name != HUMAN:
            bots.append(agents.load(name, game=spec.game))
        elif human is not None and human.get("seat") == seat:
            bots.append(RecordedAgent(human["moves"]))
        else:
            raise UsageError(f"seat {seat} was played by a person whose moves the run "
                             f"does not record")
    try:
        return play_python(game, bots, spec.seed, index), seat_agents
    except RecordingMismatch as error:
        raise UsageError(f"the recorded game does not replay: {error}") from None


def run_to_replay(run_dir: Path, index: int) -> tuple[RunSpec, dict[str, Any] | None]:
    """The spec of the run in ``run_dir`` and its record of a person's game; UsageError when
    its manifest does not fit or the chunk recording game ``index`` is damaged."""
    try:
        manifest = results.read_manifest(run_dir)
        spec = RunSpec.from_json(manifest["spec"])
        if 0 <= index < spec.games:
            results.verified_chunks(run_dir, span=(index, index + 1))
    except ValueError as error:
        raise UsageError(str(error)) from None
    return spec, manifest.get("human")


def report(spec: RunSpec, index: int, state: Any, seat_agents: list[str]) -> str:
    result = state.result()
    lines = [f"{spec.game}, seed {spec.seed}, game {index}: "
             + ", ".join(f"seat {p} {a}" for p, a in enumerate(seat_agents)), ""]
    lines += state.log
    lines += ["", "final ranking"]
    suits = result.details.get("suit_scores")
    for p in sorted(range(len(result.ranks)), key=lambda p: (result.ranks[p], p)):
        extra = f"  suits {' '.join(map(str, suits[p]))}" if suits else ""
        lines.append(f"  rank {result.ranks[p]}  seat {p} ({seat_agents[p]})  score "
                     f"{result.scores[p]:g}  win share {result.win_shares[p]:g}{extra}")
    stats = ", ".join(f"{k} {v}" for k, v in result.stats.items())
    lines.append(f"  {stats}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="python -m sim.replay",
                description="Replay one game of a run (or of a seed) and print its log.")
    p.add_argument("source", help="a run directory, or a game slug")
    p.add_argument("--game", type=int, dest="index_in_run", metavar="N",
                   help="the game index to replay (with a game slug, same as --index)")
    p.add_argument("--seed", type=seed_arg, help="with a game slug: the run seed (default 0)")
    p.add_argument("--index", type=int, help="with a game slug: the game index (default 0)")
    p.add_argument("--players", type=int, help="with a game slug: player count")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                   help="with a game slug: a rule parameter, repeatable (see python -m "
                        "sim.batch --list)")
    p.add_argument("--agents", help=f"with a game slug: one agent, or one per seat; {OWN_BOT}")
    p.add_argument("--seating", choices=("rotate", "fixed", "random"),
                   help="with a game slug: the run's seating (default rotate)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        check_source(args.source)
        source = Path(args.source)
        human = None
        if source.is_dir() or args.source not in engines.available():
            if args.index_in_run is None:
                raise UsageError("give the game to replay with --game N")
            index = args.index_in_run
            spec, human = run_to_replay(source, index)
        else:
            if args.index is not None and args.index_in_run is not None \
                    and args.index != args.index_in_run:
                raise UsageError("give the game index once (--index N)")
            index = args.index if args.index is not None else (args.index_in_run or 0)
            if index < 0:
                raise UsageError(f"--index must be non-negative, got {index}")
            spec = spec_from_args(argparse.Namespace(
                game=args.source, variant=args.variant, players=args.players,
                agents=args.agents, games=index + 1, seed=args.seed, jobs=1,
                chunk_size=1, seating=args.seating))
        state, seat_agents = replay(spec, index, human)
    except UsageError as error:
        return usage_error("sim.replay", error)
    print(report(spec, index, state, seat_agents))
    return 0


if __name__ == "__main__":
    sys.exit(main())
