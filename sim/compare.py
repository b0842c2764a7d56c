"""``python -m sim.compare``: rule variants side by side, with what moved and how surely.

    python -m sim.compare paris-damis --games 20000 --variant base: \\
        --variant wild-jokers:jokers=2,joker_rule=wild --variant no-discard:discard=none
    python -m sim.compare RUN_DIR RUN_DIR ...

The first form plays every named variant with the same seed, so game i of each variant starts
from the same stream and the comparison is paired (common random numbers); its runs go to
``OUT/<name>/``.  The second compares finished runs (paired when they share game, seed, player
count and games).  The first variant (or run) is the baseline.  Both write the comparison
report (``sim.report``) to ``OUT/report/`` and the whole table at full precision to
``OUT/comparison.csv``, and print its headline table (at most 100 columns): for each figure,
the values in percent or units, the difference from the baseline with its interval at the
level of the row's Holm adjustment, the Holm-corrected p-value, an effect size and a verdict
(significant, negligible or no).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

import engines
from sim.analysis import Run, compare, headline
from sim.analysis.compare import MIN_EFFECT
from sim.batch.cli import (
    DEFAULT_GAMES,
    JOBS_HELP,
    OWN_BOT,
    check_games_room,
    resolve_jobs,
    spec_from_args,
)
from sim.batch.run import new_run, play_run
from sim.batch.spec import RunSpec
from sim.cli import (
    Parser,
    UsageError,
    announce_compile,
    child,
    finite,
    new_out_dir,
    seed_arg,
    usage_error,
    wants_progress,
)
from sim.report import (
    diff_text,
    effect_text,
    intervals_note,
    p_value_text,
    value_text,
    verdict,
    write_comparison_report,
)

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
WIDTH = 100                     # the console table's width at most
COMPARISON_CSV = "comparison.csv"


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
                    "(report.md, report.html, figures) and the full table "
                    "(comparison.csv), and print its headline table.  The first variant or "
                    "run is the baseline; every figure's difference comes with a "
                    "Holm-corrected p-value, an interval at the matching confidence level, "
                    "an effect size and a verdict: significant, negligible (significant but "
                    "smaller than --min-effect) or no.",
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
                                    f"random); {OWN_BOT}")
    p.add_argument("--seating", choices=("rotate", "fixed", "random"),
                   help="seating rule, as in sim.batch (default rotate)")
    p.add_argument("--seed", type=seed_arg, help="seed shared by every variant (default 0)")
    p.add_argument("--jobs", type=int, help=JOBS_HELP)
    p.add_argument("--out", metavar="DIR",
                   help="output directory: the variants' runs in DIR/<name>/, the report in "
                        "DIR/report/ (default runs/compare-<game>-<UTC timestamp>)")
    p.add_argument("--min-effect", type=finite, default=MIN_EFFECT, metavar="SIZE",
                   help=f"a significant difference whose effect size (Cohen's h for shares, "
                        f"d for means) is below SIZE in absolute value is marked negligible "
                        f"(default {MIN_EFFECT:g}: about 2 to 2.5 percentage points for "
                        f"shares between 20%% and 50%%, a twentieth of the games' spread "
                        f"for means)")
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
        with new_run(spec, child(out, name, "--variant")) as (run_dir, owner):
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


def headline_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """One variant's rows of a comparison as the console's text columns."""
    return pd.DataFrame({
        "figure": rows["figure"].astype(str),
        "baseline": [value_text(v, k) for v, k in zip(rows["baseline_value"], rows["kind"],
                                                       strict=True)],
        "value": [value_text(v, k) for v, k in zip(rows["value"], rows["kind"], strict=True)],
        "difference [interval]": [diff_text(row) for _, row in rows.iterrows()],
        "p (Holm)": rows["p_holm"].map(p_value_text),
        "effect": [effect_text(row, short=True) for _, row in rows.iterrows()],
        "verdict": [verdict(row) for _, row in rows.iterrows()]})


def fixed_width(cells: pd.DataFrame, width: int = WIDTH) -> list[str]:
    """Text columns as lines of at most ``width`` characters: the first column left-aligned
    (cut with '…' when the line would be too long), the others right-aligned, two spaces
    apart."""
    others = [max(len(c), *(len(v) for v in cells[c])) for c in cells.columns[1:]]
    first = cells.columns[0]
    room = width - sum(others) - 2 * len(others)
    wide = max(len(first), *(len(v) for v in cells[first]))
    keep = min(wide, max(room, len(first)))

    def cut(text: str) -> str:
        return text if len(text) <= keep else text[:keep - 1] + "…"

    rows = [list(cells.columns), *cells.itertuples(index=False)]
    return ["  ".join([cut(str(row[0])).ljust(keep)]
                      + [str(v).rjust(w) for v, w in zip(row[1:], others, strict=True)])
            .rstrip() for row in rows]


def format_headline(table: pd.DataFrame, min_effect: float = MIN_EFFECT) -> str:
    """The headline table as text at most :data:`WIDTH` columns wide: per variant, its
    significant differences first, shares in percent, p-values rounded, then what the
    intervals and verdicts mean and which tests were used."""
    lines: list[str] = []
    for variant, rows in headline(table).groupby("variant", sort=False):
        if lines:
            lines.append("")
        lines.append(f"{variant} against {rows['baseline'].iloc[0]}:")
        lines += fixed_width(headline_rows(rows))
    methods = table["method"].value_counts()
    tests = ", ".join(f"{method} ({count} row{'s' if count > 1 else ''})"
                      for method, count in methods.items())
    note = f"{intervals_note(table, min_effect)} Tests: {tests}."
    lines += ["", *textwrap.wrap(note, WIDTH)]
    return "\n".join(lines)


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
        if not args.min_effect >= 0:
            raise UsageError(f"--min-effect must be a non-negative effect size, got "
                             f"{args.min_effect}")
        runs = None if by_game else open_runs(args.targets)
        out = new_out_dir(args.out, f"compare-{args.targets[0] if runs is None else runs[0].game}")
        if runs is None:
            check_games_room([(spec, spec.games) for _, spec in specs], out, jobs)
    except UsageError as error:
        return usage_error("sim.compare", error)
    progress = wants_progress(args)
    try:
        if runs is None:
            announce_compile(specs[0][1].game)
            runs = play_variants(specs, out, jobs, progress)
        table = compare(runs, min_effect=args.min_effect)
        report = write_comparison_report(runs, table, out / "report", args.min_effect)
        table.to_csv(out / COMPARISON_CSV, index=False)
    except KeyboardInterrupt:
        print(f"\nsim.compare: interrupted; the finished runs are in {out}", file=sys.stderr)
        return 130
    except Exception as error:
        print(f"sim.compare: error: {error}", file=sys.stderr)
        if not by_game and out.exists() and not any(out.iterdir()):
            shutil.rmtree(out)
        return 1
    print(format_headline(table, args.min_effect))
    print(f"report: {report / 'report.html'}")
    print(f"table: {out / COMPARISON_CSV}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
