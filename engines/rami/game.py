"""Le rami through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.rami.rules`).

Actions are integer codes (see the rules module), read as ``draw stock``, ``take discard``,
``lay 5♠ 6♠ 7♠``, ``lay 10♦ Joker=J♦ Q♦``, ``lay 7♥ 7♦ Joker``, ``lay off 8♠ on meld 2``,
``swap J♦ for the joker of meld 2``, ``discard 10♠``.  Table melds are numbered from 0 in
the order they were laid.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numba import njit

from engines import rummy
from engines.api import Action, IllegalActionError, Result
from engines.cards import card_name
from engines.chance import uniform_index_jit
from engines.compiled import chance_stream, check_seat, fresh_stream
from engines.rami import rules as R
from engines.rami import summary
from engines.rami.params import RamiParams
from engines.seeding import ScratchStream

PHASE_NAMES = {R.SETUP: "setup", R.DRAW: "draw", R.PLAY: "play", R.OVER: "over"}
EXAMPLES = "'draw stock', 'lay 5♠ 6♠ 7♠', 'lay off 8♠ on meld 2', 'discard 10♠'"


def meld_text(code: int) -> str:
    """A meld code read card by card; a wild shows what it stands for (``Joker=J♦``), or
    just ``Joker`` in a group."""
    parts = []
    if rummy.meld_kind(code) == rummy.RUN:
        suit, low, mask = rummy.meld_key(code), rummy.meld_low(code), rummy.meld_mask(code)
        for i in range(rummy.meld_length(code)):
            name = card_name(int(rummy.card_at(suit, low + i)))
            parts.append(f"Joker={name}" if (mask >> i) & 1 else name)
        return " ".join(parts)
    rank_card, suits = rummy.meld_key(code), rummy.meld_low(code)
    for s in range(rummy.SUITS):
        if (suits >> s) & 1:
            parts.append(card_name(s * 13 + rank_card))
    parts += ["Joker"] * (rummy.meld_length(code) - len(parts))
    return " ".join(parts)


@cache
def action_text(code: int) -> str:
    """Readable form of an action code."""
    if code == R.DRAW_STOCK:
        return "draw stock"
    if code == R.TAKE_DISCARD:
        return "take discard"
    if code < R.LAYOFF_ACTION:
        return f"discard {card_name(code - R.DISCARD_ACTION)}"
    if code < R.SWAP_ACTION:
        k, rest = divmod(code - R.LAYOFF_ACTION, rummy.CARD_KINDS * 2)
        end = " (low end)" if rest % 2 == 0 else " (high end)"
        return f"lay off {card_name(rest // 2)} on meld {k}{end}"
    if code < R.LAY_ACTION:
        k, place = divmod(code - R.SWAP_ACTION, 16)
        return f"swap the joker at place {place} of meld {k}"
    return f"lay {meld_text(code - R.LAY_ACTION)}"


@cache
def action(code: int) -> Action:
    return Action(code, action_text(code))


@njit(cache=True)
def _step(s, pr, code, rngs, alias, stream, setup):
    """The deal (``setup``) or an action, drawing chance from the state's own stream."""
    alias[:] = stream
    if setup:
        R.advance(s, pr, rngs[0])
    else:
        R.apply_action(s, pr, code, rngs[0])
    stream[:] = alias


@njit(cache=True)
def _playout(s, pr, rngs, alias, stream, decisions, actions):
    """Random legal actions to the end (the ``random`` agent's draws from ``decisions``);
    chance from the state's own stream."""
    alias[:] = stream
    while s[R.PHASE] != R.OVER:
        n = R.legal_actions(s, pr, actions)
        R.apply_action(s, pr, actions[uniform_index_jit(decisions, n)], rngs[0])
    stream[:] = alias


def table_melds(s: np.ndarray) -> list[dict[str, Any]]:
    """The melds on the table: kind, owner and cards (card names, place by place)."""
    out = []
    for k in range(int(s[R.MELDS_LEN])):
        row = R.MELDS + k * rummy.MELD_WIDTH
        length = int(s[row + rummy.M_LEN])
        out.append({"kind": "run" if s[row + rummy.M_KIND] == rummy.RUN else "group",
                    "owner": int(s[row + rummy.M_OWNER]),
                    "cards": [card_name(int(c)) for c in
                              s[row + rummy.M_CARDS:row + rummy.M_CARDS + length]]})
    return out


def hand_of(s: np.ndarray, player: int) -> list[str]:
    h = R.hand_at(player)
    return [card_name(c) for c in range(rummy.CARD_KINDS) for _ in range(int(s[h + c]))]


class RamiObservation:
    """What one seat may know: its hand, the table, the discard pile, hand sizes, who has
    opened, the scores.  The masked state is made on first use (a bot that reads only the
    legal actions costs nothing), and only while the game is where it was."""

    def __init__(self, params: RamiParams, player: int, state: RamiState) -> None:
        self.params = params
        self.player = player
        self._state = state
        self._decisions = int(state.s[R.DECISIONS])
        self._masked: np.ndarray | None = None
        self.encoded_params = state.game.encoded_params

    def _check(self) -> None:
        if self._state.s[R.DECISIONS] != self._decisions:
            raise ValueError("stale observation: the game has moved on since it was made")

    @property
    def _s(self) -> np.ndarray:
        if self._masked is None:
            self._check()
            self._masked = np.empty(R.STATE_SIZE, dtype=np.int32)
            R.observe(self._state.s, self.encoded_params, self.player, self._masked)
        return self._masked

    def determinize(self, rng: np.random.Generator) -> RamiState:
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
        n = int(self._s[R.DISCARD_LEN])
        return card_name(int(self._s[R.DISCARD + n - 1])) if n else None

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self._s[R.HAND_SIZE_AT:R.HAND_SIZE_AT
                                             + self.params.players])

    def __repr__(self) -> str:
        return f"<P{self.player} sees hand {self.hand}, {len(self.table)} melds>"


class RamiState:
    """One match of rami in progress (see :mod:`engines.api`).  Legal actions, in order: in
    the draw, ``draw stock`` then ``take discard``; after it, melds (runs by suit, first
    place and length, then groups by rank), lay-offs (by table meld, card, end), joker
    swaps (by table meld, place), discards (by card).  The log shows ``hand 1: P2 deals``,
    ``P3 draw stock``, ``P3 lay 5♠ 6♠ 7♠``, ``hand 1 won by P3 (rami sec)``."""

    def __init__(self, game: Rami, s: np.ndarray, stream: np.ndarray,
                 log: list | None = None) -> None:
        self.game = game
        self.s = s
        self._stream = stream
        self._pr = game.encoded_params
        self._buffer = np.empty(R.MAX_LEGAL, dtype=np.int64)
        self._log: list[tuple] = log if log is not None else []
        self._legal: tuple[int, list[Action]] | None = None   # (decisions, legal actions)

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return int(self.s[R.CURRENT])

    def legal_actions(self) -> list[Action]:
        if self.s[R.PHASE] == R.OVER:
            return []
        decisions = int(self.s[R.DECISIONS])
        if self._legal is None or self._legal[0] != decisions:
            n = R.legal_actions(self.s, self._pr, self._buffer)
            self._legal = (decisions, [action(c) for c in self._buffer[:n].tolist()])
        return list(self._legal[1])

    def apply(self, value: Action | int | str) -> None:
        """Play an action (an Action, its code or its text) for the current player; an
        illegal one raises :class:`IllegalActionError` and leaves the state unchanged."""
        legal = self.legal_actions()
        chosen = self._parse(value, legal)
        if chosen not in legal:
            raise IllegalActionError(self._illegal_message(chosen, legal))
        rounds = int(self.s[R.ROUNDS_LEN])
        self._log.append((self.current_player, chosen.code))
        self._step(chosen.code)
        self._log_hands(rounds)

    def is_terminal(self) -> bool:
        return bool(self.s[R.PHASE] == R.OVER)

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return summary.result(self.game.params, self.records()[0])

    def observation(self, player: int) -> RamiObservation:
        check_seat(player, self.game.params.players)
        return RamiObservation(self.game.params, player, self)

    def clone(self) -> RamiState:
        return RamiState(self.game, self.s.copy(), self._stream.copy(), list(self._log))

    def determinize(self, player: int, rng: np.random.Generator) -> RamiState:
        """A full state consistent with ``player``'s observation: the cards he cannot see
        re-dealt from ``rng`` (every hand keeps its size), and a fresh chance stream."""
        check_seat(player, self.game.params.players)
        out = np.empty_like(self.s)
        R.determinize(self.s, self._pr, player, rng, out)
        return RamiState(self.game, out, fresh_stream(rng), list(self._log))

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play to the end in one compiled call as the ``random`` agent would with ``rng``;
        return the seats' win shares.  The log is not extended."""
        scratch = ScratchStream.get()
        _playout(self.s, self._pr, scratch.boxed, scratch.stream.alias, self._stream, rng,
                 self._buffer)
        ranks = self.s[R.RANK:R.RANK + self.game.params.players].tolist()
        winners = ranks.count(1)
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows (one per hand)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        row = np.empty(summary.SIZE, dtype=np.int32)
        summary.summarize(self.s, row)
        n = int(self.s[R.ROUNDS_LEN])
        rounds = self.s[R.ROUNDS:R.ROUNDS + n * R.ROUND_WIDTH].reshape(n, R.ROUND_WIDTH)
        return row, rounds.copy()

    @property
    def log(self) -> list[str]:
        lines = []
        for entry in self._log:
            if isinstance(entry[0], int):
                lines.append(f"P{entry[0]} {action_text(entry[1])}")
            elif entry[0] == "deal":
                lines.append(f"hand {entry[1] + 1}: P{entry[2]} deals")
            else:
                _, hand, winner, sec, ending = entry
                if ending == R.FINISHED:
                    lines.append(f"hand {hand + 1} won by P{winner}"
                                 + (" (rami sec)" if sec else ""))
                else:
                    lines.append(f"hand {hand + 1} {R.HAND_ENDINGS[ending]}")
        return lines

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.s[R.PHASE])]

    def hand(self, player: int) -> list[str]:
        return hand_of(self.s, player)

    @property
    def table(self) -> list[dict[str, Any]]:
        return table_melds(self.s)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.s[R.TOTAL:R.TOTAL + self.game.params.players])

    # -- internals ---------------------------------------------------------------------
    def _step(self, code: int, setup: bool = False) -> None:
        scratch = ScratchStream.get()
        _step(self.s, self._pr, code, scratch.boxed, scratch.stream.alias, self._stream,
              setup)

    def _log_hands(self, before: int) -> None:
        """Log the hands that ended with the last step, and the deal that followed."""
        for i in range(before, int(self.s[R.ROUNDS_LEN])):
            row = self.s[R.ROUNDS + i * R.ROUND_WIDTH:R.ROUNDS + (i + 1) * R.ROUND_WIDTH]
            self._log.append(("end", int(row[0]), int(row[2]), int(row[3]), int(row[9])))
        if int(self.s[R.ROUNDS_LEN]) > before and not self.is_terminal():
            self._log.append(("deal", int(self.s[R.HAND_NO]), int(self.s[R.DEALER])))

    def _parse(self, value: Action | int | str, legal: list[Action]) -> Action:
        if isinstance(value, Action):
            return value
        if isinstance(value, int | np.integer) and value >= 0:
            return action(int(value))
        if isinstance(value, str):
            text = " ".join(value.split())
            for a in legal:
                if a.text == text:
                    return a
            raise IllegalActionError(f"{text!r} is not legal for P{self.current_player} "
                                     f"(phase {self.phase}); legal: "
                                     f"{', '.join(a.text for a in legal[:12])}")
        raise IllegalActionError(f"not a rami action: {value!r} (examples: {EXAMPLES})")

    def _illegal_message(self, chosen: Action, legal: list[Action]) -> str:
        if self.is_terminal():
            return f"{chosen.text} is not legal: the game is over"
        shown = ", ".join(a.text for a in legal[:12])
        more = f" (+{len(legal) - 12} more)" if len(legal) > 12 else ""
        return (f"{chosen.text} is not legal for P{self.current_player} (phase "
                f"{self.phase}); legal: {shown}{more}")

    def __repr__(self) -> str:
        if self.is_terminal():
            return "<rami over>"
        return f"<rami hand {int(self.s[R.HAND_NO]) + 1}, P{self.current_player} to {self.phase}>"


class Rami:
    """Le rami with fixed parameters (``engines.load("rami", ...)``)."""

    slug = "rami"
    Params = RamiParams

    def __init__(self, params: RamiParams | None = None) -> None:
        self.params = params or RamiParams()
        self.encoded_params = R.encode_params(self.params)
        self.encoded_params.setflags(write=False)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> RamiState:
        """A new match after its first deal: game ``index`` of a run with seed ``seed``, or,
        given a Generator, a match whose chance stream is seeded from it."""
        s = np.zeros(R.STATE_SIZE, dtype=np.int32)
        R.new_game(s, self.encoded_params)
        state = RamiState(self, s, chance_stream(seed, index))
        state._step(0, setup=True)
        state._log.append(("deal", 0, int(s[R.DEALER])))
        return state

    def __repr__(self) -> str:
        return f"Rami({self.params})"
