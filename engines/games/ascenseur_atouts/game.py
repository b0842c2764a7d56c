"""Ascenseur aux atouts through the common game API: the trick family's wrapper
(:mod:`engines.families.tricks.game`) over the compiled rules of
:mod:`engines.games.ascenseur_atouts.rules`.

Actions, in the order ``legal_actions()`` lists them: bids ``bid 0`` .. ``bid c`` ascending
(``not take``, ``take`` in the blind hand), without the one the hook forbids the dealer;
plays ``play T1`` .. ``play T21`` ascending over the hand, then ``play Excuse high`` and
``play Excuse low``.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from engines.core.base import observed, observed_seats
from engines.families.tricks.game import TrickGame, TrickObservation, TrickState
from engines.games.ascenseur_atouts import rules as R

PHASE_NAMES = {R.DEAL: "deal", R.BIDDING: "bidding", R.PLAYING: "tricks", R.OVER: "over"}


def card_text(card: int) -> str:
    """``T1`` .. ``T21`` for the trumps, ``Excuse``."""
    return "Excuse" if card == R.EXCUSE else f"T{card + 1}"


def action_text(code: int) -> str:
    """Readable form of an action code: ``play T14``, ``play Excuse high``, ``bid 2``,
    ``take``, ``not take``."""
    if code < R.EXCUSE_HIGH:
        return f"play {card_text(code - R.PLAY)}"
    if code == R.EXCUSE_HIGH:
        return "play Excuse high"
    if code == R.EXCUSE_LOW:
        return "play Excuse low"
    if code < R.NOT_TAKE:
        return f"bid {code - R.BID_ACTION}"
    return "take" if code == R.TAKE else "not take"


class AscenseurObservation(TrickObservation):
    """What one seat may know: the family's fields (``hand``: in the blind hand, empty until
    it is this seat's turn to play, the card being on their forehead); ``scores`` are the
    ``errors``."""

    progress = ("DECISIONS", "HAND")

    @cached_property
    def visible_hands(self) -> dict[int, tuple[int, ...]]:
        """The other seats' cards this seat can see (the blind hand only)."""
        if not self.blind:
            return {}
        return {p: self._located(R.LOC_HAND + p) for p in range(self.params.players)
                if p != self.player}

    @cached_property
    def played(self) -> tuple[int, ...]:
        """Cards played to the earlier tricks of this hand."""
        return self._located(R.LOC_PLAYED)

    @property
    def trick(self) -> tuple[tuple[int, int, int], ...]:  # type: ignore[override]
        """The trick in progress: (seat, card, strength) in playing order (the Excuse's
        strength is 22 played high, 0 played low)."""
        s = self._s
        return tuple((int(s[R.TRICK_SEAT + i]), int(s[R.TRICK_CARD + i]),
                      int(s[R.TRICK_STRENGTH + i])) for i in range(int(s[R.PLAYED])))

    blind = observed(R.BLIND, kind=bool)
    bids = observed_seats(R.BID, "Each seat's bid this hand (-1: not yet).")
    errors = observed_seats(R.ERRORS, "Error points so far: each seat's score pile shows "
                            "the (errors + 2)-th card.")
    scores = errors                     # the running figure (``Result.scores`` negates it)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed this hand, the one in progress included."""
        return int(self._s[R.CARDS] - self._s[R.TRICK])

    def __repr__(self) -> str:
        hand = " ".join(card_text(c) for c in self.hand) or "?"
        return (f"<P{self.player} sees hand {int(self._s[R.HAND]) + 1} ({self.phase}), "
                f"cards [{hand}], bids {self.bids}>")


class AscenseurState(TrickState):
    """One game of Ascenseur aux atouts in progress."""


    def __repr__(self) -> str:
        return (f"<ascenseur-atouts hand {int(self.s[R.HAND]) + 1} "
                f"({int(self.s[R.CARDS])} cards), {self.phase}, P{self.current_player} to play>")


class AscenseurAtouts(TrickGame):
    title = "Ascenseur aux atouts"
    examples = ("'bid 2', 'take', 'not take', 'play T14', 'play Excuse high', "
                "'play Excuse low'")

    def describe_deal(self, s: np.ndarray) -> str:
        """``hand 1: 5 cards, P0 deals`` (and, blind, the cards on the foreheads)."""
        cards = int(s[R.CARDS])
        text = (f"hand {int(s[R.HAND]) + 1}: {cards} card{'s' if cards > 1 else ''}, "
                f"P{int(s[R.DEALER])} deals")
        if s[R.BLIND]:
            foreheads = ", ".join(
                f"P{p} {card_text(int(c))}" for p in range(self.params.players)
                for c in np.flatnonzero(
                    s[R.LOCATION:R.LOCATION + R.PLAY_CARDS] == R.LOC_HAND + p))
            text += f"; blind, on the foreheads: {foreheads}"
        return text

    def describe_trick(self, s: np.ndarray) -> str:
        """``trick 1: P1 T4, P2 T9, P3 Excuse high, P0 T1 → P3``."""
        plays = []
        for i in range(self.params.players):
            card = int(s[R.TRICK_CARD + i])
            name = card_text(card)
            if card == R.EXCUSE:
                high = s[R.TRICK_STRENGTH + i] == R.EXCUSE_HIGH_STRENGTH
                name += " high" if high else " low"
            plays.append(f"P{int(s[R.TRICK_SEAT + i])} {name}")
        return f"trick {int(s[R.TRICK])}: {', '.join(plays)} → P{int(s[R.TRICK_WINNER])}"

    def describe_round_end(self, s: np.ndarray) -> str:
        """``hand 1 ends: P1 bid 2 won 1 (error 1, total 1), ...``."""
        parts = [f"P{p} bid {int(s[R.BID + p])} won {int(s[R.TRICKS + p])} (error "
                 f"{int(s[R.HAND_ERROR + p])}, total {int(s[R.ERRORS + p])})"
                 for p in range(self.params.players)]
        return f"hand {int(s[R.HANDS_PLAYED])} ends: " + ", ".join(parts)
