"""Ascenseur aux atouts through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.ascenseur_atouts.rules`; this module turns its flat arrays
into the objects bots, runners and people use (actions with readable names, observations,
results, an event log) and checks that an action is legal before handing it to the rules.

Actions, in the order ``legal_actions()`` lists them: bids ``bid 0`` .. ``bid c`` ascending
(``not take``, ``take`` in the blind hand), without the one the hook forbids the dealer;
plays ``play T1`` .. ``play T21`` ascending over the hand, then ``play Excuse high`` and
``play Excuse low``.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from engines.core.api import Action, IllegalActionError, Result
from engines.core.compiled import chance_stream, parse_action, with_stream
from engines.core.seeding import stream_state
from engines.core.specialise import Tag
from engines.core.streams import advance_with_stream, playout_with_stream
from engines.games.ascenseur_atouts import rules as R
from engines.games.ascenseur_atouts import summary
from engines.games.ascenseur_atouts.params import AscenseurParams

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


ACTIONS: tuple[Action, ...] = tuple(Action(c, action_text(c)) for c in range(R.N_ACTIONS))
_BY_TEXT = {a.text: a for a in ACTIONS}
# the rules' tag, for the calls of engines.core.streams
TAG = Tag(R.__name__)


class AscenseurAtouts:
    """The game Ascenseur aux atouts with fixed parameters
    (``engines.load("ascenseur-atouts", ...)``)."""

    slug = "ascenseur-atouts"
    title = "Ascenseur aux atouts"
    Params = AscenseurParams
    actions = ACTIONS
    summary = summary

    def __init__(self, params: AscenseurParams | None = None) -> None:
        self.params = params or AscenseurParams()
        self.encoded_params = R.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0
                  ) -> AscenseurState:
        """A new game after its first deal: game ``index`` of a run with seed ``seed``, or,
        given a Generator, a game whose chance stream is seeded from it."""
        s = R.STATE.new()
        R.new_game(s, self.encoded_params)
        state = AscenseurState(self, s, chance_stream(seed, index))
        state._advance()
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (``"bid 2"``, ``"play T14"``)."""
        return parse_action(value, ACTIONS, _BY_TEXT, "Ascenseur aux atouts",
                            "'bid 2', 'take', 'not take', 'play T14', 'play Excuse high', "
                            "'play Excuse low'")

    def __repr__(self) -> str:
        return f"AscenseurAtouts({self.params})"


class AscenseurState:
    """One game of Ascenseur aux atouts in progress (see :mod:`engines.core.api`)."""

    def __init__(self, game: AscenseurAtouts, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None, rounds: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        self._buffer = np.empty(R.N_ACTIONS, dtype=np.int32)
        self._legal: list[Action] | None = None
        self._rounds: list[np.ndarray] = rounds if rounds is not None else []
        # entries: (player, code) for decisions, (kind, snapshot) for table events
        self._log: list[tuple] = log if log is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.s[R.CURRENT])

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            n = R.legal_actions(self.s, self._pr, self._buffer)
            self._legal = [ACTIONS[c] for c in self._buffer[:n].tolist()]
        return list(self._legal)

    def apply(self, action: Action | int | str) -> None:
        """Play ``action`` for the current player; an illegal one raises
        :class:`IllegalActionError` and leaves the state unchanged."""
        action = self.game.action(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._illegal_message(action, legal))
        s = self.s
        player = self.current_player
        tricks_before = int(s[R.TRICK])
        hands_before = int(s[R.HANDS_PLAYED])
        R.apply_action(s, self._pr, action.code)
        self._legal = None
        self._log.append((player, action.code))
        if int(s[R.TRICK]) != tricks_before:
            self._log.append(("trick", s.copy()))
        if int(s[R.HANDS_PLAYED]) != hands_before:
            self._log.append(("hand_end", s.copy()))
            rows = np.empty((self.game.params.players, summary.ROUND_WIDTH), dtype=np.int32)
            summary.record_round(s, self._pr, rows, 0)
            self._rounds.append(rows)
            if R.chance_pending(s):
                self._advance()

    def is_terminal(self) -> bool:
        return int(self.s[R.PHASE]) == R.OVER

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        return summary.result(self.game.params, row)

    def observation(self, player: int) -> AscenseurObservation:
        self._check_player(player)
        seen = np.empty(R.STATE_SIZE, dtype=np.int32)
        R.observe(self.s, self._pr, player, seen)
        return AscenseurObservation(self.game.params, seen, player, self)

    def clone(self) -> AscenseurState:
        return self._copy(self.s.copy(), self._stream.copy())

    def determinize(self, player: int, rng: np.random.Generator) -> AscenseurState:
        """A full state consistent with ``player``'s observation; hidden cards re-dealt from
        ``rng`` and a fresh chance stream drawn from it (the real future stays hidden)."""
        self._check_player(player)
        out = np.empty_like(self.s)
        R.determinize(self.s, self._pr, player, rng, out)
        stream = stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64))
        return self._copy(out, stream)

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play the game to its end in one compiled call, every seat choosing as the
        ``random`` agent would with ``rng`` as the decision stream (same draws, same game as
        through :meth:`apply`), and return the seats' win shares (``result().win_shares``).
        For search rollouts: the log and round records are not extended."""
        with_stream(playout_with_stream, TAG, self.s, self._pr, self._stream, rng, self._buffer)
        self._legal = None
        ranks = self.s[R.RANK:R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows, one per hand and seat (see
        :mod:`engines.games.ascenseur_atouts.summary`)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        rounds = (np.concatenate(self._rounds) if self._rounds
                  else np.empty((0, summary.ROUND_WIDTH), dtype=np.int32))
        return row, rounds

    @property
    def log(self) -> list[str]:
        """The game's events, readable: ``hand 1: 5 cards, P0 deals``, ``P1 bid 2``,
        ``P3 play Excuse high``, ``trick 1: P1 T4, P2 T9, P3 Excuse high, P0 T1 → P3``,
        ``hand 1 ends: P1 bid 2 won 1 (error 1, total 1), ...``."""
        lines: list[str] = []
        for entry in self._log:
            if entry[0] == "deal":
                lines.append(_describe_deal(self.game.params, entry[1]))
            elif entry[0] == "trick":
                lines.append(_describe_trick(self.game.params, entry[1]))
            elif entry[0] == "hand_end":
                lines.append(_describe_hand_end(self.game.params, entry[1]))
            else:
                lines.append(f"P{entry[0]} {ACTIONS[entry[1]].text}")
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.s[R.PHASE])]

    def hand_of(self, player: int) -> tuple[int, ...]:
        """The cards ``player`` holds (full information: for tests and tools, not bots)."""
        return tuple(int(c) for c in np.flatnonzero(
            self.s[R.LOCATION:R.LOCATION + R.PLAY_CARDS] == R.LOC_HAND + player))

    def __repr__(self) -> str:
        return (f"<ascenseur-atouts hand {int(self.s[R.HAND]) + 1} "
                f"({int(self.s[R.CARDS])} cards), {self.phase}, P{self.current_player} to play>")

    # -- internals ---------------------------------------------------------------------
    def _copy(self, s: np.ndarray, stream: np.ndarray) -> AscenseurState:
        return AscenseurState(self.game, s, stream, list(self._log), list(self._rounds))

    def _advance(self) -> None:
        with_stream(advance_with_stream, TAG, self.s, self._pr, self._stream)
        self._legal = None
        if not self.is_terminal():
            self._log.append(("deal", self.s.copy()))

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        text = action.text
        if self.is_terminal():
            return f"{text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal)
        return (f"{text} is not legal for P{self.current_player} in phase {self.phase}; "
                f"legal: {shown}")

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.params.players:
            raise ValueError(f"no seat {player}: seats are 0..{self.game.params.players - 1}")


def _describe_deal(params: AscenseurParams, s: np.ndarray) -> str:
    cards = int(s[R.CARDS])
    text = (f"hand {int(s[R.HAND]) + 1}: {cards} card{'s' if cards > 1 else ''}, "
            f"P{int(s[R.DEALER])} deals")
    if s[R.BLIND]:
        foreheads = ", ".join(
            f"P{p} {card_text(c)}" for p in range(params.players)
            for c in np.flatnonzero(s[R.LOCATION:R.LOCATION + R.PLAY_CARDS] == R.LOC_HAND + p))
        text += f"; blind, on the foreheads: {foreheads}"
    return text


def _describe_trick(params: AscenseurParams, s: np.ndarray) -> str:
    plays = []
    for i in range(params.players):
        card = int(s[R.TRICK_CARD + i])
        name = card_text(card)
        if card == R.EXCUSE:
            high = s[R.TRICK_STRENGTH + i] == R.EXCUSE_HIGH_STRENGTH
            name += " high" if high else " low"
        plays.append(f"P{int(s[R.TRICK_SEAT + i])} {name}")
    return f"trick {int(s[R.TRICK])}: {', '.join(plays)} → P{int(s[R.TRICK_WINNER])}"


def _describe_hand_end(params: AscenseurParams, s: np.ndarray) -> str:
    parts = [f"P{p} bid {int(s[R.BID + p])} won {int(s[R.TRICKS + p])} (error "
             f"{int(s[R.HAND_ERROR + p])}, total {int(s[R.ERRORS + p])})"
             for p in range(params.players)]
    text = f"hand {int(s[R.HANDS_PLAYED])} ends: " + ", ".join(parts)
    if s[R.PHASE] == R.OVER:
        winners = [f"P{p}" for p in range(params.players) if s[R.RANK + p] == 1]
        text += f"; game over, {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"
    return text


class AscenseurObservation:
    """What one seat may know, decoded on demand from a masked copy of the state."""

    def __init__(self, params: AscenseurParams, s: np.ndarray, player: int,
                 state: AscenseurState) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state         # only for determinize(), while the game has not moved on

    def determinize(self, rng: np.random.Generator) -> AscenseurState:
        """A full state consistent with what this seat knows (``state.determinize``).  Only
        valid while the game is where it was when this observation was made."""
        state = self._state
        if state.s[R.DECISIONS] != self._s[R.DECISIONS] or state.s[R.HAND] != self._s[R.HAND]:
            raise ValueError("stale observation: the game has moved on since it was made")
        return state.determinize(self.player, rng)

    @property
    def array(self) -> np.ndarray:
        """The masked state array (a read-only view), for compiled bots."""
        view = self._s.view()
        view.setflags(write=False)
        return view

    def _located(self, location: int) -> tuple[int, ...]:
        where = self._s[R.LOCATION:R.LOCATION + R.PLAY_CARDS]
        return tuple(int(c) for c in np.flatnonzero(where == location))

    @cached_property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards (in the blind hand, empty until it is this seat's turn to play:
        the card is on their forehead)."""
        return self._located(R.LOC_HAND + self.player)

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
    def trick(self) -> tuple[tuple[int, int, int], ...]:
        """The trick in progress: (seat, card, strength) in playing order (the Excuse's
        strength is 22 played high, 0 played low)."""
        s = self._s
        return tuple((int(s[R.TRICK_SEAT + i]), int(s[R.TRICK_CARD + i]),
                      int(s[R.TRICK_STRENGTH + i])) for i in range(int(s[R.PLAYED])))

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self._s[R.PHASE])]

    @property
    def cards(self) -> int:
        """Cards per player dealt this hand."""
        return int(self._s[R.CARDS])

    @property
    def blind(self) -> bool:
        return bool(self._s[R.BLIND])

    @property
    def dealer(self) -> int:
        return int(self._s[R.DEALER])

    @property
    def current_player(self) -> int:
        return int(self._s[R.CURRENT])

    @property
    def bids(self) -> tuple[int, ...]:
        """Each seat's bid this hand (-1: not yet)."""
        return self._per_player(R.BID)

    @property
    def tricks(self) -> tuple[int, ...]:
        """Tricks each seat has won this hand."""
        return self._per_player(R.TRICKS)

    @property
    def errors(self) -> tuple[int, ...]:
        """Error points so far: each seat's score pile shows the (errors + 2)-th card."""
        return self._per_player(R.ERRORS)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._per_player(R.HAND_SIZE)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed this hand, the one in progress included."""
        return int(self._s[R.CARDS] - self._s[R.TRICK])

    def _per_player(self, offset: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[offset:offset + self.params.players])

    def __repr__(self) -> str:
        hand = " ".join(card_text(c) for c in self.hand) or "?"
        return (f"<P{self.player} sees hand {int(self._s[R.HAND]) + 1} ({self.phase}), "
                f"cards [{hand}], bids {self.bids}>")
