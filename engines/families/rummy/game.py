"""The common game API of the rummy engines (rami, petite école, pinacle): thin wrappers
over each game's compiled rules, written once.

A game module supplies its rules module (``rules``: ``encode_params``, ``STATE_SIZE``,
``new_game``, ``legal_actions``, ``observe``, ``determinize``, ``ROUNDS`` and
``ROUND_WIDTH``, over a state that starts with :data:`engines.families.rummy.turns.CORE_STATE`),
its ``summary`` module, and what :mod:`engines.core.streams` reads (``advance``, ``apply_action``
drawing the chance that follows, ``APPLY_DRAWS = True``; optionally ``apply_choice``, the
decisions that draw no chance, all but drawing from an empty talon, played without the
chance stream: cheaper to call).  Each decision or deal is one compiled call, which also
writes the next decision's legal codes.

Action texts: ``draw stock``, ``take discard``, ``lay 5♠ 6♠ 7♠``, ``lay 10♦ Joker=J♦ Q♦``
(a wild shows the card it stands for), ``lay 7♥ 7♦ Joker`` (a group of different suits),
``lay 7 7 7 2`` (a free group: its ranks, and a 2 for each wild), ``lay off 8♠ on meld 2
(high end)``, ``swap the joker at place 1 of meld 0``, ``discard 10♠``.  Table melds are
numbered from 0 in the order they were laid.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from engines.core.api import Action, IllegalActionError, Result
from engines.core.cards import RANK_NAMES, card_name
from engines.core.compiled import chance_stream, check_seat, fresh_stream, with_stream
from engines.core.seeding import ScratchStream
from engines.core.specialise import Tag
from engines.core.streams import ROUND_ENDED, decide, playout_with_stream, step_with_stream
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T


class RummyGame:
    """A rummy game with fixed parameters."""

    slug: ClassVar[str]
    title: ClassVar[str]
    Params: ClassVar[Any]
    rules: ClassVar[Any]
    summary: ClassVar[Any]
    state_class: ClassVar[type]
    wild_name: ClassVar[str]            # how a wild reads in a meld: "Joker", "2"
    examples: ClassVar[str] = "'draw stock', 'lay 5♠ 6♠ 7♠', 'discard 10♠'"
    tag: ClassVar[Tag]                  # the rules' tag, for the calls of engines.core.streams
    chooses: ClassVar[bool]             # whether the rules have apply_choice

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.tag = Tag(cls.rules.__name__)
        cls.chooses = hasattr(cls.rules, "apply_choice")

    def __init__(self, params: Any = None) -> None:
        self.params = params or self.Params()
        self.encoded_params = self.rules.encode_params(self.params)
        self.encoded_params.setflags(write=False)
        self._actions: dict[int, Action] = {}

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> Any:
        """A new match after its first deal: game ``index`` of a run with seed ``seed``, or,
        given a Generator, a match whose chance stream is seeded from it."""
        s = np.zeros(self.rules.STATE_SIZE, dtype=np.int32)
        self.rules.new_game(s, self.encoded_params)
        state = self.state_class(self, s, chance_stream(seed, index))
        state._step(0, setup=True)
        state._log.append(("deal", 0, int(s[T.DEALER])))
        return state

    def action(self, code: int) -> Action:
        """The Action of a code (made once)."""
        found = self._actions.get(code)
        if found is None:
            found = self._actions[code] = Action(code, self.action_text(code))
        return found

    def action_text(self, code: int) -> str:
        if code == T.DRAW_STOCK:
            return "draw stock"
        if code == T.TAKE_DISCARD:
            return "take discard"
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

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})"


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


class RummyObservation:
    """What one seat may know: its hand, the table, the discard pile, hand sizes and every
    public figure.  The masked state is made on first use (a bot that reads only the legal
    actions costs nothing), and only while the game is where it was."""

    def __init__(self, params: Any, player: int, state: RummyState) -> None:
        self.params = params
        self.player = player
        self._state = state
        self._R = state.game.rules
        self._decisions = state.s.item(T.DECISIONS)
        self._masked: np.ndarray | None = None
        self.encoded_params = state.game.encoded_params

    def _check(self) -> None:
        if self._state.s[T.DECISIONS] != self._decisions:
            raise ValueError("stale observation: the game has moved on since it was made")

    @property
    def _s(self) -> np.ndarray:
        if self._masked is None:
            self._check()
            self._masked = np.empty(self._R.STATE_SIZE, dtype=np.int32)
            self._R.observe(self._state.s, self.encoded_params, self.player, self._masked)
        return self._masked

    def determinize(self, rng: np.random.Generator) -> Any:
        """``state.determinize(player, rng)``, while the game is where it was."""
        self._check()
        return self._state.determinize(self.player, rng)

    @property
    def array(self) -> np.ndarray:
        """The masked state array (a read-only view)."""
        view = self._s.view()
        view.setflags(write=False)
        return view

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

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        at = T.HAND_SIZE_AT
        return tuple(int(v) for v in self._s[at:at + self.params.players])

    def __repr__(self) -> str:
        return f"<P{self.player} sees hand {self.hand}, {len(self.table)} melds>"


class RummyState:
    """One match in progress (see :mod:`engines.core.api`).  The log shows ``hand 1: P2 deals``,
    ``P3 draw stock``, ``P3 lay 5♠ 6♠ 7♠``, ``hand 1 won by P3``."""

    observation_class: ClassVar[type] = RummyObservation
    phase_names: ClassVar[dict[int, str]]

    def __init__(self, game: RummyGame, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream
        self._pr = game.encoded_params
        self._R = game.rules
        self._buffer = np.empty(T.MAX_LEGAL, dtype=np.int64)
        self._log: list[tuple] = log if log is not None else []
        # the legal codes of the decision at hand and their actions, read from the rules
        # when None (each compiled step writes the next ones; a new state reads them on use)
        self._codes: list[int] | None = None
        self._legal: list[Action] = []
        self._tag = game.tag
        self._chooses = game.chooses

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.s.item(T.CURRENT)

    def legal_actions(self) -> list[Action]:
        if self._codes is None:
            self._read_legal(self._R.legal_actions(self.s, self._pr, self._buffer))
        return list(self._legal)

    def apply(self, value: Action | int | str) -> None:
        """Play an action (an Action, its code or its text) for the current player; an
        illegal one raises :class:`IllegalActionError` and leaves the state unchanged."""
        if self._codes is None:
            self._read_legal(self._R.legal_actions(self.s, self._pr, self._buffer))
        code = self._legal_code(value)
        rounds = self.s.item(T.ROUNDS_LEN)
        self._log.append((self.s.item(T.CURRENT), code))
        self._step(code)
        self._log_hands(rounds)

    def is_terminal(self) -> bool:
        return self.s.item(T.PHASE) == T.OVER

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return self.game.summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> Any:
        check_seat(player, self.game.params.players)
        return self.observation_class(self.game.params, player, self)

    def clone(self) -> Any:
        twin = type(self)(self.game, self.s.copy(), self._stream.copy(), list(self._log))
        twin._codes, twin._legal = self._codes, self._legal
        return twin

    def determinize(self, player: int, rng: np.random.Generator) -> Any:
        """A full state consistent with ``player``'s observation: the cards he cannot see
        re-dealt from ``rng`` (every hand keeps its size), and a fresh chance stream."""
        check_seat(player, self.game.params.players)
        out = np.empty_like(self.s)
        self._R.determinize(self.s, self._pr, player, rng, out)
        return type(self)(self.game, out, fresh_stream(rng), list(self._log))

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play to the end in one compiled call as the ``random`` agent would with ``rng``;
        return the seats' win shares.  The log is not extended."""
        with_stream(playout_with_stream, self._tag, self.s, self._pr, self._stream, rng,
                    self._buffer)
        self._codes = None
        ranks = self.s[T.RANK:T.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows (one per hand)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(self.game.summary.SIZE, dtype=np.int32)
        self.game.summary.summarize(self.s, row)
        n, width = int(self.s[T.ROUNDS_LEN]), self._R.ROUND_WIDTH
        rounds = self.s[self._R.ROUNDS:self._R.ROUNDS + n * width].reshape(n, width)
        return row, rounds.copy()

    @property
    def log(self) -> list[str]:
        lines = []
        for entry in self._log:
            if isinstance(entry[0], int):
                lines.append(f"P{entry[0]} {self.game.action(entry[1]).text}")
            elif entry[0] == "deal":
                lines.append(f"hand {entry[1] + 1}: P{entry[2]} deals")
            else:
                _, hand, winner, ending, note = entry
                if ending == T.FINISHED:
                    lines.append(f"hand {hand + 1} won by P{winner}{note}")
                else:
                    lines.append(f"hand {hand + 1} {T.HAND_ENDINGS[ending]}")
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.phase_names[int(self.s[T.PHASE])]

    def hand(self, player: int) -> list[str]:
        return hand_of(self.s, player)

    @property
    def table(self) -> list[dict[str, Any]]:
        return table_melds(self.s)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.s[T.TOTAL:T.TOTAL
                                            + self.game.params.players])

    # -- hooks and internals -----------------------------------------------------------
    def _hand_note(self, row: np.ndarray) -> str:
        """What the log adds to a won hand (nothing by default)."""
        return ""

    def _step(self, code: int, setup: bool = False) -> None:
        """Play ``code`` (or the deal) and read the next decision's legal actions."""
        if self._chooses and not setup \
                and (code != T.DRAW_STOCK or self.s.item(T.STOCK_LEN) > 0):
            outcome = decide(self._tag, self.s, self._pr, code, self._buffer)
            if not outcome & ROUND_ENDED:
                self._read_legal(outcome)
                return
            setup = True                                # the next deal
        scratch = ScratchStream.get()
        self._read_legal(step_with_stream(self._tag, self.s, self._pr, scratch.boxed,
                                          scratch.stream.alias, self._stream, code, setup,
                                          self._buffer))

    def _read_legal(self, count: int) -> None:
        """Take the ``count`` legal codes the rules wrote into the buffer."""
        self._codes = codes = self._buffer[:count].tolist()
        made, action = self.game._actions, self.game.action
        self._legal = [made.get(c) or action(c) for c in codes]

    def _legal_code(self, value: Action | int | str) -> int:
        """The code of ``value`` if it is legal now, else :class:`IllegalActionError`."""
        if type(value) is Action and self.game._actions.get(value.code) is value:
            code = value.code
        elif type(value) is int and value >= 0:
            code = value
        else:
            chosen = self._parse(value, self._legal)
            if chosen not in self._legal:
                raise IllegalActionError(self._illegal_message(chosen, self._legal))
            return chosen.code
        if code not in self._codes:
            raise IllegalActionError(self._illegal_message(self.game.action(code),
                                                           self._legal))
        return code

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
        if int(self.s[T.ROUNDS_LEN]) > before and not self.is_terminal():
            self._log.append(("deal", int(self.s[T.HAND_NO]), int(self.s[T.DEALER])))

    def _parse(self, value: Action | int | str, legal: list[Action]) -> Action:
        if isinstance(value, Action):
            return value
        if isinstance(value, int | np.integer) and value >= 0:
            return self.game.action(int(value))
        if isinstance(value, str):
            text = " ".join(value.split())
            for a in legal:
                if a.text == text:
                    return a
            raise IllegalActionError(f"{text!r} is not legal for P{self.current_player} "
                                     f"(phase {self.phase}); legal: "
                                     f"{', '.join(a.text for a in legal[:12])}")
        raise IllegalActionError(f"not a {self.game.title} action: {value!r} (examples: "
                                 f"{self.game.examples})")

    def _illegal_message(self, chosen: Action, legal: list[Action]) -> str:
        if self.is_terminal():
            return f"{chosen.text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal[:12])
        more = f" (+{len(legal) - 12} more)" if len(legal) > 12 else ""
        return (f"{chosen.text} is not legal for P{self.current_player} (phase "
                f"{self.phase}); legal: {shown}{more}")

    def __repr__(self) -> str:
        if self.is_terminal():
            return f"<{self.game.slug} over>"
        return (f"<{self.game.slug} hand {int(self.s[T.HAND_NO]) + 1}, "
                f"P{self.current_player} to {self.phase}>")
