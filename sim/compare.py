"""``python -m sim.compare``: rule variants side by side, with what moved and how surely.

    python -m sim.compare paris-damis --games 20000 --variant base: \\
        --variant wild-jokers:jokers=2,joker_rule=wild --variant no-discard:discard=none
    python -m sim.compare RUN_DIR RUN_DIR ...

The first form plays every named variant with the same seed, so game i of each variant starts
from the same stream and the comparison is paired (common random numbers); its runs go to
``OUT/<name>/``.  The second compares finished runs (paired when they share game, seed, player
count and games).  The first variant (or run) is the baseline.  Both write the comparison
report (``sim.report``) to ``OUT/report/`` and print its headline table: for each figure, the
difference from the baseline with its 95% interval, the Holm-corrected p-value and an effect
size.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

import engines
from sim.analysis import Run, compare, headline
from sim.batch.cli import DEFAULT_GAMES, resolve_jobs, spec_from_args
from sim.batch.run import new_run, play_run
from sim.batch.spec import RunSpec
from sim.cli import Parser, UsageError, new_out_dir, usage_error, wants_progress
from sim.report import write_comparison_report

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
HEADLINE_COLUMNS = ["figure", "variant", "baseline_value", "value", "diff", "low", "high",
                    "p_holm", "significant", "effect_size", "method"]


def parse_variant(text: str) -> tuple[str, list[str]]:
    """``NAME:KEY=VALUE,KEY=VALUE`` as (name, ``key=value`` items); a list value keeps its
    commas (``correct_bet_cards=9,10,11,12``)."""
    name, sep, body = text.partition(":")
    name = name.strip()
    if not sep or not NAME.fullmatch(name):
        raise UsageError(f"--variant takes NAME:KEY=VALUE,... (NAME of letters, digits, "
                         f"'-', '_' or '.'; 'base:' for the defaults), got {text!r}")
    items: list[str] = []
    for part in (p.strip() for p in body.split(",")):
        if not part:
            continue
        if "=" in part:
            items.append(part)
        elif items:
            items[-1] += "," + part         # the next value of a list parameter
        else:
            raise UsageError(f"--variant {name}: expected KEY=VALUE, got {part!r}")
    return name, items


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="python -m sim.compare",
        description="Compare rule variants: play each named variant with the same seeds "
                    "(paired games), or take finished runs, then write a comparison report "
                    "(report.md, report.html, figures) and print its headline table.  The "
                    "first variant or run is the baseline; every figure's difference comes "
                    "with a 95% interval, a Holm-corrected p-value and an effect size.",
        epilog="Examples:\n  python -m sim.compare paris-damis --games 20000 --variant base: "
               "--variant wild-jokers:jokers=2,joker_rule=wild --variant "
               "no-discard:discard=none\n  python -m sim.compare runs/A runs/B --out "
               "reports/a-vs-b",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("targets", nargs="+", metavar="GAME | RUN_DIR",
                   help="a game slug (then give --variant twice or more), or two or more "
                        "run directories")
    p.add_argument("--variant", action="append", default=[], metavar="NAME:KEY=VALUE,...",
                   help="a named variant, repeatable; 'base:' plays the defaults")
    p.add_argument("--games", type=int,
                   help=f"games per variant (default {DEFAULT_GAMES:,})")
    p.add_argument("--players", type=int, help="player count (default: the game's usual)")
    p.add_argument("--agents", help="one agent for every seat, or one per seat (default "
                                    "random)")
    p.add_argument("--seating", choices=("rotate", "fixed", "random"),
                   help="seating rule, as in sim.batch (default rotate)")
    p.add_argument("--seed", type=int, help="seed shared by every variant (default 0)")
    p.add_argument("--jobs", type=int, help="parallel workers (default: all cores)")
    p.add_argument("--out", metavar="DIR",
                   help="output directory: the variants' runs in DIR/<name>/, the report in "
                        "DIR/report/ (default runs/compare-<game>-<UTC timestamp>)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on stderr")
    return p


def variant_specs(args: argparse.Namespace) -> list[tuple[str, RunSpec]]:
    """Every variant's validated RunSpec (all are checked before any is played)."""
    if len(args.targets) != 1:
        raise UsageError(f"give one game and --variant twice or more, or only run "
                         f"directories; got {' '.join(args.targets)}")
    if len(args.variant) < 2:
        raise UsageError("give at least two --variant NAME:KEY=VALUE,... (e.g. 'base:' and "
                         "'no-discard:discard=none')")
    specs: list[tuple[str, RunSpec]] = []
    for text in args.variant:
        name, items = parse_variant(text)
        if name in (n for n, _ in specs):
            raise UsageError(f"--variant {name} is given twice; variant names must differ")
        if name == "report":
            raise UsageError("--variant report: the name 'report' is taken by the report "
                             "folder; choose another")
        given = argparse.Namespace(
            game=args.targets[0], variant=items, players=args.players, agents=args.agents,
            games=args.games, seed=args.seed, seating=args.seating, jobs=args.jobs,
            chunk_size=None)
        try:
            specs.append((name, spec_from_args(given)))
        except UsageError as error:
            raise UsageError(f"--variant {name}: {error}") from None
    return specs


def play_variants(specs: list[tuple[str, RunSpec]], out: Path, jobs: int,
                  progress: bool) -> list[Run]:
    """Play every variant into ``out/<name>`` and open the runs, labelled by name."""
    runs = []
    for name, spec in specs:
        with new_run(spec, out / name) as (run_dir, owner):
            play_run(spec, run_dir, owner, jobs, progress=progress)
        runs.append(Run.open(run_dir, label=name))
    return runs


def open_runs(paths: Sequence[str]) -> list[Run]:
    """Finished runs, labelled by directory name (made unique when two names clash)."""
    runs: list[Run] = []
    for path in paths:
        try:
            label = Path(path).resolve().name
            if label in (r.label for r in runs):
                label = f"{label}-{len(runs)}"
            runs.append(Run.open(path, label=label))
        except ValueError as error:
            raise UsageError(str(error)) from None
    if len({r.game for r in runs}) > 1:
        raise UsageError("the runs are of different games ("
                         f"{', '.join(sorted({r.game for r in runs}))}); compare runs of "
                         "one game")
    return runs


def format_headline(table: pd.DataFrame) -> str:
    """The headline table as text: significant differences first."""
    shown = headline(table)[HEADLINE_COLUMNS].copy()
    shown["significant"] = shown["significant"].map({True: "yes", False: "no"})
    return shown.to_string(index=False, float_format=lambda v: f"{v:.4g}")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        by_game = args.targets[0] in engines.available()
        if by_game:
            specs = variant_specs(args)
            jobs = resolve_jobs(args.jobs)
        elif args.variant or args.games is not None:
            raise UsageError(f"{args.targets[0]!r} is not a game (games: "
                             f"{', '.join(engines.available())}); --variant and --games "
                             "go with a game")
        elif not Path(args.targets[0]).exists():
            raise UsageError(f"{args.targets[0]!r} is neither a game (games: "
                             f"{', '.join(engines.available())}) nor a run directory")
        elif len(args.targets) < 2:
            raise UsageError("give two or more run directories, or a game with --variant")
        runs = None if by_game else open_runs(args.targets)
        out = new_out_dir(args.out, f"compare-{args.targets[0] if runs is None else runs[0].game}")
    except UsageError as error:
        return usage_error("sim.compare", error)
    progress = wants_progress(args)
    try:
        if runs is None:
            runs = play_variants(specs, out, jobs, progress)
        table = compare(runs)
        report = write_comparison_report(runs, table, out / "report")
    except KeyboardInterrupt:
        print(f"\nsim.compare: interrupted; the finished runs are in {out}", file=sys.stderr)
        return 130
    except Exception as error:
        print(f"sim.compare: error: {error}", file=sys.stderr)
        if not by_game and out.exists() and not any(out.iterdir()):
            shutil.rmtree(out)
        return 1
    print(format_headline(table))
    print(f"report: {report / 'report.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
