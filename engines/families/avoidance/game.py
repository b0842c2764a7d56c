"""Point-avoidance trick games (chasse-coeur, pétasse) through the common game API: the
shared trick-game wrapper (:mod:`engines.families.tricks.game`) over the compiled rules of
:mod:`engines.families.avoidance.rules`, which each game configures (``encode``).

Actions, in the order ``legal_actions()`` lists them: ``pass 2♥`` .. ``pass A♣`` while
passing (variant), ``play 2♥`` .. ``play A♣`` in card id order (suits ♥ ♦ ♠ ♣, ranks 2 .. A).
Card names also accept letters for suits (``play Qs``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np

from engines.core.base import observed_seats
from engines.core.cards import card_name
from engines.core.params import Params
from engines.families.avoidance import rules as R
from engines.families.avoidance import summary
from engines.families.tricks.game import TrickGame, TrickObservation, TrickState

PHASE_NAMES = {R.DEAL: "deal", R.PASSING: "passing", R.PLAYING: "tricks", R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``play Q♠``, ``pass 3♦``."""
    if code < R.PASS:
        return f"play {card_name(code - R.PLAY)}"
    return f"pass {card_name(code - R.PASS)}"


def new_params(params: Any, in_play: np.ndarray, strength: np.ndarray, points: np.ndarray,
               point_card: np.ndarray) -> np.ndarray:
    """The rules' data every avoidance game sets alike: its seats, first dealer and number
    of hands (``params``), and per card whether it is in play, its strength, its points and
    whether it is a point card; the game sets the rest."""
    p = R.PARAMS.new()
    p[R.P_PLAYERS] = params.players
    p[R.P_FIRST_DEALER] = R.RANDOM_DEALER if params.first_dealer is None else \
        params.first_dealer
    for offset, per_card in ((R.P_IN_PLAY, in_play), (R.P_STRENGTH, strength),
                             (R.P_POINTS, points), (R.P_POINT_CARD, point_card)):
        p[offset:offset + R.DECK_CARDS] = per_card
    p[R.P_NUM_HANDS] = params.num_hands
    return p


class AvoidanceObservation(TrickObservation):
    """What one seat of a point-avoidance game may know."""

    @property
    def encoder(self) -> Callable[[Params], np.ndarray]:
        """The game's public card data, for bots (``game.encode``)."""
        return self._state.game.encode

    @cached_property
    def won(self) -> dict[int, tuple[int, ...]]:
        """The cards in each seat's tricks this hand (public)."""
        return {p: self._located(R.LOC_WON + p) for p in range(self.params.players)}

    @cached_property
    def passed(self) -> tuple[int, ...]:
        """The cards this seat picked (or passed) to its left neighbour this hand."""
        where = self._s[R.PASSED_BY:R.PASSED_BY + R.DECK_CARDS]
        return tuple(int(c) for c in np.flatnonzero(where == self.player))

    taken = observed_seats(R.TAKEN, "Points each seat has taken this hand.")


class AvoidanceState(TrickState):
    """One point-avoidance game in progress."""


class AvoidanceGame(TrickGame):
    """A point-avoidance game with fixed parameters; each game subclasses it with its
    ``title`` (its ``Params`` and ``encode``, its parameters as the rules' data, are found
    beside it)."""

    rules = R
    summary = summary
    verbs = {"play": R.PLAY, "pass": R.PASS}
    examples = "'play Q♠', 'play 10h', 'pass 3♦'"

    def describe_deal(self, s: np.ndarray) -> str:
        """``hand 1: 13 cards each, P0 deals; P1 leads`` (the kitty, if any)."""
        text = (f"hand {int(s[R.HAND]) + 1}: {int(s[R.CARDS])} cards each, "
                f"P{int(s[R.DEALER])} deals")
        kitty = int((s[R.LOCATION:R.LOCATION + R.DECK_CARDS] == R.LOC_KITTY).sum())
        if kitty:
            text += f", {kitty} in the kitty"
        if s[R.PHASE] == R.PLAYING:
            text += f"; P{int(s[R.FIRST_LEADER])} leads"
        return text

    def describe_round_end(self, s: np.ndarray) -> str:
        """``hand 1 ends: P0 took 14 (14, total 14), ...; P2 swept``."""
        parts = [f"P{p} took {int(s[R.TAKEN + p])} ({int(s[R.POINTS + p])}, total "
                 f"{int(s[R.SCORE + p])})" for p in range(self.params.players)]
        text = f"hand {int(s[R.HANDS_PLAYED])} ends: " + ", ".join(parts)
        if s[R.SWEEPER] >= 0:
            text += f"; P{int(s[R.SWEEPER])} swept"
        return text
