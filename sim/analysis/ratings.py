"""Skill from games between bots: pairwise outcomes, Bradley–Terry ratings, head-to-head
records, the skill chain and luck.

Every multi-player game is read as pairwise comparisons: for each two seats held by different
agents, the better-ranked one scores 1, the other 0, a tie ½ each.  Comparisons from one game
are not independent, so rating intervals come from a bootstrap over whole games.

Definitions (docs/tournaments.md):

* **Rating**: the Bradley–Terry strength θ, P(a ahead of b) = 1 / (1 + e^-(θa − θb)), fitted
  by maximum likelihood (ties as half a win each way), anchored at 0 for one agent and shown
  on the Elo scale (400 / ln 10 · θ: +400 means ahead 10 times out of 11).
* **Head to head**: the share of comparisons an agent wins against another, with a Wilson
  interval.
* **Skill chain**: bots in increasing rating, starting from the weakest, each kept when it
  beats the last one kept significantly (its head-to-head interval lies above ½).  Its length
  is the game's skill depth as these bots measure it: more links, more room for skill.
* **Luck**: how often the weaker of two bots (by rating) finishes ahead of the stronger, over
  every comparison of two different bots; 0.5 would be a game of pure chance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations_with_replacement

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from sim.stats import proportion, seat_comparisons

ELO = 400 / math.log(10)
BOOTSTRAP = 200


def pairwise(players: pd.DataFrame) -> pd.DataFrame:
    """Every comparison of two seats held by different agents, one row each: ``game`` (a game
    number unique across matches), ``agent``, ``opponent`` and ``score`` (1 if ``agent``
    ranked better, ½ for a tie, 0 if worse).  ``players`` needs ``match`` (which run),
    ``game_id``, ``seat``, ``agent`` and ``rank``; every game of a match has the same seats."""
    ordered = players.sort_values(["match", "game_id", "seat"], kind="stable")
    seats = int(ordered.groupby(["match", "game_id"]).size().max())
    if len(ordered) % seats:
        raise ValueError("every game of a tournament must have the same number of seats")
    agents = ordered["agent"].astype(str).to_numpy().reshape(-1, seats)
    ranks = ordered["rank"].to_numpy().reshape(-1, seats)
    game, agent, opponent, score = seat_comparisons(agents, ranks)
    return pd.DataFrame({"game": game, "agent": agent, "opponent": opponent,
                         "score": score}).sort_values("game", kind="stable", ignore_index=True)


def _fit(wins: np.ndarray, counts: np.ndarray, anchor: int) -> np.ndarray:
    """Bradley–Terry strengths from ``wins[a, b]`` (a's score against b) and ``counts[a,
    b]`` (comparisons of a with b), with ``θ[anchor] = 0``.  One virtual drawn comparison
    between every two agents keeps the strengths finite when one agent always wins
    (negligible beside thousands of real comparisons)."""
    k = len(wins)
    prior = 1.0 - np.eye(k)
    wins, counts = wins + prior / 2, counts + prior
    free = np.array([i for i in range(k) if i != anchor])

    def full(x: np.ndarray) -> np.ndarray:
        theta = np.zeros(k)
        theta[free] = x
        return theta

    def loss(x: np.ndarray) -> tuple[float, np.ndarray]:
        theta = full(x)
        diff = theta[:, None] - theta[None, :]
        value = -(wins * log_expit(diff)).sum()
        # d/dθa of -Σ w_ab log σ(θa − θb) over both orientations
        residual = wins - counts * expit(diff)
        grad = -(residual.sum(axis=1))
        return value, grad[free]

    result = minimize(loss, np.zeros(k - 1), jac=True, method="BFGS")
    return full(result.x)


Encoded = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _encode(pairs: pd.DataFrame, names: list[str]) -> Encoded:
    """Each comparison as flat cell indices of ``(agent, opponent)`` and ``(opponent,
    agent)`` in a k×k table, its score and its game."""
    index = {name: i for i, name in enumerate(names)}
    a = pairs["agent"].map(index).to_numpy()
    b = pairs["opponent"].map(index).to_numpy()
    k = len(names)
    return (a * k + b, b * k + a, pairs["score"].to_numpy(dtype=np.float64),
            pairs["game"].to_numpy())


def _tallies(encoded: Encoded, k: int, weights: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """``wins[a, b]`` and ``counts[a, b]`` over both orientations of every comparison,
    each game weighted by ``weights[game]`` (default 1)."""
    ab, ba, score, game = encoded
    w = np.ones(len(score)) if weights is None else weights[game]
    wins = (np.bincount(ab, weights=w * score, minlength=k * k)
            + np.bincount(ba, weights=w * (1 - score), minlength=k * k))
    counts = (np.bincount(ab, weights=w, minlength=k * k)
              + np.bincount(ba, weights=w, minlength=k * k))
    return wins.reshape(k, k), counts.reshape(k, k)


def ratings(pairs: pd.DataFrame, anchor: str | None = None, confidence: float = 0.95,
            resamples: int = BOOTSTRAP, seed: int = 0) -> pd.DataFrame:
    """Bradley–Terry ratings on the Elo scale, best first: ``[agent, rating, low, high,
    comparisons]``; ``anchor`` (default: the first agent by name, or ``random`` when
    present) is rated 0.  The interval is the percentile interval of ``resamples`` bootstrap
    fits over whole games (seeded by ``seed``), widened if need be to hold the fit."""
    names = sorted(set(pairs["agent"]) | set(pairs["opponent"]))
    if len(names) < 2:
        raise ValueError("ratings need games between at least two different agents")
    if anchor is None:
        anchor = "random" if "random" in names else names[0]
    base = names.index(anchor)
    encoded = _encode(pairs, names)
    wins, counts = _tallies(encoded, len(names))
    point = _fit(wins, counts, base)
    rng = np.random.default_rng(seed)
    games = int(pairs["game"].max()) + 1
    draws = np.empty((resamples, len(names)))
    for r in range(resamples):
        weights = rng.multinomial(games, np.full(games, 1 / games)).astype(np.float64)
        draws[r] = _fit(*_tallies(encoded, len(names), weights), base)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail], axis=0)
    # a lopsided record can leave the fit just outside its resamples' interval: widen to it
    low, high = np.minimum(low, point), np.maximum(high, point)
    table = pd.DataFrame({"agent": names, "rating": ELO * point, "low": ELO * low,
                          "high": ELO * high, "comparisons": counts.sum(axis=1)})
    return table.sort_values("rating", ascending=False, ignore_index=True)


def head_to_head(pairs: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Each agent's record against each other agent: ``[agent, opponent, n, score, share,
    low, high]`` (share of comparisons won, ties counting ½, with its Wilson interval)."""
    both = pd.concat([pairs[["agent", "opponent", "score"]],
                      pairs.rename(columns={"agent": "opponent", "opponent": "agent"})
                      .assign(score=1 - pairs["score"])[["agent", "opponent", "score"]]])
    table = both.groupby(["agent", "opponent"])["score"].agg(n="size", score="sum")
    table = table.reset_index()
    rates = pd.DataFrame([proportion(s, n, confidence)
                          for s, n in zip(table["score"], table["n"], strict=True)])
    return table.assign(share=rates["p"], low=rates["low"], high=rates["high"])


def skill_chain(rated: pd.DataFrame, record: pd.DataFrame) -> list[str]:
    """The skill chain: agents by increasing rating from the weakest, each kept when it beats
    the last kept one significantly (head-to-head interval above ½)."""
    order = list(rated.sort_values("rating")["agent"])
    record = record.set_index(["agent", "opponent"])
    chain = [order[0]]
    for agent in order[1:]:
        key = (agent, chain[-1])
        if key in record.index and record.loc[key, "low"] > 0.5:
            chain.append(agent)
    return chain


def luck(rated: pd.DataFrame, record: pd.DataFrame, confidence: float = 0.95
         ) -> pd.DataFrame:
    """How often the weaker agent (by rating) finishes ahead, for each pair of agents and
    over all pairs (``stronger`` = "all"): ``[stronger, weaker, n, upsets, share, low,
    high]``."""
    rating = dict(zip(rated["agent"], rated["rating"], strict=True))
    rows = []
    for (agent, opponent), row in record.set_index(["agent", "opponent"]).iterrows():
        if rating[agent] < rating[opponent]:            # agent is the weaker one
            rows.append({"stronger": opponent, "weaker": agent, "n": int(row["n"]),
                         "upsets": float(row["score"])})
    table = pd.DataFrame(rows, columns=["stronger", "weaker", "n", "upsets"])
    total = pd.DataFrame([{"stronger": "all", "weaker": "all", "n": int(table["n"].sum()),
                           "upsets": float(table["upsets"].sum())}])
    table = pd.concat([table, total], ignore_index=True)
    rates = pd.DataFrame([proportion(u, n, confidence)
                          for u, n in zip(table["upsets"], table["n"], strict=True)])
    return table.assign(share=rates["p"], low=rates["low"], high=rates["high"])


def lineups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every table of ``players`` seats drawn from ``agents`` (repeats allowed) with at least
    two different agents, in a fixed order: the matches of a tournament."""
    return [lineup for lineup in combinations_with_replacement(agents, players)
            if len(set(lineup)) > 1]
