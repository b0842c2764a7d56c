"""Belote games (belote-a-trois, belote-comptoir) through the common game API: the shared
trick-game wrapper (:mod:`engines.families.tricks.game`) over the compiled rules of
:mod:`engines.games.belote.rules`, which each game configures (``encode``).

Actions, in the order ``legal_actions()`` lists them: ``play 7♥`` .. ``play A♣`` in card id
order (suits ♥ ♦ ♠ ♣, ranks 7 .. A), or ``play blind`` (comptoir ``blind_play``); in the
bidding ``pass`` first, then ``take`` (à trois, round 1), ``take ♥`` .. ``take ♣`` (à trois,
round 2) or ``bid v`` ascending (comptoir); the declarer's ``trump ♥`` .. ``trump ♣``,
``sans atout``, ``tout atout``; the dealer's ``deal 1`` .. ``deal 5``.  Card names also accept
letters for suits (``play Js``).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from engines.core.base import observed, observed_seats, or_none
from engines.core.cards import SUIT_SYMBOLS, card_name
from engines.families.tricks.game import TrickGame, TrickObservation, TrickState
from engines.games.belote import rules as R
from engines.games.belote import summary

PHASE_NAMES = {R.DEAL: "deal", R.CHOOSE_K: "choosing k", R.BIDDING: "bidding",
               R.CHOOSING: "contract", R.PLAYING: "tricks", R.OVER: "over"}


def contract_name(contract: int) -> str:
    """``♥`` for a trump suit, ``sans atout``, ``tout atout``."""
    if contract == R.SANS_ATOUT:
        return "sans atout"
    if contract == R.TOUT_ATOUT:
        return "tout atout"
    return SUIT_SYMBOLS[contract] if contract >= 0 else "-"


def action_text(code: int) -> str:
    """Readable form of an action code."""
    if code < R.PASS:
        return f"play {card_name(code - R.PLAY)}"
    if code == R.PASS:
        return "pass"
    if code == R.TAKE:
        return "take"
    if code < R.CHOOSE_CONTRACT:
        return f"take {SUIT_SYMBOLS[code - R.TAKE_SUIT]}"
    if code < R.DEAL_K:
        contract = code - R.CHOOSE_CONTRACT
        return contract_name(contract) if contract >= R.SUITS else \
            f"trump {contract_name(contract)}"
    if code < R.PLAY_BLIND:
        return f"deal {code - R.DEAL_K + 1}"
    if code == R.PLAY_BLIND:
        return "play blind"
    return f"bid {code - R.BID_ACTION}"


class BeloteObservation(TrickObservation):
    """What one seat of a belote game may know."""

    contract = observed(R.CONTRACT, "The contract: a trump suit 0..3, ``R.SANS_ATOUT`` or "
                        "``R.TOUT_ATOUT`` (None before it is known).", kind=or_none)
    trump = observed(R.TRUMP, "The trump suit (None without one).", kind=or_none)
    taker = observed(R.TAKER, "The taker (à trois) or the highest bidder so far (comptoir), "
                     "once there is one.", kind=or_none)
    turned = observed(R.TURNED, "À trois: the turned card.", kind=or_none)
    bid_round = observed(R.BID_ROUND, "À trois: 1 or 2.")
    high_bid = observed(R.HIGH_BID, "Comptoir: the highest bid so far (0: none).")
    bids = observed_seats(R.BID, "Each seat's bid this deal (-1: silent so far; see ``STATE``).")
    taken = observed_seats(R.TAKEN, "Card points (and dix de der) each seat has won this deal.")

    @cached_property
    def won(self) -> dict[int, tuple[int, ...]]:
        """The cards in each seat's tricks this deal (public)."""
        return {p: self._located(R.LOC_WON + p) for p in range(self.params.players)}

    @cached_property
    def unseen_own(self) -> int:
        """How many of this seat's own cards it cannot see (blind variants)."""
        return int(self.hand_sizes[self.player]) - len(self.hand)

    @cached_property
    def face_up(self) -> dict[int, tuple[int, ...]]:
        """Other seats' cards visible to everyone (partial_open, the turned card)."""
        out = {}
        for p in range(self.params.players):
            if p != self.player:
                out[p] = tuple(c for c in self._located(R.LOC_HAND + p)
                               if self._s[R.FACE_UP + c])
        return out

    @property
    def strength(self) -> np.ndarray:
        """Each card's order under the contract (higher wins within its suit)."""
        return self._s[R.STRENGTH:R.STRENGTH + R.DECK_CARDS]

    @property
    def card_points(self) -> np.ndarray:
        """Each card's points under the contract."""
        return self._s[R.CARD_POINTS:R.CARD_POINTS + R.DECK_CARDS]

    def __repr__(self) -> str:
        return f"{super().__repr__()[:-1]}, contract {contract_name(int(self._s[R.CONTRACT]))}>"


class BeloteState(TrickState):
    """One belote game in progress."""


class BeloteGame(TrickGame):
    """A belote game with fixed parameters; each game subclasses it with its ``title``
    (its ``Params`` and ``encode``, its parameters as the rules' data, are found beside it)."""

    rules = R
    summary = summary
    verbs = {"play": R.PLAY}
    examples = "'pass', 'take', 'take ♠', 'bid 30', 'trump ♥', 'deal 3', 'play J♥', 'play 10h'"

    def describe_deal(self, s: np.ndarray) -> str:
        """``deal 1: P0 deals, 5 cards each, J♥ turned`` (or how many cards)."""
        text = f"deal {int(s[R.ROUND]) + 1}: P{int(s[R.DEALER])} deals"
        if s[R.PHASE] == R.CHOOSE_K:
            return text + " and chooses how many cards"
        text += f", {int(s[R.HAND_SIZE:R.HAND_SIZE + self.params.players].max())} cards each"
        if s[R.TURNED] >= 0:
            text += f", {card_name(int(s[R.TURNED]))} turned"
        return text

    def describe_round_end(self, s: np.ndarray) -> str:
        """``deal 1 ends: P1 took ♥, 92 to 70, made; P0 +70 (70), P1 +92 (92), P2 +70 (70)``
        or ``deal 1 ends: everyone passed``."""
        head = f"deal {int(s[R.ROUNDS_PLAYED])} ends: "
        taker = int(s[R.TAKER])
        if taker < 0:
            return head + "everyone passed"
        bid = f" for {int(s[R.HIGH_BID])}" if s[R.HIGH_BID] > 0 else ""
        outcome = "made" if s[R.MADE] else "failed"
        capot = {1: ", capot", -1: ", capot against"}.get(int(s[R.CAPOT]), "")
        parts = ", ".join(f"P{p} {int(s[R.POINTS + p]):+d} ({int(s[R.SCORE + p])})"
                          for p in range(self.params.players))
        return (f"{head}P{taker} takes {contract_name(int(s[R.CONTRACT]))}{bid}, "
                f"{int(s[R.TAKER_TOTAL])} to {int(s[R.DEFENCE_TOTAL])}, {outcome}{capot}; "
                f"{parts}")
