"""Heuristic bots for the tarot games: ``prudent`` (plain tarot and the Lorrain) and
``ducker`` (the taré).

Both read only their seat's observation (hand, trick in progress, bids, taker, the partner
once known) and the public card data of :mod:`engines.games.tarot.rules` (suits, strengths,
points).

``prudent`` bids by counting and plays safe:

* **Bidding:** a hand count of 10 per oudler, 2 per trump (3 for the 16 to the 21), 6 per
  King, 3 per Queen, 2 per Knight and 3 per void suit, scaled to an 18-card hand.  It bids
  the highest contract its count reaches (``prise`` from 40, ``garde`` from 55, ``garde
  sans`` from 70, ``garde contre`` from 82) if that is above the bids so far, else passes.
* **Five players:** it calls the King of the suit it holds most cards of.
* **Écart:** cards of its shortest suits first (to make voids), the most points first.
* **Chelem:** never announced.  **Poignée:** shown (the highest level) by the taker only.
* **Leading:** a King; else, as taker with 8 trumps or more, its lowest trump above the
  Petit; else the lowest card of its longest suit.  Never the Petit or the Excuse while it
  has another card.
* **Following:** when its camp holds the trick and it plays last (or the holder's card is
  the 21), it gives its most valuable card (the Petit when it is safe that way: "save the
  Petit"); when it plays last and can take the trick, it takes it with its cheapest winning
  card; otherwise it plays its cheapest card, keeping the Petit while it can.  The Excuse
  goes when the cheapest other card is worth 2.5 points or more, and (FFT rule) before the
  last trick.

``ducker`` plays the taré ("qui perd gagne"): it leads its weakest plain card; following,
it plays the most dangerous card that does not take the trick so far (the Excuse, worth 4.5
and never winning, first); when every card it may play takes the trick, it plays the one
worth fewest points, the strongest of those when it plays last (the trick is its own anyway)
and the weakest otherwise (a later player may have to overtrump it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Action
from engines.games.tarot import rules as R

SUIT, STRENGTH, POINTS = R.CARD_SUIT, R.CARD_STRENGTH, R.CARD_POINTS
BID_FROM = {R.PRISE: 40, R.GARDE: 55, R.GARDE_SANS: 70, R.GARDE_CONTRE: 82}
MANY_TRUMPS = 8
HIGH_TRUMP = 16
GIVE_UP_EXCUSE_FROM = 5                # half points: a Knight or better


def card_of(action: Action) -> int:
    """The card an action plays, discards or calls."""
    return action.code % R.DECK_CARDS


def is_play(action: Action) -> bool:
    return action.code < R.DISCARD


def beats(card: int, best: int, led: int) -> bool:
    """Whether ``card`` would take a trick held by ``best`` with ``led`` the suit led."""
    if card == R.EXCUSE:
        return False
    if best == R.EXCUSE:
        return True                       # led alone so far: the next card fixes the suit
    if SUIT[card] == R.TRUMP:
        return SUIT[best] != R.TRUMP or STRENGTH[card] > STRENGTH[best]
    return SUIT[card] == led and SUIT[best] == led and STRENGTH[card] > STRENGTH[best]


def trick_holder(trick: tuple[tuple[int, int], ...]) -> tuple[int, int, int]:
    """(seat, card) holding the trick so far and the suit led (-1: none yet)."""
    led = next((int(SUIT[c]) for _, c in trick if SUIT[c] >= 0), -1)
    seat, best = trick[0]
    for s, c in trick[1:]:
        if beats(c, best, led):
            seat, best = s, c
    return seat, best, led


def hand_count(hand: tuple[int, ...]) -> float:
    """The bidding count of a hand (see the module docstring), scaled to 18 cards."""
    count = 0
    suits = [0] * R.SUITS
    for card in hand:
        if R.is_oudler(card):
            count += 10
        elif SUIT[card] == R.TRUMP:
            count += 3 if STRENGTH[card] >= HIGH_TRUMP else 2
        else:
            suits[SUIT[card]] += 1
            count += {R.KING_RANK: 6, R.QUEEN_RANK: 3, R.KNIGHT_RANK: 2}.get(
                int(STRENGTH[card]), 0)
    count += 3 * suits.count(0)
    return count * 18 / max(len(hand), 1)


class PrudentAgent:
    """The ``prudent`` bot (see the module docstring); it takes no options."""

    name = "prudent"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = observation.phase
        hand = observation.hand
        if phase == "bidding":
            return self.bid(hand, legal_actions)
        if phase == "calling":
            return max(legal_actions, key=lambda a: sum(
                SUIT[c] == SUIT[card_of(a)] for c in hand if c < R.PETIT))
        if phase == "écart":
            return min(legal_actions, key=lambda a: (
                sum(SUIT[c] == SUIT[card_of(a)] for c in hand), -POINTS[card_of(a)]))
        if phase == "chelem":
            return next(a for a in legal_actions if a.code == R.NO_CHELEM)
        poignees = [a for a in legal_actions if a.code >= R.SHOW_POIGNEE]
        if poignees and observation.taker == observation.player:
            return poignees[-1]
        return self.play(observation, [a for a in legal_actions if is_play(a)])

    @staticmethod
    def bid(hand: tuple[int, ...], legal: list[Action]) -> Action:
        count = hand_count(hand)
        reached = [c for c, threshold in BID_FROM.items() if count >= threshold]
        offered = {a.code - R.BID_ACTION: a for a in legal}
        best = max(reached, default=0)
        return offered.get(best, offered[0])

    def play(self, observation: Any, legal: list[Action]) -> Action:
        cards = [card_of(a) for a in legal]
        by_card = dict(zip(cards, legal, strict=True))
        plain = [c for c in cards if c not in (R.PETIT, R.EXCUSE)] or cards
        trick = observation.trick
        if not trick:
            return by_card[self.lead(observation, plain)]
        seat, best, led = trick_holder(trick)
        last = len(trick) == observation.params.players - 1
        friend = self.friends(observation, seat)
        if R.EXCUSE in cards and len(observation.hand) == 2 and not observation.hand_passing:
            return by_card[R.EXCUSE]                     # it would be lost in the last trick
        if friend and (last or best == R.TWENTY_ONE):
            giving = [c for c in cards if c not in (R.EXCUSE, R.TWENTY_ONE)] or cards
            return by_card[max(giving, key=lambda c: (POINTS[c], -STRENGTH[c]))]
        winners = [c for c in plain if beats(c, best, led)]
        if last and winners:
            return by_card[min(winners, key=lambda c: (POINTS[c], STRENGTH[c]))]
        cheapest = min(plain, key=lambda c: (POINTS[c], SUIT[c] == R.TRUMP, STRENGTH[c]))
        if R.EXCUSE in cards and POINTS[cheapest] >= GIVE_UP_EXCUSE_FROM:
            return by_card[R.EXCUSE]
        return by_card[cheapest]

    @staticmethod
    def lead(observation: Any, plain: list[int]) -> int:
        kings = [c for c in plain if SUIT[c] < R.TRUMP and STRENGTH[c] == R.KING_RANK]
        if kings:
            return kings[0]
        trumps = [c for c in plain if SUIT[c] == R.TRUMP]
        if observation.taker == observation.player and len(trumps) >= MANY_TRUMPS:
            return min(trumps)
        suits = [c for c in plain if SUIT[c] < R.TRUMP] or plain
        length = {s: sum(SUIT[c] == s for c in suits) for s in set(SUIT[suits].tolist())}
        return min(suits, key=lambda c: (-length.get(int(SUIT[c]), 0), STRENGTH[c]))

    @staticmethod
    def friends(observation: Any, seat: int) -> bool:
        """Whether ``seat`` is known to be in this seat's camp."""
        me, taker, partner = observation.player, observation.taker, observation.partner
        if seat == me:
            return True
        attack = {taker, partner} - {None}
        if me in attack:
            return seat in attack
        if observation.params.players == 5:
            return False                                 # the partner may be unknown
        return seat != taker


class DuckerAgent:
    """The ``ducker`` bot for the taré (see the module docstring); no options."""

    name = "ducker"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        cards = [card_of(a) for a in legal_actions]
        by_card = dict(zip(cards, legal_actions, strict=True))

        def danger(card: int) -> tuple[int, int, int]:
            return int(POINTS[card]), int(SUIT[card] == R.TRUMP), int(STRENGTH[card])

        trick = observation.trick
        if not trick:
            plain = [c for c in cards if SUIT[c] < R.TRUMP] or cards
            return by_card[min(plain, key=lambda c: (STRENGTH[c], POINTS[c]))]
        _, best, led = trick_holder(trick)
        ducks = [c for c in cards if not beats(c, best, led)]
        if ducks:
            return by_card[max(ducks, key=danger)]
        last = len(trick) == observation.params.players - 1
        sign = 1 if last else -1
        return by_card[min(cards, key=lambda c: (POINTS[c], -sign * STRENGTH[c]))]
