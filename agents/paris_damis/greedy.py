"""``greedy``: wins columns cheaply, stops placing when the columns it expects to win are
secure, and bets on the k its own estimate predicts.

Decisions:

* **Turn, last to play** (every rival has bet, so the columns change only by its own cards
  and the round ends when it bets): it takes, one card at a time, every column it can still
  take for at most ``finish_spend`` column value per stake point
  (:func:`~agents.paris_damis.features.finishing_move`), then bets the exact k.
* **Turn, rivals still to play**: a column it holds is *secure* in proportion to its lead
  over the best rival total, fully from a lead of ``margin``.  Each placement scores the
  security it adds to its column times the column's stake (the points card's value, raised
  by ``balance`` in its weaker suits), less the card's price, ``value / value_per_point``.
  It places the best positive score, so the cheapest card that secures a column wins; when
  nothing scores above zero (its columns are secure, or the rest cost too much) it bets the k
  it expects (:func:`~agents.paris_damis.features.expected_k`).
* **Discard**: the card least worth keeping: the lowest column value, the next round's trump
  counting ``trump_bonus`` more.
* **Hand change**: exchange a hand whose mean keep value is below ``exchange_below``.

Reads: see :mod:`agents.paris_damis.features` (public fields and its own hand only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from numba import njit

from agents.paris_damis import features as F
from agents.paris_damis.base import StrategyAgent, field_index
from engines.params import Params, param
from engines.paris_damis import rules as R


@dataclass(frozen=True)
class GreedyParams(Params):
    """Parameters of ``greedy`` (column values are 2..12, an ace 12)."""

    game: ClassVar[str] = "greedy"

    margin: int = param(10, "lead over the best rival total at which a column it holds is "
                            "fully secure while rivals may still place", min=1, max=60)
    value_per_point: int = param(12, "column value it pays for one stake point of security",
                                 min=1, max=100)
    balance: int = param(100, "percent added to a point's worth in its weakest suit "
                              "(lowest-suit scoring)", min=0, max=1000)
    finish_spend: int = param(12, "most column value per stake point it spends taking a "
                                  "column when it plays last", min=0, max=100)
    trump_bonus: int = param(4, "keep value added to a card of the next round's trump",
                             min=0, max=24)
    exchange_below: int = param(0, "exchange a hand whose mean keep value is below this "
                                   "(0: never)", min=0, max=24)


_AT = field_index(GreedyParams)
MARGIN, VALUE_PER_POINT, BALANCE = _AT["margin"], _AT["value_per_point"], _AT["balance"]
FINISH_SPEND, TRUMP_BONUS, EXCHANGE_BELOW = (_AT["finish_spend"], _AT["trump_bonus"],
                                             _AT["exchange_below"])


@njit(cache=True, inline="always")
def security(lead, per_lead):
    """How safe a column is with this lead over the best rival total: 0 unless ahead, 1 from
    a lead of ``margin`` (``per_lead`` = 1 / margin)."""
    return min(1.0, max(0.0, lead * per_lead))


@njit(cache=True, inline="always")
def turn(s, pr, actions, n, w):
    me = s[R.CURRENT]
    table = F.column_table(s, pr, me, w[BALANCE] / 100.0)
    if F.rivals_to_play(s, pr, me) == 0:
        return F.last_to_play(s, pr, me, actions, n, table, w[FINISH_SPEND])
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
    return F.bet_index(pr, n, F.expected_k(s, pr, me))


@njit(cache=True, inline="always")
def decide(s, pr, actions, n, rng, w):
    """Index of greedy's choice among the ``n`` legal ``actions`` (``rng`` unused: greedy is
    deterministic)."""
    phase = s[R.PHASE]
    if phase == R.TURN:
        return turn(s, pr, actions, n, w)
    if phase == R.DISCARD:
        return F.discard_choice(s, pr, actions, n, w[TRUMP_BONUS])
    return F.hand_change_choice(s, pr, s[R.CURRENT], w[EXCHANGE_BELOW], w[TRUMP_BONUS])


class GreedyAgent(StrategyAgent):
    """``greedy`` (see the module docstring)."""

    name = "greedy"
    Params = GreedyParams
    decide = staticmethod(decide)
