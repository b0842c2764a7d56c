"""Writing a designer's report (``reports/<game>/README.md``) from experiment outputs.

A report is a list of sections, one per question; each reads an experiment's tables
(``cells.csv``, ``comparisons.csv``, ``tournaments.csv`` in ``runs/experiments/<stem>/``),
states the question from the experiment file, prints the command that reproduces it, and
shows an answer, a table and figures.  :class:`Book` holds where a report's experiment files
and figures live; the other helpers format estimates with their 95% intervals.  Nothing here
knows a game's rules: the numbers come from the tables.
"""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sim.analysis.figures import Figure
from sim.report import estimate, percent


class NotRun(Exception):
    """An experiment whose outputs are missing (its stem is the message).  Outputs of
    another command than ``sim.experiment`` say what the section is (``title``,
    ``question``) and what to run (``command``)."""

    def __init__(self, stem: str, title: str | None = None, question: str | None = None,
                 command: str | None = None) -> None:
        super().__init__(stem)
        self.title, self.question, self.command = title, question, command


def interval(row: pd.Series, name: str, scale: str = "percent") -> str:
    """``name`` of a row with its interval: a percentage, percentage points (``pp``) or a
    plain number (``plain``, two decimals)."""
    value, low, high = row[name], row[f"{name}_low"], row[f"{name}_high"]
    if pd.isna(value):
        return "-"
    if scale == "percent":
        return estimate(value, low, high)
    if scale == "pp":
        return f"{100 * value:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}]"
    return f"{value:.2f} [{low:.2f}, {high:.2f}]"


def intervals(frame: pd.DataFrame, name: str, scale: str = "percent") -> list[str]:
    """:func:`interval` of ``name`` in every row of ``frame``, in order: a table column."""
    return [interval(row, name, scale) for _, row in frame.iterrows()]


def share_range(values: pd.Series) -> str:
    """The smallest and largest of some shares, 'a to b' (one share when they are equal)."""
    low, high = percent(values.min()), percent(values.max())
    return low if low == high else f"{low} to {high}"


def stable_text(equilibrium: Mapping[str, float]) -> str:
    """A meta-game's stable mix as 'ismcts 81%, greedy@tuned 19%' (agents below 1% left
    out)."""
    return ", ".join(f"{a} {100 * w:.0f}%" for a, w in equilibrium.items() if w >= 0.01)


def verdict(row: pd.Series, name: str, reference: float = 0.0) -> str:
    """'above', 'below' or 'no different from' ``reference``, by the 95% interval."""
    if row[f"{name}_low"] > reference:
        return "above"
    if row[f"{name}_high"] < reference:
        return "below"
    return "no different from"


def markdown(frame: pd.DataFrame) -> str:
    """A DataFrame as a Markdown table (cells as text)."""
    rows = [list(frame.columns), ["---"] * frame.shape[1], *frame.astype(str).values.tolist()]
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def with_edge(cells: pd.DataFrame, name: str) -> pd.DataFrame:
    """``name`` minus the fair share 1/K, as ``<name>_edge`` with its bounds."""
    fair = 1 / cells["players"]
    return cells.assign(**{f"{name}_edge": cells[name] - fair,
                           f"{name}_edge_low": cells[f"{name}_low"] - fair,
                           f"{name}_edge_high": cells[f"{name}_high"] - fair})


def long_form(cells: pd.DataFrame, prefix: str, key: str, keep: list[str]) -> pd.DataFrame:
    """Columns ``<prefix>_<v>`` (with ``_low``/``_high``) of each cell as rows: ``[*keep,
    key, value, value_low, value_high]``, one per cell and v (v as a number when it is one).
    Breakdowns written flat by an analysis (``bet_accuracy_cards_5``...) read back by v."""
    start = f"{prefix}_"
    values = [c[len(start):] for c in cells.columns
              if c.startswith(start) and not c.endswith(("_low", "_high"))
              and "_" not in c[len(start):]]
    rows = []
    for _, cell in cells.iterrows():
        for v in values:
            name = f"{start}{v}"
            rows.append({**{k: cell[k] for k in keep},
                         key: int(v) if v.lstrip("-").isdigit() else v, "value": cell[name],
                         "value_low": cell[f"{name}_low"], "value_high": cell[f"{name}_high"]})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Book:
    """A report's folder (``here``: README.md and its figures) and where its experiment files
    are (``experiments``)."""

    here: Path
    experiments: Path

    def experiment(self, stem: str) -> dict:
        """The experiment file ``<stem>.toml``, parsed."""
        return tomllib.loads((self.experiments / f"{stem}.toml").read_text(encoding="utf-8"))

    def question(self, stem: str) -> str:
        return " ".join(self.experiment(stem)["question"].split())

    def title(self, stem: str) -> str:
        return self.experiment(stem)["title"]

    def load(self, runs: Path, stem: str) -> dict[str, pd.DataFrame]:
        """An experiment's tables by name (cells, comparisons, tournaments when present);
        raises NotRun when the experiment has not finished."""
        folder = runs / stem
        if not (folder / "cells.csv").is_file() or (
                "tournament" in self.experiment(stem)
                and not (folder / "tournaments.csv").is_file()):
            raise NotRun(stem)
        return {name: pd.read_csv(folder / f"{name}.csv").copy()
                for name in ("cells", "comparisons", "tournaments")
                if (folder / f"{name}.csv").is_file()}

    @staticmethod
    def command(stem: str) -> str:
        return f"`python -m sim.experiment experiments/{stem}.toml`"

    def figure(self, fig: Figure, stem: str) -> str:
        """Save a sim.analysis Figure beside the report; its Markdown, the caption ending with
        the command of the experiment ``stem`` that reproduces it."""
        fig.save(self.here)
        return f"![{fig.title}]({fig.name}.png)\n\n*{fig.caption}* ({self.command(stem)})"

    def section(self, number: int, title: str, stem: str, answer: str, table: pd.DataFrame,
                extra: str, question: str | None = None, reproduce: str | None = None) -> str:
        """A question's section: the question (default: the experiment's), how to reproduce
        it (default: the experiment's command), the answer, a table, then ``extra`` (more
        tables, figures)."""
        question = question or self.question(stem)
        reproduce = reproduce or (f"{self.command(stem)} (setup: [`experiments/{stem}.toml`]"
                                  f"(../../experiments/{stem}.toml)).")
        return (f"## {number}. {title}\n\n**Question.** {question}\n\n"
                f"**Reproduce:** {reproduce}\n\n**Answer.** {answer}\n\n"
                f"{markdown(table)}\n\n{extra}\n")

    def section_or_gap(self, section_of: Callable[[Path], str], number: int, runs: Path,
                       make_target: str) -> str:
        """A question's section, or, when its experiment has not been run, what to run."""
        try:
            return section_of(runs)
        except NotRun as missing:
            stem = str(missing)
            title = missing.title or self.title(stem)
            question = missing.question or self.question(stem)
            return (f"## {number}. {title}\n\n**Question.** {question}"
                    f"\n\n**Not answered yet:** this report was built before the experiment "
                    f"ran. Run {missing.command or self.command(stem)} (or "
                    f"`make {make_target}`), then rebuild.\n")

    def summary(self, runs: Path, points: Callable[[Path], list[str]], pending: str) -> str:
        """The report's summary: the answers ``points(runs)`` gives in a few plain sentences,
        one bullet each, or ``pending`` while an experiment they read has not run."""
        try:
            bullets = points(runs)
        except NotRun:
            return f"## Summary\n\n{pending}\n"
        return ("## Summary\n\nEvery figure here reappears below with its interval and the "
                "command that reproduces it.\n\n" + "\n".join(f"- {b}" for b in bullets) + "\n")

    def build(self, runs: Path, sections: Sequence[Callable[[Path], str]], make_target: str,
              head: str) -> Path:
        """Write README.md: ``head`` (title, summary), then every question's section or what
        to run for it; the figures are saved beside it.  Returns its path."""
        body = "\n".join(self.section_or_gap(section_of, number, runs, make_target)
                         for number, section_of in enumerate(sections, start=1))
        out = self.here / "README.md"
        out.write_text(head.rstrip() + "\n\n" + body, encoding="utf-8")
        return out

    def main(self, argv: Sequence[str] | None, description: str,
             build: Callable[[Path], Path]) -> int:
        """A build script's command line: ``--runs DIR`` (default runs/experiments beside the
        experiment files), then ``build(DIR)``; prints the README's path."""
        parser = argparse.ArgumentParser(description=description)
        parser.add_argument("--runs", type=Path,
                            default=self.experiments.parent / "runs" / "experiments",
                            help="where the experiments wrote their outputs (default "
                                 "runs/experiments)")
        args = parser.parse_args(argv)
        print(build(args.runs))
        return 0
