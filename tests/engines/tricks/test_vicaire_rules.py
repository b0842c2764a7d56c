"""Vicaire: every test scenario of the spec, and the rules around them (deal, trumping,
qualification, capot, payouts, the match)."""

from __future__ import annotations

import pytest

import agents
import engines
from engines.core.api import IllegalActionError
from engines.games.vicaire import rules as R
from sim.runner import play_python
from tests.engines.tricks.trick_helpers import play, texts
from tests.engines.tricks.vicaire_helpers import build, cards

P0, P1, P2 = range(3)


def load(**params):
    return engines.load("vicaire", **params)


def test_the_deal_ten_each_and_a_two_card_ecart():
    state = load(first_dealer=1).new_state(3)
    assert [len(state.hand_of(p)) for p in range(3)] == [10, 10, 10]
    where = state.s[R.LOCATION:R.LOCATION + 52]
    assert (where == R.LOC_ECART).sum() == 2 and (where == R.LOC_OUT).sum() == 20
    assert all(c % 13 + 2 >= 7 for c in range(52) if where[c] != R.LOC_OUT)
    assert state.current_player == 2 and state.observation(0).dealer == 1


def test_scenario_1_overtrump_wins():
    state = build({0: "9♣ 8♦", 1: "7♥ 8♠", 2: "J♥ 9♠"}, dealer=2)
    play(state, "play 9♣", "play 7♥", "play J♥")
    assert state.s[R.TRICK_WINNER] == P2


def test_scenario_2_trumping_is_optional():
    state = build({0: "9♣ 8♦", 1: "A♠ 7♥", 2: "K♣ 9♠"}, dealer=2)
    play(state, "play 9♣")
    assert texts(state) == ["play 7♥", "play A♠"]
    play(state, "play A♠", "play K♣")
    assert state.s[R.TRICK_WINNER] == P2


def test_must_trump_variant():
    state = build({0: "9♣ 8♦", 1: "A♠ 7♥", 2: "K♣ 9♠"}, dealer=2, must_trump=True)
    play(state, "play 9♣")
    assert texts(state) == ["play 7♥"]
    with pytest.raises(IllegalActionError, match="play A♠ is not legal"):
        state.apply("play A♠")


def test_scenario_3_a_heart_trick_cannot_be_trumped():
    state = build({0: "8♥ 8♦", 1: "A♠ 7♦", 2: "K♣ 9♠"}, dealer=2)
    play(state, "play 8♥", "play A♠", "play K♣")
    assert state.s[R.TRICK_WINNER] == P0


def scripted(totals, tricks, **params):
    """The last trick of a deal in which seat p takes ``tricks[p]`` tricks, from game totals
    ``totals``: the earlier tricks are already counted, the winner of the last one (the
    first seat with a trick) holds the A♥."""
    winner = next(p for p in range(3) if tricks[p])
    hands = {p: "7♠" for p in range(3)}
    hands[winner] = "A♥"
    hands[(winner + 1) % 3] = "8♠"
    state = build(hands, dealer=2, totals=totals, **params)
    s = state.s
    s[R.CARDS] = sum(tricks)
    s[R.TRICK] = sum(tricks) - 1
    s[R.TRICKS:R.TRICKS + 3] = tricks
    s[R.TRICKS + winner] -= 1
    while s[R.PLAYED] < 3 and s[R.ROUNDS_PLAYED] == 0:
        state.apply(state.legal_actions()[0])
    return state


def test_scenario_4_the_lowest_of_two_qualifiers_wins_with_10():
    state = scripted((11, 5, 4), (4, 5, 1), num_games=1)
    assert state.is_terminal()
    rows = state.records()[1]
    assert rows[:, 9].tolist() == [15, 10, 5]               # totals
    assert rows[:, 10].tolist() == [1, 1, 0]                 # P0 and P1 qualify
    assert rows[:, 11].tolist() == [0, 1, 0]                 # the lowest total wins
    assert state.result().scores == (0.0, 50.0, 0.0)


def test_scenario_5_tied_qualifiers_play_on_and_zero_tricks_does_not_qualify():
    state = scripted((5, 6, 0), (5, 4, 0), num_games=1)      # P0 and P1 both reach 10
    assert not state.is_terminal()
    assert "wins the game" not in state.log[-2]
    state = scripted((10, 10, 0), (0, 5, 5), num_games=1)
    assert state.is_terminal()
    rows = state.records()[1]
    assert rows[:, 10].tolist() == [0, 1, 0]                 # P0 at 10 with 0 tricks: no
    assert state.result().scores == (0.0, 20.0, 0.0)


def test_without_require_trick_a_player_sitting_on_10_qualifies():
    state = scripted((10, 10, 0), (0, 5, 5), num_games=1, require_trick_this_deal=False)
    assert state.is_terminal() and state.result().scores == (50.0, 0.0, 0.0)


def test_scenario_6_capot_wins_at_once():
    state = scripted((0, 0, 0), (10, 0, 0), num_games=1)
    assert state.is_terminal()
    assert state.result().scores == (50.0, 0.0, 0.0) and state.result().details["capots"][0]
    state = scripted((0, 0, 0), (10, 0, 0), num_games=1, capot_payout=100)
    assert state.result().scores == (100.0, 0.0, 0.0)


@pytest.mark.parametrize("total, payout", [(15, 20), (20, 20), (25, 20)])
def test_payouts_above_10(total, payout):
    state = scripted((total - 3, 0, 0), (3, 4, 3), num_games=1)
    assert state.result().scores == (float(payout), 0.0, 0.0)
    state = scripted((total - 3, 0, 0), (3, 4, 3), num_games=1, payout_25_plus=7)
    assert state.result().scores[0] == (7.0 if total == 25 else 20.0)


def test_the_match_ends_when_payouts_reach_the_target():
    state = play_python(load(match_target=100), [agents.load("random")] * 3, 4)
    scores = state.result().scores
    assert max(scores) >= 100
    rows = state.records()[1].reshape(-1, 3, 15)
    games = state.result().stats["games"]
    assert rows[-1, 0, 1] == games - 1 and sum(state.result().details["games_won"]) <= games
    payouts = rows[:, :, 13].sum(axis=0)
    assert payouts.tolist() == list(map(int, scores))


def test_max_deals_ends_a_game_without_a_winner():
    state = play_python(load(num_games=1, max_deals=1), [agents.load("random")] * 3, 1)
    assert state.result().stats["rounds"] == 1


def test_bad_parameters_name_the_valid_values():
    with pytest.raises(ValueError, match=r"valid values: 3\.\.3"):
        load(players=4)
    with pytest.raises(ValueError, match="valid keys"):
        load(trumps="spades")
    assert cards("A♥") == [12]
