"""Paris d'amis batch kernel: the compiled policies ``random``, ``greedy``, ``cautious`` and
``aggressive`` (the strategy bots, at their default parameters or any others: a weights
row holds a strategy's parameters and, last, the policy it is; they read only what the seat
may know, see :mod:`agents.paris_damis.features`).  Each settled round writes one row per
seat; the rules never allocate, so the loop runs without reference counting."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from agents.paris_damis import STRATEGIES, aggressive, cautious, greedy
from agents.paris_damis.base import blind_bet, common_choice
from agents.paris_damis.base import weights as strategy_weights
from agents.paris_damis.features import new_table
from agents.random_agent import random_choice
from engines.games.paris_damis import rules as R
from engines.games.paris_damis import summary
from sim.kernels.factory import Kernel

POLICY_RANDOM, POLICY_GREEDY, POLICY_CAUTIOUS, POLICY_AGGRESSIVE = 0, 1, 2, 3
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "cautious": POLICY_CAUTIOUS,
            "aggressive": POLICY_AGGRESSIVE}


WIDTH = max(len(agent.Params.keys()) for agent in STRATEGIES.values()) + 1
KIND = WIDTH - 1        # the column of a weights row that holds its policy


def encode(name: str, params: Any) -> np.ndarray:
    """The weights row of policy ``name`` playing with ``params`` (its strategy's
    parameters, as the strategy reads them, then the policy)."""
    row = np.zeros(WIDTH, dtype=np.float64)
    values = strategy_weights(params)
    row[:len(values)] = values
    row[KIND] = POLICIES[name]
    return row


def policy_weights() -> np.ndarray:
    """Row p: the parameters policy p plays with, the strategies' defaults (random reads
    none)."""
    table = np.zeros((len(POLICIES), WIDTH), dtype=np.float64)
    for name, agent in STRATEGIES.items():
        table[POLICIES[name]] = encode(name, agent.Params())
    return table


@njit(cache=True, inline="always")
def choose(policy, s, pr, actions, n, decisions, weights, seen, table):
    """The seat's policy; the strategy bots work in ``table`` (a column table, see
    :func:`agents.paris_damis.features.column_table`)."""
    if policy == POLICY_RANDOM:
        return random_choice(actions, n, decisions)
    w = weights[policy]
    i = common_choice(s, pr, actions, n, w, table)
    if i < 0:
        kind = w[KIND]
        if kind == POLICY_GREEDY:
            i = greedy.turn(s, pr, actions, n, w, table)
        elif kind == POLICY_CAUTIOUS:
            i = cautious.turn(s, pr, actions, n, w, table)
        else:
            i = aggressive.turn(s, pr, actions, n, w, table)
    return actions[blind_bet(pr, actions, i, n, w, decisions)]


KERNEL = Kernel("paris-damis", R, summary, POLICIES, choose=choose, weights=policy_weights(),
                table=lambda game: new_table(), max_round_rows=summary.max_round_rows,
                round_counter=R.ROUNDS_SETTLED, encode=encode)
