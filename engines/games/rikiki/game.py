"""Rikiki through the common game API: the shared trick-game wrapper
(:mod:`engines.families.tricks.game`) over the compiled rules of :mod:`engines.games.rikiki.rules`.

Actions, in the order ``legal_actions()`` lists them: bids ``bid 0`` .. ``bid k`` ascending
(without the one the hook forbids the dealer under ``hook_rule``); plays ``play 2♥`` ..
``play A♣`` in card id order (suits ♥ ♦ ♠ ♣, ranks 2 .. A).  Plays also accept letters for
suits (``play Qs``).
"""

from __future__ import annotations

import numpy as np

from engines.core.base import observed, observed_seats, or_none
from engines.core.cards import SUIT_SYMBOLS, card_name
from engines.families.tricks.game import TrickGame, TrickObservation, TrickState
from engines.games.rikiki import rules as R

PHASE_NAMES = {R.DEAL: "deal", R.BIDDING: "bidding", R.PLAYING: "tricks", R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``play Q♠``, ``bid 2``."""
    if code < R.BID_ACTION:
        return f"play {card_name(code - R.PLAY)}"
    return f"bid {code - R.BID_ACTION}"


def suit_text(suit: int) -> str:
    return "no trump" if suit < 0 else SUIT_SYMBOLS[suit]


class RikikiObservation(TrickObservation):
    """What one seat of a Rikiki game may know."""

    @property
    def played(self) -> tuple[int, ...]:
        """Cards played to the earlier tricks of this round."""
        return self._located(R.LOC_PLAYED)

    trump_card = observed(R.TRUMP_CARD,
                          "The turned card (None when no card was left to turn).", kind=or_none)
    trump = observed(R.TRUMP, "The trump suit (None without one).", kind=or_none)
    bids = observed_seats(R.BID, "Each seat's bid this round (-1: not yet).")

    def __repr__(self) -> str:
        return f"{super().__repr__()[:-1]}, trump {suit_text(int(self._s[R.TRUMP]))}>"


class RikikiState(TrickState):
    """One game of Rikiki in progress."""


class Rikiki(TrickGame):
    title = "Rikiki"
    verbs = {"play": R.PLAY}
    examples = "'bid 2', 'play Q♠', 'play 10h'"

    def describe_deal(self, s: np.ndarray) -> str:
        """``round 1: 1 card, P0 deals, trump 7♠ turned``."""
        cards = int(s[R.CARDS])
        trump = int(s[R.TRUMP_CARD])
        turned = f"trump {card_name(trump)} turned" if trump >= 0 else "no card left: no trump"
        return (f"round {int(s[R.ROUND]) + 1}: {cards} card{'s' if cards > 1 else ''}, "
                f"P{int(s[R.DEALER])} deals, {turned}")

    def describe_round_end(self, s: np.ndarray) -> str:
        """``round 1 ends: P0 bid 1 took 0 (-15, total -15), ...``."""
        parts = [f"P{p} bid {int(s[R.BID + p])} took {int(s[R.TRICKS + p])} "
                 f"({int(s[R.POINTS + p]):+d}, total {int(s[R.SCORE + p])})"
                 for p in range(self.params.players)]
        return f"round {int(s[R.ROUNDS_PLAYED])} ends: " + ", ".join(parts)
