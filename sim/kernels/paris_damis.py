"""Paris d'amis batch kernel: complete games in compiled code, with compiled policies.

``play_games`` releases the GIL, so chunks can run in threads of one process.

The loop calls the same compiled rule functions as the Python API (``new_game``, ``advance``,
``legal_actions``, ``apply_action``), and game i draws from the same two streams (chance and
decisions) as :func:`sim.runner.play_python` gives it, so both paths play identical games.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from agents.paris_damis import STRATEGIES, aggressive, cautious, greedy
from agents.paris_damis.base import weights
from agents.paris_damis.features import new_table
from agents.random_agent import random_choice
from engines.paris_damis import rules as R
from engines.paris_damis import summary
from engines.seeding import ReseedableStream, reseed, seed_words
from sim.kernels.loop import batch_loop, keep_final, work_buffers

POLICY_RANDOM, POLICY_GREEDY, POLICY_CAUTIOUS, POLICY_AGGRESSIVE = 0, 1, 2, 3
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "cautious": POLICY_CAUTIOUS,
            "aggressive": POLICY_AGGRESSIVE}


def policy_weights() -> np.ndarray:
    """Row p: the parameters policy p plays with, the strategies' defaults (the strategy
    bots read them as float64, see :mod:`agents.paris_damis`; random reads none)."""
    rows = {POLICIES[name]: weights(agent.Params()) for name, agent in STRATEGIES.items()}
    table = np.zeros((len(POLICIES), max(len(r) for r in rows.values())), dtype=np.float64)
    for policy, row in rows.items():
        table[policy, :len(row)] = row
    return table


POLICY_WEIGHTS = policy_weights()


@njit(cache=True, inline="always")
def choose(policy, s, pr, actions, n, rng, weights, table):
    """The action the seat's compiled policy picks among the ``n`` legal ``actions``; the
    strategy bots read only what the seat may know (see :mod:`agents.paris_damis.features`)
    and their parameters, ``weights[policy]``, and work in ``table``."""
    if policy == POLICY_GREEDY:
        return actions[greedy.decide(s, pr, actions, n, rng, weights[policy], table)]
    if policy == POLICY_CAUTIOUS:
        return actions[cautious.decide(s, pr, actions, n, rng, weights[policy], table)]
    if policy == POLICY_AGGRESSIVE:
        return actions[aggressive.decide(s, pr, actions, n, rng, weights[policy], table)]
    return random_choice(actions, n, rng)


@njit(cache=True)
def play_game(s, pr, seat_policy, weights, table, actions, chance, decisions, rounds):
    """Play one whole game into ``s``, its round rows into ``rounds``; return their count."""
    R.new_game(s, pr)
    R.advance(s, pr, chance)
    row = 0
    settled = 0
    while s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, actions)
        action = choose(seat_policy[s[R.CURRENT]], s, pr, actions, n, decisions, weights,
                        table)
        R.apply_action(s, pr, action)
        if s[R.ROUNDS_SETTLED] != settled:
            settled += 1
            row = summary.record_round(s, pr, rounds, row)
        if R.chance_pending(s):      # passing a Generator to a call costs; only when needed
            R.advance(s, pr, chance)
    return row


@batch_loop
def play_games(pr, seat_policies, weights, words, chance, chance_alias, decisions,
               decisions_alias, rows, rounds, round_counts, finals, s, actions, table):
    """Play ``len(words)`` games, policy p playing with parameters ``weights[p]``: game g's
    summary goes to ``rows[g]``, its round rows to ``rounds[g]`` (``round_counts[g]`` of
    them), its final state to ``finals[g]`` when ``finals`` has rows; ``s``, ``actions`` and
    ``table`` are work arrays (:mod:`sim.kernels.loop`)."""
    for g in range(words.shape[0]):
        reseed(chance, chance_alias, words[g, 0])
        reseed(decisions, decisions_alias, words[g, 1])
        round_counts[g] = play_game(s, pr, seat_policies[g], weights, table, actions, chance,
                                    decisions, rounds[g])
        summary.summarize(s, rows[g])
        keep_final(finals, g, s)


def policy_ids(names: list[str]) -> np.ndarray:
    """Policy ids of agent names; a name without a compiled twin names those that have one."""
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise ValueError(f"no compiled policy for {', '.join(unknown)} in paris-damis; "
                         f"compiled agents: {', '.join(sorted(POLICIES))}")
    return np.array([POLICIES[n] for n in names], dtype=np.int32)


def play(game, seat_policies: np.ndarray, seed: int, start: int, count: int,
         keep_states: bool = False) -> KernelOutput:
    """Games ``start .. start+count-1`` of a run with ``seed``; ``seat_policies`` is
    ``(count, players)`` policy ids."""
    words = seed_words(seed, start, count)
    chance, decisions = ReseedableStream(), ReseedableStream()
    chance.check()
    rows = np.zeros((count, summary.SIZE), dtype=np.int32)
    rounds = np.empty((count, summary.max_round_rows(game.params), summary.ROUND_WIDTH),
                      dtype=np.int32)
    round_counts = np.zeros(count, dtype=np.int64)
    finals = np.zeros((count if keep_states else 0, R.STATE.size), dtype=np.int32)
    play_games(game.encoded_params, np.ascontiguousarray(seat_policies, dtype=np.int32),
               POLICY_WEIGHTS, words, chance.generator, chance.alias, decisions.generator,
               decisions.alias, rows, rounds, round_counts, finals,
               *work_buffers(R.STATE_SIZE, R.N_ACTIONS), new_table())
    if (round_counts == rounds.shape[1]).all():       # every game played every round
        played = rounds.reshape(-1, summary.ROUND_WIDTH)
    else:
        played = rounds[np.arange(rounds.shape[1]) < round_counts[:, None]]
    return KernelOutput(rows, played, round_counts, finals)


class KernelOutput(NamedTuple):
    """Per game summary rows; all round rows (game after game); round rows per game; final
    states (empty unless asked)."""

    rows: np.ndarray
    rounds: np.ndarray
    round_counts: np.ndarray
    finals: np.ndarray
