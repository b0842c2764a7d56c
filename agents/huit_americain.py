"""``shedder``: a heuristic bot for le huit américain, written once as a compiled decision
over the seat's observation array (:func:`engines.games.huit_americain.rules.observe`): the Python
agent calls it on ``observation.array`` and the batch kernel on the array it observes for the
seat, so both play the same.  It takes no random draw.

The heuristic, in order:

1. "Carte!": always call a forgetful opponent (two cards for him, nothing to lose).
2. Never keep a drawn card it may play, never draw while a card is playable (every card
   shed is a card less).
3. Go out when it can: a last card other than a 10 wins at once.
4. Keep the 8s (wild) for when nothing else is playable.
5. Among the other cards, attack first (the K♥, then an Ace: the others draw 4 or 2),
   then a 7 (skips the next player), then the card of the suit it holds most of (it keeps
   the most cards playable next turn), the higher rank on a tie.  A 10 counts as one more
   card of its suit (it plays again).
6. An 8 announces the suit it holds most of (8s not counted), hearts first on a tie.
"""

from __future__ import annotations

from numba import njit

from agents.base import CompiledBot
from engines.core.layout import stack_room
from engines.families.shedding.rules import hand_at
from engines.games.huit_americain import rules as R

KH_BONUS, ACE_BONUS, SEVEN_BONUS, TEN_BONUS = 300, 200, 100, 1
WIN_BONUS = 1000
SUITS = R.SUITS     # a constant of this module: the size of a work array (stack_room)


@njit(cache=True)
def suit_counts(o, player, out):
    """Cards of each suit in ``player``'s hand, 8s left out."""
    out[:] = 0
    h = hand_at(R.HAND, R.CARDS, player)
    for card in range(R.CARDS):
        if o[h + card] > 0 and R.rank_of(card) != R.EIGHT:
            out[R.suit_of(card)] += o[h + card]


@njit(cache=True)
def play_value(o, code, counts, size):
    """How much ``shedder`` likes an action (higher is better); see the module docstring."""
    if code == R.CALL_ACTION:
        return WIN_BONUS
    if code == R.NO_CALL_ACTION or code == R.KEEP_ACTION or code == R.DRAW_ACTION:
        return -WIN_BONUS
    if code >= R.EIGHT_ACTION:
        announced = (code - R.EIGHT_ACTION) % R.SUITS
        value = -WIN_BONUS // 2 + counts[announced] * R.SUITS + (R.SUITS - announced)
        return value + WIN_BONUS * 2 * (size == 1)
    card = code - R.PLAY_ACTION
    r = R.rank_of(card)
    value = counts[R.suit_of(card)] * 20 + r
    if size == 1 and r != R.TEN:
        value += WIN_BONUS * 2
    if card == R.KING_OF_HEARTS:
        value += KH_BONUS
    elif r == R.ACE:
        value += ACE_BONUS
    elif r == R.SEVEN:
        value += SEVEN_BONUS
    elif r == R.TEN:
        value += TEN_BONUS * 20
    return value


@njit(cache=True)
def shedder_decide(o, pr, actions, n, w):
    """Index of ``shedder``'s choice among the ``n`` legal ``actions`` (the first best; ``w``:
    its weights, none)."""
    counts = stack_room(SUITS)
    player = o[R.CURRENT]
    suit_counts(o, player, counts)
    size = o[R.HAND_SIZE + player]
    best, best_value = 0, play_value(o, actions[0], counts, size)
    for i in range(1, n):
        value = play_value(o, actions[i], counts, size)
        if value > best_value:
            best, best_value = i, value
    return best


class ShedderAgent(CompiledBot):
    """``shedder``: sheds its cards as fast as it can, attacking first and keeping its 8s;
    see the module docstring for the exact order."""

    name = "shedder"
    decide = staticmethod(shedder_decide)
