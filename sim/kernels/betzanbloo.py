"""Betzanbloo batch kernel: complete games in compiled code, with compiled policies:
``random`` and the Betzanbloo bots ``safe``, ``contrarian`` and ``responder`` with their
default parameters (the same compiled decisions their Python agents call, on the same
observation array).

``play_games`` releases the GIL, so chunks can run in threads of one process.

The loop calls the same compiled rule functions as the Python API (``new_game``, ``advance``,
``legal_actions``, ``apply_action``) and the same turn record, and game i draws from the same
two streams (chance and decisions) as :func:`sim.runner.play_python` gives it, so both paths
play identical games.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from agents import betzanbloo as bots
from agents.random_agent import random_choice
from engines.betzanbloo import rules as R
from engines.betzanbloo import summary
from engines.seeding import ReseedableStream, reseed, seed_words
from sim.kernels.loop import batch_loop, keep_final, work_buffers

POLICY_RANDOM, POLICY_SAFE, POLICY_CONTRARIAN, POLICY_RESPONDER = 0, 1, 2, 3
POLICIES = {"random": POLICY_RANDOM, "safe": POLICY_SAFE, "contrarian": POLICY_CONTRARIAN,
            "responder": POLICY_RESPONDER}
# the bots' default parameters, as their compiled decisions read them
SAFE_CARD = bots.HIGHEST if bots.SafeParams().card == "highest" else bots.LOWEST
RESPONDER_PRIOR = bots.ResponderParams().prior


@njit(cache=True)
def choose(policy, s, pr, actions, n, rng, seen):
    """The action the seat's compiled policy picks among the ``n`` legal ``actions``; the
    bots decide on ``seen``, the seat's observation of ``s``."""
    if policy == POLICY_RANDOM:
        return random_choice(actions, n, rng)
    R.observe(s, pr, s[R.CURRENT], seen)
    if policy == POLICY_SAFE:
        return actions[bots.safe_decide(seen, pr, actions, n, SAFE_CARD)]
    if policy == POLICY_CONTRARIAN:
        return actions[bots.contrarian_decide(seen, pr, actions, n)]
    return actions[bots.responder_decide(seen, pr, actions, n, RESPONDER_PRIOR)]


@njit(cache=True)
def play_game(s, pr, seat_policy, actions, chance, decisions, rounds, seen):
    """Play one whole game into ``s``, its turn rows into ``rounds``; return their count."""
    R.new_game(s, pr)
    R.advance(s, pr, chance)
    row = 0
    while s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, actions)
        turn = s[R.TURN]
        R.apply_action(s, pr, choose(seat_policy[s[R.CURRENT]], s, pr, actions, n,
                                     decisions, seen))
        if s[R.TURN] != turn:
            row = summary.record_turn(s, pr, turn, rounds, row)
    return row


@batch_loop
def play_games(pr, seat_policies, words, chance, chance_alias, decisions, decisions_alias,
               rows, rounds, round_counts, finals, s, seen, actions):
    """Play ``len(words)`` games, seat p of game g with policy ``seat_policies[g, p]``: game
    g's summary goes to ``rows[g]``, its turn rows to ``rounds[g]`` (``round_counts[g]`` of
    them), its final state to ``finals[g]`` when ``finals`` has rows; ``s``, ``seen`` and
    ``actions`` are work arrays (:mod:`sim.kernels.loop`)."""
    for g in range(words.shape[0]):
        reseed(chance, chance_alias, words[g, 0])
        reseed(decisions, decisions_alias, words[g, 1])
        round_counts[g] = play_game(s, pr, seat_policies[g], actions, chance, decisions,
                                    rounds[g], seen)
        summary.summarize(s, rows[g])
        keep_final(finals, g, s)


def policy_ids(names: list[str]) -> np.ndarray:
    """Policy ids of agent names; a name without a compiled twin names those that have one."""
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise ValueError(f"no compiled policy for {', '.join(unknown)} in betzanbloo; "
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
               words, chance.generator, chance.alias, decisions.generator, decisions.alias,
               rows, rounds, round_counts, finals,
               *work_buffers(R.STATE_SIZE, R.STATE_SIZE, R.N_ACTIONS))
    # every game lasts the six turns: the turn rows of all games are one block
    return KernelOutput(rows, rounds.reshape(-1, summary.ROUND_WIDTH), round_counts, finals)


class KernelOutput(NamedTuple):
    """Per game summary rows; all turn rows (game after game); turn rows per game; final
    states (empty unless asked)."""

    rows: np.ndarray
    rounds: np.ndarray
    round_counts: np.ndarray
    finals: np.ndarray
