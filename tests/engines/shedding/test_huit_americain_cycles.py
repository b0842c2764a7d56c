"""Huit américain: a K♥ attack on an empty stock (A7: countered at most once, or again with
``kh_counter_again``), and the end at the first repetition of the full position, the same in
the batch kernel as through the Python API."""

from __future__ import annotations

import pytest

from engines.families.shedding.rules import CYCLE
from engines.games.huit_americain import rules as R
from engines.games.huit_americain import summary
from tests.engines.helpers import assert_kernel_plays_python
from tests.engines.shedding.huit_helpers import hand, legal, load, position


def kh_on_an_empty_stock(**params):
    """Seat 0 attacks with a K♥; the other K♥ lies under the 9♥ and the stock is empty, so
    every penalty is drawn from the reshuffled discard pile."""
    state = position(load(players=3, **params), ["K♥ 2♣", "3♠", "4♠"], "9♥", under="K♥")
    state.apply("play K♥")
    return state


def test_the_kh_drawn_back_by_a_reshuffle_counters_again_with_the_variant():
    """B draws the other K♥ and counters; C, A and B in turn draw back the K♥ just
    reshuffled and play it: after B's second counter the position is the one after his
    first (the attack's length aside), so the game ends there, at the first repetition."""
    state = kh_on_an_empty_stock(kh_counter_again=True)
    for decision in range(2, 5):
        assert legal(state) == ["draw"]
        state.apply("draw")
        assert not state.is_terminal(), decision
        assert int(state.s[R.ATTACKER]) == (decision - 1) % 3
    state.apply("draw")
    assert state.is_terminal()
    assert int(state.s[R.DECISIONS]) == 5
    assert int(state.s[R.CYCLE_LENGTH]) == 3
    result = state.result()
    assert result.stats["ending"] == "cycle"
    assert result.stats["cycle_length"] == 3
    assert hand(state, 0) == ["2♣"] and sorted(hand(state, 1)) == ["3♠", "9♥"]


def test_a_kh_attack_is_countered_at_most_once_by_default():
    """A7: B counters with the other K♥; C draws back A's K♥ and keeps it."""
    state = kh_on_an_empty_stock()
    state.apply("draw")
    assert int(state.s[R.ATTACKER]) == 1 and int(state.s[R.CHAIN_LENGTH]) == 2
    state.apply("draw")
    assert "K♥" in hand(state, 2)
    assert int(state.s[R.ATTACKER]) == 1 and state.current_player == 0
    assert not state.is_terminal()


def test_counting_a_position_again_needs_every_card_in_place():
    """The position hash changes with any card moved and is blind to the counters."""
    state = kh_on_an_empty_stock()
    s, pr = state.s, state.game.encoded_params
    h = R.position_hash(s, pr)
    counted = s.copy()
    counted[R.DECISIONS] += 7
    counted[R.CARDS_DRAWN] += 1
    assert R.position_hash(counted, pr) == h
    moved = s.copy()
    moved[R.HAND + 3] += 1
    assert R.position_hash(moved, pr) != h
    swapped = s.copy()
    swapped[R.DISCARD:R.DISCARD + 2] = swapped[R.DISCARD:R.DISCARD + 2][::-1].copy()
    assert R.position_hash(swapped, pr) != h


@pytest.mark.slow
@pytest.mark.parametrize("agent, players, params", [
    ("shedder", 6, {}),                                  # Ace wars: most games repeat
    ("random", 8, {"kh_counter_again": True}),           # K♥ attacks feeding on themselves
])
def test_the_kernel_ends_the_same_cycles_as_the_python_api(agent, players, params):
    """With six players or more the stock runs dry and positions come back: the kernel
    plays the Python path's games, their cycles and lengths included."""
    game = load(players=players, max_turns=3000, **params)
    out = assert_kernel_plays_python(game, [agent] * players, seed=4, start=0, count=8)
    cycle = summary.ROW.game(out.rows, "ending") == CYCLE
    assert cycle.any()
    assert (summary.ROW.game(out.rows, "cycle_length")[cycle] > 0).all()
