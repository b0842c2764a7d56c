"""Le nain jaune through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.nain_jaune.rules`; this module turns its flat arrays into
the objects bots, runners and people use and checks that an action is legal before handing
it to the rules.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numba import njit

from engines.api import Action, IllegalActionError, Result
from engines.cards import card_name
from engines.chance import uniform_index_jit
from engines.nain_jaune import rules as R
from engines.nain_jaune import summary
from engines.nain_jaune.params import NainJauneParams
from engines.seeding import ScratchStream, check_seed, seed_words, stream_state
from engines.shedding import ENDINGS

PHASE_NAMES = {R.SETUP: "setup", R.PLAY: "play", R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``play 7♦``, ``sans``."""
    return "sans" if code == R.SANS_ACTION else f"play {card_name(code - R.PLAY_ACTION)}"


ACTIONS: tuple[Action, ...] = tuple(Action(c, action_text(c)) for c in range(R.N_ACTIONS))
_BY_TEXT = {a.text: a for a in ACTIONS}


@njit(cache=True)
def _step(s, pr, code, rngs, alias, stream, setup):
    """Apply an action (or, with ``setup``, the first deal), drawing chance from the
    state's own stream."""
    alias[:] = stream
    if setup:
        R.advance(s, pr, rngs[0])
    else:
        R.apply_action(s, pr, code, rngs[0])
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


class NainJaune:
    """Le nain jaune with fixed parameters (``engines.load("nain-jaune", ...)``)."""

    slug = "nain-jaune"
    title = "Le nain jaune"
    Params = NainJauneParams
    actions = ACTIONS

    def __init__(self, params: NainJauneParams | None = None) -> None:
        self.params = params or NainJauneParams()
        self.encoded_params = R.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0
                  ) -> NainJauneState:
        """A new game after its first deal: game ``index`` of a run with seed ``seed``, or,
        given a Generator, a game whose chance stream is seeded from it."""
        if isinstance(seed, np.random.Generator):
            words = seed.integers(0, 2**64, size=3, dtype=np.uint64)
        else:
            words = seed_words(check_seed(seed), index, 1)[0, 0]
        s = R.STATE.new()
        R.new_game(s, self.encoded_params)
        state = NainJauneState(self, s, stream_state(words))
        state._step(0, setup=True)
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for a code or readable text (``"play 7♦"``, ``"sans"``)."""
        if isinstance(value, Action):
            return value
        if isinstance(value, int | np.integer) and 0 <= value < R.N_ACTIONS:
            return ACTIONS[int(value)]
        if isinstance(value, str) and value.strip() in _BY_TEXT:
            return _BY_TEXT[value.strip()]
        raise IllegalActionError(f"not a nain jaune action: {value!r} (examples: "
                                 f"'play 7♦', 'sans')")

    def __repr__(self) -> str:
        return f"NainJaune({self.params})"


class NainJauneState:
    """One game of le nain jaune in progress (see :mod:`engines.api`)."""

    def __init__(self, game: NainJaune, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None, deals: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream
        self._pr = game.encoded_params
        self._buffer = np.empty(R.N_ACTIONS, dtype=np.int32)
        self._log: list[tuple] = log if log is not None else []
        self._deals: list[np.ndarray] = deals if deals is not None else []

    @property
    def current_player(self) -> int:
        return int(self.s[R.CURRENT])

    def legal_actions(self) -> list[Action]:
        """A free lead: every card in hand; otherwise the cards of the needed rank; then
        ``sans`` with ``may_hold_back``.  By card id."""
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
        self._log.append((self.current_player, action.code))
        self._step(action.code)

    def is_terminal(self) -> bool:
        return bool(self.s[R.PHASE] == R.OVER)

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> NainJauneObservation:
        self._check_player(player)
        seen = np.empty(R.STATE_SIZE, dtype=np.int32)
        R.observe(self.s, self._pr, player, seen)
        return NainJauneObservation(self.game.params, seen, player, self)

    def clone(self) -> NainJauneState:
        return NainJauneState(self.game, self.s.copy(), self._stream.copy(), list(self._log),
                              list(self._deals))

    def determinize(self, player: int, rng: np.random.Generator) -> NainJauneState:
        """A full state consistent with ``player``'s observation: the cards he cannot see
        re-dealt from ``rng`` to the other hands (sizes kept) and the écart, and a fresh
        chance stream drawn from ``rng``."""
        self._check_player(player)
        out = np.empty_like(self.s)
        R.determinize(self.s, self._pr, player, rng, out)
        stream = stream_state(rng.integers(0, 2**64, size=3, dtype=np.uint64))
        return NainJauneState(self.game, out, stream, list(self._log), list(self._deals))

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
        """The finished game's summary row and its deal rows (one per seat and deal)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        deals = (np.concatenate(self._deals) if self._deals
                 else np.empty((0, summary.ROUND_WIDTH), dtype=np.int32))
        return row, deals

    @property
    def log(self) -> list[str]:
        """The game's events, readable: ``P1 play 3♦``, ``P2 sans``, ``deal 1 won by P2``,
        ``game over (finished)``."""
        lines = []
        for entry in self._log:
            if entry[0] == "deal":
                opera = " (grand opéra)" if entry[3] else ""
                lines.append(f"deal {entry[1]} won by P{entry[2]}{opera}")
            elif entry[0] == "end":
                lines.append(f"game over ({ENDINGS[entry[1]]})")
            else:
                lines.append(f"P{entry[0]} {ACTIONS[entry[1]].text}")
        return lines

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.s[R.PHASE])]

    def hand(self, player: int) -> list[str]:
        h = R.hand_at(player)
        return [card_name(c) for c in range(R.CARDS) if self.s[h + c]]

    def __repr__(self) -> str:
        if self.is_terminal():
            return "<nain-jaune over>"
        return (f"<nain-jaune deal {int(self.s[R.DEAL])}, needed {int(self.s[R.NEEDED])}, "
                f"P{self.current_player} to play>")

    def _step(self, code: int, setup: bool = False) -> None:
        s = self.s
        won = int(s[R.DEALS_WON:R.DEALS_WON + R.MAX_PLAYERS].sum())
        scratch = ScratchStream.get()
        _step(s, self._pr, code, scratch.boxed, scratch.stream.alias, self._stream, setup)
        if s[R.DEALS_WON:R.DEALS_WON + R.MAX_PLAYERS].sum() != won:
            rows = np.empty((self.game.params.players, summary.ROUND_WIDTH), dtype=np.int32)
            summary.record_deal(s, self._pr, rows)
            self._deals.append(rows)
            self._log.append(("deal", int(rows[0, 0]), int(s[R.LAST_WINNER]),
                              bool(s[R.LAST_OPERA])))
        if self.is_terminal():
            self._log.append(("end", int(s[R.ENDING])))

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the game is over"
        return (f"{action.text} is not legal for P{self.current_player} (needed rank "
                f"{int(self.s[R.NEEDED]) or 'free'}); legal: "
                f"{', '.join(a.text for a in legal)}")

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.params.players:
            raise ValueError(f"no seat {player}: seats are 0..{self.game.params.players - 1}")


class NainJauneObservation:
    """What one seat may know, decoded on demand from a masked copy of the state."""

    def __init__(self, params: NainJauneParams, s: np.ndarray, player: int,
                 state: NainJauneState) -> None:
        self.params = params
        self.player = player
        self._s = s
        self._state = state
        self.encoded_params = state.game.encoded_params

    def determinize(self, rng: np.random.Generator) -> NainJauneState:
        """A full state consistent with what this seat knows (``state.determinize``)."""
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
    def needed(self) -> int:
        """The rank to follow (1..13), 0 on a free lead."""
        return int(self._s[R.NEEDED])

    @cached_property
    def hand_cards(self) -> list[int]:
        """This seat's card ids."""
        h = R.hand_at(self.player)
        return [c for c in range(R.CARDS) if self._s[h + c]]

    @cached_property
    def pots(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[R.POT:R.POT + 5])

    @cached_property
    def chips(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[R.CHIPS:R.CHIPS + self.params.players])

    def __repr__(self) -> str:
        return f"<P{self.player} sees needed {self.needed}, hand {self.hand_cards}>"
