"""The rummy games' core on the common base (:mod:`engines.core.base`): the action texts,
how a decision is stepped (rami, petite école, pinacle), the hands it logs, and what a rummy
observation reads.

A game subclasses :class:`RummyGame`, :class:`RummyState` and :class:`RummyObservation` with
its rules module (``rules``: what the base reads, ``ROUNDS`` and ``ROUND_WIDTH``, over a state
that starts with :data:`engines.families.rummy.turns.CORE_STATE`, whose fields
:mod:`engines.families.rummy.turns` names), its ``summary`` module, and what
:mod:`engines.core.streams` reads (``advance``, ``apply_action`` drawing the chance that
follows, ``APPLY_DRAWS = True``; optionally ``apply_choice``, the decisions that draw no
chance, all but drawing from an empty talon, played without the chance stream: cheaper to
call).  Each decision or deal is one compiled call, which also writes the next decision's
legal codes.

Action texts: ``draw stock``, ``take discard``, ``lay 5♠ 6♠ 7♠``, ``lay 10♦ Joker=J♦ Q♦``
(a wild shows the card it stands for), ``lay 7♥ 7♦ Joker`` (a group of different suits),
``lay 7 7 7 2`` (a free group: its ranks, and a 2 for each wild), ``lay off 8♠ on meld 2
(high end)``, ``swap the joker at place 1 of meld 0``, ``discard 10♠``.  Table melds are
numbered from 0 in the order they were laid.  The codes are too many to list: their Actions
are made on first use (:meth:`RummyGame.action_of`), and a text is read among the legal ones.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from engines.core.api import Action
from engines.core.base import RulesGame, RulesObservation, RulesState, observed_seats
from engines.core.cards import RANK_NAMES, card_name
from engines.core.compiled import check_seat, parse_action, with_stream
from engines.core.streams import ROUND_ENDED, decide, step_with_stream
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T


class MadeActions(dict[int, Action]):
    """Actions by code, each made on first use from its text."""

    def __init__(self, text: Callable[[int], str]) -> None:
        super().__init__()
        self._text = text

    def __missing__(self, code: int) -> Action:
        made = self[code] = Action(code, self._text(code))
        return made


class RummyGame(RulesGame):
    """A rummy game with fixed parameters."""

    wild_name: ClassVar[str]            # how a wild reads in a meld: "Joker", "2"
    examples = "'draw stock', 'lay 5♠ 6♠ 7♠', 'discard 10♠'"
    phase_names = T.PHASE_NAMES
    chooses: ClassVar[bool]             # whether the rules have apply_choice

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "rules" in cls.__dict__:
            cls.chooses = hasattr(cls.rules, "apply_choice")

    def __init__(self, params: Any = None) -> None:
        super().__init__(params)
        self._actions = MadeActions(self.action_text)

    def action(self, value: Action | int | str) -> Action:
        """The Action for an Action or a code (a text is read only among the legal ones)."""
        if isinstance(value, int | np.integer) and value >= 0:
            return self.action_of(int(value))
        return parse_action(value, (), {}, self.title, self.examples)

    @property
    def action_of(self) -> Callable[[int], Action]:     # type: ignore[override]
        """The Action of a code, made on first use: a dict's lookup, called without a Python
        frame for every legal code."""
        return self._actions.__getitem__

    def action_text(self, code: int) -> str:
        if code < T.DISCARD_ACTION:
            return ("draw stock", "take discard")[code - T.DRAW_STOCK]
        if code < T.LAYOFF_ACTION:
            return f"discard {card_name(code - T.DISCARD_ACTION)}"
        if code < T.SWAP_ACTION:
            k, rest = divmod(code - T.LAYOFF_ACTION, rummy.CARD_KINDS * 2)
            end = " (low end)" if rest % 2 == 0 else " (high end)"
            return f"lay off {card_name(rest // 2)} on meld {k}{end}"
        if code < T.LAY_ACTION:
            k, rest = divmod(code - T.SWAP_ACTION, 32)
            return self.move_text(k, rest // 2, rest % 2)
        return f"lay {self.meld_text(code - T.LAY_ACTION)}"

    def move_text(self, meld: int, place: int, end: int) -> str:
        """A wild move: rami's joker swap (pinacle overrides it)."""
        return f"swap the joker at place {place} of meld {meld}"

    def meld_text(self, code: int) -> str:
        """A meld code read card by card."""
        length = rummy.meld_length(code)
        if rummy.meld_kind(code) == rummy.RUN:
            suit, low, mask = rummy.meld_key(code), rummy.meld_low(code), rummy.meld_mask(code)
            if suit == rummy.ANY_SUIT:                  # a mixed run: its ranks
                names = [RANK_NAMES.get(r, str(r)) for r in
                         (rummy.card_rank(int(rummy.card_at(0, low + i))) for i in range(length))]
            else:
                names = [card_name(int(rummy.card_at(suit, low + i))) for i in range(length)]
            return " ".join(f"{self.wild_name}={name}" if (mask >> i) & 1 else name
                            for i, name in enumerate(names))
        rank_card, low = rummy.meld_key(code), rummy.meld_low(code)
        if self.encoded_params[rummy.P_FREE_GROUPS]:
            rank = RANK_NAMES.get(rank_card + 2, str(rank_card + 2))
            return " ".join([rank] * low + [self.wild_name] * (length - low))
        parts = [card_name(s * 13 + rank_card) for s in range(rummy.SUITS) if (low >> s) & 1]
        return " ".join(parts + [self.wild_name] * (length - len(parts)))


def table_melds(s: np.ndarray) -> list[dict[str, Any]]:
    """The melds on the table: kind, owner and cards (card names, place by place)."""
    out = []
    for k in range(int(s[T.MELDS_LEN])):
        row = T.MELDS + k * rummy.MELD_WIDTH
        length = int(s[row + rummy.M_LEN])
        out.append({"kind": "run" if s[row + rummy.M_KIND] == rummy.RUN else "group",
                    "owner": int(s[row + rummy.M_OWNER]),
                    "cards": [card_name(int(c)) for c in
                              s[row + rummy.M_CARDS:row + rummy.M_CARDS + length]]})
    return out


def hand_of(s: np.ndarray, player: int) -> list[str]:
    h = T.hand_at(player)
    return [card_name(c) for c in range(rummy.CARD_KINDS) for _ in range(int(s[h + c]))]


class RummyObservation(RulesObservation):
    """What one seat may know: its hand, the table, the discard pile, hand sizes and every
    public figure.  The masked state is made on first use (a bot that reads only the legal
    actions costs nothing), and only while the game is where it was (``determinize`` too).
    """

    _masked: np.ndarray | None

    def __init__(self, state: RulesState, player: int, seen: np.ndarray | None) -> None:
        self._decisions = state.s.item(T.DECISIONS)
        super().__init__(state, player, seen)   # type: ignore[arg-type]  # None: masked on use

    @property       # type: ignore[override]
    def _s(self) -> np.ndarray:
        if self._masked is None:
            if self._state.s.item(T.DECISIONS) != self._decisions:
                raise ValueError("stale observation: the game has moved on since it was made")
            self._masked = np.empty_like(self._state.s)
            self._state.game.calls.observe(self._state.s, self.encoded_params, self.player,
                                           self._masked)
        return self._masked

    @_s.setter
    def _s(self, seen: np.ndarray) -> None:
        self._masked = seen

    @property
    def hand(self) -> list[str]:
        return hand_of(self._s, self.player)

    @property
    def table(self) -> list[dict[str, Any]]:
        return table_melds(self._s)

    @property
    def top_discard(self) -> str | None:
        n = int(self._s[T.DISCARD_LEN])
        return card_name(int(self._s[T.DISCARD + n - 1])) if n else None

    hand_sizes = observed_seats(T.HAND_SIZE_AT)

    def __repr__(self) -> str:
        return f"<P{self.player} sees hand {self.hand}, {len(self.table)} melds>"


class RummyState(RulesState):
    """One match in progress (see :mod:`engines.core.api`).  The log shows ``hand 1: P2 deals``,
    ``P3 draw stock``, ``P3 lay 5♠ 6♠ 7♠``, ``hand 1 won by P3``."""

    game: RummyGame
    observation_class: ClassVar[type[RummyObservation]] = RummyObservation
    fields: ClassVar[ModuleType | None] = T     # the fields every rummy state starts with
    legal_room = T.MAX_LEGAL
    legal_dtype = np.int64

    def observation(self, player: int) -> RummyObservation:
        """What ``player`` may know now, masked on first use."""
        check_seat(player, self._players)
        return self.observation_class(self, player, None)

    # -- convenience -------------------------------------------------------------------
    def hand(self, player: int) -> list[str]:
        return hand_of(self.s, player)

    @property
    def table(self) -> list[dict[str, Any]]:
        return table_melds(self.s)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.s[T.TOTAL:T.TOTAL + self._players])

    def __repr__(self) -> str:
        if self.is_terminal():
            return f"<{self.game.slug} over>"
        return (f"<{self.game.slug} hand {int(self.s[T.HAND_NO]) + 1}, "
                f"P{self.current_player} to {self.phase}>")

    # -- hooks -------------------------------------------------------------------------
    def _start(self) -> None:
        self._step(0, setup=True)
        self._log.append(("deal", 0, self.s.item(T.DEALER)))

    def _play(self, code: int) -> None:
        rounds = self.s.item(T.ROUNDS_LEN)
        self._step(code)
        self._log_hands(rounds)

    def _describe(self, entry: tuple) -> str:
        if entry[0] == "deal":
            return f"hand {entry[1] + 1}: P{entry[2]} deals"
        if entry[0] != "end":
            return super()._describe(entry)
        _, hand, winner, ending, note = entry
        if ending == T.FINISHED:
            return f"hand {hand + 1} won by P{winner}{note}"
        return f"hand {hand + 1} {T.HAND_ENDINGS[ending]}"

    def _round_rows(self) -> np.ndarray:
        """One row per hand, as the rules recorded them in the state."""
        R = self._R
        n, width = self.s.item(T.ROUNDS_LEN), R.ROUND_WIDTH
        return self.s[R.ROUNDS:R.ROUNDS + n * width].reshape(n, width).copy()

    def _hand_note(self, row: np.ndarray) -> str:
        """What the log adds to a won hand (nothing by default)."""
        return ""

    # -- internals ---------------------------------------------------------------------
    def _step(self, code: int, setup: bool = False) -> None:
        """Play ``code`` (or the deal) and read the next decision's legal actions."""
        if self.game.chooses and not setup \
                and (code != T.DRAW_STOCK or self.s.item(T.STOCK_LEN) > 0):
            outcome = decide(self._tag, self.s, self._pr, code, self._buffer)
            if not outcome & ROUND_ENDED:
                self._read_legal(outcome)
                return
            setup = True                                # the next deal
        self._read_legal(with_stream(step_with_stream, self._tag, self.s, self._pr,
                                     self._stream, code, setup, self._buffer))

    def _log_hands(self, before: int) -> None:
        """Log the hands that ended with the last step, and the deal that followed."""
        R = self._R
        after = self.s.item(T.ROUNDS_LEN)
        if after == before:
            return
        for i in range(before, after):
            row = self.s[R.ROUNDS + i * R.ROUND_WIDTH:R.ROUNDS + (i + 1) * R.ROUND_WIDTH]
            self._log.append(("end", int(row[T.ROUND_HAND]), int(row[T.ROUND_WINNER]),
                              int(row[T.ROUND_ENDING]), self._hand_note(row)))
        if not self.is_terminal():
            self._log.append(("deal", int(self.s[T.HAND_NO]), int(self.s[T.DEALER])))
