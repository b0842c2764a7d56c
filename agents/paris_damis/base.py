"""What every Paris d'amis strategy shares: its common parameters, the choices every
strategy makes alike (:func:`common_choice`), and its Python face.

Every strategy discards and changes its hand the same way (:func:`between_rounds`, with
``trump_bonus`` and ``exchange_below``), and plays the same way when it is last to play in
a turn (:func:`~agents.paris_damis.features.last_to_play`, within ``finish_spend``).  Each
strategy is its own compiled ``turn(s, pr, actions, n, weights, table)`` for the rest, its
turn with rivals still to play: the index of its choice among the ``n`` legal action codes
(``table`` is a work array, :func:`agents.paris_damis.features.new_table`).  The batch kernel
calls these on the state; :class:`StrategyAgent` calls the very same functions on the seat's
masked observation, so both paths choose the same actions.  Every strategy reads only what
:mod:`agents.paris_damis.features` reads (public fields and its own hand).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numba import njit

from agents.paris_damis import features as F
from agents.paris_damis.features import new_table
from engines.core.api import Action
from engines.core.chance import uniform_index_jit
from engines.core.params import Params, param
from engines.games.paris_damis import rules as R
from engines.games.paris_damis.params import ParisDamisParams


@dataclass(frozen=True)
class StrategyParams(Params):
    """The parameters every strategy has (column values are 2..12, an ace 12); a strategy's
    own parameters follow them (:func:`weights` keeps this order)."""

    game: ClassVar[str] = "strategy"

    balance: int = param(100, "percent added to a point's worth in its weakest suit "
                              "(lowest-suit scoring)", min=0, max=1000)
    finish_spend: int = param(12, "most column value per stake point it spends taking a "
                                  "column when it plays last", min=0, max=100)
    trump_bonus: int = param(4, "keep value added to a card of the next round's trump",
                             min=0, max=24)
    exchange_below: int = param(0, "exchange a hand whose mean keep value is below this "
                                   "(0: never)", min=0, max=24)
    sweep: int = param(75, "percent of the last player's cards to place that its reach "
                           "counts in the estimate of k: alone once every other player has "
                           "bet, it places several cards in a row (spec, A round); 0: it "
                           "takes nothing", min=0, max=400)
    random_bet: int = param(0, "percent of its bets placed on a uniformly random allowed k "
                               "instead of the k it expects (when it bets is unchanged; 100: "
                               "every bet at random, the same player betting blind; "
                               "a handicap, not tuned)",
                            min=0, max=100, tuned=False)


def default(name: str, value: int) -> Any:
    """A :class:`StrategyParams` parameter with another default, for a strategy's own
    parameter class."""
    return dataclasses.field(default=value,
                             metadata=StrategyParams.__dataclass_fields__[name].metadata)


# Positions of the common parameters in :func:`weights` (a strategy's own come after).
BALANCE, FINISH_SPEND, TRUMP_BONUS, EXCHANGE_BELOW, SWEEP, RANDOM_BET = range(6)


@njit(cache=True, inline="always")
def column_figures(s, pr, me, w, table):
    """Fill ``table`` with the seat's :func:`~agents.paris_damis.features.column_table`,
    weighing its weaker suits by ``balance``."""
    F.column_table(s, pr, me, w[BALANCE] / 100.0, table)


@njit(cache=True, inline="always")
def expected_bet(s, pr, n, w):
    """Index of the bet on the k the seat expects when it bets with rivals still to play
    (:func:`~agents.paris_damis.features.expected_k`, the last player's sweep by ``sweep``)."""
    return F.bet_index(pr, n, F.expected_k(s, pr, s[R.CURRENT], w[SWEEP] / 100.0))


@njit(cache=True, inline="always")
def between_rounds(s, pr, actions, n, w):
    """Index of the choice at a discard (the card least worth keeping, the next round's trump
    counting ``trump_bonus`` more) or at the hand change (exchange a hand whose mean keep
    value is below ``exchange_below``)."""
    if s[R.PHASE] == R.DISCARD:
        return F.discard_choice(s, pr, actions, n, w[TRUMP_BONUS])
    return F.hand_change_choice(s, pr, s[R.CURRENT], w[EXCHANGE_BELOW], w[TRUMP_BONUS])


@njit(cache=True, inline="always")
def common_choice(s, pr, actions, n, w, table):
    """Index of the choice every strategy makes alike: at a discard or the hand change
    (:func:`between_rounds`), or at its turn when no rival is left to play (the cheapest
    winning placement within ``finish_spend``, else the bet); -1 at its turn with rivals
    still to play, where the strategy's own ``turn`` decides."""
    if s[R.PHASE] != R.TURN:
        return between_rounds(s, pr, actions, n, w)
    me = s[R.CURRENT]
    if F.rivals_to_play(s, pr, me) > 0:
        return -1
    column_figures(s, pr, me, w, table)
    return F.last_to_play(s, pr, me, actions, n, table, w[FINISH_SPEND])


@njit(cache=True, inline="always")
def blind_bet(pr, actions, i, n, w, rng):
    """``i``, the index of the strategy's choice; or, when that choice is a bet, with chance
    ``random_bet`` percent the index of a uniformly random allowed bet (one draw from the
    decision stream for the chance, one for the bet; none unless the choice is a bet and
    ``random_bet`` is above 0)."""
    if w[RANDOM_BET] <= 0.0 or not R.BET_ACTION <= actions[i] < R.DISCARD_ACTION:
        return i
    if rng.random() * 100.0 >= w[RANDOM_BET]:
        return i
    top = pr[R.P_MAX_BET]
    return n - top + uniform_index_jit(rng, top)


def weights(params: Params) -> np.ndarray:
    """A strategy's parameters as the float64 array its compiled decision reads, in field
    order."""
    return np.array([float(getattr(params, key)) for key in params.keys()], dtype=np.float64)


def field_index(params_class: type[Params]) -> dict[str, int]:
    """Position of each parameter in :func:`weights`."""
    return {key: i for i, key in enumerate(params_class.keys())}


@functools.lru_cache(maxsize=32)
def encoded(params: ParisDamisParams) -> np.ndarray:
    """The game's flat parameter array (encoded once per parameter set, read-only)."""
    array = R.encode_params(params)
    array.setflags(write=False)
    return array


class StrategyAgent:
    """An agent whose decisions are a compiled strategy's.  Subclasses give its parameter
    class (whose ``game`` is the strategy's name) and its compiled ``turn``;
    ``agents.load(name, **params)`` passes the parameters by keyword (unknown keys name the
    valid ones)."""

    name: ClassVar[str]
    Params: ClassVar[type[Params]]
    turn: ClassVar[Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = cls.Params.game

    def __init__(self, **params: Any) -> None:
        self.params = self.Params.from_kwargs(**params)
        self._weights = weights(self.params)
        self._table = new_table()

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        codes = np.fromiter((a.code for a in legal_actions), dtype=np.int32,
                            count=len(legal_actions))
        s, pr, n = observation.array, encoded(observation.params), len(codes)
        choice = common_choice(s, pr, codes, n, self._weights, self._table)
        if choice < 0:
            choice = type(self).turn(s, pr, codes, n, self._weights, self._table)
        return legal_actions[blind_bet(pr, codes, choice, n, self._weights, rng)]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})"
