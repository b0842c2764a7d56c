"""Betzanbloo batch kernel: the compiled policies ``random`` and the Betzanbloo bots
``safe``, ``contrarian`` and ``responder`` with their default parameters (the same compiled
decisions their Python agents call, on the same observation array).  Each resolved turn
writes one row per seat; the game has no chance step after its deal, and its rules never
allocate, so the loop runs without reference counting."""

from __future__ import annotations

from numba import njit

from agents import betzanbloo as bots
from agents.random_agent import random_choice
from engines.games.betzanbloo import rules as R
from engines.games.betzanbloo import summary
from sim.kernels.factory import Kernel, has_room

POLICY_RANDOM, POLICY_SAFE, POLICY_CONTRARIAN, POLICY_RESPONDER = 0, 1, 2, 3
POLICIES = {"random": POLICY_RANDOM, "safe": POLICY_SAFE, "contrarian": POLICY_CONTRARIAN,
            "responder": POLICY_RESPONDER}
# the bots' default parameters, as their compiled decisions read them
SAFE_CARD = bots.HIGHEST if bots.SafeParams().card == "highest" else bots.LOWEST
RESPONDER_PRIOR = bots.ResponderParams().prior


@njit(cache=True, inline="always")
def choose(policy, s, pr, actions, n, decisions, weights, seen, table):
    """The seat's policy; the bots decide on ``seen``, the seat's observation of ``s``."""
    if policy == POLICY_RANDOM:
        return random_choice(actions, n, decisions)
    R.observe(s, pr, s[R.CURRENT], seen)
    if policy == POLICY_SAFE:
        return actions[bots.safe_decide(seen, pr, actions, n, SAFE_CARD)]
    if policy == POLICY_CONTRARIAN:
        return actions[bots.contrarian_decide(seen, pr, actions, n)]
    return actions[bots.responder_decide(seen, pr, actions, n, RESPONDER_PRIOR)]


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
                max_round_rows=summary.max_round_rows, nrt=False)
