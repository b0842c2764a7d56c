"""Rikiki through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.rikiki.rules`; this module turns its flat arrays into the
objects bots, runners and people use (actions with readable names, observations, results, an
event log) and checks that an action is legal before handing it to the rules.

Actions, in the order ``legal_actions()`` lists them: bids ``bid 0`` .. ``bid k`` ascending
(without the one the hook forbids the dealer under ``hook_rule``); plays ``play 2♥`` ..
``play A♣`` in card id order (suits ♥ ♦ ♠ ♣, ranks 2 .. A).  Plays also accept letters for
suits (``play Qs``).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numba import njit

from engines.api import Action, IllegalActionError, Result
from engines.cards import SUIT_SYMBOLS, card_name, parse_card
from engines.chance import uniform_index_jit
from engines.rikiki import rules as R
from engines.rikiki import summary
from engines.rikiki.params import RikikiParams
from engines.seeding import ScratchStream, check_seed, seed_words, stream_state

PHASE_NAMES = {R.DEAL: "deal", R.BIDDING: "bidding", R.PLAYING: "tricks", R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``play Q♠``, ``bid 2``."""
    if code < R.BID_ACTION:
        return f"play {card_name(code - R.PLAY)}"
    return f"bid {code - R.BID_ACTION}"


ACTIONS: tuple[Action, ...] = tuple(Action(c, action_text(c)) for c in range(R.N_ACTIONS))
_BY_TEXT = {a.text: a for a in ACTIONS}


def suit_text(suit: int) -> str:
    return "no trump" if suit < 0 else SUIT_SYMBOLS[suit]


@njit(cache=True)
def _advance(s, pr, rngs, alias, stream):
    """Resolve pending deals, drawing from the state's own stream."""
    alias[:] = stream
    R.advance(s, pr, rngs[0])
    stream[:] = alias


@njit(cache=True)
def _playout(s, pr, rngs, alias, stream, decisions, actions):
    """Play uniformly random legal actions to the end of the game: each decision takes
    ``actions[uniform_index(decisions, n)]`` among the ``n`` legal actions (the ``random``
    agent's draw); deals draw from the state's own stream, as :meth:`apply` does."""
    alias[:] = stream
    while s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, actions)
        R.apply_action(s, pr, actions[uniform_index_jit(decisions, n)])
        R.advance(s, pr, rngs[0])
    stream[:] = alias


class Rikiki:
    """The game Rikiki with fixed parameters (``engines.load("rikiki", ...)``)."""

    slug = "rikiki"
    title = "Rikiki"
    Params = RikikiParams
    actions = ACTIONS

    def __init__(self, params: RikikiParams | None = None) -> None:
        self.params = params or RikikiParams()
        self.encoded_params = R.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> RikikiState:
        """A new game after its first deal: game ``index`` of a run with seed ``seed``, or,
        given a Generator, a game whose chance stream is seeded from it."""
        if isinstance(seed, np.random.Generator):
            words = seed.integers(0, 2**64, size=3, dtype=np.uint64)
        else:
            words = seed_words(check_seed(seed), index, 1)[0, 0]
        s = R.STATE.new()
        R.new_game(s, self.encoded_params)
        state = RikikiState(self, s, stream_state(words))
        state._advance()
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (``"bid 2"``, ``"play Q♠"``, ``"play Qs"``)."""
        if isinstance(value, Action):
            return value
        if isinstance(value, int | np.integer) and 0 <= value < R.N_ACTIONS:
            return ACTIONS[int(value)]
        if isinstance(value, str):
            text = value.strip()
            if text in _BY_TEXT:
                return _BY_TEXT[text]
            if text.startswith("play "):
                try:
                    return ACTIONS[R.PLAY + parse_card(text[5:])]
                except (ValueError, IndexError):
                    pass
        raise IllegalActionError(f"not a Rikiki action: {value!r} (examples: 'bid 2', "
                                 f"'play Q♠', 'play 10h')")

    def __repr__(self) -> str:
        return f"Rikiki({self.params})"


class RikikiState:
    """One game of Rikiki in progress (see :mod:`engines.api`)."""

    def __init__(self, game: Rikiki, s: np.ndarray, stream: np.ndarray,
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
        rounds_before = int(s[R.ROUNDS_PLAYED])
        R.apply_action(s, self._pr, action.code)
        self._legal = None
        self._log.append((player, action.code))
        if int(s[R.TRICK]) != tricks_before:
            self._log.append(("trick", s.copy()))
        if int(s[R.ROUNDS_PLAYED]) != rounds_before:
            self._log.append(("round_end", s.copy()))
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

    def observation(self, player: int) -> RikikiObservation:
        self._check_player(player)
        seen = np.empty(R.STATE_SIZE, dtype=np.int32)
        R.observe(self.s, self._pr, player, seen)
        return RikikiObservation(self.game.params, seen, player, self)

    def clone(self) -> RikikiState:
        return self._copy(self.s.copy(), self._stream.copy())

    def determinize(self, player: int, rng: np.random.Generator) -> RikikiState:
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
        scratch = ScratchStream.get()
        _playout(self.s, self._pr, scratch.boxed, scratch.stream.alias, self._stream, rng,
                 self._buffer)
        self._legal = None
        ranks = self.s[R.RANK:R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows, one per round and seat (see
        :mod:`engines.rikiki.summary`)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        rounds = (np.concatenate(self._rounds) if self._rounds
                  else np.empty((0, summary.ROUND_WIDTH), dtype=np.int32))
        return row, rounds

    @property
    def log(self) -> list[str]:
        """The game's events, readable: ``round 1: 1 card, P0 deals, trump 7♠ turned``,
        ``P1 bid 1``, ``P1 play Q♠``, ``trick 1: P1 Q♠, P2 3♠, P3 2♥, P0 A♠ → P3``,
        ``round 1 ends: P1 bid 1 took 0 (-15, total -15), ...``."""
        lines: list[str] = []
        for entry in self._log:
            if entry[0] == "deal":
                lines.append(_describe_deal(entry[1]))
            elif entry[0] == "trick":
                lines.append(_describe_trick(self.game.params, entry[1]))
            elif entry[0] == "round_end":
                lines.append(_describe_round_end(self.game.params, entry[1]))
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
            self.s[R.LOCATION:R.LOCATION + R.DECK_CARDS] == R.LOC_HAND + player))

    def __repr__(self) -> str:
        return (f"<rikiki round {int(self.s[R.ROUND]) + 1} ({int(self.s[R.CARDS])} cards), "
                f"{self.phase}, P{self.current_player} to play>")

    # -- internals ---------------------------------------------------------------------
    def _copy(self, s: np.ndarray, stream: np.ndarray) -> RikikiState:
        return RikikiState(self.game, s, stream, list(self._log), list(self._rounds))

    def _advance(self) -> None:
        scratch = ScratchStream.get()
        _advance(self.s, self._pr, scratch.boxed, scratch.stream.alias, self._stream)
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


def _describe_deal(s: np.ndarray) -> str:
    cards = int(s[R.CARDS])
    trump = int(s[R.TRUMP_CARD])
    turned = f"trump {card_name(trump)} turned" if trump >= 0 else "no card left: no trump"
    return (f"round {int(s[R.ROUND]) + 1}: {cards} card{'s' if cards > 1 else ''}, "
            f"P{int(s[R.DEALER])} deals, {turned}")


def _describe_trick(params: RikikiParams, s: np.ndarray) -> str:
    plays = ", ".join(f"P{int(s[R.TRICK_SEAT + i])} {card_name(int(s[R.TRICK_CARD + i]))}"
                      for i in range(params.players))
    return f"trick {int(s[R.TRICK])}: {plays} → P{int(s[R.TRICK_WINNER])}"


def _describe_round_end(params: RikikiParams, s: np.ndarray) -> str:
    parts = [f"P{p} bid {int(s[R.BID + p])} took {int(s[R.TRICKS + p])} "
             f"({int(s[R.POINTS + p]):+d}, total {int(s[R.SCORE + p])})"
             for p in range(params.players)]
    text = f"round {int(s[R.ROUNDS_PLAYED])} ends: " + ", ".join(parts)
    if s[R.PHASE] == R.OVER:
        winners = [f"P{p}" for p in range(params.players) if s[R.RANK + p] == 1]
        text += f"; game over, {' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"
    return text


class RikikiObservation:
    """What one seat may know, decoded on demand from a masked copy of the state."""

    def __init__(self, params: RikikiParams, s: np.ndarray, player: int,
                 state: RikikiState) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state         # only for determinize(), while the game has not moved on

    def determinize(self, rng: np.random.Generator) -> RikikiState:
        """A full state consistent with what this seat knows (``state.determinize``).  Only
        valid while the game is where it was when this observation was made."""
        state = self._state
        if (state.s[R.DECISIONS] != self._s[R.DECISIONS]
                or state.s[R.ROUND] != self._s[R.ROUND]):
            raise ValueError("stale observation: the game has moved on since it was made")
        return state.determinize(self.player, rng)

    @property
    def array(self) -> np.ndarray:
        """The masked state array (a read-only view), for compiled bots."""
        view = self._s.view()
        view.setflags(write=False)
        return view

    def _located(self, location: int) -> tuple[int, ...]:
        where = self._s[R.LOCATION:R.LOCATION + R.DECK_CARDS]
        return tuple(int(c) for c in np.flatnonzero(where == location))

    @cached_property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards."""
        return self._located(R.LOC_HAND + self.player)

    @cached_property
    def played(self) -> tuple[int, ...]:
        """Cards played to the earlier tricks of this round."""
        return self._located(R.LOC_PLAYED)

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The trick in progress: (seat, card) in playing order."""
        s = self._s
        return tuple((int(s[R.TRICK_SEAT + i]), int(s[R.TRICK_CARD + i]))
                     for i in range(int(s[R.PLAYED])))

    @property
    def trump_card(self) -> int | None:
        """The turned card (None when no card was left to turn)."""
        card = int(self._s[R.TRUMP_CARD])
        return card if card >= 0 else None

    @property
    def trump(self) -> int | None:
        """The trump suit (None without one)."""
        suit = int(self._s[R.TRUMP])
        return suit if suit >= 0 else None

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self._s[R.PHASE])]

    @property
    def cards(self) -> int:
        """Cards per player dealt this round."""
        return int(self._s[R.CARDS])

    @property
    def dealer(self) -> int:
        return int(self._s[R.DEALER])

    @property
    def current_player(self) -> int:
        return int(self._s[R.CURRENT])

    @property
    def bids(self) -> tuple[int, ...]:
        """Each seat's bid this round (-1: not yet)."""
        return self._per_player(R.BID)

    @property
    def tricks(self) -> tuple[int, ...]:
        """Tricks each seat has won this round."""
        return self._per_player(R.TRICKS)

    @property
    def scores(self) -> tuple[int, ...]:
        """Running totals."""
        return self._per_player(R.SCORE)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return self._per_player(R.HAND_SIZE)

    def _per_player(self, offset: int) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[offset:offset + self.params.players])

    def __repr__(self) -> str:
        hand = " ".join(card_name(c) for c in self.hand) or "-"
        return (f"<P{self.player} sees round {int(self._s[R.ROUND]) + 1} ({self.phase}), "
                f"trump {suit_text(int(self._s[R.TRUMP]))}, cards [{hand}], "
                f"bids {self.bids}>")
