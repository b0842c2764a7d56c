"""Betzanbloo through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.betzanbloo.rules`; this module turns its flat arrays into
the objects bots, runners and people use (actions with readable names, observations, results,
an event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from engines.core.api import Action, IllegalActionError, Result
from engines.core.compiled import chance_stream, parse_action, with_stream
from engines.core.seeding import stream_state
from engines.core.specialise import Tag
from engines.core.streams import advance_with_stream, playout_with_stream
from engines.games.betzanbloo import rules as R
from engines.games.betzanbloo import summary
from engines.games.betzanbloo.params import BetzanblooParams

PHASE_NAMES = {R.SETUP: "setup", R.PLAY: "play", R.CAPTURE: "capture", R.OVER: "over"}
CASE_NAMES = ("all in one camp", "one player alone", "split")


def action_text(code: int) -> str:
    """Readable form of an action code: ``play 7``, ``capture 9``."""
    if code < R.CAPTURE_ACTION:
        return f"play {code - R.PLAY_ACTION + 1}"
    return f"capture {code - R.CAPTURE_ACTION + 1}"


ACTIONS: tuple[Action, ...] = tuple(Action(c, action_text(c)) for c in range(R.N_ACTIONS))
_BY_TEXT = {a.text: a for a in ACTIONS}
# the rules' tag, for the calls of engines.core.streams
TAG = Tag(R.__name__)


class Betzanbloo:
    """The game Betzanbloo with fixed parameters (``engines.load("betzanbloo", ...)``)."""

    slug = "betzanbloo"
    title = "Betzanbloo"
    Params = BetzanblooParams
    actions = ACTIONS
    summary = summary

    def __init__(self, params: BetzanblooParams | None = None) -> None:
        self.params = params or BetzanblooParams()
        self.encoded_params = R.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0
                  ) -> BetzanblooState:
        """A new game after its setup: game ``index`` of a run with seed ``seed``, or, given
        a Generator, a game whose chance stream is seeded from it."""
        s = R.STATE.new()
        R.new_game(s, self.encoded_params)
        state = BetzanblooState(self, s, chance_stream(seed, index))
        with_stream(advance_with_stream, TAG, s, self.encoded_params, state._stream)
        state._log.append(("turn", 0))
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (``"play 7"``, ``"capture 9"``)."""
        return parse_action(value, ACTIONS, _BY_TEXT, "Betzanbloo", "'play 7', 'capture 9'")

    def __repr__(self) -> str:
        return f"Betzanbloo({self.params})"


class BetzanblooState:
    """One game of Betzanbloo in progress (see :mod:`engines.core.api`)."""

    def __init__(self, game: Betzanbloo, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        self._buffer = np.empty(R.N_ACTIONS, dtype=np.int32)
        self._turns: list[np.ndarray] = []  # summary.ROUND_FIELDS rows, one per seat
        # entries: (player, code) for decisions, ("turn", turn) and
        # ("resolved", turn) for table events; formatted only when ``log`` is read
        self._log: list[tuple] = log if log is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.s[R.CURRENT])

    def legal_actions(self) -> list[Action]:
        """``play v`` for each card in hand but the threshold's value, ascending; for the
        lone player, ``capture v`` for each value played in the other camp, ascending."""
        if self.is_terminal():
            return []
        n = R.legal_actions(self.s, self._pr, self._buffer)
        if n == 0:
            raise RuntimeError(f"P{self.current_player} has no legal card: every card in "
                               f"hand equals the threshold {int(self.s[R.THRESHOLD])} (B3)")
        return [ACTIONS[c] for c in self._buffer[:n].tolist()]

    def apply(self, action: Action | int | str) -> None:
        """Play ``action`` for the current player; an illegal one raises
        :class:`IllegalActionError` and leaves the state unchanged."""
        action = self.game.action(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._illegal_message(action, legal))
        s = self.s
        turn = int(s[R.TURN])
        self._log.append((self.current_player, action.code))
        R.apply_action(s, self._pr, action.code)
        if s[R.TURN] != turn:                   # the turn is resolved
            self._log.append(("resolved", turn))
            rows = np.empty((self.game.params.players, summary.ROUND_WIDTH), dtype=np.int32)
            summary.record_turn(s, self._pr, turn, rows, 0)
            self._turns.append(rows)
            if s[R.PHASE] != R.OVER:
                self._log.append(("turn", turn + 1))

    def is_terminal(self) -> bool:
        return bool(self.s[R.PHASE] == R.OVER)

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> BetzanblooObservation:
        self._check_player(player)
        seen = np.empty(R.STATE_SIZE, dtype=np.int32)
        R.observe(self.s, self._pr, player, seen)
        return BetzanblooObservation(self.game.params, seen, player, self)

    def clone(self) -> BetzanblooState:
        return self._copy(self.s.copy(), self._stream.copy())

    def determinize(self, player: int, rng: np.random.Generator) -> BetzanblooState:
        """A full state consistent with ``player``'s observation: this turn's hidden choices
        drawn uniformly from ``rng`` among each player's legal cards, the threshold cards not
        yet turned up reshuffled, and a fresh chance stream drawn from ``rng``."""
        self._check_player(player)
        out = np.empty_like(self.s)
        R.determinize(self.s, self._pr, player, rng, out)
        stream = stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64))
        return self._copy(out, stream)

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play the game to its end in one compiled call, every seat choosing as the
        ``random`` agent would with ``rng`` as the decision stream (same draws, same game as
        through :meth:`apply`), and return the seats' win shares (``result().win_shares``).
        For search rollouts: the log and turn records are not extended."""
        with_stream(playout_with_stream, TAG, self.s, self._pr, self._stream, rng, self._buffer)
        ranks = self.s[R.RANK:R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its turn rows (one per seat and turn), see
        :mod:`engines.games.betzanbloo.summary`."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        rounds = (np.concatenate(self._turns) if self._turns
                  else np.empty((0, summary.ROUND_WIDTH), dtype=np.int32))
        return row, rounds

    @property
    def log(self) -> list[str]:
        """The game's events, readable: ``turn 1: threshold 5``, ``P0 play 9``,
        ``turn 1 resolved: 2 3 9 — one player alone: P2 saves 9 and captures 3``."""
        lines: list[str] = []
        for entry in self._log:
            if entry[0] == "turn":
                lines.append(f"turn {entry[1] + 1}: threshold {int(self.s[R.PILE + entry[1]])}")
            elif entry[0] == "resolved":
                lines.append(self._describe_resolution(entry[1]))
            else:
                lines.append(f"P{entry[0]} {ACTIONS[entry[1]].text}")
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.s[R.PHASE])]

    def __repr__(self) -> str:
        if self.is_terminal():
            return "<betzanbloo over>"
        return (f"<betzanbloo turn {int(self.s[R.TURN]) + 1}, threshold "
                f"{int(self.s[R.THRESHOLD])}, {self.phase}, P{self.current_player} to play>")

    # -- internals ---------------------------------------------------------------------
    def _copy(self, s: np.ndarray, stream: np.ndarray) -> BetzanblooState:
        state = BetzanblooState(self.game, s, stream, list(self._log))
        state._turns = list(self._turns)
        return state

    def _describe_resolution(self, turn: int) -> str:
        s, n = self.s, self.game.params.players
        cards = [int(s[R.HISTORY_CARD + turn * R.MAX_PLAYERS + p]) for p in range(n)]
        case = int(s[R.HISTORY_CASE + turn])
        text = (f"turn {turn + 1} resolved: {' '.join(map(str, cards))} — "
                f"{CASE_NAMES[case]}")
        if case == R.LONE:
            lone = int(s[R.HISTORY_LONE + turn])
            text += (f": P{lone} saves {cards[lone]} and captures "
                     f"{int(s[R.HISTORY_CAPTURE + turn])} from "
                     f"P{int(s[R.HISTORY_VICTIM + turn])}")
        return text

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal)
        return (f"{action.text} is not legal for P{self.current_player} in phase "
                f"{self.phase} (threshold {int(self.s[R.THRESHOLD])}); legal: {shown}")

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.params.players:
            raise ValueError(f"no seat {player}: seats are 0..{self.game.params.players - 1}")


def _cards(mask: int) -> tuple[int, ...]:
    return tuple(v for v in range(1, R.HIGHEST_PERSO + 1) if mask >> v & 1)


class BetzanblooObservation:
    """What one seat may know, decoded on demand from a masked copy of the state."""

    def __init__(self, params: BetzanblooParams, s: np.ndarray, player: int,
                 state: BetzanblooState) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state         # only for determinize(), while the game has not moved on
        self.encoded_params = state.game.encoded_params     # for compiled bots

    def determinize(self, rng: np.random.Generator) -> BetzanblooState:
        """A full state consistent with what this seat knows (``state.determinize``).  Only
        valid while the game is where it was when this observation was made."""
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

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self._s[R.PHASE])]

    @property
    def turn(self) -> int:
        """Turn number, 1-based."""
        return int(self._s[R.TURN]) + 1

    @property
    def threshold(self) -> int:
        return int(self._s[R.THRESHOLD])

    @property
    def current_player(self) -> int:
        return int(self._s[R.CURRENT])

    @cached_property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's cards in hand (this turn's hidden choices still in them)."""
        return tuple(_cards(int(self._s[R.HAND + p])) for p in range(self.params.players))

    @property
    def hand(self) -> tuple[int, ...]:
        return self.hands[self.player]

    @cached_property
    def played(self) -> tuple[int, ...]:
        """This turn's cards that this seat may see (0: not chosen, or hidden)."""
        return tuple(int(self._s[R.PLAYED + p]) for p in range(self.params.players))

    @cached_property
    def history(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """Every resolved turn: (threshold, the card each seat played)."""
        n = self.params.players
        s = self._s
        return tuple((int(s[R.PILE + t]),
                      tuple(int(s[R.HISTORY_CARD + t * R.MAX_PLAYERS + p]) for p in range(n)))
                     for t in range(int(s[R.TURN])))

    @cached_property
    def thresholds_left(self) -> tuple[int, ...]:
        """The threshold cards not yet turned up, ascending."""
        s = self._s
        return tuple(int(v) for v in s[R.PILE + s[R.TURN] + 1:R.PILE + R.TURNS])

    @cached_property
    def worth(self) -> tuple[int, ...]:
        """What each card value 0..12 scores under this game's scoring rule."""
        pr = self.encoded_params
        return tuple(int(v) for v in pr[R.P_WORTH:R.P_WORTH + R.VALUES])

    def score_so_far(self, player: int) -> int:
        """The score ``player``'s saved and captured cards make so far."""
        s = self._s
        saved = _cards(int(s[R.SAVED + player]))
        total = sum(self.worth[v] for v in saved)
        return total + sum(int(s[R.CAPTURED + player * R.VALUES + v]) * self.worth[v]
                           for v in range(R.VALUES))

    def __repr__(self) -> str:
        return (f"<P{self.player} sees turn {self.turn} ({self.phase}), threshold "
                f"{self.threshold}, hand {list(self.hand)}>")
