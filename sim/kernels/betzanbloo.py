"""Betzanbloo batch kernel: the compiled policies ``random`` and the Betzanbloo bots
``safe``, ``contrarian`` and ``responder``, at their default parameters or any others (the
same compiled decisions their Python agents call, on the same observation array; a weights
row holds a bot's parameter, then the policy it is).  Each resolved turn
writes one row per seat; the game has no chance step after its deal, and its rules never
allocate, so the loop runs without reference counting."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from agents import betzanbloo as bots
from agents.random_agent import random_choice
from engines.games.betzanbloo import rules as R
from engines.games.betzanbloo import summary
from sim.kernels.factory import Kernel, has_room

POLICY_RANDOM, POLICY_SAFE, POLICY_CONTRARIAN, POLICY_RESPONDER = 0, 1, 2, 3
POLICIES = {"random": POLICY_RANDOM, "safe": POLICY_SAFE, "contrarian": POLICY_CONTRARIAN,
            "responder": POLICY_RESPONDER}
VALUE, KIND = 0, 1      # a weights row: the bot's parameter, then its policy


def encode(name: str, params: Any) -> np.ndarray:
    """The weights row of policy ``name`` playing with ``params``: safe's card
    (``LOWEST``/``HIGHEST``), responder's prior, nothing for contrarian."""
    value = 0.0
    if name == "safe":
        value = float(bots.HIGHEST if params.card == "highest" else bots.LOWEST)
    elif name == "responder":
        value = float(params.prior)
    return np.array([value, float(POLICIES[name])], dtype=np.float64)


def policy_weights() -> np.ndarray:
    """Row p: the parameters policy p plays with, the bots' defaults (random reads none)."""
    defaults = {"safe": bots.SafeParams(), "contrarian": bots.ContrarianParams(),
                "responder": bots.ResponderParams()}
    table = np.zeros((len(POLICIES), KIND + 1), dtype=np.float64)
    for name, params in defaults.items():
        table[POLICIES[name]] = encode(name, params)
    return table


@njit(cache=True, inline="always")
def choose(policy, s, pr, actions, n, decisions, weights, seen, table):
    """The seat's policy; the bots decide on ``seen``, the seat's observation of ``s``."""
    if policy == POLICY_RANDOM:
        return random_choice(actions, n, decisions)
    R.observe(s, pr, s[R.CURRENT], seen)
    w = weights[policy]
    kind = w[KIND]
    if kind == POLICY_SAFE:
        return actions[bots.safe_decide(seen, pr, actions, n, int(w[VALUE]))]
    if kind == POLICY_CONTRARIAN:
        return actions[bots.contrarian_decide(seen, pr, actions, n)]
    return actions[bots.responder_decide(seen, pr, actions, n, w[VALUE])]


@njit(cache=True, inline="always")
def step(s, pr, action, chance, rounds, row):
    """A resolved turn writes one row per seat (:func:`summary.record_turn`)."""
    turn = s[R.TURN]
    R.apply_action(s, pr, action)
    if s[R.TURN] != turn:
        players = pr[R.P_PLAYERS]
        row = summary.record_turn(s, pr, turn, rounds, row) \
            if has_room(rounds, row, players) else row + players
    return row


KERNEL = Kernel("betzanbloo", R, summary, POLICIES, choose=choose, step=step,
                max_round_rows=summary.max_round_rows, weights=policy_weights(),
                encode=encode)
