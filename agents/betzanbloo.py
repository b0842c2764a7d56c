"""Heuristic bots for Betzanbloo.  They read only their seat's observation (every hand is
public, this turn's choices of the others are hidden) and take no random draw: the same
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

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from engines.api import Action
from engines.params import Params, param


def card_of(action: Action) -> int:
    """The card value an action names (``play 7``, ``capture 9``)."""
    return int(action.text.split()[1])


def best_capture(observation: Any, legal_actions: list[Action]) -> Action:
    """The capture that scores most (the higher card on a tie)."""
    return max(legal_actions, key=lambda a: (observation.worth[card_of(a)], card_of(a)))


def legal_cards(hand: tuple[int, ...], threshold: int) -> list[int]:
    return [v for v in hand if v != threshold]


def chance_above(hand: tuple[int, ...], threshold: int) -> float:
    """Probability that a seat playing a legal card of ``hand`` uniformly plays above."""
    legal = legal_cards(hand, threshold)
    return sum(v > threshold for v in legal) / len(legal)


def crowd_is_above(observation: Any) -> bool:
    """Whether the other seats are expected to play above more than below (ties: above)."""
    t = observation.threshold
    others = [p for p in range(observation.params.players) if p != observation.player]
    expected_above = sum(chance_above(observation.hands[p], t) for p in others)
    return expected_above >= len(others) / 2


def split_by_camp(actions: list[Action], threshold: int) -> tuple[list[Action], list[Action]]:
    """The play actions below and above the threshold, each ascending."""
    below = [a for a in actions if card_of(a) < threshold]
    above = [a for a in actions if card_of(a) > threshold]
    return below, above


@dataclass(frozen=True)
class SafeParams(Params):
    """Parameters of ``safe``."""

    game: ClassVar[str] = "safe"

    card: str = param("lowest", "which card of the crowd's camp: 'lowest' (risks least if "
                      "the table splits) or 'highest' (saves most if it does not)",
                      choices=("lowest", "highest"))


class SafeAgent:
    """``safe``: plays in the camp the others are expected to choose (the crowd, see the
    module docstring), its lowest card there by default (``card=highest``: its highest); if it
    has no card in that camp, its lowest card of the other camp.  Captures the best card."""

    name = "safe"

    def __init__(self, **options: Any) -> None:
        self.params = SafeParams.from_kwargs(**options)

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if observation.phase == "capture":
            return best_capture(observation, legal_actions)
        below, above = split_by_camp(legal_actions, observation.threshold)
        crowd, other = (above, below) if crowd_is_above(observation) else (below, above)
        if not crowd:
            return other[0]
        return crowd[0] if self.params.card == "lowest" else crowd[-1]


@dataclass(frozen=True)
class ContrarianParams(Params):
    """``contrarian`` takes no parameter."""

    game: ClassVar[str] = "contrarian"


class ContrarianAgent:
    """``contrarian``: plays in the camp the others are expected to avoid (the opposite of
    the crowd), its highest card there, hoping to be alone: a lone player saves its card and
    captures one.  If it has no card in that camp, its lowest card of the crowd's camp.
    Captures the best card."""

    name = "contrarian"

    def __init__(self, **options: Any) -> None:
        self.params = ContrarianParams.from_kwargs(**options)

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if observation.phase == "capture":
            return best_capture(observation, legal_actions)
        below, above = split_by_camp(legal_actions, observation.threshold)
        crowd, lonely = (above, below) if crowd_is_above(observation) else (below, above)
        if not lonely:
            return crowd[0]
        return lonely[-1]


@dataclass(frozen=True)
class ResponderParams(Params):
    """Parameters of ``responder``."""

    game: ClassVar[str] = "responder"

    prior: float = param(2.0, "weight, in turns, of the uniform-play estimate a seat's "
                              "observed plays are added to", min=0)


class ResponderAgent:
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
    the best card.  The estimate is rebuilt from the game's own history at every decision, so
    it carries nothing from one game to the next (a run's results do not depend on how games
    are grouped in chunks)."""

    name = "responder"

    def __init__(self, **options: Any) -> None:
        self.params = ResponderParams.from_kwargs(**options)

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if observation.phase == "capture":
            return best_capture(observation, legal_actions)
        t = observation.threshold
        worth = observation.worth
        others = [p for p in range(observation.params.players) if p != observation.player]
        chance = {p: self.chance_above(observation, p) for p in others}
        all_above = math.prod(chance[p] for p in others)
        all_below = math.prod(1.0 - chance[p] for p in others)

        def capture_value(camp_above: bool) -> float:
            means = []
            for p in others:
                cards = [v for v in legal_cards(observation.hands[p], t)
                         if (v > t) == camp_above]
                if cards:
                    means.append(sum(worth[v] for v in cards) / len(cards))
            return max(means, default=0.0)

        payoff_above = (all_above, all_below, capture_value(False))   # same camp, alone, prize
        payoff_below = (all_below, all_above, capture_value(True))

        def expected(action: Action) -> float:
            card = card_of(action)
            same, alone, prize = payoff_above if card > t else payoff_below
            return same * worth[card] + alone * (worth[card] + prize)

        return max(legal_actions, key=lambda a: (expected(a), -card_of(a)))

    def chance_above(self, observation: Any, seat: int) -> float:
        """The estimated probability that ``seat`` plays above this turn's threshold."""
        prior = self.params.prior
        history = observation.history
        above = sum(cards[seat] > threshold for threshold, cards in history)
        uniform = chance_above(observation.hands[seat], observation.threshold)
        weight = prior + len(history)
        return (prior * uniform + above) / weight if weight > 0 else uniform
