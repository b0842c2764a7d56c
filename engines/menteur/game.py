"""Le menteur through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.menteur.rules`; this module turns its flat arrays into the
objects bots, runners and people use (actions with readable names, observations, results, an
event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numba import njit

from engines.api import Action, IllegalActionError, Result
from engines.cards import SUIT_SYMBOLS, card_name
from engines.chance import uniform_index_jit
from engines.menteur import rules as R
from engines.menteur import summary
from engines.menteur.params import MenteurParams
from engines.seeding import ScratchStream, check_seed, seed_words, stream_state
from engines.shedding import ENDINGS

PHASE_NAMES = {R.SETUP: "setup", R.LEAD: "lead", R.FOLLOW: "follow",
               R.WINDOW_PHASE: "window", R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``lay 5♥ as ♠`` (leading), ``lay 9♠`` (following),
    ``call``, ``no call``."""
    if code < R.FOLLOW_ACTION:
        card, suit = divmod(code - R.LEAD_ACTION, R.SUITS)
        return f"lay {card_name(card)} as {SUIT_SYMBOLS[suit]}"
    if code < R.CALL_ACTION:
        return f"lay {card_name(code - R.FOLLOW_ACTION)}"
    return "call" if code == R.CALL_ACTION else "no call"


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
    agent's draw); chance draws from the state's own stream, as ``apply`` does."""
    alias[:] = stream
    while s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, actions)
        R.apply_action(s, pr, actions[uniform_index_jit(decisions, n)], rngs[0])
    stream[:] = alias


class Menteur:
    """Le menteur with fixed parameters (``engines.load("menteur", ...)``)."""

    slug = "menteur"
    title = "Le menteur"
    Params = MenteurParams
    actions = ACTIONS

    def __init__(self, params: MenteurParams | None = None) -> None:
        self.params = params or MenteurParams()
        self.encoded_params = R.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> MenteurState:
        """A new game after the deal: game ``index`` of a run with seed ``seed``, or, given a
        Generator, a game whose chance stream is seeded from it."""
        if isinstance(seed, np.random.Generator):
            words = seed.integers(0, 2**64, size=3, dtype=np.uint64)
        else:
            words = seed_words(check_seed(seed), index, 1)[0, 0]
        s = R.STATE.new()
        R.new_game(s, self.encoded_params)
        state = MenteurState(self, s, stream_state(words))
        scratch = ScratchStream.get()
        _advance(s, self.encoded_params, scratch.boxed, scratch.stream.alias, state._stream)
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (``"lay 5♥ as ♠"``, ``"lay 9♠"``,
        ``"call"``)."""
        if isinstance(value, Action):
            return value
        if isinstance(value, int | np.integer) and 0 <= value < R.N_ACTIONS:
            return ACTIONS[int(value)]
        if isinstance(value, str) and value.strip() in _BY_TEXT:
            return _BY_TEXT[value.strip()]
        raise IllegalActionError(f"not a menteur action: {value!r} (examples: "
                                 f"'lay 5♥ as ♠', 'lay 9♠', 'call', 'no call')")

    def __repr__(self) -> str:
        return f"Menteur({self.params})"


class MenteurState:
    """One game of le menteur in progress (see :mod:`engines.api`)."""

    def __init__(self, game: Menteur, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream
        self._pr = game.encoded_params
        self._buffer = np.empty(R.N_ACTIONS, dtype=np.int32)
        # entries: (player, code) for decisions, ("shown", card, taker), ("end", ending)
        self._log: list[tuple] = log if log is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.s[R.CURRENT])

    def legal_actions(self) -> list[Action]:
        """Leading: every card in hand (by card id) with each announced suit ♥ ♦ ♠ ♣;
        following: every card in hand; in the challenge window: ``call``, ``no call``."""
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
        challenges = int(s[R.CHALLENGES])
        layer = int(s[R.LAYER])
        self._log.append((self.current_player, action.code))
        scratch = ScratchStream.get()
        _apply(s, self._pr, action.code, scratch.boxed, scratch.stream.alias, self._stream)
        if s[R.CHALLENGES] != challenges:
            liar = s[R.CORRECT_CALLS:R.CORRECT_CALLS + R.MAX_PLAYERS].sum()
            self._log.append(("shown", int(s[R.REVEALED]), layer, int(liar)))
        if self.is_terminal():
            self._log.append(("end", int(s[R.ENDING])))

    def is_terminal(self) -> bool:
        return bool(self.s[R.PHASE] == R.OVER)

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> MenteurObservation:
        self._check_player(player)
        seen = np.empty(R.STATE_SIZE, dtype=np.int32)
        R.observe(self.s, self._pr, player, seen)
        return MenteurObservation(self.game.params, seen, player, self)

    def clone(self) -> MenteurState:
        return MenteurState(self.game, self.s.copy(), self._stream.copy(), list(self._log))

    def determinize(self, player: int, rng: np.random.Generator) -> MenteurState:
        """A full state consistent with ``player``'s observation: the cards he cannot see
        re-dealt from ``rng`` to the other hands (sizes kept) and the face-down pile places
        others laid, and a fresh chance stream drawn from ``rng``."""
        self._check_player(player)
        out = np.empty_like(self.s)
        R.determinize(self.s, self._pr, player, rng, out)
        stream = stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64))
        return MenteurState(self.game, out, stream, list(self._log))

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play the game to its end in one compiled call, every seat choosing as the
        ``random`` agent would with ``rng`` as the decision stream (the same game as through
        :meth:`apply`), and return the seats' win shares.  The log and records are not
        extended."""
        scratch = ScratchStream.get()
        _playout(self.s, self._pr, scratch.boxed, scratch.stream.alias, self._stream, rng,
                 self._buffer)
        ranks = self.s[R.RANK:R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row, and its round rows (none: a single hand)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        return row, np.empty((0, summary.ROUND_WIDTH), dtype=np.int32)

    @property
    def log(self) -> list[str]:
        """The game's events, readable: ``P0 lay 5♥ as ♠``, ``P1 call``,
        ``shown: 5♥ (a lie by P0)``, ``game over (finished)``."""
        lines: list[str] = []
        previous_correct = 0
        for entry in self._log:
            if entry[0] == "shown":
                lie = entry[3] > previous_correct
                previous_correct = entry[3]
                verdict = "a lie" if lie else "the truth"
                lines.append(f"shown: {card_name(entry[1])} ({verdict} by P{entry[2]})")
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
        """A seat's cards, by card id."""
        return _hand(self.s, player)

    def __repr__(self) -> str:
        if self.is_terminal():
            return "<menteur over>"
        return (f"<menteur {self.phase}, pile {int(self.s[R.PILE_LEN])}, "
                f"P{self.current_player} to play>")

    # -- internals ---------------------------------------------------------------------
    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal[:12])
        more = f" (+{len(legal) - 12} more)" if len(legal) > 12 else ""
        return (f"{action.text} is not legal for P{self.current_player} in phase "
                f"{self.phase}; legal: {shown}{more}")

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.params.players:
            raise ValueError(f"no seat {player}: seats are 0..{self.game.params.players - 1}")


def _hand(s: np.ndarray, player: int) -> list[str]:
    h = R.hand_at(player)
    return [card_name(c) for c in range(R.CARDS) for _ in range(int(s[h + c]))]


class MenteurObservation:
    """What one seat may know, decoded on demand from a masked copy of the state."""

    def __init__(self, params: MenteurParams, s: np.ndarray, player: int,
                 state: MenteurState) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state
        self.encoded_params = state.game.encoded_params

    def determinize(self, rng: np.random.Generator) -> MenteurState:
        """A full state consistent with what this seat knows (``state.determinize``).  Only
        valid while the game is where it was when this observation was made."""
        state = self._state
        if state.s[R.DECISIONS] != self._s[R.DECISIONS]:
            raise ValueError("stale observation: the game has moved on since it was made")
        return state.determinize(self.player, rng)

    @property
    def array(self) -> np.ndarray:
        view = self._s.view()
        view.setflags(write=False)
        return view

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self._s[R.PHASE])]

    @property
    def suit(self) -> int:
        """The announced suit of the pile (0..3 for ♥ ♦ ♠ ♣), -1 with no pile."""
        return int(self._s[R.SUIT])

    @property
    def layer(self) -> int:
        """Who laid the last card."""
        return int(self._s[R.LAYER])

    @cached_property
    def hand_counts(self) -> np.ndarray:
        """This seat's cards as counts per card id."""
        h = R.hand_at(self.player)
        return self._s[h:h + R.CARDS].copy()

    @cached_property
    def hand(self) -> list[str]:
        return _hand(self._s, self.player)

    @cached_property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[R.HAND_SIZE:R.HAND_SIZE + self.params.players])

    @cached_property
    def pile(self) -> list[tuple[int, int]]:
        """The pile bottom to top: (card id, or ``HIDDEN`` for a card another laid; the
        seat that laid it)."""
        s = self._s
        return [(int(s[R.PILE + i]), int(s[R.PILE_OWNER + i])) for i in range(s[R.PILE_LEN])]

    @cached_property
    def unseen(self) -> np.ndarray:
        """The card ids this seat cannot see (other hands and others' pile cards)."""
        return self._s[R.POOL:R.POOL + self._s[R.UNSEEN]].copy()

    def __repr__(self) -> str:
        return f"<P{self.player} sees {self.phase}, pile {len(self.pile)}, hand {self.hand}>"
