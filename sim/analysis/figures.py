"""Figures of a run's analysis and of a comparison of runs.

Each function takes a table from :mod:`sim.analysis.stats` (or :func:`sim.analysis.compare.
compare`) and returns a :class:`Figure`: a matplotlib figure with a title, labelled axes
with units and a one-sentence caption, sized for a report (7 × 4 in at 110 dpi, fonts of
9 pt and more).  Figures are drawn off screen by matplotlib's Agg renderer through the
object-oriented API (no pyplot, so no global figure state and no display needed); in
Jupyter a :class:`Figure` shows itself as a PNG.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure as MplFigure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator, PercentFormatter

WIDTH, HEIGHT, DPI = 7.0, 4.0, 110
LABEL_SIZE = 9                      # cell annotations; matplotlib's defaults are 10-12 pt
COLOR, HIGHLIGHT, MUTED = "#2f6690", "#c0392b", "#7f8c8d"


@dataclass(frozen=True)
class Figure:
    """A finished figure: its file-name stem, title, one-sentence caption and the figure."""

    name: str
    title: str
    caption: str
    figure: MplFigure

    def png(self) -> bytes:
        """The figure as PNG bytes."""
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", dpi=DPI)
        return buffer.getvalue()

    def save(self, folder: Path) -> Path:
        """Write the figure to ``folder/<name>.png``; returns that path."""
        path = Path(folder) / f"{self.name}.png"
        path.write_bytes(self.png())
        return path

    def _repr_png_(self) -> bytes:
        """How Jupyter displays the figure."""
        return self.png()


def _canvas(height: float = HEIGHT, rows: int = 1,
            height_ratios: list[int] | None = None) -> tuple[MplFigure, list[Axes]]:
    """A blank report-sized figure with ``rows`` stacked axes (no top and right spines)."""
    figure = MplFigure(figsize=(WIDTH, height), dpi=DPI, layout="constrained")
    axes = list(np.atleast_1d(figure.subplots(rows, 1, height_ratios=height_ratios)))
    for ax in axes:
        ax.spines[["top", "right"]].set_visible(False)
    return figure, axes


def _finish(figure: MplFigure, ax: Axes, name: str, title: str, caption: str,
            xlabel: str, ylabel: str) -> Figure:
    """Title the figure, label its axes and wrap it with its caption."""
    figure.suptitle(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return Figure(name, title, caption, figure)


def win_share(table: pd.DataFrame, by: str, n_players: int) -> Figure:
    """Win share of each seat or agent (a ``win_share`` table grouped by ``by``) with its
    95% interval, against the fair share 1/K."""
    fair = 1 / n_players
    figure, (ax,) = _canvas()
    x = np.arange(len(table))
    share = table["share"].to_numpy()
    ax.errorbar(x, share, yerr=[share - table["low"], table["high"] - share], fmt="o",
                color=COLOR, capsize=5, markersize=7, label="win share, 95% interval")
    ax.axhline(fair, color=MUTED, linestyle="--", label=f"fair share 1/{n_players}")
    ax.set_xticks(x, table[by].astype(str))
    ax.set_xlim(-0.5, len(table) - 0.5)
    ax.yaxis.set_major_formatter(PercentFormatter(1, decimals=1))
    ax.legend(loc="best")
    return _finish(figure, ax, f"win_share_by_{by}", f"Win share by {by}",
                   f"Share of games won by each {by} (points) with 95% intervals (bars); "
                   f"the dashed line is the fair share of 1/{n_players} = {fair:.1%}.",
                   by, "win share (% of games played)")


def bet_accuracy(table: pd.DataFrame) -> Figure:
    """Heatmap of bet accuracy by bet value and betting position (a ``bet_accuracy`` table
    grouped by ``["bet", "bet_position"]``), each cell annotated with its accuracy."""
    grid = table.pivot(index="bet_position", columns="bet", values="accuracy").sort_index()
    figure, (ax,) = _canvas()
    image = ax.imshow(grid.to_numpy(), cmap="viridis", vmin=0, vmax=1, aspect="auto",
                      origin="lower")
    for (row, column), value in np.ndenumerate(grid.to_numpy()):
        if not np.isnan(value):
            ax.text(column, row, f"{value:.0%}", ha="center", va="center",
                    fontsize=LABEL_SIZE, color="white" if value < 0.55 else "black")
    ax.set_xticks(range(grid.shape[1]), grid.columns.astype(str))
    ax.set_yticks(range(grid.shape[0]), grid.index.astype(str))
    colorbar = figure.colorbar(image, ax=ax, format=PercentFormatter(1))
    colorbar.set_label("bet accuracy (% of bets correct)")
    return _finish(figure, ax, "bet_accuracy_by_value_position",
                   "Bet accuracy by bet value and betting position",
                   "Share of correct bets for each bet value and betting position "
                   "(0 = first to bet); darker cells are bets that are right less often.",
                   "bet value (players expected to win a points card)",
                   "betting position (0 = first)")


def k_distribution(table: pd.DataFrame) -> Figure:
    """Bars of the share of rounds with each k (a ``k_distribution`` table)."""
    figure, (ax,) = _canvas()
    ax.bar(table["k"], table["share"], color=COLOR, width=0.6)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(PercentFormatter(1))
    return _finish(figure, ax, "k_distribution", "Players winning a points card per round",
                   "Share of rounds in which k players won at least one points card; a bet "
                   "is correct when it equals k.",
                   "k (players who won a points card)", "rounds (% of all rounds)")


def game_length(histogram: pd.DataFrame) -> Figure:
    """Histogram of decisions per game (a ``histogram`` table ``[left, right, count]``)."""
    figure, (ax,) = _canvas()
    width = histogram["right"] - histogram["left"]
    ax.bar(histogram["left"], histogram["count"], width=width, align="edge", color=COLOR,
           edgecolor="white", linewidth=0.5)
    return _finish(figure, ax, "game_length", "Game length",
                   f"Number of games by the decisions taken in them (all seats together), "
                   f"over {int(histogram['count'].sum()):,} games.",
                   "decisions per game (all seats)", "games (count)")


def hand_size(table: pd.DataFrame) -> Figure:
    """Mean hand size at the start and at the end of each round (a ``hand_size_by_round``
    table)."""
    figure, (ax,) = _canvas()
    ax.plot(table["round"], table["hand_start"], marker="o", color=COLOR,
            label="at the start (after the deal and hand change)")
    ax.plot(table["round"], table["hand_end"], marker="s", color=HIGHLIGHT,
            label="at the end (before the discard)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(bottom=0)
    ax.legend(loc="best")
    return _finish(figure, ax, "hand_size_by_round", "Hand size across rounds",
                   "Mean number of cards in a player's hand at the start and at the end of "
                   "each round.", "round (number)", "mean hand size (cards)")


def run_figures(analysis: Mapping[str, Any], n_players: int) -> list[Figure]:
    """Every figure that an ``analyze`` result supports, in report order.  Win share by
    agent is drawn only when the run has several agents (one agent's share is 1/K)."""
    figures = [win_share(analysis["win_share_by_seat"], "seat", n_players)]
    if len(analysis["win_share_by_agent"]) > 1:
        figures.append(win_share(analysis["win_share_by_agent"], "agent", n_players))
    builders = {"bet_accuracy_by_value_position": bet_accuracy,
                "k_distribution": k_distribution, "hand_size_by_round": hand_size,
                "decisions_histogram": game_length}
    figures += [build(analysis[key]) for key, build in builders.items() if key in analysis]
    return figures


# --------------------------------------------------------------------------------------
# Comparisons
# --------------------------------------------------------------------------------------
PANELS = {"proportion": ("Shares", 100.0, "difference from the baseline (percentage points)"),
          "mean": ("Means", None, "difference from the baseline (% of the baseline mean)")}


def _forest_panel(ax: Axes, rows: pd.DataFrame, scale: pd.Series, label: str,
                  xlabel: str) -> None:
    """Draw one kind of difference (one row each, top to bottom) with its interval."""
    y = np.arange(len(rows))[::-1]
    diff, low, high = ((rows[c] * scale).to_numpy() for c in ("diff", "low_adj", "high_adj"))
    significant = rows["significant"].to_numpy(bool)
    ax.errorbar(diff, y, xerr=[np.maximum(diff - low, 0), np.maximum(high - diff, 0)],
                fmt="none", ecolor=MUTED, capsize=3)
    ax.scatter(diff[significant], y[significant], color=HIGHLIGHT, zorder=3)
    ax.scatter(diff[~significant], y[~significant], facecolor="white", edgecolor=COLOR,
               zorder=3)
    ax.axvline(0, color="black", linewidth=0.8)
    names = rows["figure"].astype(str)
    if rows["variant"].nunique() > 1:
        names = names + " (" + rows["variant"].astype(str) + ")"
    ax.set_yticks(y, names)
    for tick, mark in zip(ax.get_yticklabels(), significant, strict=True):
        tick.set_fontweight("bold" if mark else "normal")
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_title(label, loc="left", fontsize="medium")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("measure")


def forest(table: pd.DataFrame) -> Figure:
    """Forest plot of a ``compare`` table: each measure's difference from the baseline with
    its interval, shares in percentage points and means in % of the baseline mean (so the
    measures share an axis), significant rows (Holm) filled and in bold."""
    kinds = [k for k in PANELS if (table["kind"] == k).any()]
    counts = [int((table["kind"] == k).sum()) for k in kinds]
    figure, axes = _canvas(height=max(3.0, 1.6 + 0.3 * sum(counts) + 0.7 * len(kinds)),
                           rows=len(kinds), height_ratios=counts)
    for ax, kind in zip(axes, kinds, strict=True):
        rows = table[table["kind"] == kind]
        label, factor, xlabel = PANELS[kind]
        scale = factor if factor is not None else 100 / rows["baseline_value"]
        _forest_panel(ax, rows, scale, label, xlabel)
    figure.legend(handles=[
        Line2D([], [], marker="o", linestyle="", color=HIGHLIGHT,
               label="significant (Holm-adjusted p < 0.05)"),
        Line2D([], [], marker="o", linestyle="", markerfacecolor="white", color=COLOR,
               label="not significant")], loc="outside lower center", ncols=2)
    title = "Differences from the baseline"
    figure.suptitle(title)
    return Figure("differences", title,
                  "Each measure's difference between a variant and the baseline with its "
                  "interval at the confidence level of its Holm adjustment (it leaves 0 out "
                  "exactly when the row is significant); filled points in bold rows are "
                  "significant after the Holm correction, and the vertical line marks no "
                  "difference.", figure)


# --------------------------------------------------------------------------------------
# Tournaments (tables from sim.analysis.ratings)
# --------------------------------------------------------------------------------------
def _interval_rows(ax: Axes, labels: pd.Series, value: np.ndarray, low: np.ndarray,
                   high: np.ndarray, highlight: np.ndarray) -> None:
    """One row per label, top to bottom: a point with its interval, highlighted ones filled."""
    y = np.arange(len(labels))[::-1]
    ax.errorbar(value, y, xerr=[np.maximum(value - low, 0), np.maximum(high - value, 0)],
                fmt="none", ecolor=MUTED, capsize=4)
    ax.scatter(value[highlight], y[highlight], color=HIGHLIGHT, zorder=3)
    ax.scatter(value[~highlight], y[~highlight], facecolor="white", edgecolor=COLOR,
               zorder=3)
    ax.set_yticks(y, labels.astype(str))
    ax.set_ylim(-0.7, len(labels) - 0.3)


def _rows_height(rows: int) -> float:
    return max(3.0, 1.5 + 0.38 * rows)


def ratings(table: pd.DataFrame, chain: list[str]) -> Figure:
    """Bradley–Terry ratings (Elo scale) with their bootstrap intervals, best on top; the
    skill chain's members filled."""
    figure, (ax,) = _canvas(height=_rows_height(len(table)))
    _interval_rows(ax, table["agent"], table["rating"].to_numpy(), table["low"].to_numpy(),
                   table["high"].to_numpy(), table["agent"].isin(chain).to_numpy())
    ax.axvline(0, color="black", linewidth=0.8)
    anchor = table.loc[table["rating"].abs().idxmin(), "agent"]
    return _finish(figure, ax, "ratings", "Bot ratings",
                   f"Bradley–Terry rating of each bot on the Elo scale ({anchor} = 0; +400 "
                   "means finishing ahead 10 times out of 11) with 95% bootstrap intervals; "
                   "filled points form the skill chain.", "rating (Elo points)", "bot")


def skill_depth(table: pd.DataFrame, n_players: int, chain: list[str]) -> Figure:
    """Win share of each bot seated with K-1 random bots (a table ``[agent, share, low,
    high]``), against the fair 1/K, with the skill chain in the caption."""
    fair = 1 / n_players
    table = table.sort_values("share", ascending=False, ignore_index=True)
    figure, (ax,) = _canvas(height=_rows_height(len(table)))
    _interval_rows(ax, table["agent"], table["share"].to_numpy(), table["low"].to_numpy(),
                   table["high"].to_numpy(), (table["low"] > fair).to_numpy())
    ax.axvline(fair, color=MUTED, linestyle="--")
    ax.xaxis.set_major_formatter(PercentFormatter(1))
    links = " < ".join(chain)
    return _finish(figure, ax, "skill_depth", "Skill depth: each bot against random bots",
                   f"Share of games each bot wins when seated with {n_players - 1} random "
                   f"bots, with 95% intervals (filled: significantly above the fair "
                   f"{fair:.0%}, dashed line); skill chain, each beating the previous one "
                   f"significantly: {links}.", "win share (% of games)", "bot")


def luck(table: pd.DataFrame) -> Figure:
    """How often the weaker bot of each pair finishes ahead (a ``luck`` table), pooled row
    last, against ½ (a coin toss)."""
    labels = np.where(table["stronger"] == "all", "all pairs",
                      table["weaker"] + " over " + table["stronger"])
    figure, (ax,) = _canvas(height=_rows_height(len(table)))
    _interval_rows(ax, pd.Series(labels), table["share"].to_numpy(), table["low"].to_numpy(),
                   table["high"].to_numpy(), (table["stronger"] == "all").to_numpy())
    ax.axvline(0.5, color=MUTED, linestyle="--")
    ax.set_xlim(0, max(0.55, float(table["high"].max()) + 0.05))
    ax.xaxis.set_major_formatter(PercentFormatter(1))
    return _finish(figure, ax, "luck", "Luck: how often the weaker bot finishes ahead",
                   "Share of head-to-head comparisons (two seats in one game) that the "
                   "lower-rated bot wins, with 95% intervals; 50% (dashed) would be pure "
                   "chance, 0% pure skill.", "upsets (% of comparisons)", "pair of bots")


# --------------------------------------------------------------------------------------
# Experiments (rows of cells.csv or tournaments.csv)
# --------------------------------------------------------------------------------------
MARKERS = "osD^v<>p"


def grouped_intervals(table: pd.DataFrame, x: str, series: str, value: str, *, name: str,
                      title: str, caption: str, xlabel: str, ylabel: str,
                      reference: float | None = None, percent: bool = False) -> Figure:
    """Points with 95% intervals (columns ``value``, ``value_low``, ``value_high``) for each
    ``x`` category, one series of points per ``series`` value side by side; an optional
    dashed ``reference`` line (a fair share, no effect)."""
    figure, (ax,) = _canvas()
    xs = list(dict.fromkeys(table[x]))
    groups = list(dict.fromkeys(table[series]))
    width = 0.7 / max(1, len(groups))
    for i, group in enumerate(groups):
        rows = table[table[series] == group].set_index(x).reindex(xs)
        at = np.arange(len(xs)) + (i - (len(groups) - 1) / 2) * width
        mid, low, high = (rows[c].to_numpy(float) for c in
                          (value, f"{value}_low", f"{value}_high"))
        # bounds equal to the estimate (a share of 0 or 1) may differ from it by rounding
        yerr = [np.maximum(mid - low, 0), np.maximum(high - mid, 0)]
        ax.errorbar(at, mid, yerr=yerr, fmt=MARKERS[i % len(MARKERS)],
                    capsize=3, markersize=5, label=str(group))
    if reference is not None:
        ax.axhline(reference, color=MUTED, linestyle="--", linewidth=1)
    ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    if percent:
        ax.yaxis.set_major_formatter(PercentFormatter(1, decimals=1))
    if len(groups) > 1:         # beside the axes, where it cannot hide a point
        ax.legend(title=series, loc="center left", bbox_to_anchor=(1.0, 0.5),
                  fontsize=LABEL_SIZE, title_fontsize=LABEL_SIZE)
    return _finish(figure, ax, name, title, caption, xlabel, ylabel)


def design_front(table: pd.DataFrame, a: str, b: str) -> Figure:
    """The rule sets of a design search (column ``rule_set``; ``a`` and ``b`` two
    objectives with their ``_low`` and ``_high``) as points with 95% intervals on both
    axes, the first row (the defaults) highlighted."""
    figure, (ax,) = _canvas()
    for i, row in enumerate(table.itertuples(index=False)):
        values = row._asdict()
        x, y = values[a], values[b]
        ax.errorbar(x, y, xerr=[[max(x - values[f"{a}_low"], 0)],
                                [max(values[f"{a}_high"] - x, 0)]],
                    yerr=[[max(y - values[f"{b}_low"], 0)], [max(values[f"{b}_high"] - y, 0)]],
                    fmt="s" if i == 0 else "o", color=HIGHLIGHT if i == 0 else COLOR,
                    capsize=3, markersize=5)
        ax.annotate(values["rule_set"], (x, y), textcoords="offset points", xytext=(5, 4),
                    fontsize=LABEL_SIZE)
    return _finish(figure, ax, "design_front", f"Rule sets by {a} and {b}",
                   f"Each rule set of the front and the defaults (square) played again on "
                   f"fresh games: {a} and {b}, each the worst over the player counts, with "
                   f"95% bootstrap intervals.", a, b)
