"""``aggressive``: contests columns late and steals columns after their leader has bet.

Its turn, rivals still to play, in this order:

1. *steal*: a column whose holder has already bet cannot be defended by them; it places
   the cheapest card that takes such a column with a lead of ``steal_margin`` (against the
   rivals still to play), if that costs at most ``steal_spend`` column value per stake
   point;
2. *wait*: otherwise it delays its bet, to play last, by placing its lowest card (of
   column value at most ``delay_max``) in the column with the most points at stake that
   takes it, while it keeps more than ``reserve`` cards and markers for the end of the
   round;
3. *bet* the k it expects (:func:`~agents.paris_damis.features.expected_k`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from numba import njit

from agents.paris_damis import features as F
from agents.paris_damis.base import (
    StrategyAgent,
    StrategyParams,
    column_figures,
    default,
    expected_bet,
    field_index,
)
from engines.core.params import param
from engines.games.paris_damis import rules as R


@dataclass(frozen=True)
class AggressiveParams(StrategyParams):
    """Parameters of ``aggressive``, after those every strategy has
    (:class:`~agents.paris_damis.base.StrategyParams`)."""

    game: ClassVar[str] = "aggressive"

    steal_margin: int = param(6, "lead it takes a stolen column with while rivals may "
                                 "still place", min=1, max=60)
    steal_spend: int = param(12, "most column value per stake point it spends on a steal",
                             min=0, max=100)
    delay_max: int = param(8, "highest column value it places to delay its bet", min=0,
                           max=99)
    reserve: int = param(3, "cards and markers it keeps for the end of the round", min=0,
                         max=54)
    finish_spend: int = default("finish_spend", 24)


_AT = field_index(AggressiveParams)
STEAL_MARGIN, STEAL_SPEND, DELAY_MAX, RESERVE = (_AT["steal_margin"], _AT["steal_spend"],
                                                 _AT["delay_max"], _AT["reserve"])


@njit(cache=True, inline="always")
def steal(s, pr, actions, n, w, table):
    """Index of the cheapest placement taking, with a lead of ``steal_margin``, a column
    whose leader has bet (:func:`~agents.paris_damis.features.undefended`), within
    ``steal_spend``; -1 if none."""
    me = s[R.CURRENT]
    columns = F.undefended(s, pr, me)
    if columns == 0:
        return -1
    column_figures(s, pr, me, w, table)
    trump = s[R.TRUMP]
    best, best_key = -1, 1 << 30
    for i in range(n):
        code = actions[i]
        if not F.is_placement(code):
            break                                   # the bets come last
        column = F.placed_column(code)
        if not columns & (1 << column):
            continue
        card = F.placed_card(code)
        value = R.column_value(pr, card)
        key = value * 2 + (1 if F.fits_many(card, trump) else 0)
        if (value >= table[F.GAP, column] + w[STEAL_MARGIN] - 1
                and value <= w[STEAL_SPEND] * table[F.WORTH, column] and key < best_key):
            best, best_key = i, key
    return best


@njit(cache=True, inline="always")
def wait(s, pr, actions, n, w):
    """Index of the delaying placement: its lowest card, if of column value at most
    ``delay_max``, in the column that takes it with the most points at stake; -1 when it
    should keep its last ``reserve`` cards and markers, or has no card low enough."""
    me = s[R.CURRENT]
    reserve = w[RESERVE]
    if (s[R.HAND_SIZE + me] <= reserve
            or pr[R.P_MARKERS] - s[R.MARKERS_USED + me] <= reserve):
        return -1
    return F.shed_lowest(s, pr, actions, n, w[DELAY_MAX])


@njit(cache=True, inline="always")
def turn(s, pr, actions, n, w, table):
    """Index of aggressive's choice among the ``n`` legal ``actions`` at its turn, rivals
    still to play."""
    i = steal(s, pr, actions, n, w, table) if s[R.BETS_PLACED] > 0 else -1
    if i < 0:
        i = wait(s, pr, actions, n, w)
    return i if i >= 0 else expected_bet(s, pr, n, w)


class AggressiveAgent(StrategyAgent):
    """``aggressive`` (see the module docstring)."""

    Params = AggressiveParams
    turn = staticmethod(turn)
