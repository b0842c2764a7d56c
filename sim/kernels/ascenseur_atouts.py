"""Ascenseur aux atouts batch kernel: complete games in compiled code, with compiled policies.

``play_games`` releases the GIL, so chunks can run in threads of one process.

The loop calls the same compiled rule functions as the Python API (``new_game``, ``advance``,
``legal_actions``, ``apply_action``), and game i draws from the same two streams (chance and
decisions) as :func:`sim.runner.play_python` gives it, so both paths play identical games.
The ``estimator`` decides on the seat's observation (``observe``), as its Python face does.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from agents import ascenseur_atouts as estimator
from agents.random_agent import random_choice
from engines.ascenseur_atouts import rules as R
from engines.ascenseur_atouts import summary
from engines.ascenseur_atouts.params import AscenseurParams
from engines.seeding import ReseedableStream, reseed, seed_words

POLICY_RANDOM, POLICY_ESTIMATOR = 0, 1
POLICIES = {"random": POLICY_RANDOM, "estimator": POLICY_ESTIMATOR}


def policy_weights() -> np.ndarray:
    """Row p: the parameters policy p plays with (the estimator's defaults; random reads
    none)."""
    row = estimator.EstimatorAgent().weights
    table = np.zeros((len(POLICIES), len(row)), dtype=np.float64)
    table[POLICY_ESTIMATOR] = row
    return table


POLICY_WEIGHTS = policy_weights()


@njit(cache=True, inline="always")
def choose(policy, s, pr, actions, n, rng, weights, seen):
    """The action the seat's compiled policy picks among the ``n`` legal ``actions``; the
    estimator reads only the seat's observation, written into ``seen``."""
    if policy == POLICY_ESTIMATOR:
        R.observe(s, pr, s[R.CURRENT], seen)
        return actions[estimator.decide(seen, pr, actions, n, weights[policy])]
    return random_choice(actions, n, rng)


@njit(cache=True)
def play_game(s, pr, seat_policy, weights, seen, actions, chance, decisions, rounds):
    """Play one whole game into ``s``, its round rows (one per hand and seat) into
    ``rounds``; return their count."""
    R.new_game(s, pr)
    R.advance(s, pr, chance)
    row = 0
    while s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, actions)
        hands = s[R.HANDS_PLAYED]
        action = choose(seat_policy[s[R.CURRENT]], s, pr, actions, n, decisions, weights,
                        seen)
        R.apply_action(s, pr, action)
        if s[R.HANDS_PLAYED] != hands:
            row = summary.record_round(s, pr, rounds, row)
        if R.chance_pending(s):
            R.advance(s, pr, chance)
    return row


@njit(cache=True, nogil=True)
def play_games(pr, seat_policies, weights, words, chance, chance_alias, decisions,
               decisions_alias, rows, rounds, round_counts, finals):
    """Play ``len(words)`` games, policy p playing with parameters ``weights[p]``: game g's
    summary goes to ``rows[g]``, its round rows to ``rounds[g]`` (``round_counts[g]`` of
    them), its final state to ``finals[g]`` when ``finals`` has rows."""
    s = np.empty(R.STATE_SIZE, dtype=np.int32)
    seen = np.empty(R.STATE_SIZE, dtype=np.int32)
    actions = np.empty(R.N_ACTIONS, dtype=np.int32)
    for g in range(words.shape[0]):
        reseed(chance, chance_alias, words[g, 0])
        reseed(decisions, decisions_alias, words[g, 1])
        round_counts[g] = play_game(s, pr, seat_policies[g], weights, seen, actions, chance,
                                    decisions, rounds[g])
        summary.summarize(s, rows[g])
        if finals.shape[0] > 0:
            finals[g] = s


def max_round_rows(params: AscenseurParams) -> int:
    """Round rows a game can have at most.  Every hand bound by the hook costs someone an
    error point, so at most players x (target_errors - 1) + 1 such hands are played; under
    ``hook=sighted-hands`` a blind hand may cost nothing, but each follows a sighted hand of
    its tour, hence the factor 2."""
    hooked = params.players * (params.target_errors - 1) + 1
    return 2 * hooked * params.players


def policy_ids(names: list[str]) -> np.ndarray:
    """Policy ids of agent names; a name without a compiled twin names those that have one."""
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise ValueError(f"no compiled policy for {', '.join(unknown)} in ascenseur-atouts; "
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
    rounds = np.empty((count, max_round_rows(game.params), summary.ROUND_WIDTH),
                      dtype=np.int32)
    round_counts = np.zeros(count, dtype=np.int64)
    finals = np.zeros((count if keep_states else 0, R.STATE.size), dtype=np.int32)
    play_games(game.encoded_params, np.ascontiguousarray(seat_policies, dtype=np.int32),
               POLICY_WEIGHTS, words, chance.generator, chance.alias, decisions.generator,
               decisions.alias, rows, rounds, round_counts, finals)
    played = rounds[np.arange(rounds.shape[1]) < round_counts[:, None]]
    return KernelOutput(rows, played, round_counts, finals)


class KernelOutput(NamedTuple):
    """Per game summary rows; all round rows (game after game); round rows per game; final
    states (empty unless asked)."""

    rows: np.ndarray
    rounds: np.ndarray
    round_counts: np.ndarray
    finals: np.ndarray
