"""Heuristic bots for Betzanbloo, each written once as a compiled decision over the seat's
observation array (:func:`engines.games.betzanbloo.rules.observe`): the Python agent calls it on
``observation.array`` and the batch kernel (:mod:`sim.kernels.betzanbloo`) on the array it
observes for the seat, so both play the same.  They take no random draw: the same
observation gives the same choice.

* ``safe``: goes with the crowd, to save its card when the table is unanimous;
* ``contrarian``: goes where the crowd is not, to be the lone player who saves and captures;
* ``responder``: the best response (for this turn's payoff) to the empirical play of the
  table: how often each other seat has played above the threshold so far in the game.

Where the others are expected to go: a seat that plays one of its legal cards uniformly at
random plays above the threshold t with probability (its legal cards above t) / (its legal
cards); ``safe`` and ``contrarian`` add these probabilities over the other seats and call the
camp with the larger sum the crowd (above on a tie).  ``responder`` starts each seat from the
same probability and updates it with that seat's plays of the game so far.

Every bot captures the card that scores most under the game's scoring (points or diamonds),
the higher value on a tie: capturing is always worth what the card scores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numba import njit

from engines.core.api import Action
from engines.core.params import Params, param
from engines.games.betzanbloo import rules as R

LOWEST, HIGHEST = 0, 1          # safe's card option, as its compiled code reads it


# --------------------------------------------------------------------------------------
# What the bots read
# --------------------------------------------------------------------------------------
@njit(cache=True)
def card_of(code):
    """The card value an action code names (``play v`` or ``capture v``)."""
    if code >= R.CAPTURE_ACTION:
        return code - R.CAPTURE_ACTION + 1
    return code - R.PLAY_ACTION + 1


@njit(cache=True)
def best_capture(o, pr, actions, n):
    """Index of the capture that scores most (the higher card on a tie)."""
    best = 0
    for i in range(1, n):
        card, held = card_of(actions[i]), card_of(actions[best])
        if pr[R.P_WORTH + card] >= pr[R.P_WORTH + held]:
            best = i
    return best


@njit(cache=True)
def uniform_chance_above(o, seat):
    """Probability that ``seat`` plays above the threshold if it plays one of its legal
    cards uniformly at random (its hand as the observation shows it)."""
    t = o[R.THRESHOLD]
    hand = o[R.HAND + seat]
    legal = 0
    above = 0
    for v in range(1, R.HIGHEST_PERSO + 1):
        if hand >> v & 1 and v != t:
            legal += 1
            above += v > t
    return above / legal if legal > 0 else 0.0


@njit(cache=True)
def crowd_is_above(o, pr):
    """Whether the other seats are expected to play above more than below (ties: above)."""
    me = o[R.CURRENT]
    expected = 0.0
    for p in range(pr[R.P_PLAYERS]):
        if p != me:
            expected += uniform_chance_above(o, p)
    return expected >= (pr[R.P_PLAYERS] - 1) / 2


@njit(cache=True)
def extreme_in_camp(o, actions, n, above, highest):
    """Index of the lowest (or ``highest``) play action in the camp (``above`` or below the
    threshold), -1 if there is none; the actions are listed in ascending card order."""
    t = o[R.THRESHOLD]
    found = -1
    for i in range(n):
        if (card_of(actions[i]) > t) == above:
            found = i
            if not highest:
                break
    return found


# --------------------------------------------------------------------------------------
# The three strategies: each returns the index of its choice among the n legal actions
# --------------------------------------------------------------------------------------
@njit(cache=True)
def safe_decide(o, pr, actions, n, card):
    """``safe``: the lowest (``card=HIGHEST``: highest) card of the crowd's camp, else the
    lowest card of the other camp."""
    if o[R.PHASE] == R.CAPTURE:
        return best_capture(o, pr, actions, n)
    crowd = crowd_is_above(o, pr)
    choice = extreme_in_camp(o, actions, n, crowd, card == HIGHEST)
    return choice if choice >= 0 else extreme_in_camp(o, actions, n, not crowd, False)


@njit(cache=True)
def contrarian_decide(o, pr, actions, n):
    """``contrarian``: the highest card of the camp the crowd avoids, else the lowest card
    of the crowd's camp."""
    if o[R.PHASE] == R.CAPTURE:
        return best_capture(o, pr, actions, n)
    crowd = crowd_is_above(o, pr)
    choice = extreme_in_camp(o, actions, n, not crowd, True)
    return choice if choice >= 0 else extreme_in_camp(o, actions, n, crowd, False)


@njit(cache=True)
def estimated_chance_above(o, seat, prior):
    """``responder``'s estimate that ``seat`` plays above this turn: the uniform-play chance
    weighted ``prior`` turns, plus the seat's turns above the threshold so far."""
    turns = o[R.TURN]
    above = 0
    for turn in range(turns):
        card = o[R.HISTORY_CARD + turn * R.MAX_PLAYERS + seat]
        above += card > o[R.PILE + turn]
    weight = prior + turns
    uniform = uniform_chance_above(o, seat)
    return (prior * uniform + above) / weight if weight > 0 else uniform


@njit(cache=True)
def capture_prize(o, pr, camp_above):
    """What a lone player expects to capture in a camp: the largest, over the other seats,
    of the mean worth of that seat's legal cards in that camp."""
    t = o[R.THRESHOLD]
    me = o[R.CURRENT]
    best = 0.0
    for p in range(pr[R.P_PLAYERS]):
        if p == me:
            continue
        hand = o[R.HAND + p]
        total = 0
        count = 0
        for v in range(1, R.HIGHEST_PERSO + 1):
            if hand >> v & 1 and v != t and (v > t) == camp_above:
                total += pr[R.P_WORTH + v]
                count += 1
        if count > 0 and total / count > best:
            best = total / count
    return best


@njit(cache=True)
def responder_decide(o, pr, actions, n, prior):
    """``responder``: the card with the largest expected payoff this turn (the lower card on
    a tie), see :class:`ResponderAgent`."""
    if o[R.PHASE] == R.CAPTURE:
        return best_capture(o, pr, actions, n)
    me = o[R.CURRENT]
    all_above = 1.0
    all_below = 1.0
    for p in range(pr[R.P_PLAYERS]):
        if p != me:
            chance = estimated_chance_above(o, p, prior)
            all_above *= chance
            all_below *= 1.0 - chance
    prize_below = capture_prize(o, pr, False)
    prize_above = capture_prize(o, pr, True)
    best = 0
    best_payoff = -1.0
    for i in range(n):
        card = card_of(actions[i])
        worth = pr[R.P_WORTH + card]
        if card > o[R.THRESHOLD]:
            payoff = all_above * worth + all_below * (worth + prize_below)
        else:
            payoff = all_below * worth + all_above * (worth + prize_above)
        if payoff > best_payoff:
            best, best_payoff = i, payoff
    return best


# --------------------------------------------------------------------------------------
# The agents
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SafeParams(Params):
    """Parameters of ``safe``."""

    game: ClassVar[str] = "safe"

    card: str = param("lowest", "which card of the crowd's camp: 'lowest' (risks least if "
                      "the table splits) or 'highest' (saves most if it does not)",
                      choices=("lowest", "highest"))


@dataclass(frozen=True)
class ContrarianParams(Params):
    """``contrarian`` takes no parameter."""

    game: ClassVar[str] = "contrarian"


@dataclass(frozen=True)
class ResponderParams(Params):
    """Parameters of ``responder``."""

    game: ClassVar[str] = "responder"

    prior: float = param(2.0, "weight, in turns, of the uniform-play estimate a seat's "
                              "observed plays are added to (0..16: above 8 turns the "
                              "observed plays hardly count)", min=0, max=16)


class _Strategy:
    """An agent whose choice is a compiled decision over the observation array."""

    name: ClassVar[str]
    Params: ClassVar[type[Params]]

    def __init__(self, **options: Any) -> None:
        self.params = self.Params.from_kwargs(**options)

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        actions = np.array([a.code for a in legal_actions], dtype=np.int32)
        return legal_actions[self.decide(observation.array, observation.encoded_params,
                                         actions)]

    def decide(self, o: np.ndarray, pr: np.ndarray, actions: np.ndarray) -> int:
        raise NotImplementedError


class SafeAgent(_Strategy):
    """``safe``: plays in the camp the others are expected to choose (the crowd, see the
    module docstring), its lowest card there by default (``card=highest``: its highest); if it
    has no card in that camp, its lowest card of the other camp.  Captures the best card."""

    name = "safe"
    Params = SafeParams

    def decide(self, o: np.ndarray, pr: np.ndarray, actions: np.ndarray) -> int:
        card = HIGHEST if self.params.card == "highest" else LOWEST
        return safe_decide(o, pr, actions, len(actions), card)


class ContrarianAgent(_Strategy):
    """``contrarian``: plays in the camp the others are expected to avoid (the opposite of
    the crowd), its highest card there, hoping to be alone: a lone player saves its card and
    captures one.  If it has no card in that camp, its lowest card of the crowd's camp.
    Captures the best card."""

    name = "contrarian"
    Params = ContrarianParams

    def decide(self, o: np.ndarray, pr: np.ndarray, actions: np.ndarray) -> int:
        return contrarian_decide(o, pr, actions, len(actions))


class ResponderAgent(_Strategy):
    """``responder``: the best response to the table's empirical play, one turn ahead.

    For every other seat q it estimates the probability a_q that q plays above this turn:
    (prior x u_q + q's turns above so far) / (prior + turns so far), where u_q is the chance
    that q's legal cards give under uniform play (module docstring) and "above" means above
    that turn's threshold; seats are taken as independent.  A card c in camp X then pays:

    * P(every other seat in X) x worth(c): everyone saves;
    * P(every other seat in the other camp) x (worth(c) + the capture): c is alone, saved,
      and takes the best card of the other camp, valued as the largest, over the other seats,
      of the mean worth of that seat's legal cards in that camp;
    * nothing otherwise.

    It plays the card with the largest expected payoff (the lower card on a tie) and captures
    the best card.  It maximises its own expected score, not its chance to win.  The estimate
    is rebuilt from the game's own history at every decision, so it carries nothing from one
    game to the next (a run's results do not depend on how games are grouped in chunks)."""

    name = "responder"
    Params = ResponderParams

    def decide(self, o: np.ndarray, pr: np.ndarray, actions: np.ndarray) -> int:
        return responder_decide(o, pr, actions, len(actions), self.params.prior)
