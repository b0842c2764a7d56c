"""Balance figures that do not saturate: how much of a result is skill and how much luck among
the players actually seated, whether winning a round helps win the next, how often a lead
holds, and which decisions matter.  Pure functions of a run's tables (docs/results.md),
defined in docs/analysis.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.questions import clustered_mean, clustered_slope, indicators, normal_bounds
from sim.stats import proportion


def group_moments(players: pd.DataFrame, by: str = "agent") -> tuple[np.ndarray, ...]:
    """Per game (rows, in ``game_id`` order) and per player (columns, the values of ``by``):
    how many seats, the sum of their win shares and the sum of their squares."""
    keys = [players["game_id"], players[by].astype(str)]
    shares = players["win_share"].astype(np.float64)
    grouped = pd.DataFrame({"n": 1.0, "s1": shares, "s2": shares ** 2}).groupby(keys)
    table = grouped.sum().unstack(fill_value=0.0)
    return table["n"].to_numpy(), table["s1"].to_numpy(), table["s2"].to_numpy()


def skill_share_of(counts: np.ndarray, sums: np.ndarray, squares: np.ndarray) -> float:
    """:func:`skill_share` from each player's seat count, win-share sum and sum of squares."""
    k, total = len(counts), counts.sum()
    if k < 2 or total <= k or (counts < 2).any():
        return float("nan")
    means = sums / counts
    grand = sums.sum() / total
    between = (counts * (means - grand) ** 2).sum() / (k - 1)
    within = (squares - counts * means ** 2).sum() / (total - k)
    n0 = (total - (counts ** 2).sum() / total) / (k - 1)
    sigma_b = max(0.0, (between - within) / n0)
    if sigma_b + within <= 0:
        return float("nan")
    return float(sigma_b / (sigma_b + within))


def skill_share(players: pd.DataFrame, by: str = "agent") -> float:
    """The share of the variance of a seat's win share that the player's identity (column
    ``by``) explains beyond chance: the one-way random-effects estimate (the intraclass
    correlation ICC(1)), sigma_b^2 / (sigma_b^2 + sigma_w^2) with sigma_b^2 = (MSB - MSW) /
    n0, clipped at 0.  1 - skill share is the share of luck.  players: game_id, win_share,
    ``by``."""
    n, s1, s2 = group_moments(players, by)
    return skill_share_of(n.sum(axis=0), s1.sum(axis=0), s2.sum(axis=0))


def luck_share(players: pd.DataFrame, by: str = "agent", resamples: int = 200,
               seed: int = 0, confidence: float = 0.95) -> dict[str, float]:
    """``luck`` = 1 - :func:`skill_share`, with a bootstrap percentile interval over whole
    games (``luck_low``, ``luck_high``); empty when fewer than two players are compared."""
    n, s1, s2 = group_moments(players, by)
    if n.shape[1] < 2:
        return {}
    value = 1.0 - skill_share_of(n.sum(axis=0), s1.sum(axis=0), s2.sum(axis=0))
    rng = np.random.default_rng(seed)
    games = len(n)
    samples = []
    for _ in range(resamples):
        weights = rng.multinomial(games, np.full(games, 1.0 / games)).astype(np.float64)
        samples.append(1.0 - skill_share_of(weights @ n, weights @ s1, weights @ s2))
    tail = 50 * (1 - confidence)
    low, high = (np.nanpercentile(samples, [tail, 100 - tail]) if resamples
                 else (float("nan"), float("nan")))
    return {"luck": value, "luck_low": float(low), "luck_high": float(high)}


def snowball(rounds: pd.DataFrame, won: str = "bet_correct", outcome: str | None = None,
             players: pd.DataFrame | None = None, confidence: float = 0.95
             ) -> dict[str, float]:
    """Whether winning a round (the boolean column ``won``) helps in the next, for the same
    seat: ``snowball``, the difference in ``outcome`` (default: ``won`` again) in round r+1
    between seats that won round r and seats that did not (a least-squares slope, its
    interval robust to the correlation of one game's rows); with ``players`` (game_id, seat,
    agent), the difference for the same agent (its identity a control, so that a good
    player winning both rounds is not read as a snowball); ``after_win`` and
    ``after_loss``, the two plain means.  rounds: game_id, round, seat, ``won``,
    ``outcome``."""
    outcome = outcome or won
    now = rounds[["game_id", "round", "seat", won]]
    later = rounds[["game_id", "round", "seat", outcome]].assign(round=rounds["round"] - 1)
    pairs = now.merge(later, on=["game_id", "round", "seat"], suffixes=("", "_next"))
    nxt = f"{outcome}_next" if outcome == won else outcome
    if players is not None:
        pairs = pairs.merge(players[["game_id", "seat", "agent"]], on=["game_id", "seat"])
    if pairs.empty or pairs[won].nunique() < 2:
        return {}
    x = pairs[won].to_numpy(dtype=np.float64)
    y = pairs[nxt].to_numpy(dtype=np.float64)
    controls = indicators(pairs["agent"].astype(str)) if players is not None else []
    slope, se = clustered_slope(y, [*controls, x], pairs["game_id"].to_numpy())
    return normal_bounds("snowball", slope, se, confidence) | {"after_win": float(y[x == 1].mean()),
                                                   "after_loss": float(y[x == 0].mean()),
                                                   "pairs": float(len(pairs))}


def leader_wins(rounds: pd.DataFrame, players: pd.DataFrame, confidence: float = 0.95
                ) -> pd.DataFrame:
    """How often the leader after each round goes on to win: ``[round, n, wins, holds, low,
    high]``, over the games with a single leader after that round (the one highest
    ``score``), ``wins`` the leaders' win shares summed, ``holds`` their mean with its
    Wilson interval (1 - holds: comebacks).  rounds: game_id, round, seat, score; players:
    game_id, seat, win_share."""
    standing = rounds[["game_id", "round", "seat", "score"]]
    top = standing.groupby(["game_id", "round"])["score"].transform("max")
    leaders = standing[standing["score"] == top]
    alone = leaders.groupby(["game_id", "round"])["seat"].transform("size") == 1
    won = leaders[alone].merge(players[["game_id", "seat", "win_share"]],
                               on=["game_id", "seat"])
    table = won.groupby("round")["win_share"].agg(n="size", wins="sum").reset_index()
    if table.empty:         # never a single leader (a mirror table that always ties)
        return table.assign(holds=np.nan, low=np.nan, high=np.nan)
    intervals = pd.DataFrame([proportion(w, n, confidence)
                              for w, n in zip(table["wins"], table["n"], strict=True)])
    return table.assign(holds=intervals["p"], low=intervals["low"], high=intervals["high"])


def lead_changes(rounds: pd.DataFrame, confidence: float = 0.95) -> dict[str, float]:
    """How often the lead changes hands (drama): per game, the number of rounds after
    which the sole leader (the one highest ``score``) is another seat than the last sole
    leader, averaged over the games (``lead_changes`` with its normal interval), and the
    share of games where it changes at least once after the first round
    (``games_with_change``).  rounds: game_id, round, seat, score."""
    standing = rounds[["game_id", "round", "seat", "score"]]
    top = standing.groupby(["game_id", "round"])["score"].transform("max")
    leaders = standing[standing["score"] == top]
    sole = leaders[leaders.groupby(["game_id", "round"])["seat"].transform("size") == 1]
    sole = sole.sort_values(["game_id", "round"])
    before = sole.groupby("game_id")["seat"].shift()
    changes = (before.notna() & (before != sole["seat"])).groupby(sole["game_id"]).sum()
    changes = changes.reindex(standing["game_id"].unique(), fill_value=0).astype(np.float64)
    if len(changes) < 2:
        return {}
    return normal_bounds("lead_changes", float(changes.mean()),
                         float(changes.std(ddof=1) / np.sqrt(len(changes))), confidence) | {
        "games_with_change": float((changes > 0).mean()), "games": float(len(changes))}


def pooled(estimates: Sequence[Mapping[str, float]], name: str, weights: Sequence[float],
           confidence: float = 0.95) -> dict[str, float]:
    """The weighted mean of independent estimates of ``name`` (each with its interval,
    ``name_low`` and ``name_high``, read as normal), with its interval: weights normalised,
    standard error sqrt(sum w^2 se^2)."""
    w = np.asarray(weights, dtype=np.float64)
    w = w / w.sum()
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    values = np.array([e[name] for e in estimates])
    errors = np.array([(e[f"{name}_high"] - e[f"{name}_low"]) / (2 * z) for e in estimates])
    return normal_bounds(name, float(w @ values), float(np.sqrt(w ** 2 @ errors ** 2)),
                         confidence)


# A decision matters when the judge's best action leads the next by at least this much win
# share (and beyond the noise of its estimates).
DEFAULT_MARGIN = 0.05


def matters(decisions: pd.DataFrame, margin: float = DEFAULT_MARGIN,
            confidence: float = 0.95) -> pd.Series:
    """Whether each judged decision matters: the judge's best action leads the next best by
    at least ``margin`` and by more than its noise, ``margin - z * margin_se > 0`` (z the
    one-sided normal quantile at ``confidence``).  decisions: margin, margin_se."""
    z = NormalDist().inv_cdf(confidence)
    return (decisions["margin"] >= margin) & (decisions["margin"] - z * decisions["margin_se"]
                                              > 0)


def share_of(name: str, values: pd.Series, games: pd.Series) -> dict[str, float]:
    """The share of true ``values`` with its game-clustered normal interval, clipped to
    [0, 1]."""
    share = clustered_mean(name, values, games)
    return share | {key: float(np.clip(share[key], 0.0, 1.0))
                    for key in (f"{name}_low", f"{name}_high")}


GROUP_COLUMNS = ["decisions", "matters", "low", "high", "margin"]
AGENT_COLUMNS = ["agent", "decisions", "matters", "best_chosen", "low", "high", "regret"]


def decisions_that_matter(decisions: pd.DataFrame, margin: float = DEFAULT_MARGIN,
                          confidence: float = 0.95) -> dict[str, Any]:
    """The share of judged decisions that :func:`matters`, over all (``matters`` with its
    game-clustered interval, ``decisions``, ``games``) and by phase (``by_phase``: phase,
    decisions, matters, low, high, mean margin); by agent (``by_agent``: agent, decisions,
    matters, then over its decisions that matter: ``best_chosen``, the share where it took
    the judge's best action, with its interval, and its mean ``regret``, the win share the
    judge says its choice gave up).  decisions: the table of ``sim.decisions``."""
    frame = decisions.assign(matters=matters(decisions, margin, confidence))
    overall = share_of("matters", frame["matters"], frame["game_id"])
    agents = []
    for agent, rows in frame.groupby("agent", observed=True):
        key = rows[rows["matters"]]
        best = share_of("b", key["agrees"], key["game_id"])
        agents.append({"agent": str(agent), "decisions": len(rows),
                       "matters": float(rows["matters"].mean()),
                       "best_chosen": best["b"], "low": best["b_low"], "high": best["b_high"],
                       "regret": float(key["regret"].mean()) if len(key) else float("nan")})
    return overall | {"decisions": len(frame), "games": int(frame["game_id"].nunique()),
                      "margin": margin,
                      "by_phase": matter_by(decisions, "phase", margin, confidence),
                      "by_agent": pd.DataFrame(agents, columns=AGENT_COLUMNS)}


def matter_by(decisions: pd.DataFrame, column: str, margin: float = DEFAULT_MARGIN,
              confidence: float = 0.95) -> pd.DataFrame:
    """The share of judged decisions that :func:`matters` for each value of ``column``
    (the decision's phase, the round's trump...): ``[column, decisions, matters, low,
    high, margin]``, the interval clustered by game, ``margin`` the mean lead."""
    frame = decisions.assign(matters=matters(decisions, margin, confidence))
    rows = []
    for value, group in frame.groupby(column, observed=True, sort=False):
        share = share_of("m", group["matters"], group["game_id"])
        rows.append({column: str(value), "decisions": len(group), "matters": share["m"],
                     "low": share["m_low"], "high": share["m_high"],
                     "margin": float(group["margin"].mean())})
    return pd.DataFrame(rows, columns=[column, *GROUP_COLUMNS])
