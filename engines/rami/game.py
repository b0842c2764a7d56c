"""Le rami through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.rami.rules`), on the rummy engines' shared wrapper
(:mod:`engines.rummy_game`, which lists the action texts)."""

from __future__ import annotations

import numpy as np
from numba import njit

from engines import rummy_turns as T
from engines.chance import uniform_index_jit
from engines.rami import rules as R
from engines.rami import summary
from engines.rami.params import RamiParams
from engines.rummy_game import RummyGame, RummyObservation, RummyState


@njit(cache=True)
def _step(s, pr, code, rngs, alias, stream, setup, out):
    """The deal (``setup``) or an action, drawing chance from the state's own stream; then
    the next decision's legal codes into ``out``.  Returns their count."""
    alias[:] = stream
    if setup:
        R.advance(s, pr, rngs[0])
    else:
        R.apply_action(s, pr, code, rngs[0])
    stream[:] = alias
    return R.legal_actions(s, pr, out)


@njit(cache=True)
def _choose(s, pr, code, out):
    """A decision that draws no chance (any but ``draw stock`` from an empty talon),
    without the chance stream; then the next decision's legal codes into ``out``.  Returns
    their count, or -1 when the next deal is pending (``_step`` with ``setup`` makes it)."""
    R.apply_choice(s, pr, code)
    if s[T.PHASE] == T.SETUP:
        return -1
    return R.legal_actions(s, pr, out)


@njit(cache=True)
def _playout(s, pr, rngs, alias, stream, decisions, actions):
    """Random legal actions to the end (the ``random`` agent's draws from ``decisions``);
    chance from the state's own stream."""
    alias[:] = stream
    while s[T.PHASE] != T.OVER:
        n = R.legal_actions(s, pr, actions)
        R.apply_action(s, pr, actions[uniform_index_jit(decisions, n)], rngs[0])
    stream[:] = alias


class RamiObservation(RummyObservation):
    """What one seat may know: its hand, the table, the discard pile, hand sizes, who has
    opened, the scores."""


class RamiState(RummyState):
    """One match of rami in progress.  Legal actions, in order: in the draw, ``draw stock``
    then ``take discard``; after it, melds (runs by suit, first place and length, then
    groups by rank), lay-offs (by table meld, card, end), joker swaps (by table meld,
    place), discards (by card).  A hand won by rami sec is logged ``hand 1 won by P3 (rami
    sec)``."""

    phase_names = T.PHASE_NAMES
    observation_class = RamiObservation

    def _hand_note(self, row: np.ndarray) -> str:
        return " (rami sec)" if row[R.ROUND_FIELDS.index("rami_sec")] else ""


class Rami(RummyGame):
    """Le rami with fixed parameters (``engines.load("rami", ...)``)."""

    slug = "rami"
    title = "rami"
    Params = RamiParams
    rules = R
    summary = summary
    state_class = RamiState
    step = staticmethod(_step)
    choose = staticmethod(_choose)
    playout = staticmethod(_playout)
    wild_name = "Joker"
