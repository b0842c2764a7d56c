"""``dumper``: the point-avoidance bot for chasse-coeur and pétasse: it keeps out of tricks
that carry points and gets rid of its dangerous cards whenever it safely can.

It reads only its seat's observation (its hand, the trick in progress, the cards already
played) and the game's card data (points and strengths, ``game.encoded_params``, public).

* **Danger** of a card: its points times 100 plus its strength (the Q♠ or a Queen first,
  then hearts high to low, then high cards of the other suits).
* **Following suit:** the strongest card that still loses to the trick so far ("duck");
  if every card would win, the strongest one when it is the last to play and the trick
  holds no points (the trick is lost anyway and a high card goes), else the weakest.
* **Discarding** (void in the led suit): its most dangerous card.
* **Leading:** its weakest card, hearts and point cards last (the least dangerous lead).
* **Passing** (variant): its most dangerous cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Action
from engines.families.avoidance import rules as R


class DumperAgent:
    """The ``dumper`` bot (see the module docstring); it takes no options."""

    name = "dumper"

    def __init__(self) -> None:
        self._data: tuple[Any, np.ndarray, np.ndarray] | None = None

    def _tables(self, observation: Any) -> tuple[np.ndarray, np.ndarray]:
        if self._data is None or self._data[0] != observation.params:
            pr = observation.encoder(observation.params)
            self._data = (observation.params, pr[R.P_POINTS:R.P_POINTS + R.DECK_CARDS].copy(),
                          pr[R.P_STRENGTH:R.P_STRENGTH + R.DECK_CARDS].copy())
        return self._data[1], self._data[2]

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        points, strength = self._tables(observation)
        cards = [a.code % R.DECK_CARDS for a in legal_actions]

        def danger(card: int) -> int:
            return int(points[card]) * 100 + int(strength[card])

        if observation.phase == "passing":
            return legal_actions[max(range(len(cards)), key=lambda i: danger(cards[i]))]
        trick = observation.trick
        if not trick:
            return legal_actions[min(range(len(cards)), key=lambda i: danger(cards[i]))]
        led = int(R.CARD_SUIT[trick[0][1]])
        best = max(int(strength[c]) for _, c in trick if R.CARD_SUIT[c] == led)
        if R.CARD_SUIT[cards[0]] != led:                    # void: discard
            return legal_actions[max(range(len(cards)), key=lambda i: danger(cards[i]))]
        ducks = [i for i, c in enumerate(cards) if strength[c] < best]
        if ducks:
            return legal_actions[max(ducks, key=lambda i: strength[cards[i]])]
        last = len(trick) == observation.params.players - 1
        clean = all(points[c] == 0 for _, c in trick)
        pick = max if last and clean else min
        return legal_actions[pick(range(len(cards)), key=lambda i: strength[cards[i]])]
