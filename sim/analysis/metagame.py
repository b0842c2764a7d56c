"""The meta-game of a pool of bots: which mix of them is stable, and how the seats fare in it.

A *lineup* is a table of K seats filled from n agents, repeats allowed (mirror tables of one
agent included), played with seats rotating; its agents' win shares are the meta-game's
payoffs.  Definitions (docs/metagame.md):

* **payoff** u(a | M): the mean win share per seat of agent a at the table {a} + M, where M is
  a multiset of K-1 agents.  Win shares sum to 1 in every game, so the meta-game is
  constant-sum, and in a mirror table u = 1/K exactly.
* **population** x (a mix of the agents): every seat of a table is filled independently from
  x.  Against it agent a earns u_a(x) = sum over M of P(M | x) u(a | M), P multinomial.
* **equilibrium**: a mix x that no agent can improve on alone: the *gain* of the best pure
  response, max_a u_a(x) - sum_a x_a u_a(x), is 0 (symmetric Nash equilibrium).  Found by
  minimising the gain (scipy's SLSQP) from several starts; the gain left is reported.
* **alpha-Rank** (Omidshafiei et al., Scientific Reports 9, 2019): the stationary distribution
  of a Markov chain over the agents, in which a mutant r invades a population of m agents
  playing s with the Fermi fixation probability of their fitnesses (each individual's table
  drawn from the rest of the population); single-population model, as OpenSpiel's
  ``egt/alpharank.py`` computes it for two players.
* **seat effect** in population x: seat p's win share at a table drawn from x (seats
  rotating), minus 1/K.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

import numpy as np
import pandas as pd
import scipy.linalg as la
from scipy.optimize import minimize

from sim.analysis.balance import pooled

Lineup = tuple[int, ...]            # agent indices, sorted


def lineups(n: int, players: int) -> list[Lineup]:
    """Every table of ``players`` seats drawn from ``n`` agents, repeats allowed, sorted."""
    return list(combinations_with_replacement(range(n), players))


def multiset_probability(counts: np.ndarray, x: np.ndarray) -> float:
    """P(a table's seats hold ``counts[a]`` of each agent a | seats drawn from ``x``)."""
    total = int(counts.sum())
    coefficient = math.factorial(total)
    for c in counts:
        coefficient //= math.factorial(int(c))
    return float(coefficient * np.prod(x ** counts))


def counts_of(lineup: Sequence[int], n: int) -> np.ndarray:
    """How many seats of each of the ``n`` agents ``lineup`` holds."""
    return np.bincount(np.asarray(lineup, dtype=np.int64), minlength=n)


def column_means(values: np.ndarray) -> np.ndarray:
    """The mean of each column's numbers (NaN for a column without any)."""
    present = ~np.isnan(values)
    counts = present.sum(axis=0)
    totals = np.where(present, values, 0.0).sum(axis=0)
    return np.divide(totals, counts, out=np.full(values.shape[1], np.nan), where=counts > 0)


# --------------------------------------------------------------------------------------
# The observed games
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Games:
    """Every lineup's games: for lineup i, ``agent_shares[i]`` (games x n: each agent's mean
    win share over its seats in each game; NaN for an agent not at the table) and
    ``seat_shares[i]`` (games x K: each seat's win share)."""

    agents: tuple[str, ...]
    players: int
    lineups: tuple[Lineup, ...]
    agent_shares: tuple[np.ndarray, ...]
    seat_shares: tuple[np.ndarray, ...]

    @classmethod
    def from_players(cls, agents: Sequence[str], players: int,
                     tables: dict[Lineup, pd.DataFrame]) -> Games:
        """From each lineup's ``players`` table (``game_id``, ``seat``, ``agent``,
        ``win_share``, see docs/results.md)."""
        index = {name: i for i, name in enumerate(agents)}
        order = lineups(len(agents), players)
        missing = [t for t in order if t not in tables]
        if missing:
            raise ValueError(f"no games for the lineups {missing}")
        agent_shares, seat_shares = [], []
        for lineup in order:
            frame = tables[lineup]
            frame = frame.assign(agent_index=frame["agent"].astype(str).map(index))
            by_agent = frame.pivot_table(index="game_id", columns="agent_index",
                                         values="win_share", aggfunc="mean")
            by_agent = by_agent.reindex(columns=range(len(agents)))
            by_seat = frame.pivot_table(index="game_id", columns="seat", values="win_share",
                                        aggfunc="sum").reindex(columns=range(players))
            agent_shares.append(by_agent.to_numpy(dtype=np.float64))
            seat_shares.append(by_seat.to_numpy(dtype=np.float64))
        return cls(tuple(agents), players, tuple(order), tuple(agent_shares),
                   tuple(seat_shares))

    def resampled(self, rng: np.random.Generator) -> Games:
        """The same lineups with their games drawn again with replacement (a bootstrap
        resample; a lineup's seats stay together, since they share one game)."""
        agent_shares, seat_shares = [], []
        for by_agent, by_seat in zip(self.agent_shares, self.seat_shares, strict=True):
            pick = rng.integers(len(by_agent), size=len(by_agent))
            agent_shares.append(by_agent[pick])
            seat_shares.append(by_seat[pick])
        return Games(self.agents, self.players, self.lineups, tuple(agent_shares),
                     tuple(seat_shares))

    def payoffs(self) -> Payoffs:
        """The empirical payoff table."""
        return Payoffs(len(self.agents), self.players,
                       {lineup: column_means(by_agent)
                        for lineup, by_agent in zip(self.lineups, self.agent_shares, strict=True)})

    def seat_table(self) -> dict[Lineup, np.ndarray]:
        """Each lineup's mean win share by seat."""
        return {lineup: by_seat.mean(axis=0)
                for lineup, by_seat in zip(self.lineups, self.seat_shares, strict=True)}


# --------------------------------------------------------------------------------------
# The payoff table and what is solved from it
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Payoffs:
    """u(a | lineup): ``table[lineup][a]``, each agent's mean win share per seat at that
    table (NaN for an agent not at it)."""

    n: int
    players: int
    table: dict[Lineup, np.ndarray]

    def payoff(self, agent: int, others: Sequence[int]) -> float:
        """u(agent | others): its win share per seat at the table of ``agent`` and the
        ``others``."""
        return float(self.table[tuple(sorted((agent, *others)))][agent])

    def against(self, x: np.ndarray) -> np.ndarray:
        """u_a(x) for every agent a: its expected win share when the other seats are drawn
        from the population ``x``."""
        values = np.zeros(self.n)
        for others in combinations_with_replacement(range(self.n), self.players - 1):
            p = multiset_probability(counts_of(others, self.n), x)
            if p == 0.0:
                continue
            for a in range(self.n):
                values[a] += p * self.payoff(a, others)
        return values

    def gain(self, x: np.ndarray) -> float:
        """How much the best pure response to ``x`` earns above x itself (0 at an
        equilibrium)."""
        values = self.against(x)
        return float(values.max() - x @ values)

    def dominates(self, a: int, b: int) -> bool:
        """Whether ``a`` earns more than ``b`` against every table of others."""
        return all(self.payoff(a, others) > self.payoff(b, others)
                   for others in combinations_with_replacement(range(self.n),
                                                               self.players - 1))


def equilibrium(payoffs: Payoffs, starts: int = 8, seed: int = 0) -> np.ndarray:
    """A symmetric Nash equilibrium of the meta-game: the mix with the least gain (see
    :meth:`Payoffs.gain`) found by SLSQP from the uniform mix, each pure agent and
    ``starts`` random mixes (the first found on ties: the uniform start's)."""
    n = payoffs.n
    if n == 1:
        return np.ones(1)
    rng = np.random.default_rng(seed)
    candidates = [np.full(n, 1.0 / n)] + [np.eye(n)[a] * 0.9 + 0.1 / n for a in range(n)] \
        + [rng.dirichlet(np.ones(n)) for _ in range(starts)]
    best, best_gain = candidates[0], payoffs.gain(candidates[0])
    # variables (x, t): minimise t with u_a(x) - x.u(x) <= t for every a, x in the simplex
    constraints = [{"type": "eq", "fun": lambda v: v[:n].sum() - 1.0},
                   {"type": "ineq", "fun": lambda v: v[n] - (payoffs.against(v[:n])
                                                             - v[:n] @ payoffs.against(v[:n]))}]
    bounds = [(0.0, 1.0)] * n + [(None, None)]
    for start in candidates:
        result = minimize(lambda v: v[n], np.append(start, payoffs.gain(start)),
                          method="SLSQP", bounds=bounds, constraints=constraints,
                          options={"maxiter": 500, "ftol": 1e-12})
        x = np.clip(result.x[:n], 0.0, None)
        x = x / x.sum()
        gain = payoffs.gain(x)
        if gain < best_gain - 1e-12:
            best, best_gain = x, gain
    return best


def replicator_fitness(payoffs: Payoffs, r: int, s: int, mutants: int, size: int) -> float:
    """An r player's fitness in a population of ``size`` with ``mutants`` r players and the
    rest s: its expected payoff when its K-1 table mates are drawn without replacement from
    the other ``size - 1`` individuals."""
    others = payoffs.players - 1
    total = 0.0
    for j in range(others + 1):          # table mates playing r
        p = math.comb(mutants - 1, j) * math.comb(size - mutants, others - j) \
            / math.comb(size - 1, others)
        if p > 0.0:
            total += p * payoffs.payoff(r, (r,) * j + (s,) * (others - j))
    return total


def fixation(payoffs: Payoffs, r: int, s: int, alpha: float, size: int) -> float:
    """The probability that one r mutant takes over a population of ``size`` s players
    (Fermi selection of intensity ``alpha``)."""
    summed = 0.0
    product = 1.0
    for k in range(1, size):
        product *= math.exp(-alpha * (replicator_fitness(payoffs, r, s, k, size)
                                      - replicator_fitness(payoffs, s, r, size - k, size)))
        summed += product
    return 1.0 / (1.0 + summed)


def alpha_rank(payoffs: Payoffs, alpha: float = 100.0, size: int = 50) -> np.ndarray:
    """alpha-Rank's stationary distribution over the agents (single population of
    ``size``, selection intensity ``alpha``)."""
    n = payoffs.n
    if n == 1:
        return np.ones(1)
    chain = np.zeros((n, n))
    for s in range(n):
        for r in range(n):
            if r != s:
                chain[s, r] = fixation(payoffs, r, s, alpha, size) / (n - 1)
        chain[s, s] = 1.0 - chain[s].sum()
    values, vectors = la.eig(chain.T)
    stationary = np.abs(np.real(vectors[:, np.argmin(np.abs(values - 1.0))]))
    return stationary / stationary.sum()


def seat_shares(seats: dict[Lineup, np.ndarray], n: int, x: np.ndarray) -> np.ndarray:
    """Each seat's expected win share at a table whose agents are drawn from ``x``."""
    total = np.zeros(len(next(iter(seats.values()))))
    for lineup, shares in seats.items():
        total += multiset_probability(counts_of(lineup, n), x) * shares
    return total


def lineup_chances(mix: Mapping[str, float], lineups: Sequence[str],
                   least: float = 0.0) -> dict[str, float]:
    """Each lineup's (``a+b+c``, agents' names as a meta-game's lineup folders name them)
    chance at a table whose seats are drawn independently from ``mix`` (agent: weight),
    those less likely than ``least`` left out."""
    agents = list(mix)
    x = np.array([mix[a] for a in agents], dtype=np.float64)
    out = {}
    for lineup in lineups:
        chance = multiset_probability(
            counts_of([agents.index(a) for a in lineup.split("+")], len(agents)), x)
        if chance >= least:
            out[lineup] = chance
    return out


def population_chances(equilibrium: Mapping[str, float], lineups: Sequence[str],
                       least: float = 0.0) -> dict[str, dict[str, float]]:
    """Each lineup's chance (as :func:`lineup_chances`) in the two populations a meta-game's
    figures are given for: tables drawn from its stable mix ``equilibrium`` (agent: weight,
    normalised here) and from a uniform mix of the same agents."""
    total = sum(equilibrium.values())
    mixes = {"equilibrium": {a: w / total for a, w in equilibrium.items()},
             "uniform": dict.fromkeys(equilibrium, 1.0 / len(equilibrium))}
    return {name: lineup_chances(mix, lineups, least) for name, mix in mixes.items()}


def population_figure(per_lineup: Mapping[str, Mapping[str, float]],
                      chances: Mapping[str, float], name: str,
                      seats_of: str | None = None) -> dict[str, float]:
    """``name`` in a population: the lineups' estimates weighted by their chances (and, for
    a figure of one agent's seats, ``seats_of``, by how many seats it holds), over the
    lineups where it is defined; NaN when none is."""
    weights = {lineup: chance * (lineup.split("+").count(seats_of) if seats_of else 1)
               for lineup, chance in chances.items()}
    having = [lineup for lineup, w in weights.items()
              if w > 0 and np.isfinite(per_lineup[lineup].get(name, np.nan))
              and np.isfinite(per_lineup[lineup].get(f"{name}_low", np.nan))]
    if not having:
        return {name: float("nan"), f"{name}_low": float("nan"), f"{name}_high": float("nan")}
    return pooled([per_lineup[lineup] for lineup in having], name,
                  [weights[lineup] for lineup in having])


def population_figures(per_lineup: Mapping[str, Mapping[str, float]],
                       chances: Mapping[str, float], names: Sequence[str],
                       seats_of: str | None = None) -> dict[str, float]:
    """:func:`population_figure` of each of ``names``, in one mapping."""
    out: dict[str, float] = {}
    for name in names:
        out |= population_figure(per_lineup, chances, name, seats_of)
    return out


# --------------------------------------------------------------------------------------
# Everything at once, with bootstrap intervals
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MetaGame:
    """The meta-game's answers: the payoff table, the equilibrium mix and its gain, alpha-Rank,
    dominance, and the seat effects in the equilibrium and uniform populations and in each
    mirror table; ``*_low`` / ``*_high``: 95% bootstrap percentile intervals."""

    agents: tuple[str, ...]
    players: int
    payoff_table: pd.DataFrame
    mix: pd.DataFrame
    gain: float
    dominance: pd.DataFrame
    seats: pd.DataFrame
    resamples: int

    def to_json(self) -> dict:
        return {"agents": list(self.agents), "players": self.players,
                "payoff_table": self.payoff_table.to_dict("records"),
                "equilibrium": dict(zip(self.mix["agent"], self.mix["weight"], strict=True)),
                "mix": self.mix.to_dict("records"), "best_response_gain": self.gain,
                "alpha_rank": dict(zip(self.mix["agent"], self.mix["alpha_rank"], strict=True)),
                "dominance": self.dominance.to_dict("records"),
                "seat_effects": self.seats.to_dict("records"),
                "bootstrap_resamples": self.resamples}


def interval(samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """95% percentile interval of bootstrap ``samples`` (along axis 0)."""
    return np.percentile(samples, 2.5, axis=0), np.percentile(samples, 97.5, axis=0)


def solve(games: Games, resamples: int = 200, alpha: float = 100.0, size: int = 50,
          seed: int = 0) -> MetaGame:
    """The meta-game of ``games``, with ``resamples`` bootstrap resamples of the games."""
    n, k = len(games.agents), games.players
    rng = np.random.default_rng(seed)

    def answers(g: Games) -> tuple[Payoffs, np.ndarray, np.ndarray, dict]:
        payoffs = g.payoffs()
        x = equilibrium(payoffs)
        seats = g.seat_table()
        effects = {"equilibrium": seat_shares(seats, n, x),
                   "uniform": seat_shares(seats, n, np.full(n, 1.0 / n))}
        for a, name in enumerate(games.agents):
            effects[f"mirror {name}"] = seats[(a,) * k]
        return payoffs, x, alpha_rank(payoffs, alpha, size), effects

    payoffs, x, ranks, effects = answers(games)
    boot = [answers(games.resampled(rng)) for _ in range(resamples)]

    def with_interval(point: np.ndarray, samples: list[np.ndarray]) -> tuple:
        if not samples:
            return point, np.full_like(point, np.nan), np.full_like(point, np.nan)
        low, high = interval(np.array(samples))
        return point, low, high

    weight, w_low, w_high = with_interval(x, [b[1] for b in boot])
    rank, r_low, r_high = with_interval(ranks, [b[2] for b in boot])
    mix = pd.DataFrame({"agent": games.agents, "weight": weight, "weight_low": w_low,
                        "weight_high": w_high, "alpha_rank": rank, "alpha_rank_low": r_low,
                        "alpha_rank_high": r_high,
                        "against_equilibrium": payoffs.against(x),
                        "against_uniform": payoffs.against(np.full(n, 1.0 / n))})

    rows = []
    for lineup in games.lineups:
        for a in sorted(set(lineup)):
            point = payoffs.table[lineup][a]
            low, high = with_interval(np.array([point]),
                                      [np.array([b[0].table[lineup][a]]) for b in boot])[1:]
            rows.append({"lineup": "+".join(games.agents[i] for i in lineup),
                         "agent": games.agents[a], "seats": lineup.count(a),
                         "games": len(games.agent_shares[games.lineups.index(lineup)]),
                         "win_share": point, "low": float(low[0]), "high": float(high[0])})
    table = pd.DataFrame(rows)

    dominance = []
    for a in range(n):
        for b in range(n):
            if a != b and payoffs.dominates(a, b):
                held = np.mean([bt[0].dominates(a, b) for bt in boot]) if boot else np.nan
                dominance.append({"agent": games.agents[a], "dominates": games.agents[b],
                                  "resamples_holding": held})
    dominance_table = pd.DataFrame(dominance, columns=["agent", "dominates",
                                                       "resamples_holding"])

    seat_rows = []
    for population, shares in effects.items():
        samples = [b[3][population] for b in boot]
        point, low, high = with_interval(shares - 1.0 / k, [s - 1.0 / k for s in samples])
        for p in range(k):
            seat_rows.append({"population": population, "seat": p,
                              "win_share": shares[p], "edge": point[p],
                              "edge_low": low[p], "edge_high": high[p]})
    return MetaGame(games.agents, k, table, mix, payoffs.gain(x), dominance_table,
                    pd.DataFrame(seat_rows), resamples)
