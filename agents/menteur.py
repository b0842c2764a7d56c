"""Bots for le menteur: ``honest``, ``bluffer`` and ``caller``.

All three read only their observation (:class:`engines.games.menteur.MenteurObservation`): their
hand, the pile (the cards they laid themselves, the others face down), the announced suit
and hand sizes.

Counting: of the announced suit there are 13 cards (8 in the 32-card pack; with
``joker_rule=wild`` the Jokers count as cards of every suit).  A seat sees the ones in its
hand and the true ones it laid in the pile; the others are among the cards it cannot see
(the other hands and the others' face-down pile cards, which are the other hands as they
were when the pile was led).  None left unseen makes the card just laid a certain lie.

The chance that the card just laid is true is estimated by supposing the layer tells the
truth while he can and his hand at the lead of the pile was drawn at random from the cards
the seat cannot see: his k-th card on this pile is true if he came to it with k cards of the
suit at least (hypergeometric odds); the leader, who chose the suit, is supposed to hold one.
The chance falls as the layer lays more cards on one pile and his hand shrinks.

Laying, all three: leading, announce the suit held most of and lay its lowest card;
following, lay the lowest card of the suit.  With none, lie with an ``always_lie`` Joker,
else the lowest card of the shortest other suit (the long suits are kept to follow or lead
truthfully later; a wild Joker, true for any suit, is laid last).  With two cards left, one
true and one a lie, lay the lie first: the last card is the one everybody calls.

* ``honest`` never lies when it can tell the truth but for that last card.  It calls a
  certain lie, and a last card whose going out would end the game for it (the first out, or
  it would be left last with ``play_to_last``): letting it pass loses, a call can only save it.
* ``bluffer`` (option ``lie_rate``, default 0.3) plays as ``honest`` but, with probability
  ``lie_rate`` (drawn from the decision stream), lies although it could tell the truth,
  keeping the suit's cards for later.  It calls as ``honest``.
* ``caller`` (option ``threshold``, default 0.1) lays as ``honest`` and calls whenever the
  estimated chance that the card is true is below ``threshold``, or below
  ``last_card_threshold`` (default 0.5) when the card was the layer's last.
"""

from __future__ import annotations

from math import comb
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


def unseen_of_suit(observation: Any) -> int:
    """Cards of the announced suit this seat cannot see: not in its hand, not laid true by
    itself in the pile.  0 makes the card just laid a certain lie."""
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
    return max(0, suit_cards(observation) - seen)


def truth_chance(observation: Any) -> float:
    """The estimated chance that the card just laid is of the announced suit: that the layer,
    laying the truth while he could, came to this pile with at least as many cards of the
    suit as he has laid on it, and with one at least if he led it (see the module
    docstring)."""
    unseen = len(observation.unseen)
    suit_unseen = min(unseen_of_suit(observation), unseen)
    laid = sum(1 for _, owner in observation.pile if owner == observation.layer)
    dealt = observation.hand_sizes[observation.layer] + laid
    led = 1 if observation.pile[0][1] == observation.layer else 0

    def at_least(k: int) -> float:
        return sum(comb(suit_unseen, x) * comb(unseen - suit_unseen, dealt - x)
                   for x in range(k, min(suit_unseen, dealt) + 1)) / comb(unseen, dealt)

    held = at_least(led)
    return at_least(laid) / held if held else 0.0


def stops_the_winner(observation: Any) -> bool:
    """The card just laid was the layer's last and, unless called, his going out ends the
    game for this seat (it is the first out, or it leaves this seat last)."""
    if observation.hand_sizes[observation.layer] != 0:
        return False
    holding = sum(1 for size in observation.hand_sizes if size > 0)
    return not observation.params.play_to_last or holding == 1


def _by_suit(counts: np.ndarray) -> list[list[int]]:
    """The cards in hand of each suit, by card id (Jokers left out)."""
    return [[c for c in range(s * RANKS_PER_SUIT, (s + 1) * RANKS_PER_SUIT) if counts[c]]
            for s in range(SUITS)]


def _lie_card(observation: Any, exclude: int) -> int:
    """The card to lie with, not of suit ``exclude`` when it can: a Joker that is always a
    lie, else the lowest card of the shortest other suit (the cards of the long suits are
    kept to follow or lead truthfully later); a card of ``exclude``, or a wild Joker, when
    it holds nothing else."""
    counts = observation.hand_counts
    if observation.params.joker_rule != "wild":
        for joker in range(STANDARD_CARDS, R.CARDS):
            if counts[joker]:
                return joker
    suits = _by_suit(counts)
    shortest = min((s for s in range(SUITS) if s != exclude and suits[s]),
                   key=lambda s: (len(suits[s]), s), default=None)
    if shortest is None:
        return min(c for c in range(R.CARDS) if counts[c])
    return suits[shortest][0]


def _lay(observation: Any, legal: list[Action], lie: bool) -> Action:
    """The honest (or, with ``lie``, the deliberately false) lay described above."""
    by_text = {a.text: a for a in legal}
    suits = _by_suit(observation.hand_counts)
    leading = observation.phase == "lead"
    suit = max(range(SUITS), key=lambda s: (len(suits[s]), -s)) if leading \
        else observation.suit
    card = suits[suit][0] if suits[suit] and not lie else _lie_card(observation, suit)
    card = _keep_a_true_last_card(observation, card, suit)
    return by_text[f"lay {card_name(card)} as {'♥♦♠♣'[suit]}" if leading
                   else f"lay {card_name(card)}"]


def _keep_a_true_last_card(observation: Any, card: int, suit: int) -> int:
    """With two cards left, ``card`` true and the other a lie: the other, so that the last
    card, the one everybody calls, is true."""
    held = np.repeat(np.arange(R.CARDS), observation.hand_counts)
    if len(held) != 2:
        return card
    other = int(held[1] if held[0] == card else held[0])
    pr = observation.encoded_params
    return other if R.is_lie(pr, other, suit) and not R.is_lie(pr, card, suit) else card


def _call_or_not(observation: Any, legal: list[Action]) -> Action:
    """``honest`` and ``bluffer`` in the window: call a certain lie, or a last card that
    would end the game."""
    certain = unseen_of_suit(observation) == 0
    return legal[0 if certain or stops_the_winner(observation) else 1]


class HonestAgent:
    """``honest``: tells the truth whenever it can (but to keep a true last card); calls a
    certain lie, or a last card that would end the game for it."""

    name = "honest"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if observation.phase == "window":
            return _call_or_not(observation, legal_actions)
        return _lay(observation, legal_actions, lie=False)


class BlufferAgent:
    """``bluffer``: lies with probability ``lie_rate`` even when it could tell the truth;
    calls as ``honest``."""

    name = "bluffer"

    def __init__(self, lie_rate: float = 0.3) -> None:
        if not 0.0 <= lie_rate <= 1.0:
            raise ValueError(f"bluffer: lie_rate is a probability in 0..1, got {lie_rate}")
        self.lie_rate = lie_rate

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if observation.phase == "window":
            return _call_or_not(observation, legal_actions)
        return _lay(observation, legal_actions, lie=bool(rng.random() < self.lie_rate))


class CallerAgent:
    """``caller``: lays as ``honest``; calls when the card is unlikely to be true (counting
    the cards of the suit it can see and the cards the layer laid on this pile)."""

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
