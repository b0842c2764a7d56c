"""Heuristic belote bots: ``taker`` (belote-a-trois) and ``claimer`` (belote-comptoir).

Both play in Python over the seat's observation (its own visible cards, the turned card, the
bids, the trick in progress and each card's order and points under the contract), and share
one way to rate a hand and one way to play a card.

**Strength of a hand for a trump suit S**: the trump points of its cards of S (J 20, 9 14,
A 11, 10 10, K 4, Q 3) plus the plain points of its aces of the other suits (11 each): the
points it expects to win with cards that are masters from the start.

**taker** (option ``threshold``, default 35).  Round 1: takes the turned suit when the
strength of its hand and the turned card for that suit reaches ``threshold``.  Round 2: names
the suit (other than the turned one, unless the variant allows it) where its hand is
strongest, if that strength reaches ``threshold``; otherwise passes.

**claimer** (option ``ratio``, default 1.0).  It bids ``ratio`` × its best strength (over the
four suits), plus 10 for the dix de der when it holds the jack of that suit, rounded down,
if that is a legal bid, and otherwise passes.  As declarer it names the suit of its best
strength.  It never chooses sans-atout or tout-atout.  As dealer it deals 5 cards when it
may (the most it can), else the largest k allowed.

**Play (both)**.  A card *beats* the trick so far when it is a trump above every trump in it,
or of the led suit above every card of that suit in it with no trump played (leading, every
card beats).  When a partner holds the trick (à trois: the other defender), it plays its
legal card with the most points that does not beat it (its lowest card if all would).
Otherwise it plays its highest legal card that beats the trick (trumps above plain cards,
then by order), and when none does its lowest card (fewest points, then plain before trump,
then lowest order).  A blind player (``play blind``) has nothing to choose.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Action
from engines.core.cards import JACK
from engines.games.belote import rules as R

TRUMP_POINTS = R.rank_table(R.TRUMP_POINTS)
PLAIN_POINTS = R.rank_table(R.PLAIN_POINTS)
SUITS = range(R.SUITS)


def strength(cards: tuple[int, ...], suit: int) -> int:
    """The hand's strength for trump ``suit`` (see the module docstring)."""
    total = 0
    for card in cards:
        rank = int(R.CARD_RANK[card])
        if R.CARD_SUIT[card] == suit:
            total += int(TRUMP_POINTS[rank - 2])
        elif rank == 14:
            total += int(PLAIN_POINTS[rank - 2])
    return total


def beats(observation: Any, card: int) -> bool:
    """Whether ``card`` would win the trick so far."""
    trick = observation.trick
    if not trick:
        return True
    order = observation.strength
    trump = observation.trump
    suit = int(R.CARD_SUIT[card])
    trumps = [order[c] for _, c in trick if R.CARD_SUIT[c] == trump]
    if trump is not None and suit == trump:
        return not trumps or order[card] > max(trumps)
    led = int(R.CARD_SUIT[trick[0][1]])
    if trumps or suit != led:
        return False
    return order[card] > max(order[c] for _, c in trick if R.CARD_SUIT[c] == led)


def trick_holder(observation: Any) -> int | None:
    """The seat winning the trick so far (None on a lead)."""
    trick = observation.trick
    if not trick:
        return None
    lead = trick[0][1]
    holder, best = trick[0]
    for seat, card in trick[1:]:
        if _beats_card(observation, card, best, lead):
            holder, best = seat, card
    return holder


def _beats_card(observation: Any, card: int, best: int, lead: int) -> bool:
    order, trump = observation.strength, observation.trump
    suit, best_suit = int(R.CARD_SUIT[card]), int(R.CARD_SUIT[best])
    if trump is not None and suit == trump:
        return best_suit != trump or order[card] > order[best]
    return suit == best_suit and suit == R.CARD_SUIT[lead] and order[card] > order[best]


def play_card(observation: Any, legal: list[Action]) -> Action:
    """The card to play (see the module docstring)."""
    plays = [a for a in legal if a.code < R.PASS]
    if not plays:
        return legal[0]
    order, points, trump = observation.strength, observation.card_points, observation.trump

    def rank(a: Action) -> tuple[int, int]:
        return (int(R.CARD_SUIT[a.code] == trump), int(order[a.code]))

    def low(a: Action) -> tuple[int, int, int]:
        return (int(points[a.code]), *rank(a))

    holder = trick_holder(observation)
    taker = observation.taker
    me = observation.player
    if observation.params.game == "belote-a-trois" and holder is not None and \
            me != taker and holder != taker and holder != me:
        keep = [a for a in plays if not beats(observation, a.code)]
        return max(keep, key=low) if keep else min(plays, key=low)
    winners = [a for a in plays if beats(observation, a.code)]
    if winners:
        return max(winners, key=rank)
    return min(plays, key=low)


class TakerAgent:
    """The ``taker`` bot for belote-a-trois (see the module docstring)."""

    name = "taker"

    def __init__(self, threshold: int = 35) -> None:
        self.threshold = threshold

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        texts = {a.code: a for a in legal_actions}
        if R.TAKE in texts:
            turned = observation.turned
            hand = observation.hand + (turned,)
            if strength(hand, int(R.CARD_SUIT[turned])) >= self.threshold:
                return texts[R.TAKE]
            return texts[R.PASS]
        suits = [a for a in legal_actions if R.TAKE_SUIT <= a.code < R.CHOOSE_CONTRACT]
        if suits:
            best = max(suits, key=lambda a: strength(observation.hand, a.code - R.TAKE_SUIT))
            if strength(observation.hand, best.code - R.TAKE_SUIT) >= self.threshold:
                return best
            return texts[R.PASS]
        return play_card(observation, legal_actions)


class ClaimerAgent:
    """The ``claimer`` bot for belote-comptoir (see the module docstring)."""

    name = "claimer"

    def __init__(self, ratio: float = 1.0) -> None:
        self.ratio = ratio

    def best_suit(self, hand: tuple[int, ...]) -> int:
        return max(SUITS, key=lambda s: strength(hand, s))

    def claim(self, hand: tuple[int, ...]) -> int:
        """The points it claims with ``hand``."""
        suit = self.best_suit(hand)
        der = R.DIX_DE_DER if suit * 13 + JACK - 2 in hand else 0
        return int(self.ratio * strength(hand, suit)) + der

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        codes = {a.code: a for a in legal_actions}
        first = legal_actions[0].code
        if R.DEAL_K <= first < R.PLAY_BLIND:
            return legal_actions[-1]
        if R.CHOOSE_CONTRACT <= first < R.DEAL_K:
            return codes[R.CHOOSE_CONTRACT + self.best_suit(observation.hand)]
        if first == R.PASS:
            return codes.get(R.BID_ACTION + self.claim(observation.hand), codes[R.PASS])
        return play_card(observation, legal_actions)
