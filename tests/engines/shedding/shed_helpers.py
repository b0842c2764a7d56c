"""What the shedding games' tests check alike: the cards the hands hold, and what a world
drawn from a seat's observation keeps."""

from __future__ import annotations

import numpy as np

from engines.families.shedding.rules import hand_at


def hand_of(s: np.ndarray, R, player: int) -> np.ndarray:
    """``player``'s card counts in a state (or observation) array ``s`` of the rules ``R``."""
    h = hand_at(R.HAND, R.CARDS, player)
    return s[h:h + R.CARDS]


def hand_counts(state) -> np.ndarray:
    """Every hand's cards added up by card id (the counts at ``hand_at``), once each
    hand's count is checked against its size (``HAND_SIZE``)."""
    s, R = state.s, state.game.rules
    counts = np.zeros(R.CARDS, dtype=np.int64)
    for p in range(state.game.params.players):
        hand = hand_of(s, R, p)
        assert hand.sum() == s[R.HAND_SIZE + p]
        counts += hand
    return counts


def assert_world_keeps_the_seat(state, seen, check, twin_seed: int):
    """A world drawn (rng seeded 1) from ``seen``, the observation of the seat to play in
    ``state``, passes ``check`` and gives the seat its hand and its legal actions; and it
    depends only on the observation: drawn again (rng 1) from another world of the seat (rng
    ``twin_seed``), it is the same.  Returns the world."""
    player = state.current_player
    world = seen.determinize(np.random.default_rng(1))
    check(world)
    assert world.hand(player) == state.hand(player)
    assert [a.text for a in world.legal_actions()] == [a.text for a in state.legal_actions()]
    twin = state.determinize(player, np.random.default_rng(twin_seed))
    assert (twin.determinize(player, np.random.default_rng(1)).s == world.s).all()
    return world
