"""Parameters of Rikiki: every ambiguity (1 to 8) and variant of the spec.

References such as "A4" point to the "Open points and the readings we chose" section of
``docs/rules/rikiki.md`` (A1 = its first ambiguity).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core.params import Params, param

MIN_PLAYERS, MAX_PLAYERS = 2, 10
DECK_CARDS = 52
MAX_HAND = DECK_CARDS // MIN_PLAYERS        # 26 cards each: 2 players, max_rule=52
MAX_ROUNDS = 2 * MAX_HAND                   # the longest schedule: 1..25..1 with the peak twice
MAX_BID = MAX_HAND                          # allow_overbid: bids up to the most cards a hand has


@dataclass(frozen=True)
class RikikiParams(Params):
    """Rikiki rule parameters; defaults follow the specification."""

    game: ClassVar[str] = "rikiki"

    players: int = param(4, "number of players (3-7 recommended)", min=MIN_PLAYERS,
                         max=MAX_PLAYERS)
    max_rule: int = param(
        51, "largest hand: floor(51/players) (a trump card can always be turned) or "
        "floor(52/players) (a deal that uses every card is played without trumps)",
        ref="A1", choices=(51, 52))
    peak_twice: bool = param(False, "play the largest hand twice (1..M, M..1)", ref="A2")
    hands: tuple[int, ...] = param(
        (), "schedule of hand sizes, e.g. 5 (a single 5-card deal) or 1,2,3; empty: the "
        "spec's 1..M..1", min=1, max=MAX_HAND)
    allow_overbid: bool = param(
        False, f"bids may exceed the hand size (up to {MAX_BID})", ref="A3")
    hook_rule: bool = param(False, "the dealer (last bidder) may not make the bids total the "
                                   "hand size", ref="A5")
    must_trump: bool = param(False, "a player void in the led suit must trump if able",
                             ref="A4")
    must_overtrump: bool = param(
        False, "a trump played to a trick holding a trump must beat it if able (with "
        "must_trump: a void player must overtrump if able)", ref="A4")
    first_dealer: int | None = param(
        None, "dealer of the first round; none: drawn at random", ref="A6", min=0,
        max=MAX_PLAYERS - 1)
    made_base: int = param(10, "points for a made bid", min=0, max=1000)
    per_trick: int = param(5, "points per trick taken in a made bid", min=0, max=1000)
    fail_base: int = param(10, "points lost for a failed bid", min=0, max=1000)
    per_diff: int = param(5, "points lost per trick of difference in a failed bid", min=0,
                          max=1000)

    def max_hand(self) -> int:
        """M: the largest hand of the spec's schedule (A1)."""
        return self.max_rule // self.players

    def schedule(self) -> tuple[int, ...]:
        """The hand size of each round: ``hands`` if given, else 1..M..1 (M twice under
        ``peak_twice``)."""
        if self.hands:
            return self.hands
        m = self.max_hand()
        up = tuple(range(1, m + 1))
        return up + (m,) * self.peak_twice + up[-2::-1]

    def validate(self) -> None:
        self.check_seat("first_dealer")
        most = DECK_CARDS // self.players
        too_big = [k for k in self.hands if k > most]
        if too_big:
            raise ValueError(f"rikiki: hands={too_big[0]} needs more than the {DECK_CARDS} "
                             f"cards for {self.players} players; valid values: 1..{most}")
        if len(self.hands) > MAX_ROUNDS:
            raise ValueError(f"rikiki: hands lists {len(self.hands)} rounds; at most "
                             f"{MAX_ROUNDS}")
