"""Paris d'amis through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.paris_damis.rules`; this module turns its flat arrays into
the objects bots, runners and people use (actions with readable names, observations, results,
an event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numba import njit

from engines.core.base import RulesGame, RulesObservation, RulesState, observed
from engines.core.cards import SUIT_NAMES, SUIT_SYMBOLS, card_name
from engines.core.compiled import with_stream
from engines.core.streams import advance_with_stream
from engines.games.paris_damis import rules as R
from engines.games.paris_damis.params import ParisDamisParams

PHASE_NAMES = {R.SETUP: "setup", R.TURN: "turn", R.DISCARD: "discard",
               R.RECYCLE: "recycle", R.HAND_CHANGE: "hand_change", R.EXCHANGE: "exchange",
               R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``place 10♥ → hearts``, ``bet 2``, ``discard 3♣``,
    ``keep``, ``exchange``."""
    if code < R.BET_ACTION:
        card, column = divmod(code - R.PLACE, R.COLUMNS)
        return f"place {card_name(card)} → {SUIT_NAMES[column]}"
    if code < R.DISCARD_ACTION:
        return f"bet {code - R.BET_ACTION + 1}"
    if code < R.KEEP:
        return f"discard {card_name(code - R.DISCARD_ACTION)}"
    return "keep" if code == R.KEEP else "exchange"


@njit(cache=True)
def _apply_and_list(s, pr, code, out):
    """Apply an action; if a decision follows at once, list its legal actions into ``out``
    (one compiled call per decision).  Returns (legal count or 0, round before, phase
    after)."""
    round_before = s[R.ROUND]
    R.apply_action(s, pr, code)
    n = 0
    if not R.chance_pending(s) and s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, out)
    return n, round_before, s[R.PHASE]


class ParisDamisState(RulesState):
    """One game of Paris d'amis in progress (see :mod:`engines.core.api`).  The log reads
    ``P0 place 10♥ → hearts``, ``P1 bet 2``, ``round 1 ends; ♠: P1 wins K♠ (14 vs 12); ...;
    k = 2: P1 ✓ bet 2, P0 ✗ bet 1``, ``new cards: P0 +10 (13 in hand), ...``, ``P2 exchanges
    7 cards for 5``, ``round 2: trump ♦, face up 9♥ A♦ Q♠ 8♣, P1 starts``."""

    def _play(self, code: int) -> None:
        s = self.s
        n, round_before, phase = _apply_and_list(s, self._pr, code, self._buffer)
        if n:
            self._read_legal(n)
        if phase != R.TURN and R.BET_ACTION <= code < R.DISCARD_ACTION:
            self._log.append(("round_end", s.copy()))
            self._record_round()
        chance = phase == R.RECYCLE or phase == R.EXCHANGE
        if chance:
            before = s.copy()
            with_stream(advance_with_stream, self._tag, s, self._pr, self._stream)
            self._log.append(("chance", before, s.copy()))
        if (chance or code == R.KEEP) and s[R.ROUND] != round_before:
            self._log.append(("round_start", s.copy()))

    def _describe(self, entry: tuple) -> str:
        if entry[0] == "round_end":
            return _describe_round_end(self.game.params, entry[1])
        if entry[0] == "chance":
            return _describe_chance(self.game.params, entry[1], entry[2])
        return _describe_round_start(entry[1])

    def _where(self) -> str:
        return f"in phase {self.phase}"


def _describe_round_end(params: ParisDamisParams, s: np.ndarray) -> str:
    n = params.players
    parts = []
    for column in range(R.COLUMNS):
        card = R.face_up_card(s, column)
        prize = card_name(card) if card >= 0 else "nothing"
        totals = [int(s[R.COLUMN_TOTAL + p * R.COLUMNS + column]) for p in range(n)
                  if s[R.COLUMN_FIRST + p * R.COLUMNS + column] >= 0]
        winner = int(s[R.COLUMN_WINNER + column])
        if not totals:
            parts.append(f"{SUIT_SYMBOLS[column]}: empty")
        elif winner < 0:
            parts.append(f"{SUIT_SYMBOLS[column]}: tie, nobody wins {prize}")
        else:
            shown = " vs ".join(str(t) for t in sorted(totals, reverse=True))
            parts.append(f"{SUIT_SYMBOLS[column]}: P{winner} wins {prize} ({shown})")
    bettors = sorted(range(n), key=lambda p: s[R.BET_ORDER + p])
    bets = ", ".join(f"P{p} {'✓' if s[R.BET_CORRECT + p] else '✗'} bet {s[R.BET + p]}"
                     for p in bettors)
    return (f"round {int(s[R.ROUND]) + 1} ends; " + "; ".join(parts)
            + f"; k = {int(s[R.ROUND_K])}: {bets}")


def _describe_chance(params: ParisDamisParams, before: np.ndarray, after: np.ndarray) -> str:
    n = params.players
    hands_before = before[R.HAND_SIZE:R.HAND_SIZE + n]
    hands = after[R.HAND_SIZE:R.HAND_SIZE + n]
    if before[R.PHASE] == R.EXCHANGE:
        player = int(before[R.CURRENT])
        return f"P{player} exchanges {hands_before[player]} cards for {hands[player]}"
    return "new cards: " + ", ".join(
        f"P{p} +{hands[p] - hands_before[p]} ({hands[p]} in hand)" for p in range(n))


def _describe_round_start(s: np.ndarray) -> str:
    faces = " ".join(card_name(c) if c >= 0 else "–"
                     for c in (R.face_up_card(s, suit) for suit in range(R.SUITS)))
    return (f"round {int(s[R.ROUND]) + 1}: trump {SUIT_SYMBOLS[int(s[R.TRUMP])]}, "
            f"face up {faces}, P{int(s[R.STARTER])} starts")


@dataclass(frozen=True)
class Column:
    """One column as a player sees it: placements in order and each player's total."""

    suit: int
    placements: tuple[tuple[int, int], ...]     # (player, card) in placement order
    totals: tuple[int, ...]                     # per seat


class ParisDamisObservation(RulesObservation):
    """What one seat may know, decoded on demand from a masked copy of the state."""

    @cached_property
    def hand(self) -> tuple[int, ...]:
        own = R.LOC_HAND + self.player
        return tuple(int(c) for c in np.flatnonzero(self._field("location") == own))

    @property
    def round(self) -> int:
        """Round number, 1-based."""
        return int(self._s[R.ROUND]) + 1

    trump = observed(R.TRUMP)
    starter = observed(R.STARTER)

    @property
    def face_up(self) -> tuple[int, ...]:
        """The points card contested in each column (-1: pile exhausted)."""
        return tuple(int(R.face_up_card(self._s, suit)) for suit in range(R.SUITS))

    @cached_property
    def columns(self) -> tuple[Column, ...]:
        n, s = self.params.players, self._s
        placed = int(s[R.PLACEMENTS])
        cols = []
        for column in range(R.COLUMNS):
            order = tuple((int(s[R.PLACEMENT_PLAYER + i]), int(s[R.PLACEMENT_CARD + i]))
                          for i in range(placed) if s[R.PLACEMENT_COLUMN + i] == column)
            totals = tuple(int(s[R.COLUMN_TOTAL + p * R.COLUMNS + column]) for p in range(n))
            cols.append(Column(column, order, totals))
        return tuple(cols)

    @property
    def bets(self) -> tuple[int, ...]:
        """Each seat's bet this round (0: not yet)."""
        return self._seat_field("bet")

    @property
    def bet_order(self) -> tuple[int, ...]:
        return self._seat_field("bet_order")

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._seat_field("hand_size")

    @property
    def markers_left(self) -> tuple[int, ...]:
        return tuple(self.params.markers - m for m in self._seat_field("markers_used"))

    deck_size = observed(R.DECK_SIZE)

    @property
    def to_discard(self) -> int:
        """Cards this seat still has to discard (discard phase)."""
        return int(self._s[R.TO_DISCARD + self.player])

    @cached_property
    def treasures(self) -> tuple[tuple[int, ...], ...]:
        """The points cards each seat has won."""
        owners = self._field("points_owner")
        return tuple(tuple(int(c) for c in np.flatnonzero(owners == p))
                     for p in range(self.params.players))

    @property
    def suit_scores(self) -> tuple[tuple[int, ...], ...]:
        """Points per suit in each seat's treasure so far."""
        return tuple(tuple(sum(int(R.points_value(c)) for c in cards if R.suit_of(c) == suit)
                           for suit in range(R.SUITS)) for cards in self.treasures)

    def _field(self, name: str) -> np.ndarray:
        return R.STATE.get(self._s, name)

    def _seat_field(self, name: str) -> tuple[int, ...]:
        return tuple(int(v) for v in self._field(name)[:self.params.players])

    def __repr__(self) -> str:
        hand = " ".join(card_name(c) for c in self.hand)
        return (f"<P{self.player} sees round {self.round} ({self.phase}), trump "
                f"{SUIT_SYMBOLS[self.trump]}, hand [{hand}]>")


class ParisDamis(RulesGame):
    title = "Paris d'amis"
    examples = "'place 10♥ → hearts', 'bet 2', 'discard 3♣', 'keep'"
