"""War batch kernel (bataille, super-bataille): complete games in compiled code.

The games have no decisions, so the only policy is ``random`` (any seat's agent plays the
same game).  ``play_games`` releases the GIL, so chunks can run in threads of one process.

The loop calls the same compiled rule functions as the Python API (``new_game``, ``advance``,
``play_out`` = repeated ``apply_action``), and game i draws from the same chance stream as
:func:`sim.runner.play_python` gives it, so both paths play identical games.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engines.seeding import ReseedableStream, reseed, seed_words
from engines.war import rules as R
from engines.war import summary

POLICY_RANDOM = 0
POLICIES = {"random": POLICY_RANDOM}


@njit(cache=True, nogil=True)
def play_games(pr, words, chance, chance_alias, rows, finals):
    """Play ``len(words)`` games: game g's summary goes to ``rows[g]``, its final state to
    ``finals[g]`` when ``finals`` has rows."""
    s = np.empty(R.STATE_SIZE, dtype=np.int32)
    for g in range(words.shape[0]):
        reseed(chance, chance_alias, words[g, 0])
        R.new_game(s, pr)
        R.advance(s, pr, chance)
        R.play_out(s, pr, chance)
        summary.summarize(s, rows[g])
        if finals.shape[0] > 0:
            finals[g] = s


def policy_ids(names: list[str]) -> np.ndarray:
    """Policy ids of agent names; a name without a compiled twin names those that have one."""
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise ValueError(f"no compiled policy for {', '.join(unknown)} in the war games; "
                         f"compiled agents: {', '.join(sorted(POLICIES))}")
    return np.array([POLICIES[n] for n in names], dtype=np.int32)


def play(game, seat_policies: np.ndarray, seed: int, start: int, count: int,
         keep_states: bool = False) -> KernelOutput:
    """Games ``start .. start+count-1`` of a run with ``seed`` (``seat_policies`` is
    ``(count, players)`` policy ids, all ``random``: there are no decisions)."""
    words = seed_words(seed, start, count)
    chance = ReseedableStream()
    chance.check()
    rows = np.zeros((count, summary.SIZE), dtype=np.int32)
    finals = np.zeros((count if keep_states else 0, R.STATE_SIZE), dtype=np.int32)
    play_games(game.encoded_params, words, chance.generator, chance.alias, rows, finals)
    return KernelOutput(rows, np.empty((0, summary.ROUND_WIDTH), dtype=np.int32),
                        np.zeros(count, dtype=np.int64), finals)


class KernelOutput(NamedTuple):
    """Per game summary rows; round rows (none); round rows per game (zeros); final states
    (empty unless asked)."""

    rows: np.ndarray
    rounds: np.ndarray
    round_counts: np.ndarray
    finals: np.ndarray
