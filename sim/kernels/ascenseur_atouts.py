"""Ascenseur aux atouts batch kernel: the compiled policies ``random`` and ``estimator``
(which decides on the seat's observation, as its Python face does, with its parameters read
from its weights row: at its defaults or any others).  Each scored hand writes
one row per seat."""

from __future__ import annotations

import numpy as np

from agents import ascenseur_atouts as estimator
from engines.games.ascenseur_atouts import rules as R
from engines.games.ascenseur_atouts import summary
from engines.games.ascenseur_atouts.params import AscenseurParams
from sim.kernels.factory import Kernel

POLICY_RANDOM, POLICY_ESTIMATOR = 0, 1
POLICIES = {"random": POLICY_RANDOM, "estimator": POLICY_ESTIMATOR}


def encode(name: str, params: estimator.EstimatorParams) -> np.ndarray:
    """The weights row of the estimator playing with ``params``."""
    return estimator.EstimatorAgent(params).weights


def policy_weights() -> np.ndarray:
    """Row p: the parameters policy p plays with (the estimator's defaults; random reads
    none)."""
    row = encode("estimator", estimator.EstimatorParams())
    table = np.zeros((len(POLICIES), len(row)), dtype=np.float64)
    table[POLICY_ESTIMATOR] = row
    return table


def max_round_rows(params: AscenseurParams) -> int:
    """Round rows a game can have at most.  Every hand bound by the hook costs someone an
    error point, so at most players x (target_errors - 1) + 1 such hands are played; under
    ``hook=sighted-hands`` a blind hand may cost nothing, but each follows a sighted hand of
    its tour, hence the factor 2.  Under ``ending=round-of-dealers`` the game may go on for
    the rest of a round of dealers after that, fewer than start_cards x players hands."""
    hooked = params.players * (params.target_errors - 1) + 1
    after = params.start_cards * params.players - 1 if params.ending == "round-of-dealers" else 0
    return (2 * hooked + after) * params.players


KERNEL = Kernel("ascenseur-atouts", R, summary, POLICIES, bot=estimator.decide,
                weights=policy_weights(), max_round_rows=max_round_rows,
                round_counter=R.HANDS_PLAYED, encode=encode)
