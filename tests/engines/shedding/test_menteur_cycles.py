"""Le menteur: a pile taken back can leave every hand as it was, so a game ends at the first
repetition of its full position, the same in the batch kernel as through the Python API."""

from __future__ import annotations

import pytest

from engines.families.shedding.rules import CYCLE
from engines.games.menteur import rules as R
from engines.games.menteur import summary
from tests.engines.helpers import assert_kernel_plays_python
from tests.engines.shedding.menteur_helpers import load, position


def caught_lead(state, lie: str) -> None:
    """P0 leads ``lie``; P1 calls and P0 takes his card back and leads again."""
    state.apply(lie)
    state.apply("call")


def test_a_lie_caught_on_the_lead_twice_repeats_the_position():
    """P0 leads 5♥ as ♠ and is caught: he leads again with the same hand, but the table has
    seen his 5♥, so this is a new position.  Caught a second time with the same card (as
    another suit), the position after the first catch comes back: the game ends there, a
    cycle of two decisions."""
    state = position(load(players=2), ["5♥ 2♣", "3♣ 4♣"])
    caught_lead(state, "lay 5♥ as ♠")
    assert not state.is_terminal() and state.phase == "lead"
    state.apply("lay 5♥ as ♦")
    assert not state.is_terminal()
    state.apply("call")
    assert state.is_terminal()
    assert int(state.s[R.DECISIONS]) == 4 and int(state.s[R.CYCLE_LENGTH]) == 2
    result = state.result()
    assert result.stats["ending"] == "cycle" and result.stats["cycle_length"] == 2
    assert result.ranks == (1, 1)                  # two cards each: the fewest cards share


def test_another_card_caught_is_a_new_position_until_a_shown_card_comes_back():
    """Caught, P0 leads another card as a lie and is caught again: his hand is back as it
    was, but the table has now seen 2♣, not 5♥, so the game goes on.  Caught a third time
    with 5♥, the position after the first catch comes back: a cycle of four decisions."""
    state = position(load(players=2), ["5♥ 2♣", "3♣ 4♣"])
    caught_lead(state, "lay 5♥ as ♠")
    caught_lead(state, "lay 2♣ as ♥")
    assert not state.is_terminal()
    caught_lead(state, "lay 5♥ as ♣")
    assert state.is_terminal() and int(state.s[R.CYCLE_LENGTH]) == 4


def test_a_truth_called_changes_the_hands_and_the_game_goes_on():
    """A true lead called sends the card to the caller: no position comes back."""
    state = position(load(players=2), ["5♥ 2♣", "3♣ 4♣"])
    caught_lead(state, "lay 5♥ as ♠")
    state.apply("lay 5♥ as ♥")
    state.apply("call")
    assert not state.is_terminal() and int(state.s[R.CYCLE_LENGTH]) == 0
    assert sorted(state.hand(1)) == sorted(["5♥", "3♣", "4♣"])


def test_the_position_hash_reads_every_card_the_turn_and_the_card_shown_not_the_counters():
    state = position(load(players=3), ["5♥ 2♣", "3♣", "4♣"], pile="2♠ 3♠", owners=(1, 2),
                     suit="♠")
    s, pr = state.s, state.game.encoded_params
    h = R.position_hash(s, pr)
    counted = s.copy()
    counted[R.DECISIONS] += 5
    counted[R.LIES + 1] += 1
    assert R.position_hash(counted, pr) == h
    for field in (R.HAND + 3, R.HAND + R.CARDS + 3, R.PILE + 1, R.PILE_OWNER + 1, R.CURRENT,
                  R.SUIT, R.REVEALED):
        moved = s.copy()
        moved[field] += 1
        assert R.position_hash(moved, pr) != h, field
    swapped = s.copy()
    swapped[R.PILE:R.PILE + 2] = swapped[R.PILE:R.PILE + 2][::-1].copy()
    assert R.position_hash(swapped, pr) != h


def test_observations_do_not_carry_the_positions_seen():
    """The hashes of past positions would tell a seat about hands it cannot see."""
    state = position(load(players=3), ["5♥ 2♣", "3♣", "4♣"])
    caught_lead(state, "lay 5♥ as ♠")
    assert int(state.s[R.POSITIONS_SEEN]) > 0
    seen = state.observation(1).array
    assert int(seen[R.POSITIONS_SEEN]) == 0
    assert not seen[R.POSITION_HASHES:R.POSITIONS_SEEN].any()


@pytest.mark.parametrize("players", [2, 4])
def test_the_kernel_ends_the_same_cycles_as_the_python_api(players):
    """Random players are often caught lying on a lead: the kernel plays the Python path's
    games, their cycles and lengths included."""
    game = load(players=players)
    out = assert_kernel_plays_python(game, ["random"] * players, seed=3, start=0, count=12)
    cycle = summary.ROW.game(out.rows, "ending") == CYCLE
    assert cycle.any()
    assert (summary.ROW.game(out.rows, "cycle_length")[cycle] > 0).all()
    assert (summary.ROW.game(out.rows, "cycle_length")[~cycle] == 0).all()
