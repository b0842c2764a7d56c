"""``hoarder``: a heuristic bot for l'empereur that sheds its weakest cards first and keeps
its Deux and Jokers for last.  It reads only its observation (its hand, the talon) and takes
no random draw.

The heuristic, in order:

1. Exchanges: give the weakest card held (3 first; a Joker only if nothing else is held).
2. Never empty the hand with a set holding a Joker ("il perd"): such plays are left out.
3. Go out when it can with natural cards (the Deux included).
4. A Joker is a liability once the hand is small: with three cards or fewer and a Joker
   among them, play a Joker alone, declared as the lowest legal rank.
5. Otherwise play the lowest legal rank among the natural cards other than Deux, every
   natural card of that rank at once (a set sheds more, and an equal-rank run makes the
   next player draw).
6. Then a natural Deux (everybody else draws and it leads again), then a Joker alone as
   the lowest legal rank.
7. Nothing to play: ``draw`` (then ``pass`` if the drawn card does not help).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engines.core.api import Action
from engines.families.shedding.rules import hand_at
from engines.games.empereur import rules as R

SMALL_HAND = 3


def parse_play(action: Action) -> tuple[int, int, int] | None:
    """(rank index, natural cards, Jokers) of a play, None for any other action."""
    if action.code >= R.N_PLAYS:
        return None
    return R.decode_play(action.code)


def hoarder_choice(hand_size: int, holds_joker: bool, legal: list[Action]) -> Action:
    """``hoarder``'s choice among ``legal`` for a hand of ``hand_size`` cards."""
    gifts = [a for a in legal if a.code >= R.GIVE_ACTION]
    if gifts:
        return gifts[0]
    plays = []
    for action in legal:
        play = parse_play(action)
        if play is not None and not (play[2] > 0 and play[1] + play[2] == hand_size):
            plays.append((play, action))
    for (_, naturals, jokers), action in plays:
        if jokers == 0 and naturals == hand_size:
            return action
    jokers_alone = [action for (_, naturals, jokers), action in plays
                    if naturals == 0 and jokers == 1]
    if holds_joker and hand_size <= SMALL_HAND and jokers_alone:
        return jokers_alone[0]
    naturals_only = [(rank, -naturals, action) for (rank, naturals, jokers), action in plays
                     if jokers == 0 and rank != R.TWO]
    if naturals_only:
        return min(naturals_only, key=lambda t: (t[0], t[1]))[2]
    for (rank, _, jokers), action in plays:
        if rank == R.TWO and jokers == 0:
            return action
    if jokers_alone:
        return jokers_alone[0]
    return next((a for a in legal if a.code in (R.DRAW_ACTION, R.PASS_ACTION)), legal[0])


class HoarderAgent:
    """``hoarder``: plays its lowest natural set, keeps its Deux and Jokers for last, never
    goes out on a Joker; see the module docstring for the exact order."""

    name = "hoarder"

    def act(self, observation: Any, legal_actions: list[Action],
            rng: np.random.Generator) -> Action:
        o = observation.array
        h = hand_at(R.HAND, R.CARDS, observation.player)
        holds_joker = o[h + R.STANDARD_CARDS:h + R.CARDS].sum() > 0
        return hoarder_choice(int(o[R.HAND_SIZE + observation.player]), bool(holds_joker),
                              legal_actions)
