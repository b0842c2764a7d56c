"""L'empereur: cards go round (hands, talon, pioche, hands), so a round's position can come
back; the game ends at its first repetition, the same in the batch kernel as through the
Python API."""

from __future__ import annotations

import pytest

from engines.families.shedding.rules import CYCLE
from engines.games.empereur import rules as R
from engines.games.empereur import summary
from tests.engines.helpers import assert_kernel_plays_python
from tests.engines.shedding.empereur_helpers import legal, load, position


def test_a_three_played_cleared_drawn_and_played_again_repeats_the_position():
    """P0 plays the 3♥; P1 draws nothing (the talon's top run is all of it) and passes; the
    talon is cleared under the empty pioche; P0 draws the 3♥ back and plays it: the position
    after the first play comes back, four decisions later."""
    state = position(load(players=2), ["3♥ 9♣", "4♠ 8♦"], stock="")
    state.apply("play 3")
    for decision in ("draw", "pass", "draw"):
        assert not state.is_terminal(), decision
        state.apply(decision)
    assert "play 3" in legal(state)
    state.apply("play 3")
    assert state.is_terminal()
    assert int(state.s[R.DECISIONS]) == 5 and int(state.s[R.CYCLE_LENGTH]) == 4
    result = state.result()
    assert result.stats["ending"] == "cycle" and result.stats["cycle_length"] == 4
    assert result.ranks == (1, 2) and state.log[-1] == "game over (cycle)"


def test_a_card_that_stays_in_hand_breaks_the_loop():
    """The same turns, but P0 plays his 9 the second time: no position comes back."""
    state = position(load(players=2), ["3♥ 9♣", "4♠ 8♦"], stock="")
    for decision in ("play 3", "draw", "pass", "draw", "play 9"):
        state.apply(decision)
    assert not state.is_terminal() and int(state.s[R.CYCLE_LENGTH]) == 0


def test_the_position_hash_reads_the_cards_and_the_turn_not_the_counters():
    state = position(load(players=3), ["3♥ 9♣", "4♠", "8♦"], talon="5♥:5 5♦:5", last_player=2,
                     since_play=1)
    s, pr = state.s, state.game.encoded_params
    h = R.position_hash(s, pr)
    counted = s.copy()
    counted[R.DECISIONS] += 3
    counted[R.RB_TURNS] += 3
    counted[R.PASSES] += 1
    counted[R.DRAWN_TOTAL + 1] += 2
    assert R.position_hash(counted, pr) == h
    for field in (R.HAND + 3, R.TALON + 1, R.TALON_RANK, R.STOCK + 2, R.CURRENT, R.SINCE_PLAY,
                  R.PENDING, R.KNOWN + R.CARDS + 7):
        moved = s.copy()
        moved[field] += 1
        assert R.position_hash(moved, pr) != h, field


def test_observations_do_not_carry_the_positions_seen():
    state = position(load(players=2), ["3♥ 9♣", "4♠ 8♦"], stock="")
    state.apply("play 3")
    assert int(state.s[R.POSITIONS_SEEN]) > 0
    seen = state.observation(1).array
    assert int(seen[R.POSITIONS_SEEN]) == 0
    assert not seen[R.POSITION_HASHES:R.POSITIONS_SEEN].any()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3])
def test_the_kernel_ends_the_games_as_the_python_api(players):
    """The kernel plays the Python path's games, their ends and cycle lengths included."""
    game = load(players=players)
    out = assert_kernel_plays_python(game, ["random"] * players, seed=2, start=0, count=6)
    cycle = summary.ROW.game(out.rows, "ending") == CYCLE
    lengths = summary.ROW.game(out.rows, "cycle_length")
    assert (lengths[~cycle] == 0).all()
