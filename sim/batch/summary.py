"""A run's summary: win shares by seat and by agent, how often each agent finishes ahead of
each other one, bet accuracy, game length and speed, summed from each chunk's figures."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

import agents
import engines
from agents import profiles
from agents.compiled_search import SEARCHES
from sim import stats
from sim.batch.spec import RunSpec
from sim.batch.tables import numpy_column


@dataclass
class ChunkFigures:
    """What the summary needs from one chunk (small, returned by workers)."""

    start: int
    count: int
    seat_wins: list[float]
    agent_wins: dict[str, float]
    agent_seats: dict[str, int]
    decisions: np.ndarray
    rounds: np.ndarray
    bets: dict[str, list[int]] = field(default_factory=dict)  # bet value -> [correct, total]
    # (agent, opponent) -> [times agent finished ahead, meetings] (see meetings())
    ahead: dict[tuple[str, str], list[float]] = field(default_factory=dict)


def figures_of(spec: RunSpec, start: int, count: int, tables: dict[str, pa.Table]
               ) -> ChunkFigures:
    """The figures of a chunk from its tables."""
    players = tables["players"]
    seat = numpy_column(players, "seat")
    share = numpy_column(players, "win_share").astype(np.float64)
    agent_index = numpy_column(players, "agent_index")
    k = len(spec.agents)
    agent_wins: dict[str, float] = {}
    agent_seats: dict[str, int] = {}
    by_index = np.bincount(agent_index, weights=share, minlength=k)
    seats_by_index = np.bincount(agent_index, minlength=k)
    for i, name in enumerate(spec.agents):
        agent_wins[name] = agent_wins.get(name, 0.0) + float(by_index[i])
        agent_seats[name] = agent_seats.get(name, 0) + int(seats_by_index[i])
    bets: dict[str, list[int]] = {}
    rounds = tables.get("rounds")
    bet_name, correct_name = bet_columns(spec.game)
    if rounds is not None and {bet_name, correct_name} <= set(rounds.column_names):
        bet = numpy_column(rounds, bet_name).astype(np.int64)
        correct = numpy_column(rounds, correct_name).astype(np.int64)
        totals = np.bincount(bet)
        hits = np.bincount(bet, weights=correct, minlength=len(totals))
        bets = {str(v): [int(hits[v]), int(totals[v])] for v in np.flatnonzero(totals)}
    games = tables["games"]
    return ChunkFigures(
        start=start, count=count,
        seat_wins=np.bincount(seat, weights=share, minlength=k).tolist(),
        agent_wins=agent_wins, agent_seats=agent_seats,
        decisions=numpy_column(games, "decisions").astype(np.int32),
        rounds=numpy_column(games, "rounds").astype(np.int16), bets=bets,
        ahead=meetings(spec, agent_index, numpy_column(players, "rank")))


def meetings(spec: RunSpec, agent_index: np.ndarray, rank: np.ndarray
             ) -> dict[tuple[str, str], list[float]]:
    """For each two different agents of the run, the first before the second in the order
    of ``spec.agents``: how often the first finished ahead of the second in the games where
    both sat (a tie counts ½, every pair of their seats in a game counts once) and in how
    many such meetings, ``[score, meetings]``.  ``agent_index`` and ``rank`` are a chunk's
    players columns, game by game, seat by seat."""
    names = list(dict.fromkeys(spec.agents))
    k, u = len(spec.agents), len(names)
    if u < 2:
        return {}
    code = np.array([names.index(a) for a in spec.agents])[agent_index].reshape(-1, k)
    _, first, second, ahead = stats.seat_comparisons(code, rank.reshape(-1, k))
    ahead = np.where(first < second, ahead, 1.0 - ahead)      # the earlier agent's view
    cell = np.minimum(first, second) * u + np.maximum(first, second)
    score = np.bincount(cell, weights=ahead, minlength=u * u)
    count = np.bincount(cell, minlength=u * u)
    return {(names[a], names[b]): [float(score[a * u + b]), int(count[a * u + b])]
            for a in range(u) for b in range(a + 1, u) if count[a * u + b]}


def bet_columns(slug: str) -> tuple[str, str]:
    """The rounds table's bet column and the column that says whether the bet was met, for
    the summary's bet accuracy: ``("bet", "bet_correct")`` unless the game's summary names
    its own in ``BET_COLUMNS`` (rikiki: ``("bid", "made")``)."""
    return getattr(engines.game_class(slug).summary, "BET_COLUMNS", ("bet", "bet_correct"))


def summarize(spec: RunSpec, figures: Sequence[ChunkFigures], wall: float,
              played: int | None = None) -> dict[str, Any]:
    """The run's summary over every chunk's figures; games/s counts the ``played`` games
    (default: all) over ``wall`` seconds."""
    games = sum(f.count for f in figures)
    played = games if played is None else played
    seat = [stats.proportion(sum(f.seat_wins[p] for f in figures), games)
            for p in range(len(spec.agents))]
    agent_names = sorted({a for f in figures for a in f.agent_wins})
    agent = {a: stats.proportion(sum(f.agent_wins.get(a, 0.0) for f in figures),
                                 sum(f.agent_seats.get(a, 0) for f in figures))
             for a in agent_names}
    decisions = np.concatenate([f.decisions for f in figures]) if figures else np.array([])
    rounds = np.concatenate([f.rounds for f in figures]) if figures else np.array([])
    out: dict[str, Any] = {
        "game": spec.game, "games": games, "players": len(spec.agents),
        "win_share_by_seat": {str(p): s for p, s in enumerate(seat)},
        "win_share_by_agent": agent,
        "finishes_ahead": finishes_ahead(figures),
        "decisions": stats.distribution(decisions),
        "rounds": stats.distribution(rounds),
        "games_played": played, "wall_seconds": wall,
        "games_per_second": played / wall if wall > 0 else math.nan,
    }
    bet_values = sorted({v for f in figures for v in f.bets}, key=int)
    if bet_values:
        totals = {v: [sum(f.bets.get(v, [0, 0])[i] for f in figures) for i in (0, 1)]
                  for v in bet_values}
        correct = sum(t[0] for t in totals.values())
        total = sum(t[1] for t in totals.values())
        out["bet_accuracy"] = stats.proportion(correct, total)
        out["bet_accuracy_by_value"] = {v: stats.proportion(c, t)
                                        for v, (c, t) in totals.items()}
    return out


def finishes_ahead(figures: Sequence[ChunkFigures]) -> dict[str, dict[str, dict[str, float]]]:
    """For each two different agents, how often the first (in the run's order) finished
    ahead of the second in their meetings, with its Wilson interval: ``{agent: {opponent:
    proportion}}`` (empty when one agent held every seat).  A game's meetings are not
    independent, so the interval is a little too narrow."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for f in figures:                   # every chunk lists the pairs in the same order
        for pair in f.ahead:
            out.setdefault(pair[0], {}).setdefault(pair[1], {})
    for agent, opponents in out.items():
        for opponent in opponents:
            held = [f.ahead.get((agent, opponent), [0.0, 0]) for f in figures]
            opponents[opponent] = stats.proportion(sum(h[0] for h in held),
                                                   sum(int(h[1]) for h in held))
    return out


def strongest_bots(game: str) -> list[str]:
    """The bots to try for play among strong players: the searches, then the bots written
    for ``game`` (each as ``NAME@tuned`` where the game has a tuned profile of it), in the
    registry's order."""
    try:
        held = profiles.read(game)
    except ValueError:                  # an unreadable profile file: plain names
        held = {}
    own = [f"{name}{profiles.SEPARATOR}tuned" if "tuned" in held.get(name, ()) else name
           for name in agents.written_for(game)]
    return [*SEARCHES, *own]


def luck_note(game: str, players: int) -> str:
    """One line for a run with ``random`` at every seat: it measures the rules' luck, not
    balance among players, and which bots to seat instead (one per seat)."""
    bots = strongest_bots(game)
    lineup = ",".join(bots[i % len(bots)] for i in range(players))
    return (f"note: every seat played random, so this measures the luck of the rules, not "
            f"balance among players; for that, seat the strongest bots (searches first): "
            f"--agents {lineup}")


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as the text table printed at the end of a run (with :func:`luck_note`
    when every seat played ``random``)."""
    def share(p: dict[str, float]) -> str:
        return f"{p['p']:6.1%}  [{p['low']:6.1%}, {p['high']:6.1%}]  n={p['n']:,}"

    lines = [f"{summary['game']}: {summary['games']:,} games, {summary['players']} players"]
    if list(summary["win_share_by_agent"]) == ["random"]:
        lines.append(luck_note(summary["game"], summary["players"]))
    lines += ["", "win share by seat (95% Wilson interval)"]
    lines += [f"  seat {s}   {share(p)}" for s, p in summary["win_share_by_seat"].items()]
    lines += ["", "win share by agent"]
    width = max([8, *map(len, summary["win_share_by_agent"])])
    lines += [f"  {a:<{width}} {share(p)}" for a, p in summary["win_share_by_agent"].items()]
    ahead = [(f"{a} ahead of {b}", p) for a, held in summary.get("finishes_ahead", {}).items()
             for b, p in held.items()]
    if ahead:
        lines += ["", "finishes ahead (in the games where both sat; a tie counts 1/2)"]
        width = max(len(label) for label, _ in ahead)
        lines += [f"  {label:<{width}} {share(p)}" for label, p in ahead]
    if "bet_accuracy" in summary:
        lines += ["", f"bet accuracy    {share(summary['bet_accuracy'])}"]
        lines += [f"  bet {v}        {share(p)}"
                  for v, p in summary["bet_accuracy_by_value"].items()]
    lines += [""]
    for name in ("decisions", "rounds"):
        d = summary[name]
        lines.append(f"{name + ' per game':<20} mean {d['mean']:.1f}  median {d['median']:.0f}"
                     f"  95th percentile {d['p95']:.0f}")
    lines.append(f"wall time {summary['wall_seconds']:.1f} s, {summary['games_played']:,} "
                 f"games played, {summary['games_per_second']:,.0f} games/s")
    return "\n".join(lines)
