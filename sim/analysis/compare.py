"""Runs compared with a baseline, figure by figure: the difference, its interval, a test
and an effect size, with Holm's correction over the whole table.

Each figure is measured game by game.  Unpaired, proportions are compared with a two-proportion
z test and means with Welch's t test.  Runs that played the same games (same game, seed, player
count and game ids: common random numbers) may also be compared game by game with a paired t
test, which is used whenever its standard error is the smaller and every game weighs the same
in the figure (so that the mean of the per-game differences is the difference of the
figures).

Every row also has an interval at the confidence level its Holm adjustment implies
(``low_adj``, ``high_adj`` at ``confidence_adj``): it leaves 0 out exactly when the row is
significant, so an interval never contradicts its adjusted p-value.  A significant row whose
effect size is below ``min_effect`` is marked ``negligible``."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm, ttest_ind, ttest_rel
from statsmodels.stats.multitest import multipletests

from sim.analysis.run import Run
from sim.analysis.stats import margins, round_level

COLUMNS = ["figure", "kind", "baseline", "variant", "baseline_value", "value", "diff", "low",
           "high", "p_value", "p_holm", "significant", "low_adj", "high_adj", "confidence_adj",
           "effect_size", "effect", "negligible", "paired", "method"]

# Below this absolute Cohen's h (proportions) or d (means) a difference is negligible, even
# when significant: h = 0.05 is about 2 to 2.5 percentage points for shares between 20% and
# 50% (one game in 40 to 50 changing hands), d = 0.05 a twentieth of the game-to-game spread.
# Cohen's own "small" (0.2) would call a 9-point seat edge at 4 players negligible.
MIN_EFFECT = 0.05


@dataclass(frozen=True, eq=False)
class _Sample:
    """One figure of one run: per game (index game_id) the ``total`` of the measure over its
    ``count`` units; the figure is their overall ratio minus ``offset``."""

    kind: str                     # "proportion" or "mean"
    per_game: pd.DataFrame
    offset: float = 0.0

    @property
    def n(self) -> int:
        """Units measured (trials of a proportion)."""
        return int(self.per_game["count"].sum())

    @property
    def mean(self) -> float:
        """The measure over every unit."""
        return float(self.per_game["total"].sum()) / self.n

    @property
    def value(self) -> float:
        """The figure."""
        return self.mean - self.offset

    def even(self) -> bool:
        """Whether every game counts the same number of units."""
        return self.per_game["count"].nunique() <= 1

    def by_game(self) -> pd.Series:
        """The figure of each game."""
        return self.per_game["total"] / self.per_game["count"] - self.offset


@dataclass(frozen=True)
class _Test:
    """A test of the difference variant - baseline: interval, p-value, standard error."""

    low: float
    high: float
    p_value: float
    se: float
    method: str


def paired(a: Run, b: Run) -> bool:
    """Whether two runs played the same games: same game, seed, player count and game ids."""
    return (a.game == b.game and a.seed == b.seed and a.n_players == b.n_players
            and np.array_equal(np.sort(a.games["game_id"].to_numpy()),
                               np.sort(b.games["game_id"].to_numpy())))


def _per_game(table: pd.DataFrame, column: str) -> pd.DataFrame:
    """Per game: the ``total`` of a column and the ``count`` of its rows."""
    return table[column].astype(np.float64).groupby(table["game_id"]).agg(
        total="sum", count="size")


def _samples(run: Run) -> dict[str, _Sample]:
    """Every figure of a run that :func:`compare` measures, by name."""
    players, games = run.players, run.games
    out = {f"win share seat {seat}": _Sample("proportion", _per_game(rows, "win_share"))
           for seat, rows in players.groupby("seat")}
    out |= {f"win share agent {agent}": _Sample("proportion", _per_game(rows, "win_share"))
            for agent, rows in players.groupby("agent", observed=True)}
    first = players[players["seat"] == run.first_seat]
    out["first-player edge"] = _Sample("proportion", _per_game(first, "win_share"),
                                       offset=1 / run.n_players)
    if run.has("games", "shared_win"):
        out["shared-win rate"] = _Sample("proportion", _per_game(games, "shared_win"))
    for column in ("decisions", "rounds"):
        if run.has("games", column):
            out[f"mean {column}"] = _Sample("mean", _per_game(games, column))
    if run.has("players", "score"):
        out["mean margin"] = _Sample("mean", _per_game(margins(players).reset_index(),
                                                       "margin"))
    if run.has("rounds", "bet", "bet_correct"):
        rounds = run.rounds_table()
        out["bet accuracy"] = _Sample("proportion", _per_game(rounds, "bet_correct"))
        out |= {f"bet accuracy bet {bet}": _Sample("proportion",
                                                   _per_game(rows, "bet_correct"))
                for bet, rows in rounds.groupby("bet")}
    if run.has("rounds", "round", "k"):
        rounds = run.rounds_table()
        out["mean k"] = _Sample("mean", _per_game(round_level(rounds), "k"))
    if run.has("rounds", "hand_end"):
        rounds = run.rounds_table()
        out["mean hand_end"] = _Sample("mean", _per_game(rounds, "hand_end"))
    return out


def _no_variance(diff: float, method: str) -> _Test:
    """The test of a difference measured without error (every value equal)."""
    return _Test(diff, diff, 1.0 if diff == 0 else 0.0, 0.0, f"{method} (no variance)")


def _z_test(base: _Sample, variant: _Sample, confidence: float) -> _Test:
    """Two-proportion z test, unpooled standard error."""
    diff = variant.value - base.value
    se = math.sqrt(sum(s.mean * (1 - s.mean) / s.n for s in (base, variant)))
    if se == 0:
        return _no_variance(diff, "two-proportion z")
    half = norm.ppf(0.5 + confidence / 2) * se
    return _Test(diff - half, diff + half, float(2 * norm.sf(abs(diff) / se)), se,
                 "two-proportion z")


def _t_test(result: Any, se: float, confidence: float, method: str) -> _Test:
    """A scipy t test's interval and p-value."""
    interval = result.confidence_interval(confidence)
    return _Test(float(interval.low), float(interval.high), float(result.pvalue), se, method)


def _welch(base: _Sample, variant: _Sample, confidence: float) -> _Test:
    """Welch's t test over the games of each run."""
    x, y = base.by_game(), variant.by_game()
    se = math.sqrt(x.var() / len(x) + y.var() / len(y))
    if se == 0:
        return _no_variance(variant.value - base.value, "Welch t")
    return _t_test(ttest_ind(y, x, equal_var=False), se, confidence, "Welch t")


def _paired_t(base: _Sample, variant: _Sample, confidence: float) -> _Test:
    """Paired t test over the games both runs measured."""
    x, y = base.by_game().align(variant.by_game(), join="inner")
    se = (y - x).std() / math.sqrt(len(x))
    if se == 0:
        return _no_variance(variant.value - base.value, "paired t")
    return _t_test(ttest_rel(y, x), se, confidence, "paired t")


def _effect(base: _Sample, variant: _Sample) -> tuple[float, str]:
    """Cohen's h of two proportions (the baseline's taken at the variant's offset), or
    Cohen's d of two means (per-game spread)."""
    if base.kind == "proportion":
        expected = float(np.clip(base.value + variant.offset, 0, 1))
        return (2 * math.asin(math.sqrt(variant.mean)) - 2 * math.asin(math.sqrt(expected)),
                "Cohen's h")
    spread = math.sqrt((base.by_game().var() + variant.by_game().var()) / 2)
    return ((variant.value - base.value) / spread if spread > 0 else math.nan), "Cohen's d"


_Tester = Callable[[float], _Test]


def _contrast(base: _Sample, variant: _Sample, same_games: bool, confidence: float
              ) -> tuple[dict[str, Any], _Tester]:
    """The comparison of one figure (values, difference, interval, test and effect size),
    and its test as a function of the confidence level."""
    unpaired = _z_test if base.kind == "proportion" else _welch
    testers: list[_Tester] = [partial(unpaired, base, variant)]
    # game by game only when every game weighs the same in both figures: then the mean of
    # the per-game differences is the difference of the figures (not so for, e.g., the
    # accuracy of bets of one value, whose count varies from game to game)
    if same_games and base.even() and variant.even():
        testers.append(partial(_paired_t, base, variant))
    test, tester = min(((t(confidence), t) for t in testers), key=lambda pair: pair[0].se)
    effect_size, effect = _effect(base, variant)
    return ({"kind": base.kind, "baseline_value": base.value, "value": variant.value,
             "diff": variant.value - base.value, "low": test.low, "high": test.high,
             "p_value": test.p_value, "effect_size": effect_size, "effect": effect,
             "paired": same_games, "method": test.method}, tester)


def adjusted_confidence(p_value: float, p_adjusted: float, rows: int, confidence: float
                        ) -> float:
    """The confidence level at which a row's interval leaves 0 out exactly when its adjusted
    p-value is below 1 - ``confidence``: 1 - alpha / c, with c = p_adjusted / p_value the
    row's adjustment factor (between 1 and the number of ``rows``; Bonferroni's ``rows`` when
    the p-value is 0)."""
    alpha = 1 - confidence
    factor = p_adjusted / p_value if p_value > 0 else rows
    return 1 - alpha / min(max(factor, 1.0), rows)


def compare(runs: Sequence[Run], baseline: int = 0, confidence: float = 0.95,
            min_effect: float = MIN_EFFECT) -> pd.DataFrame:
    """Every figure two runs share, for each run against ``runs[baseline]``: one row per
    (figure, variant) with the columns of :data:`COLUMNS`.

    ``low``, ``high``: the ``confidence`` interval of ``diff`` (variant - baseline), not
    adjusted; ``p_holm``: p-values adjusted by Holm over the whole table, ``significant`` when
    below 1 - ``confidence``; ``low_adj``, ``high_adj``: the interval at ``confidence_adj``,
    the level of the row's Holm adjustment (see :func:`adjusted_confidence`), which leaves 0
    out exactly when the row is significant; ``negligible``: ``|effect_size|`` below
    ``min_effect``; ``paired``: the runs played the same games (see :func:`paired`);
    ``method``: the test used."""
    labels = [run.label for run in runs]
    if len(runs) < 2 or len(set(labels)) < len(labels):
        raise ValueError(f"compare needs at least two runs with distinct labels, got "
                         f"{labels}")
    base = runs[baseline]
    base_samples = _samples(base)
    rows, testers = [], []
    for run in runs:
        if run is base:
            continue
        same_games = paired(base, run)
        samples = _samples(run)
        for name, sample in base_samples.items():
            if name in samples:
                row, tester = _contrast(sample, samples[name], same_games, confidence)
                rows.append({"figure": name, "baseline": base.label, "variant": run.label,
                             **row})
                testers.append(tester)
    table = pd.DataFrame(rows, columns=COLUMNS)
    table["p_holm"] = multipletests(table["p_value"], method="holm")[1]
    table["significant"] = table["p_holm"] < 1 - confidence
    table["confidence_adj"] = [adjusted_confidence(p, p_holm, len(table), confidence)
                               for p, p_holm in zip(table["p_value"], table["p_holm"],
                                                    strict=True)]
    adjusted = [tester(level) for tester, level in zip(testers, table["confidence_adj"],
                                                       strict=True)]
    table["low_adj"] = [t.low for t in adjusted]
    table["high_adj"] = [t.high for t in adjusted]
    table["negligible"] = table["effect_size"].abs() < min_effect
    return table


def headline(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of a :func:`compare` table a designer reads first: significant differences
    by increasing adjusted p-value, then the others likewise."""
    return table.sort_values(["significant", "p_holm"], ascending=[False, True],
                             kind="stable").reset_index(drop=True)
