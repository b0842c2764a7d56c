"""Chasse-coeur: every test scenario of the spec, and the rules around them (the uneven
deal, the 2♣ lead, the first trick, la générale, the variants, the end)."""

from __future__ import annotations

import pytest

import engines
from engines.core.api import IllegalActionError
from engines.families.avoidance import rules as R
from engines.games.chasse_coeur.game import card_points, removed_cards
from engines.games.chasse_coeur.params import ChasseCoeurParams
from tests.engines.tricks.avoidance_helpers import build, cards
from tests.engines.tricks.trick_helpers import play, texts

P0, P1, P2, P3 = range(4)


def load(**params):
    return engines.load("chasse-coeur", **params)


# ======================================================================================
# Spec scenario 1: the deal
# ======================================================================================
@pytest.mark.parametrize("players, removed, each", [
    (3, "2♦", 17), (4, "", 13), (5, "2♦ 2♠", 10), (6, "2♦ 2♠ 3♦ 3♠", 8),
    (7, "2♦ 2♠ 3♦", 7), (9, "2♦ 2♠ 3♦ 3♠ 3♣ 4♦ 4♠", 5)])
def test_scenario_1_the_lowest_non_point_cards_come_out(players, removed, each):
    assert removed_cards(ChasseCoeurParams(players=players)) == tuple(cards(removed))
    state = load(players=players).new_state(1)
    for p in range(players):
        assert len(state.hand_of(p)) == each
    assert all(state.s[R.LOCATION + c] == R.LOC_OUT for c in cards(removed))


def test_scenario_1_the_holder_of_the_two_of_clubs_must_lead_it():
    state = load(players=3).new_state(5)
    holder = next(p for p in range(3) if cards("2♣")[0] in state.hand_of(p))
    assert state.current_player == holder
    assert texts(state) == ["play 2♣"]


def test_the_points_total_65_per_hand():
    assert card_points(ChasseCoeurParams()).sum() == 65
    assert card_points(ChasseCoeurParams(heart_pts=2, queen_pts=10, qh_pts=20)).sum() == 74


def test_kitty_variant_deals_evenly_and_gives_the_kitty_to_the_first_trick():
    state = build("chasse-coeur", {0: "2♣ 3♥", 1: "5♣ Q♠", 2: "9♣ 4♦"}, dealer=2,
                  leftover_rule="kitty")
    state.s[R.LOCATION + cards("Q♥")[0]] = R.LOC_KITTY
    play(state, "play 2♣", "play 5♣", "play 9♣")
    assert state.observation(0).won[2] == tuple(sorted(cards("2♣ 5♣ 9♣ Q♥")))
    assert state.s[R.TAKEN + 2] == 14
    state = load(players=3, leftover_rule="kitty").new_state(2)
    assert [len(state.hand_of(p)) for p in range(3)] == [17, 17, 17]
    assert (state.s[R.LOCATION:R.LOCATION + 52] == R.LOC_KITTY).sum() == 1


# ======================================================================================
# Spec scenarios 2 and 3: the first trick
# ======================================================================================
def test_scenario_2_a_void_player_discards_no_point_card_in_trick_1():
    state = build("chasse-coeur", {0: "2♣ 3♦ 4♦ 5♦", 1: "5♥ Q♠ 9♦ A♠", 2: "K♣ 2♥ 3♥ 4♥",
                                   3: "7♣ 8♣ 9♣ 10♣"}, dealer=3)
    play(state, "play 2♣")
    assert texts(state) == ["play 9♦", "play A♠"]
    with pytest.raises(IllegalActionError, match="play Q♠ is not legal"):
        state.apply("play Q♠")


def test_scenario_3_following_clubs_with_the_queen_and_another_club():
    state = build("chasse-coeur", {0: "2♣ 3♦", 1: "4♦ 5♦", 2: "Q♣ 7♣", 3: "8♣ 9♣"},
                  dealer=3)
    play(state, "play 2♣", "play 4♦")
    assert texts(state) == ["play 7♣"]
    state = build("chasse-coeur", {0: "2♣ 3♦", 1: "4♦ 5♦", 2: "Q♣ 7♦", 3: "8♣ 9♣"},
                  dealer=3)
    play(state, "play 2♣", "play 4♦")
    assert texts(state) == ["play Q♣"]


def test_a_player_with_only_point_cards_plays_one_in_trick_1():
    state = build("chasse-coeur", {0: "2♣ 3♦", 1: "5♥ Q♠", 2: "9♣ 4♦"}, dealer=2)
    play(state, "play 2♣")
    assert texts(state) == ["play 5♥", "play Q♠"]


def test_points_void_variant_allows_points_but_trick_1_scores_nothing():
    state = build("chasse-coeur", {0: "2♣ 3♦", 1: "5♥ 9♦", 2: "9♣ 4♦"}, dealer=2,
                  first_trick_rule="points_void")
    play(state, "play 2♣")
    assert texts(state) == ["play 5♥", "play 9♦"]
    play(state, "play 5♥", "play 9♣")
    assert state.s[R.TAKEN + 2] == 0 and state.s[R.POINT_CARDS + 2] == 1


# ======================================================================================
# Spec scenario 4: a later trick
# ======================================================================================
def test_scenario_4_the_queen_of_hearts_wins_29_points():
    state = build("chasse-coeur", {0: "2♣ 9♥ 3♦ 2♥", 1: "3♣ 3♥ K♦ 8♠",
                                   2: "4♣ Q♥ 5♦ 9♠", 3: "5♣ Q♠ 6♦ K♠"}, dealer=3,
                  num_hands=1)
    play(state, "play 2♣", "play 3♣", "play 4♣", "play 5♣")     # P3 wins, leads
    play(state, "play 6♦", "play 3♦", "play K♦", "play 5♦")     # P1 wins, leads
    play(state, "play 3♥", "play Q♥", "play Q♠", "play 9♥")
    assert state.s[R.TRICK_WINNER] == P2 and state.s[R.TAKEN + P2] == 29
    play(state, "play 9♠", "play K♠", "play 2♥", "play 8♠")     # P3 takes the 2♥
    assert state.s[R.POINTS:R.POINTS + 4].tolist() == [0, 0, 29, 1]


# ======================================================================================
# Spec scenario 5: la générale
# ======================================================================================
def test_scenario_5_la_generale_scores_zero_and_26_to_each_opponent():
    # the point cards of this position are the Q♥ alone: P0 takes every one of them
    state = build("chasse-coeur", {0: "A♣ Q♥", 1: "2♣ 3♦", 2: "3♣ 4♦"}, dealer=2,
                  num_hands=1)
    play(state, "play 2♣", "play 3♣", "play A♣", "play Q♥", "play 3♦", "play 4♦")
    assert state.s[R.SWEEPER] == 0
    assert state.result().details["totals"] == (0, 26, 26)
    state = build("chasse-coeur", {0: "A♣ Q♥", 1: "2♣ 3♦", 2: "3♣ 4♦"}, dealer=2,
                  num_hands=1, moon_value=65)
    play(state, "play 2♣", "play 3♣", "play A♣", "play Q♥", "play 3♦", "play 4♦")
    assert state.result().details["totals"] == (0, 65, 65)


def test_all_points_without_all_tricks_is_a_generale():
    state = build("chasse-coeur", {0: "A♣ Q♥ 2♦", 1: "2♣ 3♦ 5♠", 2: "3♣ 4♦ A♦"}, dealer=2,
                  num_hands=1)
    play(state, "play 2♣", "play 3♣", "play A♣", "play Q♥", "play 3♦", "play 4♦")
    play(state, "play 2♦", "play 5♠", "play A♦")                   # P2 takes a trick
    assert state.s[R.SWEEPER] == 0 and state.result().details["totals"] == (0, 26, 26)


# ======================================================================================
# Variants: hearts broken, passing, the end
# ======================================================================================
def test_hearts_broken_rule():
    hands = {0: "2♣ 3♥ 4♦", 1: "3♣ 5♥ 9♦", 2: "9♣ 4♥ 5♦"}
    state = build("chasse-coeur", hands, dealer=2)
    play(state, "play 2♣", "play 3♣", "play 9♣")
    assert texts(state) == ["play 4♥", "play 5♦"]
    state = build("chasse-coeur", hands, dealer=2, hearts_broken_rule=True)
    play(state, "play 2♣", "play 3♣", "play 9♣")
    assert texts(state) == ["play 5♦"]
    state = build("chasse-coeur", {0: "2♣ 3♥", 1: "3♣ 5♥", 2: "9♣ 4♥"}, dealer=2,
                  hearts_broken_rule=True)
    play(state, "play 2♣", "play 3♣", "play 9♣")
    assert texts(state) == ["play 4♥"]                          # only hearts left


def test_passing_variant_moves_the_picked_cards_to_the_left():
    state = load(players=3, pass_cards=2, first_dealer=0).new_state(4)
    assert state.phase == "passing" and state.current_player == 1
    before = {p: set(state.hand_of(p)) for p in range(3)}
    picked = {}
    for _ in range(6):
        p = state.current_player
        action = state.legal_actions()[0]
        picked.setdefault(p, set()).add(action.code - R.PASS)
        state.apply(action)
    assert state.phase == "tricks"
    for p in range(3):
        assert set(state.hand_of((p + 1) % 3)) >= picked[p]
        assert set(state.hand_of(p)) == before[p] - picked[p] | picked[(p - 1) % 3]
    # the passer knows where its cards went; the third player does not
    assert state.observation(0).array[R.LOCATION + min(picked[0])] == R.LOC_HAND + 1
    assert state.observation(2).array[R.LOCATION + min(picked[0])] == R.LOC_UNKNOWN


def test_the_game_ends_at_the_threshold_and_the_lowest_total_wins():
    state = build("chasse-coeur", {0: "2♣ 3♥ 4♥", 1: "3♣ 6♦ 6♠", 2: "9♣ 5♦ 7♠"},
                  dealer=2, scores=[95, 60, 99], end_threshold=100)
    play(state, "play 2♣", "play 3♣", "play 9♣", "play 5♦", "play 3♥", "play 6♦")
    play(state, "play 6♠", "play 7♠", "play 4♥")
    assert state.is_terminal()
    result = state.result()
    assert result.details["totals"] == (95, 61, 100)
    assert result.ranks == (2, 1, 3) and result.winners == (1,)


def test_num_hands_variant_plays_a_fixed_number_of_hands():
    import agents
    from sim.runner import play_python
    state = play_python(load(players=5, num_hands=3), [agents.load("random")] * 5, 3)
    assert state.result().stats["rounds"] == 3


def test_bad_parameters_name_the_valid_values():
    with pytest.raises(ValueError, match="valid values: remove_low, kitty"):
        load(leftover_rule="burn")
    with pytest.raises(ValueError, match=r"valid values: 3\.\.10"):
        load(players=2)
    with pytest.raises(ValueError, match="valid values: no_point_cards, points_void"):
        load(first_trick_rule="none")
