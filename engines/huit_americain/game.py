"""Le huit américain through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.huit_americain.rules`; this module turns its flat arrays into
the objects bots, runners and people use (actions with readable names, observations, results,
an event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numba import njit

from engines.api import Action, IllegalActionError, Result
from engines.cards import SUIT_SYMBOLS, card_name
from engines.chance import uniform_index_jit
from engines.huit_americain import rules as R
from engines.huit_americain import summary
from engines.huit_americain.params import HuitAmericainParams
from engines.seeding import ScratchStream, check_seed, seed_words, stream_state
from engines.shedding import ENDINGS

PHASE_NAMES = {R.SETUP: "setup", R.TURN: "turn", R.RESPOND: "respond", R.DRAWN: "drawn",
               R.CARTE: "carte", R.OVER: "over"}
ATTACK_NAMES = ("none", "ace", "king of hearts")


def action_text(code: int) -> str:
    """Readable form of an action code: ``play 6♠``, ``play 8♣ → ♥``, ``draw``, ``keep``,
    ``call carte``, ``no call``."""
    if code < R.EIGHT_ACTION:
        return f"play {card_name(code - R.PLAY_ACTION)}"
    if code < R.DRAW_ACTION:
        k = code - R.EIGHT_ACTION
        return f"play {card_name(R.eight_card(k // R.SUITS))} → {SUIT_SYMBOLS[k % R.SUITS]}"
    return {R.DRAW_ACTION: "draw", R.KEEP_ACTION: "keep", R.CALL_ACTION: "call carte",
            R.NO_CALL_ACTION: "no call"}[code]


ACTIONS: tuple[Action, ...] = tuple(Action(c, action_text(c)) for c in range(R.N_ACTIONS))
_BY_TEXT = {a.text: a for a in ACTIONS}


@njit(cache=True)
def _apply(s, pr, code, rngs, alias, stream):
    """Apply an action, drawing chance from the state's own stream."""
    alias[:] = stream
    R.apply_action(s, pr, code, rngs[0])
    stream[:] = alias


@njit(cache=True)
def _advance(s, pr, rngs, alias, stream):
    """Resolve the pending chance step (the deal), drawing from the state's own stream."""
    alias[:] = stream
    R.advance(s, pr, rngs[0])
    stream[:] = alias


@njit(cache=True)
def _playout(s, pr, rngs, alias, stream, decisions, actions):
    """Play uniformly random legal actions to the end of the game: each decision takes
    ``actions[uniform_index(decisions, n)]`` among the ``n`` legal actions (the ``random``
    agent's draw); chance draws from the state's own stream, as :meth:`apply` does."""
    alias[:] = stream
    while s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, actions)
        R.apply_action(s, pr, actions[uniform_index_jit(decisions, n)], rngs[0])
    stream[:] = alias


class HuitAmericain:
    """Le huit américain with fixed parameters (``engines.load("huit-americain", ...)``)."""

    slug = "huit-americain"
    title = "Le huit américain"
    Params = HuitAmericainParams
    actions = ACTIONS

    def __init__(self, params: HuitAmericainParams | None = None) -> None:
        self.params = params or HuitAmericainParams()
        self.encoded_params = R.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0
                  ) -> HuitAmericainState:
        """A new game after the deal: game ``index`` of a run with seed ``seed`` (the game
        the batch kernel plays for that seed and index), or, given a Generator, a game whose
        chance stream is seeded from it."""
        if isinstance(seed, np.random.Generator):
            words = seed.integers(0, 2**64, size=3, dtype=np.uint64)
        else:
            words = seed_words(check_seed(seed), index, 1)[0, 0]
        s = R.STATE.new()
        R.new_game(s, self.encoded_params)
        state = HuitAmericainState(self, s, stream_state(words))
        scratch = ScratchStream.get()
        _advance(s, self.encoded_params, scratch.boxed, scratch.stream.alias, state._stream)
        state._log.append(("start", int(s[R.TOP])))
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (``"play 6♠"``, ``"play 8♣ → ♥"``,
        ``"draw"``)."""
        if isinstance(value, Action):
            return value
        if isinstance(value, int | np.integer) and 0 <= value < R.N_ACTIONS:
            return ACTIONS[int(value)]
        if isinstance(value, str) and value.strip() in _BY_TEXT:
            return _BY_TEXT[value.strip()]
        raise IllegalActionError(f"not a huit américain action: {value!r} (examples: "
                                 f"'play 6♠', 'play 8♣ → ♥', 'draw', 'keep', 'call carte')")

    def __repr__(self) -> str:
        return f"HuitAmericain({self.params})"


class HuitAmericainState:
    """One game of le huit américain in progress (see :mod:`engines.api`)."""

    def __init__(self, game: HuitAmericain, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        self._buffer = np.empty(R.N_ACTIONS, dtype=np.int32)
        # entries: ("start", card), (player, code) for decisions, ("draws", player, k),
        # ("end", ending); formatted only when ``log`` is read
        self._log: list[tuple] = log if log is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.s[R.CURRENT])

    def legal_actions(self) -> list[Action]:
        """In a turn: every playable card by card id (cards other than 8s), then each 8 with
        each announced suit ♥ ♦ ♠ ♣, then ``draw`` when nothing is playable.  Under attack:
        the counters held, else ``draw`` (the penalty).  After a draw with a choice: the plays
        of the drawn card(s), then ``keep`` in the optional variants.  In the "Carte!" window:
        ``call carte``, ``no call``."""
        if self.is_terminal():
            return []
        n = R.legal_actions(self.s, self._pr, self._buffer)
        return [ACTIONS[c] for c in self._buffer[:n].tolist()]

    def apply(self, action: Action | int | str) -> None:
        """Play ``action`` for the current player; an illegal one raises
        :class:`IllegalActionError` and leaves the state unchanged."""
        action = self.game.action(action)
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._illegal_message(action, legal))
        s = self.s
        players = self.game.params.players
        drawn = s[R.CARDS_DRAWN:R.CARDS_DRAWN + players].copy()
        self._log.append((self.current_player, action.code))
        scratch = ScratchStream.get()
        _apply(s, self._pr, action.code, scratch.boxed, scratch.stream.alias, self._stream)
        for p in np.nonzero(s[R.CARDS_DRAWN:R.CARDS_DRAWN + players] != drawn)[0].tolist():
            self._log.append(("draws", p, int(s[R.CARDS_DRAWN + p] - drawn[p])))
        if self.is_terminal():
            self._log.append(("end", int(s[R.ENDING])))

    def is_terminal(self) -> bool:
        return bool(self.s[R.PHASE] == R.OVER)

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> HuitAmericainObservation:
        self._check_player(player)
        seen = np.empty(R.STATE_SIZE, dtype=np.int32)
        R.observe(self.s, self._pr, player, seen)
        return HuitAmericainObservation(self.game.params, seen, player, self)

    def clone(self) -> HuitAmericainState:
        return self._copy(self.s.copy(), self._stream.copy())

    def determinize(self, player: int, rng: np.random.Generator) -> HuitAmericainState:
        """A full state consistent with ``player``'s observation: the cards he cannot see
        re-dealt from ``rng`` to the other hands (their sizes kept) and the stock, and a
        fresh chance stream drawn from ``rng``."""
        self._check_player(player)
        out = np.empty_like(self.s)
        R.determinize(self.s, self._pr, player, rng, out)
        stream = stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64))
        return self._copy(out, stream)

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play the game to its end in one compiled call, every seat choosing as the
        ``random`` agent would with ``rng`` as the decision stream (the same game as through
        :meth:`apply`), and return the seats' win shares.  The log is not extended."""
        scratch = ScratchStream.get()
        _playout(self.s, self._pr, scratch.boxed, scratch.stream.alias, self._stream, rng,
                 self._buffer)
        ranks = self.s[R.RANK:R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row, and its round rows (none: a single hand), see
        :mod:`engines.huit_americain.summary`."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        return row, np.empty((0, summary.ROUND_WIDTH), dtype=np.int32)

    @property
    def log(self) -> list[str]:
        """The game's events, readable: ``start: 6♦``, ``P0 play 6♠``, ``P1 draw``,
        ``P1 draws 1``, ``game over (finished)``."""
        lines: list[str] = []
        for entry in self._log:
            if entry[0] == "start":
                lines.append(f"start: {card_name(entry[1])}")
            elif entry[0] == "draws":
                lines.append(f"P{entry[1]} draws {entry[2]}")
            elif entry[0] == "end":
                lines.append(f"game over ({ENDINGS[entry[1]]})")
            else:
                lines.append(f"P{entry[0]} {ACTIONS[entry[1]].text}")
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.s[R.PHASE])]

    def hand(self, player: int) -> list[str]:
        """A seat's cards, by card id (one entry per copy)."""
        return _hand(self.s, player)

    def __repr__(self) -> str:
        if self.is_terminal():
            return "<huit-americain over>"
        return (f"<huit-americain {self.phase}, top {card_name(int(self.s[R.TOP]))}, suit "
                f"{SUIT_SYMBOLS[int(self.s[R.SUIT])]}, P{self.current_player} to play>")

    # -- internals ---------------------------------------------------------------------
    def _copy(self, s: np.ndarray, stream: np.ndarray) -> HuitAmericainState:
        return HuitAmericainState(self.game, s, stream, list(self._log))

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal)
        return (f"{action.text} is not legal for P{self.current_player} in phase "
                f"{self.phase} (top {card_name(int(self.s[R.TOP]))}, suit "
                f"{SUIT_SYMBOLS[int(self.s[R.SUIT])]}); legal: {shown}")

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.params.players:
            raise ValueError(f"no seat {player}: seats are 0..{self.game.params.players - 1}")


def _hand(s: np.ndarray, player: int) -> list[str]:
    h = R.hand_at(player)
    return [card_name(c) for c in range(R.CARDS) for _ in range(int(s[h + c]))]


class HuitAmericainObservation:
    """What one seat may know, decoded on demand from a masked copy of the state."""

    def __init__(self, params: HuitAmericainParams, s: np.ndarray, player: int,
                 state: HuitAmericainState) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state         # only for determinize(), while the game has not moved on
        self.encoded_params = state.game.encoded_params     # for compiled bots

    def determinize(self, rng: np.random.Generator) -> HuitAmericainState:
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
    def top(self) -> str:
        return card_name(int(self._s[R.TOP]))

    @property
    def suit(self) -> str:
        """The suit to follow (announced after an 8)."""
        return SUIT_SYMBOLS[int(self._s[R.SUIT])]

    @property
    def attack(self) -> str:
        return ATTACK_NAMES[int(self._s[R.ATTACK])]

    @cached_property
    def hand(self) -> list[str]:
        return _hand(self._s, self.player)

    @cached_property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[R.HAND_SIZE:R.HAND_SIZE + self.params.players])

    @property
    def stock_size(self) -> int:
        return int(self._s[R.STOCK_LEN])

    @property
    def unseen(self) -> int:
        """How many cards this seat cannot see (the stock and the other hands)."""
        return int(self._s[R.UNSEEN])

    def __repr__(self) -> str:
        return (f"<P{self.player} sees {self.phase}, top {self.top} ({self.suit}), hand "
                f"{self.hand}>")
