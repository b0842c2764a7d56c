"""Rikiki: every test scenario of the spec, and the rules around them (schedule, trump card,
bids and the hook variant, following suit and the trumping variants, scoring, the end)."""

from __future__ import annotations

import pytest

from engines.core.api import IllegalActionError
from engines.games.rikiki import rules as R
from engines.games.rikiki.params import RikikiParams
from sim.runner import play_python
from tests.engines.tricks.rikiki_helpers import build, cards, load
from tests.engines.tricks.trick_helpers import play, texts

P0, P1, P2, P3 = range(4)


def bids(state, *values):
    return play(state, *[f"bid {b}" for b in values])


# ======================================================================================
# Spec scenario 1: the schedule
# ======================================================================================
@pytest.mark.parametrize("players, top, rounds", [(4, 12, 23), (5, 10, 19), (3, 17, 33),
                                                  (7, 7, 13), (10, 5, 9), (2, 25, 49)])
def test_scenario_1_schedule_climbs_to_m_and_back(players, top, rounds):
    schedule = RikikiParams(players=players).schedule()
    assert max(schedule) == top and len(schedule) == rounds
    assert schedule == tuple(range(1, top + 1)) + tuple(range(top - 1, 0, -1))


def test_variants_of_the_schedule():
    assert RikikiParams(players=4, max_rule=52).schedule()[11:14] == (12, 13, 12)
    assert RikikiParams(players=3, peak_twice=True).schedule()[15:19] == (16, 17, 17, 16)
    assert RikikiParams(hands=(5,)).schedule() == (5,)
    assert RikikiParams.from_strings(["hands=1,3,2"]).schedule() == (1, 3, 2)


def test_a_game_plays_every_round_of_the_schedule_with_the_deal_passing_left():
    game = load(players=3, hands=(2, 4, 1, 3), first_dealer=2)
    state = play_python(game, [__import__("agents").load("random")] * 3, 5)
    rows = state.records()[1]
    assert rows[::3, 1].tolist() == [2, 4, 1, 3]            # hand sizes
    assert rows[::3, 2].tolist() == [2, 0, 1, 2]            # dealers
    assert rows[::3, 3].tolist() == [0, 1, 2, 0]            # left of the dealer leads


def test_the_first_dealer_is_drawn_at_random_unless_set():
    game = load(players=4)
    dealers = {int(game.new_state(seed).s[R.DEALER]) for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert {int(load(first_dealer=3).new_state(seed).s[R.DEALER]) for seed in range(5)} == {3}


def test_the_top_card_of_the_stock_is_turned_and_fixes_trump():
    state = load(players=4, hands=(12,)).new_state(3)
    s = state.s
    turned = int(s[R.TRUMP_CARD])
    assert s[R.LOCATION + turned] == R.LOC_TURNED and s[R.TRUMP] == turned // 13
    assert (state.observation(1).trump_card, state.observation(2).trump) == (
        turned, turned // 13)


def test_no_card_left_means_no_trump():
    state = load(players=4, max_rule=52, hands=(13,)).new_state(1)
    assert state.s[R.TRUMP_CARD] == -1 and state.s[R.TRUMP] == -1
    assert "no card left: no trump" in state.log[0]


# ======================================================================================
# Spec scenario 2: bids total the tricks, scoring
# ======================================================================================
def test_scenario_2_total_equal_to_k_is_allowed_and_scores():
    state = build({P0: "2♥ 3♥ 4♥", P1: "A♠ 5♣ 6♣", P2: "2♣ 3♣ 4♣", P3: "A♥ K♥ Q♥"},
                  dealer=P0, trump="2♦", hands=(3,))
    bids(state, 1, 0, 1)
    assert texts(state) == ["bid 0", "bid 1", "bid 2", "bid 3"]    # 1 + 0 + 1 + 1 = 3 is legal
    bids(state, 1)
    # P1 leads A♠ and wins; then P3 takes two heart tricks
    play(state, "play A♠", "play 2♣", "play A♥", "play 2♥")
    assert state.s[R.TRICK_WINNER] == P1
    play(state, "play 5♣", "play 3♣", "play K♥", "play 3♥")   # 5♣ led: P3's K♥ cannot win
    assert state.s[R.TRICK_WINNER] == P1
    play(state, "play 6♣", "play 4♣", "play Q♥", "play 4♥")
    assert state.observation(P0).tricks == (0, 3, 0, 0)
    assert state.s[R.POINTS:R.POINTS + 4].tolist() == [-15, -20, +10, -15]


def test_scenario_2_as_written():
    state = build({P0: "2♥ 3♥ 4♥", P1: "A♠ 2♠ 5♣", P2: "2♣ 3♣ 4♣", P3: "K♠ Q♠ 6♣"},
                  dealer=P0, trump="2♦", hands=(3,))
    bids(state, 1, 0, 1, 1)
    play(state, "play 2♠", "play 2♣", "play K♠", "play 2♥")        # P3 wins
    play(state, "play Q♠", "play 3♥", "play A♠", "play 3♣")        # P1 wins
    play(state, "play 5♣", "play 4♣", "play 6♣", "play 4♥")        # P3 wins
    assert state.observation(P0).tricks == (0, 1, 0, 2)
    assert state.s[R.POINTS:R.POINTS + 4].tolist() == [-15, 15, 10, -15]
    assert state.s[R.SCORE:R.SCORE + 4].tolist() == [-15, 15, 10, -15]


@pytest.mark.parametrize("bid_, taken, points", [(2, 0, -20), (0, 3, -25), (0, 0, 10),
                                                 (3, 3, 25), (1, 2, -15)])
def test_scenario_3_points(bid_, taken, points):
    pr = load().encoded_params
    assert R.round_points(pr, bid_, taken) == points


def test_scoring_constants_are_parameters():
    pr = load(made_base=20, per_trick=2, fail_base=0, per_diff=3).encoded_params
    assert R.round_points(pr, 2, 2) == 24 and R.round_points(pr, 2, 5) == -9


# ======================================================================================
# Spec scenario 4 and 5: trick winner, following suit
# ======================================================================================
def test_scenario_4_the_trump_wins():
    state = build({P0: "3♠ 9♦", P1: "K♠ 2♣", P2: "A♠ 4♣", P3: "2♥ 5♣"}, dealer=P0,
                  trump="7♥")
    bids(state, 0, 0, 0, 0)
    play(state, "play K♠", "play A♠", "play 2♥", "play 3♠")
    assert state.s[R.TRICK_WINNER] == P3 and state.current_player == P3


def test_scenario_5_must_follow_suit():
    state = build({P0: "3♠ 9♦", P1: "K♠ 2♣", P2: "7♠ A♥", P3: "2♥ 5♣"}, dealer=P0,
                  trump="3♥")
    bids(state, 0, 0, 0, 0)
    play(state, "play K♠")
    assert texts(state) == ["play 7♠"]
    with pytest.raises(IllegalActionError, match="play A♥ is not legal for P2"):
        state.apply("play A♥")


def test_a_void_player_may_play_any_card_by_default():
    state = build({P0: "3♠ 9♦", P1: "K♠ 2♣", P2: "7♦ A♥", P3: "2♥ 5♣"}, dealer=P0,
                  trump="3♥")
    bids(state, 0, 0, 0, 0)
    play(state, "play K♠")
    assert texts(state) == ["play A♥", "play 7♦"]


def test_must_trump_variant():
    hands = {P0: "3♠ 9♦ 4♦", P1: "K♠ 2♣ 3♣", P2: "7♦ 5♥ A♥", P3: "2♥ 5♣ 6♣"}
    state = build(hands, dealer=P0, trump="3♥", must_trump=True)
    bids(state, 0, 0, 0, 0)
    play(state, "play K♠")
    assert texts(state) == ["play 5♥", "play A♥"]


def test_must_overtrump_variants():
    hands = {P0: "3♠ 9♦ 4♦", P1: "K♠ 2♣ 3♣", P2: "7♦ 2♥ 5♥", P3: "4♥ Q♥ 6♣"}
    for extra, expected in (({"must_overtrump": True}, ["play Q♥", "play 6♣"]),
                            ({"must_trump": True, "must_overtrump": True}, ["play Q♥"]),
                            ({"must_trump": True}, ["play 4♥", "play Q♥"])):
        state = build(hands, dealer=P0, trump="3♥", **extra)
        bids(state, 0, 0, 0, 0)
        play(state, "play K♠", "play 5♥")              # P2 void in spades, trumps 5♥
        assert texts(state) == expected, extra
    # unable to beat the trump: any trump may go
    state = build({P0: "3♠ 9♦", P1: "K♠ 2♣", P2: "7♦ A♥", P3: "4♥ 6♣"}, dealer=P0,
                  trump="3♥", must_trump=True, must_overtrump=True)
    bids(state, 0, 0, 0, 0)
    play(state, "play K♠", "play A♥")
    assert texts(state) == ["play 4♥"]


def test_a_player_holding_the_led_suit_follows_even_under_must_overtrump():
    state = build({P0: "3♠ 9♦", P1: "K♠ 2♣", P2: "7♠ A♥", P3: "4♥ 6♣"}, dealer=P0,
                  trump="3♥", must_trump=True, must_overtrump=True)
    bids(state, 0, 0, 0, 0)
    play(state, "play K♠")
    assert texts(state) == ["play 7♠"]


# ======================================================================================
# Bids: range, the hook and overbids (A3, A5)
# ======================================================================================
def test_bids_range_from_zero_to_the_hand_size_in_order_from_the_dealers_left():
    state = build({P0: "2♥ 3♥", P1: "A♠ 5♣", P2: "2♣ 3♣"}, dealer=P2, trump="2♦")
    assert state.current_player == P0
    assert texts(state) == ["bid 0", "bid 1", "bid 2"]
    bids(state, 2, 0, 0)
    assert state.phase == "tricks" and state.current_player == P0
    assert state.observation(P1).bids == (2, 0, 0)


def test_hook_rule_forbids_the_dealer_the_total():
    state = build({P0: "2♥ 3♥", P1: "A♠ 5♣", P2: "2♣ 3♣"}, dealer=P2, trump="2♦",
                  hook_rule=True)
    bids(state, 1, 0)
    assert texts(state) == ["bid 0", "bid 2"]
    with pytest.raises(IllegalActionError, match="bid 1 is not legal"):
        state.apply("bid 1")


def test_allow_overbid_offers_bids_beyond_the_hand():
    state = build({P0: "2♥", P1: "A♠", P2: "2♣"}, dealer=P2, trump="2♦", allow_overbid=True)
    assert len(texts(state)) == 27 and texts(state)[-1] == "bid 26"
    bids(state, 5, 0, 0)
    play(state, "play 2♥", "play A♠", "play 2♣")
    assert state.s[R.POINTS + P0] == -(10 + 5 * 4)      # took the 2♥ trick


# ======================================================================================
# The end: totals, shared wins
# ======================================================================================
def test_the_highest_total_wins_and_ties_share():
    state = build({P0: "2♥", P1: "A♥", P2: "2♣"}, dealer=P2, trump="2♦", hands=(1,),
                  per_trick=0)
    bids(state, 0, 1, 0)
    play(state, "play 2♥", "play A♥", "play 2♣")
    result = state.result()
    assert result.scores == (10.0, 10.0, 10.0)
    assert result.ranks == (1, 1, 1) and result.win_shares == pytest.approx((1 / 3,) * 3)
    assert result.stats["shared_win"]


def test_winner_of_a_single_deal():
    state = build({P0: "2♥", P1: "A♥", P2: "2♣"}, dealer=P2, trump="2♦", hands=(1,))
    bids(state, 0, 1, 1)
    play(state, "play 2♥", "play A♥", "play 2♣")
    result = state.result()
    assert result.scores == (10.0, 15.0, -15.0)
    assert result.ranks == (2, 1, 3) and result.win_shares == (0.0, 1.0, 0.0)
    assert state.log[-1].endswith("game over, P1 wins")


# ======================================================================================
# Parameters and actions: error paths
# ======================================================================================
def test_bad_parameters_name_the_valid_values():
    with pytest.raises(ValueError, match="valid values: 51, 52"):
        load(max_rule=50)
    with pytest.raises(ValueError, match="valid values: none, 0..3"):
        load(players=4, first_dealer=5)
    with pytest.raises(ValueError, match="valid values: 1..13"):
        load(players=4, hands=(14,))
    with pytest.raises(ValueError, match="valid keys"):
        load(trumps=1)


def test_actions_by_text_and_by_letters():
    game = load()
    assert game.action("play Qs") == game.action("play Q♠") == game.action(R.PLAY + 36)
    with pytest.raises(IllegalActionError, match="not a Rikiki action"):
        game.action("play 1x")
    assert cards("10♥ A♣") == [8, 51]
