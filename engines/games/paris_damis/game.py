"""Paris d'amis through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.paris_damis.rules`; this module turns its flat arrays into
the objects bots, runners and people use (actions with readable names, observations, results,
an event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter

import numpy as np
from numba import njit

from engines.core.api import Action, IllegalActionError, Result
from engines.core.cards import SUIT_NAMES, SUIT_SYMBOLS, card_name
from engines.core.compiled import chance_stream, parse_action, with_stream
from engines.core.seeding import stream_state
from engines.core.specialise import Tag
from engines.core.streams import advance_with_stream, playout_with_stream
from engines.games.paris_damis import rules as R
from engines.games.paris_damis import summary
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


ACTIONS: tuple[Action, ...] = tuple(Action(c, action_text(c)) for c in range(R.N_ACTIONS))
_BY_TEXT = {a.text: a for a in ACTIONS}
# rule constants read on every decision, bound once (a module attribute costs a lookup)
_STATE_SIZE, _TURN, _BET_ACTION, _DISCARD_ACTION = (R.STATE_SIZE, R.TURN, R.BET_ACTION,
                                                     R.DISCARD_ACTION)
# the rules' tag, for the calls of engines.core.streams
TAG = Tag(R.__name__)


@njit(cache=True)
def _apply_and_list(s, pr, code, out, seen):
    """Apply an action; if a decision follows at once, list its legal actions into ``out``
    and write what the next player sees into ``seen`` (one compiled call per decision).
    Returns (legal count or 0, round before, phase after, current player after)."""
    round_before = s[R.ROUND]
    R.apply_action(s, pr, code)
    n = 0
    if not R.chance_pending(s) and s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, out)
        R.observe(s, pr, s[R.CURRENT], seen)
    return n, round_before, s[R.PHASE], s[R.CURRENT]


class ParisDamis:
    """The game Paris d'amis with fixed parameters (``engines.load("paris-damis", ...)``)."""

    slug = "paris-damis"
    title = "Paris d'amis"
    Params = ParisDamisParams
    actions = ACTIONS
    summary = summary

    def __init__(self, params: ParisDamisParams | None = None) -> None:
        self.params = params or ParisDamisParams()
        self.encoded_params = R.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0
                  ) -> ParisDamisState:
        """A new game after its setup: game ``index`` of a run with seed ``seed`` (the same
        game the batch kernel plays for that seed and index), or, given a Generator, a game
        whose chance stream is seeded from it."""
        s = R.STATE.new()
        R.new_game(s, self.encoded_params)
        state = ParisDamisState(self, s, chance_stream(seed, index))
        state._advance()
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (``"bet 2"``, ``"place 10♥ → hearts"``)."""
        return parse_action(value, ACTIONS, _BY_TEXT, "Paris d'amis",
                            "'place 10♥ → hearts', 'bet 2', 'discard 3♣', 'keep'")

    def __repr__(self) -> str:
        return f"ParisDamis({self.params})"


class ParisDamisState:
    """One game of Paris d'amis in progress (see :mod:`engines.core.api`)."""

    def __init__(self, game: ParisDamis, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        self._buffer = np.empty(R.N_ACTIONS, dtype=np.int32)
        self._listed = -1                       # legal codes already in _buffer, or -1
        self._legal: list[Action] | None = None
        self._codes: list[int] = []             # the codes of _legal
        self._seen: np.ndarray | None = None    # the current player's observation, if ready
        self._current = int(s[R.CURRENT])
        self._rounds: list[np.ndarray] = []     # summary.ROUND_FIELDS rows, one per seat
        # entries: (player, code) for decisions, (kind, snapshot, ...) for table events;
        # formatted only when ``log`` is read
        self._log: list[tuple] = log if log is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._current

    def legal_actions(self) -> list[Action]:
        return list(self._legal_list())

    def apply(self, action: Action | int | str) -> None:
        """Play ``action`` for the current player; an illegal one raises
        :class:`IllegalActionError` and leaves the state unchanged."""
        if type(action) is not Action:
            action = self.game.action(action)
        legal = self._legal if self._legal is not None else self._legal_list()
        code = action.code
        if not (code in self._codes and ACTIONS[code] is action) and action not in legal:
            raise IllegalActionError(self._illegal_message(action, legal))
        player = self._current
        s = self.s
        seen = np.empty(_STATE_SIZE, dtype=np.int32)
        n, round_before, phase, self._current = _apply_and_list(
            s, self._pr, code, self._buffer, seen)
        self._legal = None
        self._listed = n if n else -1
        self._seen = seen if n else None
        self._log.append((player, code))
        if phase != _TURN and _BET_ACTION <= code < _DISCARD_ACTION:
            self._log.append(("round_end", s.copy()))
            rows = np.empty((self.game.params.players, summary.ROUND_WIDTH), dtype=np.int32)
            summary.record_round(s, self.game.encoded_params, rows, 0)
            self._rounds.append(rows)
        chance = phase == R.RECYCLE or phase == R.EXCHANGE
        if chance:
            before = s.copy()
            self._advance()
            self._log.append(("chance", before, s.copy()))
        if (chance or code == R.KEEP) and s[R.ROUND] != round_before:
            self._log.append(("round_start", s.copy()))

    def is_terminal(self) -> bool:
        return self._current < 0

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        return summary.result(self.game.params, row)

    def observation(self, player: int) -> ParisDamisObservation:
        if not 0 <= player < self.game.params.players:
            self._check_player(player)
        seen = self._seen
        if seen is not None and player == self._current:
            self._seen = None                   # prepared by apply(); handed out once
        else:
            seen = np.empty(R.STATE_SIZE, dtype=np.int32)
            R.observe(self.s, self._pr, player, seen)
        return ParisDamisObservation(self.game.params, seen, player, self)

    def clone(self) -> ParisDamisState:
        return self._copy(self.s.copy(), self._stream.copy())

    def determinize(self, player: int, rng: np.random.Generator) -> ParisDamisState:
        """A full state consistent with ``player``'s observation; hidden cards re-dealt from
        ``rng`` and a fresh chance stream drawn from it (the real future stays hidden)."""
        self._check_player(player)
        out = np.empty_like(self.s)
        R.determinize(self.s, self.game.encoded_params, player, rng, out)
        stream = stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64))
        return self._copy(out, stream)

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play the game to its end in one compiled call, every seat choosing as the
        ``random`` agent would with ``rng`` as the decision stream (same draws, same game as
        through :meth:`apply`), and return the seats' win shares (``result().win_shares``).
        For search rollouts: the log and round records are not extended."""
        with_stream(playout_with_stream, TAG, self.s, self._pr, self._stream, rng, self._buffer)
        self._current = -1
        self._legal = None
        self._listed = -1
        self._seen = None
        ranks = self.s[R.RANK:R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)                # plain Python: numpy costs more here
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows, exactly as the batch kernel
        records them (see :mod:`engines.games.paris_damis.summary`)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        rounds = (np.concatenate(self._rounds) if self._rounds
                  else np.empty((0, summary.ROUND_WIDTH), dtype=np.int32))
        return row, rounds

    @property
    def log(self) -> list[str]:
        """The game's events, readable: ``P0 place 10♥ → hearts``, ``P1 bet 2``,
        ``round 1 ends; ♠: P1 wins K♠ (14 vs 12); ...; k = 2: P1 ✓ bet 2, P0 ✗ bet 1``,
        ``new cards: P0 +10 (13 in hand), ...``, ``P2 exchanges 7 cards for 5``,
        ``round 2: trump ♦, face up 9♥ A♦ Q♠ 8♣, P1 starts``."""
        lines: list[str] = []
        for entry in self._log:
            if entry[0] == "round_end":
                lines.append(_describe_round_end(self.game.params, entry[1]))
            elif entry[0] == "chance":
                lines.append(_describe_chance(self.game.params, entry[1], entry[2]))
            elif entry[0] == "round_start":
                lines.append(_describe_round_start(entry[1]))
            else:
                lines.append(f"P{entry[0]} {ACTIONS[entry[1]].text}")
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.s[R.PHASE])]

    def __repr__(self) -> str:
        return (f"<paris-damis round {int(self.s[R.ROUND]) + 1}, {self.phase}, "
                f"P{self.current_player} to play>")

    # -- internals ---------------------------------------------------------------------
    def _copy(self, s: np.ndarray, stream: np.ndarray) -> ParisDamisState:
        state = ParisDamisState(self.game, s, stream, list(self._log))
        state._rounds = list(self._rounds)
        return state

    def _advance(self) -> None:
        with_stream(advance_with_stream, TAG, self.s, self._pr, self._stream)
        self._current = int(self.s[R.CURRENT])

    def _legal_list(self) -> list[Action]:
        """The legal actions, listed once per decision (the compiled call after an action
        usually lists them already)."""
        if self._legal is None:
            n = self._listed
            if n < 0:
                n = R.legal_actions(self.s, self._pr, self._buffer)
            self._codes = codes = self._buffer[:n].tolist()
            self._legal = (list(itemgetter(*codes)(ACTIONS)) if n > 1
                           else [ACTIONS[c] for c in codes])
        return self._legal

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        text = action.text
        if self.is_terminal():
            return f"{text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal[:12])
        more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
        return (f"{text} is not legal for P{self._current} in phase {self.phase}; "
                f"legal: {shown}{more}")

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.params.players:
            raise ValueError(f"no seat {player}: seats are 0..{self.game.params.players - 1}")


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


class ParisDamisObservation:
    """What one seat may know, decoded on demand from a masked copy of the state."""

    def __init__(self, params: ParisDamisParams, s: np.ndarray, player: int,
                 state: ParisDamisState) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state         # only for determinize(), while the game has not moved on

    def determinize(self, rng: np.random.Generator) -> ParisDamisState:
        """A full state consistent with what this seat knows: hidden cards re-dealt from
        ``rng`` and a fresh chance stream drawn from it (``state.determinize``).  Only valid
        while the game is where it was when this observation was made."""
        state = self._state
        if state.s[R.DECISIONS] != self._s[R.DECISIONS]:
            raise ValueError("stale observation: the game has moved on since it was made")
        return state.determinize(self.player, rng)

    @property
    def array(self) -> np.ndarray:
        """The masked state array (a read-only view), for compiled bots."""
        view = self._s.view()
        view.setflags(write=False)
        return view

    @cached_property
    def hand(self) -> tuple[int, ...]:
        own = R.LOC_HAND + self.player
        return tuple(int(c) for c in np.flatnonzero(self._field("location") == own))

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self._s[R.PHASE])]

    @property
    def round(self) -> int:
        """Round number, 1-based."""
        return int(self._s[R.ROUND]) + 1

    @property
    def trump(self) -> int:
        return int(self._s[R.TRUMP])

    @property
    def current_player(self) -> int:
        return int(self._s[R.CURRENT])

    @property
    def starter(self) -> int:
        return int(self._s[R.STARTER])

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
        return self._per_player("bet")

    @property
    def bet_order(self) -> tuple[int, ...]:
        return self._per_player("bet_order")

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._per_player("hand_size")

    @property
    def markers_left(self) -> tuple[int, ...]:
        return tuple(self.params.markers - m for m in self._per_player("markers_used"))

    @property
    def deck_size(self) -> int:
        return int(self._s[R.DECK_SIZE])

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

    def _per_player(self, name: str) -> tuple[int, ...]:
        return tuple(int(v) for v in self._field(name)[:self.params.players])

    def __repr__(self) -> str:
        hand = " ".join(card_name(c) for c in self.hand)
        return (f"<P{self.player} sees round {self.round} ({self.phase}), trump "
                f"{SUIT_SYMBOLS[self.trump]}, hand [{hand}]>")

