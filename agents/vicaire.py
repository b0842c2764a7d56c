"""``exact``: the Vicaire bot that aims at the exact winning total.

It reads only its seat's observation: its hand, the trick in progress, the tricks each seat
has taken in this deal and the game's totals.

**Target.**  Its target is the lowest winning total (10, then 15, 20, ...) above its total
before the deal (so that it takes at least one trick this deal: qualification needs one,
A1) and not below its total with this deal's tricks.  It *needs* ``target - total - tricks
taken this deal`` more tricks; when that is more than the tricks left in the deal it aims
at the next winning total instead, and at none at all (it ducks every trick) when even
that is out of reach.

**Play.**  A card *beats* the trick so far when it is a heart above every heart in it, or
of the led suit above every card in it with no heart played.  Needing tricks, it plays its
strongest card that beats the trick (leading: its strongest card, hearts counted above the
rest); else its weakest card.  Needing none, it plays its strongest card that does not beat
the trick (leading: its weakest card); else, forced to win, its weakest winner.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Action
from engines.games.vicaire import rules as R


def order(card: int) -> int:
    """Hearts above the rest, then by rank."""
    return int(R.STRENGTH[card]) + (13 if R.CARD_SUIT[card] == R.TRUMP else 0)


def beats(card: int, trick: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``card`` would win the trick so far."""
    if not trick:
        return True
    led = R.CARD_SUIT[trick[0][1]]
    hearts = [R.STRENGTH[c] for _, c in trick if R.CARD_SUIT[c] == R.TRUMP]
    if R.CARD_SUIT[card] == R.TRUMP:
        return not hearts or R.STRENGTH[card] > max(hearts)
    if hearts or R.CARD_SUIT[card] != led:
        return False
    return R.STRENGTH[card] > max(R.STRENGTH[c] for _, c in trick if R.CARD_SUIT[c] == led)


def tricks_needed(params: Any, total: int, taken: int, left: int) -> int:
    """More tricks it aims to take this deal (see the module docstring); 0: duck."""
    now = total + taken
    target = params.first_target
    while target <= total or target < now:
        target += params.target_step
    need = target - now
    if need > left:
        need += params.target_step
    return need if need <= left else 0


class ExactAgent:
    """The ``exact`` bot (see the module docstring); it takes no options."""

    name = "exact"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        me = observation.player
        left = observation.cards - sum(observation.tricks)
        need = tricks_needed(observation.params, observation.totals[me],
                             observation.tricks[me], left)
        trick = observation.trick
        cards = [a.code - R.PLAY for a in legal_actions]
        winners = [i for i, c in enumerate(cards) if beats(c, trick)]
        losers = [i for i, c in enumerate(cards) if not beats(c, trick)]
        by_order = sorted(range(len(cards)), key=lambda i: order(cards[i]))
        if need > 0:
            if winners:
                return legal_actions[max(winners, key=lambda i: order(cards[i]))]
            return legal_actions[by_order[0]]
        if not trick:
            return legal_actions[by_order[0]]
        if losers:
            return legal_actions[max(losers, key=lambda i: order(cards[i]))]
        return legal_actions[min(winners, key=lambda i: order(cards[i]))]
