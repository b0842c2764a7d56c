"""``greedy``: wins columns cheaply, stops placing when the columns it expects to win are
secure, and bets on the k its own estimate predicts.

Its turn, rivals still to play: a column it holds is *secure* in proportion to its lead
over the best rival total, fully from a lead of ``margin``.  Each placement scores the
security it adds to its column times the column's stake (the points card's value, raised
by ``balance`` in its weaker suits), less the card's price, ``value / value_per_point``.
It places the best positive score, so the cheapest card that secures a column wins; when
nothing scores above zero (its columns are secure, or the rest cost too much) it bets the k
it expects (:func:`~agents.paris_damis.features.expected_k`).
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
    expected_bet,
    field_index,
)
from engines.core.params import param
from engines.games.paris_damis import rules as R


@dataclass(frozen=True)
class GreedyParams(StrategyParams):
    """Parameters of ``greedy``, after those every strategy has
    (:class:`~agents.paris_damis.base.StrategyParams`)."""

    game: ClassVar[str] = "greedy"

    margin: int = param(10, "lead over the best rival total at which a column it holds is "
                            "fully secure while rivals may still place", min=1, max=60)
    value_per_point: int = param(12, "column value it pays for one stake point of security",
                                 min=1, max=100)


_AT = field_index(GreedyParams)
MARGIN, VALUE_PER_POINT = _AT["margin"], _AT["value_per_point"]


@njit(cache=True, inline="always")
def security(lead, per_lead):
    """How safe a column is with this lead over the best rival total: 0 unless ahead, 1 from
    a lead of ``margin`` (``per_lead`` = 1 / margin)."""
    return min(1.0, max(0.0, lead * per_lead))


@njit(cache=True, inline="always")
def turn(s, pr, actions, n, w, table):
    """Index of greedy's choice among the ``n`` legal ``actions`` at its turn, rivals still
    to play."""
    me = s[R.CURRENT]
    column_figures(s, pr, me, w, table)
    per_lead = 1.0 / w[MARGIN]
    per_value = 1.0 / w[VALUE_PER_POINT]
    best, best_score = -1, 0.0
    for i in range(n):
        code = actions[i]
        if not F.is_placement(code):
            break                                   # the bets come last
        column = F.placed_column(code)
        value = R.column_value(pr, F.placed_card(code))
        gain = (security(1 - table[F.GAP, column] + value, per_lead)
                - security(table[F.LEAD, column], per_lead))
        score = table[F.WORTH, column] * gain - value * per_value
        if score > best_score:
            best, best_score = i, score
    if best >= 0:
        return best
    return expected_bet(s, pr, n, w)


class GreedyAgent(StrategyAgent):
    """``greedy`` (see the module docstring)."""

    Params = GreedyParams
    turn = staticmethod(turn)
