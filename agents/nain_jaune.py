"""``runner``: a heuristic bot for le nain jaune, in Python over the seat's observation.

* Following a sequence (the rank is forced, the suit is the choice): it plays the belle carte
  when one of its cards of that rank is one (its pot is won at once), else its first card of
  the rank by card id.  It never says "sans" while it could play (``may_hold_back``).
* Leading freely: for each card it could lead it counts the run it would play alone (the
  ranks it holds in a row from that card; a King ends the run but lets it lead again, so it
  adds the best run from its remaining cards) and leads the card with the longest run, then
  the most belles cartes in it, then the most points shed (J, Q, K are worth 10 to the deal
  winner), then the lowest card id.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Action
from engines.games.nain_jaune import rules as R


def _run(cards: set[int], start: int, depth: int = 0) -> tuple[int, int, int]:
    """(cards, belles cartes, points) of the run led by ``start`` from ``cards``."""
    left = set(cards)
    left.discard(start)
    played = [start]
    rank = R.sequence_rank(start)
    while rank < R.KING_RANK:
        nxt = [c for c in sorted(left) if R.sequence_rank(c) == rank + 1]
        if not nxt:
            break
        belle = [c for c in nxt if R.belle_index(c) >= 0]
        card = belle[0] if belle else nxt[0]
        left.discard(card)
        played.append(card)
        rank += 1
    total = (len(played), sum(R.belle_index(c) >= 0 for c in played),
             sum(R.points(c) for c in played))
    if rank == R.KING_RANK and left and depth < 4:
        best = max(_run(left, c, depth + 1) for c in sorted(left))
        total = tuple(a + b for a, b in zip(total, best, strict=True))
    return total


class RunnerAgent:
    """``runner``: longest runs first, belles cartes collected; see the module docstring."""

    name = "runner"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        plays = [a for a in legal_actions if a.code != R.SANS_ACTION]
        if observation.needed != R.FREE:
            belles = [a for a in plays if R.belle_index(a.code - R.PLAY_ACTION) >= 0]
            return (belles or plays)[0]
        cards = set(observation.hand_cards)
        return max(plays, key=lambda a: (_run(cards, a.code - R.PLAY_ACTION),
                                         -a.code))
