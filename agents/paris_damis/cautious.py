"""``cautious``: bets early to keep its cards, ends the round with an odd hand when it can,
discards low non-trumps and changes a weak hand.

Its turn, rivals still to play, in this order:

1. *secure a column*: while it holds fewer than ``target`` columns by a lead of
   ``margin``, it places the cheapest card (of column value at most ``max_card``) that
   gives it such a lead in a column, the column of highest stake first;
2. *a free card*: when one more placement costs no card after the discard (an even hand
   under half-down: the discard would take that card anyway), it places its lowest card
   in the column with the most points at stake that takes it, so it ends the round with
   an odd hand;
3. *bet* early, on the k it expects (:func:`~agents.paris_damis.features.expected_k`).
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
class CautiousParams(StrategyParams):
    """Parameters of ``cautious``, after those every strategy has
    (:class:`~agents.paris_damis.base.StrategyParams`)."""

    game: ClassVar[str] = "cautious"

    target: int = param(1, "columns it wants to hold securely before it bets", min=0, max=4)
    margin: int = param(8, "lead over the best rival total that makes a column secure",
                        min=1, max=60)
    max_card: int = param(10, "highest column value it places to secure a column", min=0,
                          max=99)
    finish_spend: int = default("finish_spend", 8)
    trump_bonus: int = default("trump_bonus", 6)
    exchange_below: int = default("exchange_below", 6)


_AT = field_index(CautiousParams)
TARGET, MARGIN, MAX_CARD = _AT["target"], _AT["margin"], _AT["max_card"]


# Worth comes before the card's value when ``secure`` ranks placements (no column value
# reaches this).
ORDER = 1000.0


@njit(cache=True, inline="always")
def secure(s, pr, actions, n, table, w):
    """Index of the cheapest placement (at most ``max_card``) giving a lead of ``margin`` in
    a column it does not lead by that much yet, the highest worth first; -1 if none, or if
    it already leads ``target`` columns by ``margin``."""
    margin = w[MARGIN]
    secured = 0
    for column in range(R.COLUMNS):
        if table[F.LEAD, column] >= margin:
            secured += 1
    if secured >= w[TARGET]:
        return -1
    max_card = w[MAX_CARD]
    best, best_key = -1, 0.0
    for i in range(n):
        code = actions[i]
        if not F.is_placement(code):
            break                                   # the bets come last
        column = F.placed_column(code)
        value = R.column_value(pr, F.placed_card(code))
        worth = table[F.WORTH, column]
        fits = ((value <= max_card) & (value >= table[F.GAP, column] + margin - 1)
                & (table[F.LEAD, column] < margin))
        key = worth * ORDER - value if fits & (worth > 0) else 0.0
        better = key > best_key
        best = i if better else best
        best_key = max(best_key, key)
    return best


@njit(cache=True, inline="always")
def free_card(s, pr, actions, n):
    """Index of the placement of its lowest card in the column taking it with the most
    points at stake, when a placement costs no card after the discard; -1 otherwise."""
    if F.placing_costs_a_card(s, pr, s[R.CURRENT]):
        return -1
    return F.shed_lowest(s, pr, actions, n, 1 << 30)


@njit(cache=True, inline="always")
def turn(s, pr, actions, n, w, table):
    """Index of cautious's choice among the ``n`` legal ``actions`` at its turn, rivals still
    to play."""
    me = s[R.CURRENT]
    column_figures(s, pr, me, w, table)
    i = secure(s, pr, actions, n, table, w)
    if i < 0:
        i = free_card(s, pr, actions, n)
    return i if i >= 0 else expected_bet(s, pr, n, w)


class CautiousAgent(StrategyAgent):
    """``cautious`` (see the module docstring)."""

    Params = CautiousParams
    turn = staticmethod(turn)
