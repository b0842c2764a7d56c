"""What the rummy bots (rami, pinacle, petite-école) read in a hand: the cards that could
form a run with a given card.  A hand is the observation's count per card kind (card
``suit * 13 + index``, index 0..12 the ranks 2..A)."""

from __future__ import annotations

import numpy as np

from engines.core.cards import RANKS_PER_SUIT

ACE = RANKS_PER_SUIT - 1        # the Ace's rank index


def suit_neighbours(hand: np.ndarray, card: int, ace_low: bool = True,
                    lowest: int = 0) -> int:
    """Cards of ``hand`` of ``card``'s suit one or two ranks away from it, among the rank
    indices from ``lowest`` up (petite-école leaves out its wild 2s); with ``ace_low`` the
    Ace is next to both the 2 and the K."""
    suit, index = divmod(card, RANKS_PER_SUIT)
    near = {index + d for d in (-2, -1, 1, 2) if lowest <= index + d <= ACE}
    if ace_low:
        if index == ACE:
            near |= {0, 1}
        elif index <= 1:
            near.add(ACE)
    return sum(int(hand[suit * RANKS_PER_SUIT + i] > 0) for i in near)
