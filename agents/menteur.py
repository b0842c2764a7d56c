"""Bots for le menteur: ``honest``, ``bluffer`` and ``caller``.

All three read only their observation (:class:`engines.games.menteur.MenteurObservation`): their
hand, the pile (the cards they laid themselves, the others face down), the announced suit
and hand sizes.

Counting visible cards: of the announced suit there are 13 cards (8 in the 32-card pack; with
``joker_rule=wild`` the Jokers count as cards of every suit).  A seat sees the ones in its
hand and the true ones it laid in the pile; the rest, *available*, are somewhere among the
*unseen* cards (the other hands and the others' face-down pile cards).  The chance that the
card just laid is true is estimated as available / unseen; it is 0, a certain lie, when the
seat holds or laid every card of the suit.

* ``honest`` never lies when it can tell the truth: leading, it announces the suit it holds
  most of and lays its lowest card of it; following, it lays its lowest card of the suit, or,
  with none, it must lie and lays its lowest card of its longest suit.  It calls only a
  certain lie.
* ``bluffer`` (option ``lie_rate``, default 0.3) plays as ``honest`` but, with probability
  ``lie_rate`` (drawn from the decision stream), lies although it could tell the truth: it
  lays its lowest card of its longest other suit and keeps the suit's cards for later.  It
  calls only a certain lie.
* ``caller`` (option ``threshold``, default 0.1) lays as ``honest`` and calls whenever the
  estimated chance that the card is true is below ``threshold``, or below
  ``last_card_threshold`` (default 0.5) when the card was the layer's last (a call is then
  the only way to stop him winning).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Action
from engines.core.cards import RANKS_PER_SUIT, STANDARD_CARDS, card_name
from engines.games.menteur import rules as R

SUITS = 4


def suit_cards(observation: Any) -> int:
    """Cards of each suit in the pack (Jokers counted when wild)."""
    per_suit = 8 if observation.params.deck == 32 else RANKS_PER_SUIT
    wild = observation.params.deck == 54 and observation.params.joker_rule == "wild"
    return per_suit + (2 if wild else 0)


def truth_chance(observation: Any) -> float:
    """The estimated chance that the card just laid is of the announced suit (see the
    module docstring)."""
    suit = observation.suit
    counts = observation.hand_counts
    wild = observation.params.joker_rule == "wild"
    seen = 0
    for card in range(R.CARDS):
        if R.suit_of(card) == suit or (card >= STANDARD_CARDS and wild):
            seen += int(counts[card])
    for card, owner in observation.pile:
        if owner == observation.player and not R.is_lie(observation.encoded_params, card,
                                                        suit):
            seen += 1
    unseen = len(observation.unseen)
    available = max(0, suit_cards(observation) - seen)
    return available / unseen if unseen else 0.0


def _by_suit(counts: np.ndarray) -> list[list[int]]:
    """The cards in hand of each suit, by card id (Jokers left out)."""
    return [[c for c in range(s * RANKS_PER_SUIT, (s + 1) * RANKS_PER_SUIT) if counts[c]]
            for s in range(SUITS)]


def _lowest_of_longest(counts: np.ndarray, exclude: int = -1) -> int:
    """The lowest card of the longest suit (not ``exclude``); a Joker if nothing else."""
    suits = _by_suit(counts)
    best = max((s for s in range(SUITS) if s != exclude and suits[s]),
               key=lambda s: (len(suits[s]), -s), default=None)
    if best is None:
        jokers = [c for c in range(STANDARD_CARDS, R.CARDS) if counts[c]]
        return jokers[0] if jokers else min(c for c in range(R.CARDS) if counts[c])
    return suits[best][0]


def _lay(observation: Any, legal: list[Action], lie: bool) -> Action:
    """The honest (or, with ``lie``, the deliberately false) lay described above."""
    counts = observation.hand_counts
    by_text = {a.text: a for a in legal}
    name = card_name
    if observation.phase == "lead":
        suits = _by_suit(counts)
        longest = max(range(SUITS), key=lambda s: (len(suits[s]), -s))
        if lie:
            card = _lowest_of_longest(counts, exclude=longest)
            if R.suit_of(card) == longest:
                card = suits[longest][0]
        else:
            card = suits[longest][0] if suits[longest] else _lowest_of_longest(counts)
        return by_text[f"lay {name(card)} as {'♥♦♠♣'[longest]}"]
    own = _by_suit(counts)[observation.suit] if observation.suit >= 0 else []
    if own and not lie:
        return by_text[f"lay {name(own[0])}"]
    card = _lowest_of_longest(counts, exclude=observation.suit)
    return by_text[f"lay {name(card)}"]


class HonestAgent:
    """``honest``: tells the truth whenever it can; calls only a certain lie."""

    name = "honest"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if observation.phase == "window":
            return legal_actions[0 if truth_chance(observation) == 0.0 else 1]
        return _lay(observation, legal_actions, lie=False)


class BlufferAgent:
    """``bluffer``: lies with probability ``lie_rate`` even when it could tell the truth;
    calls only a certain lie."""

    name = "bluffer"

    def __init__(self, lie_rate: float = 0.3) -> None:
        if not 0.0 <= lie_rate <= 1.0:
            raise ValueError(f"bluffer: lie_rate is a probability in 0..1, got {lie_rate}")
        self.lie_rate = lie_rate

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if observation.phase == "window":
            return legal_actions[0 if truth_chance(observation) == 0.0 else 1]
        return _lay(observation, legal_actions, lie=bool(rng.random() < self.lie_rate))


class CallerAgent:
    """``caller``: lays honestly; calls when the card is unlikely to be true (counting the
    cards of the suit it can see)."""

    name = "caller"

    def __init__(self, threshold: float = 0.1, last_card_threshold: float = 0.5) -> None:
        for key, value in (("threshold", threshold),
                           ("last_card_threshold", last_card_threshold)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"caller: {key} is a probability in 0..1, got {value}")
        self.threshold = threshold
        self.last_card_threshold = last_card_threshold

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if observation.phase != "window":
            return _lay(observation, legal_actions, lie=False)
        last_card = observation.hand_sizes[observation.layer] == 0
        limit = self.last_card_threshold if last_card else self.threshold
        return legal_actions[0 if truth_chance(observation) < limit else 1]
