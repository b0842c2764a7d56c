"""Huit américain batch kernel: complete games in compiled code, with the compiled policies
``random`` and ``shedder`` (the same compiled decision its Python agent calls, on the same
observation array).

``play_games`` releases the GIL, so chunks can run in threads of one process.

The loop calls the same compiled rule functions as the Python API (``new_game``, ``advance``,
``legal_actions``, ``apply_action``), and game i draws from the same two streams (chance and
decisions) as :func:`sim.runner.play_python` gives it, so both paths play identical games.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from agents import huit_americain as bots
from agents.random_agent import random_choice
from engines.huit_americain import rules as R
from engines.huit_americain import summary
from engines.seeding import ReseedableStream, reseed, seed_words

POLICY_RANDOM, POLICY_SHEDDER = 0, 1
POLICIES = {"random": POLICY_RANDOM, "shedder": POLICY_SHEDDER}


@njit(cache=True)
def choose(policy, s, pr, actions, n, rng, seen):
    """The action the seat's compiled policy picks among the ``n`` legal ``actions``."""
    if policy == POLICY_RANDOM:
        return random_choice(actions, n, rng)
    R.observe(s, pr, s[R.CURRENT], seen)
    return actions[bots.shedder_decide(seen, pr, actions, n)]


@njit(cache=True)
def play_game(s, pr, seat_policy, actions, chance, decisions, seen):
    """Play one whole game into ``s``."""
    R.new_game(s, pr)
    R.advance(s, pr, chance)
    while s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, actions)
        R.apply_action(s, pr, choose(seat_policy[s[R.CURRENT]], s, pr, actions, n,
                                     decisions, seen), chance)


@njit(cache=True, nogil=True)
def play_games(pr, seat_policies, words, chance, chance_alias, decisions, decisions_alias,
               rows, finals):
    """Play ``len(words)`` games, seat p of game g with policy ``seat_policies[g, p]``: game
    g's summary goes to ``rows[g]``, its final state to ``finals[g]`` when ``finals`` has
    rows."""
    s = np.empty(R.STATE_SIZE, dtype=np.int32)
    seen = np.empty(R.STATE_SIZE, dtype=np.int32)
    actions = np.empty(R.N_ACTIONS, dtype=np.int32)
    for g in range(words.shape[0]):
        reseed(chance, chance_alias, words[g, 0])
        reseed(decisions, decisions_alias, words[g, 1])
        play_game(s, pr, seat_policies[g], actions, chance, decisions, seen)
        summary.summarize(s, rows[g])
        if finals.shape[0] > 0:
            finals[g] = s


def policy_ids(names: list[str]) -> np.ndarray:
    """Policy ids of agent names; a name without a compiled twin names those that have one."""
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise ValueError(f"no compiled policy for {', '.join(unknown)} in huit-americain; "
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
    finals = np.zeros((count if keep_states else 0, R.STATE.size), dtype=np.int32)
    play_games(game.encoded_params, np.ascontiguousarray(seat_policies, dtype=np.int32),
               words, chance.generator, chance.alias, decisions.generator, decisions.alias,
               rows, finals)
    rounds = np.empty((0, summary.ROUND_WIDTH), dtype=np.int32)
    return KernelOutput(rows, rounds, np.zeros(count, dtype=np.int64), finals)


class KernelOutput(NamedTuple):
    """Per game summary rows; round rows (none: a single hand); round rows per game; final
    states (empty unless asked)."""

    rows: np.ndarray
    rounds: np.ndarray
    round_counts: np.ndarray
    finals: np.ndarray
