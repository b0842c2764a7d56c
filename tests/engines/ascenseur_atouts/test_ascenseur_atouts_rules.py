"""Ascenseur aux atouts: every test scenario of the spec, and the rules around them (the
hook, the Excuse, the blind hand, scoring, the sequence of hands and tours, the end)."""

from __future__ import annotations

import pytest

from engines.core.api import IllegalActionError
from engines.games.ascenseur_atouts import rules as R
from sim.runner import play_python
from tests.engines.ascenseur_atouts.ascenseur_helpers import build, card, load
from tests.engines.tricks.trick_helpers import play, texts

A, B, C, D = 0, 1, 2, 3          # the source's A, B, C and Marcel


def bids_then_plays(state, bids, plays):
    return play(state, *[f"bid {b}" for b in bids], *plays)


# ======================================================================================
# Spec scenario 1: the hook
# ======================================================================================
def test_scenario_1_dealer_may_bid_anything_but_the_sum_to_five():
    state = build(4, {A: "T1 T2 T3 T4 T5", B: "T6 T7 T8 T9 T10", C: "T11 T12 T13 T14 T15",
                      D: "T16 T17 T18 T19 T20"}, dealer=A)
    assert state.current_player == B
    play(state, "bid 1", "bid 1", "bid 2")
    assert state.current_player == A
    assert texts(state) == ["bid 0", "bid 2", "bid 3", "bid 4", "bid 5"]
    with pytest.raises(IllegalActionError, match="bid 1 is not legal for P0"):
        state.apply("bid 1")
    state.apply("bid 0")
    assert state.phase == "tricks" and state.current_player == B


def test_non_dealers_may_bid_zero_to_the_hand_size_whatever_the_sum():
    state = build(4, {A: "T1 T2 T3", B: "T6 T7 T8", C: "T11 T12 T13", D: "T16 T17 T18"},
                  dealer=A)
    assert texts(state) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    play(state, "bid 3")
    assert texts(state) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    play(state, "bid 0", "bid 0")
    assert texts(state) == ["bid 1", "bid 2", "bid 3"]        # 3 + 0 + 0 + 0 = 3 forbidden


def test_the_hook_leaves_every_bid_when_the_sum_is_already_over():
    state = build(2, {A: "T1 T2", B: "T3 T4"}, dealer=A)
    play(state, "bid 2")                # B bids 2 = c: the dealer's 0 would make 2
    assert texts(state) == ["bid 1", "bid 2"]


# ======================================================================================
# Spec scenarios 2 and 3: the highest card wins, the Excuse high or low
# ======================================================================================
def test_scenario_2_the_highest_trump_wins_and_leads_next():
    # dealer Marcel: A leads
    state = build(4, {A: "T2 T5", B: "T14 T6", C: "T3 T7", D: "T21 T8"}, dealer=D)
    bids_then_plays(state, [0, 0, 0, 1], ["play T2", "play T14", "play T3", "play T21"])
    assert state.s[R.TRICK_WINNER] == D
    assert state.observation(A).tricks == (0, 0, 0, 1)
    assert state.current_player == D
    assert state.log[-1] == "trick 1: P0 T2, P1 T14, P2 T3, P3 T21 → P3"


@pytest.mark.parametrize("declared, winner", [("high", D), ("low", C)])
def test_scenario_3_the_excuse_is_highest_or_lowest_as_declared(declared, winner):
    state = build(4, {A: "T6 T5", B: "T1 T9", C: "T20 T10", D: "Excuse T11"}, dealer=D)
    bids_then_plays(state, [0, 0, 0, 1],
                    ["play T6", "play T1", "play T20", f"play Excuse {declared}"])
    assert state.s[R.TRICK_WINNER] == winner
    assert state.current_player == winner
    assert state.log[-1].endswith(f"P3 Excuse {declared} → P{winner}")


def test_the_excuse_may_be_led_either_way():
    state = build(2, {A: "T3 T4", B: "Excuse T1"}, dealer=A)
    play(state, "bid 1", "bid 0")
    assert texts(state) == ["play T1", "play Excuse high", "play Excuse low"]
    play(state, "play Excuse low", "play T3")
    assert state.s[R.TRICK_WINNER] == A


def test_any_card_may_be_played_to_any_trick():
    state = build(3, {A: "T1 T2 T3", B: "T10 T11 Excuse", C: "T19 T20 T21"}, dealer=C)
    play(state, "bid 0", "bid 0", "bid 2", "play T3")
    assert texts(state) == ["play T10", "play T11", "play Excuse high", "play Excuse low"]


# ======================================================================================
# Spec scenario 4: the score pile advances by the error
# ======================================================================================
def test_scenario_4_bid_zero_won_two_advances_two_cards():
    state = build(2, {A: "T20 T21", B: "T1 T2"}, dealer=B, errors=(3, 0))
    play(state, "bid 0", "bid 1", "play T20", "play T1", "play T21", "play T2")
    obs = state.observation(B)
    assert obs.errors == (5, 1)
    assert state.s[R.HAND_ERROR] == 2 and state.s[R.HAND_ERROR + 1] == 1
    assert "P0 bid 0 won 2 (error 2, total 5)" in state.log[-2]


def test_an_exact_bid_costs_nothing():
    state = build(2, {A: "T20 T21", B: "T1 T2"}, dealer=B)
    play(state, "bid 2", "bid 1", "play T20", "play T1", "play T21", "play T2")
    assert state.observation(A).errors == (0, 1)
    assert state.s[R.EXACT_BIDS] == 1 and state.s[R.EXACT_BIDS + 1] == 0


# ======================================================================================
# Spec scenario 5: the blind hand
# ======================================================================================
def test_scenario_5_blind_announcements_must_leave_a_loser():
    state = build(3, {A: "T5", B: "T9", C: "T13"}, dealer=C)
    assert state.observation(A).blind
    assert texts(state) == ["not take", "take"]
    play(state, "take", "not take")
    assert texts(state) == ["take"]                 # not take would make the sum 1
    with pytest.raises(IllegalActionError, match="not take is not legal"):
        state.apply("not take")


def test_scenario_5_two_takers_leave_the_last_free():
    state = build(3, {A: "T5", B: "T9", C: "T13"}, dealer=C)
    play(state, "take", "take")
    assert texts(state) == ["not take", "take"]


def test_blind_hand_nobody_takes_is_allowed():
    state = build(3, {A: "T5", B: "T9", C: "T13"}, dealer=C)
    play(state, "not take", "not take")
    assert texts(state) == ["not take"]             # take would make the sum 1


def test_blind_hand_players_see_the_others_cards_but_not_their_own():
    state = build(3, {A: "T5", B: "T9", C: "Excuse"}, dealer=C)
    obs = state.observation(A)
    assert obs.hand == ()
    assert obs.visible_hands == {B: (card("T9"),), C: (R.EXCUSE,)}
    assert state.observation(C).visible_hands == {A: (card("T5"),), B: (card("T9"),)}


def test_blind_excuse_is_the_highest_by_default():
    state = build(3, {A: "T21", B: "T9", C: "Excuse"}, dealer=C)
    play(state, "take", "not take", "take", "play T21", "play T9")
    assert texts(state) == ["play Excuse high"]
    state.apply("play Excuse high")
    assert state.observation(A).errors == (1, 0, 0)


def test_blind_excuse_owner_may_choose_under_the_variant():
    state = build(3, {A: "T21", B: "T9", C: "Excuse"}, dealer=C, blind_excuse="owner-chooses")
    play(state, "take", "not take", "take", "play T21", "play T9")
    assert texts(state) == ["play Excuse high", "play Excuse low"]
    state.apply("play Excuse low")
    assert state.observation(A).errors == (0, 0, 1)


def test_hook_variant_frees_the_blind_dealer():
    state = build(3, {A: "T5", B: "T9", C: "T13"}, dealer=C, hook="sighted-hands")
    play(state, "take", "not take")
    assert texts(state) == ["not take", "take"]
    sighted = build(3, {A: "T5 T6", B: "T9 T10", C: "T13 T14"}, dealer=C,
                    hook="sighted-hands")
    play(sighted, "bid 1", "bid 0")
    assert texts(sighted) == ["bid 0", "bid 2"]


# ======================================================================================
# The sequence: hands of 5..1, the dealer for a tour, then the next dealer
# ======================================================================================
def hands_of(state):
    rows = state.records()[1]
    n = state.game.params.players
    return rows[::n]


@pytest.mark.parametrize("players, start, first", [(4, 5, 0), (3, 4, 2), (2, 3, 1)])
def test_hand_sizes_and_dealers_follow_the_tours(players, start, first):
    game = load(players=players, start_cards=start, first_dealer=first, target_errors=13)
    state = play_python(game, [_random()] * players, seed=3)
    hands = hands_of(state)
    for i, row in enumerate(hands):
        assert row[0] == i                                  # hand index
        assert row[1] == i // start                         # tour
        assert row[2] == start - i % start                  # cards
        assert row[3] == (row[2] == 1)                      # blind
        assert row[4] == (first + i // start) % players     # dealer


def test_bidding_and_the_first_lead_start_left_of_the_dealer():
    game = load(players=3, first_dealer=1)
    state = game.new_state(5)
    assert state.s[R.DEALER] == 1 and state.current_player == 2
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.phase == "tricks" and state.current_player == 2
    assert state.observation(0).bids[2] == 0 and state.s[R.BID_POSITION + 2] == 0
    assert state.s[R.BID_POSITION + 1] == 2                 # the dealer bids last


def test_deal_sets_the_rest_aside():
    state = load(players=3).new_state(0)
    where = state.s[R.LOCATION:R.LOCATION + R.PLAY_CARDS]
    assert (where == R.LOC_ASIDE).sum() == 22 - 15
    assert all(len(state.hand_of(p)) == 5 for p in range(3))


# ======================================================================================
# The end: a pile reaches the As; the lowest wins, ties shared (C3, C5, C6)
# ======================================================================================
def test_game_ends_when_a_pile_reaches_the_as():
    state = build(2, {A: "T20 T21", B: "T1 T2"}, dealer=B, errors=(11, 4))
    play(state, "bid 0", "bid 1", "play T20", "play T1", "play T21", "play T2")
    assert state.is_terminal()
    result = state.result()
    assert result.ranks == (2, 1) and result.win_shares == (0.0, 1.0)
    assert result.scores == (-13.0, -5.0)
    assert state.log[-1].endswith("game over, P1 wins")


def test_game_goes_on_below_the_target():
    state = build(2, {A: "T20 T21", B: "T1 T2"}, dealer=B, errors=(10, 4))
    play(state, "bid 0", "bid 1", "play T20", "play T1", "play T21", "play T2")
    assert not state.is_terminal()
    # after the 2-card hand, the same dealer deals the blind 1-card hand
    assert state.s[R.CARDS] == 1 and state.s[R.BLIND] == 1 and state.s[R.DEALER] == B
    assert state.phase == "bidding" and state.current_player == A


def test_equal_lowest_share_the_win():
    state = build(3, {A: "T20 T21", B: "T1 T2", C: "T3 T4"}, dealer=C, errors=(12, 6, 5))
    play(state, "bid 0", "bid 0", "bid 1", "play T20", "play T1", "play T3", "play T21",
         "play T2", "play T4")
    result = state.result()
    assert state.observation(0).errors == (14, 6, 6)
    assert result.ranks == (3, 1, 1) and result.win_shares == (0.0, 0.5, 0.5)
    assert result.stats["shared_win"]


def test_last_hand_tie_rule_separates_equal_players():
    state = build(3, {A: "T20 T21", B: "T1 T2", C: "T3 T4"}, dealer=C, errors=(12, 6, 5),
                  ties="last-hand")
    play(state, "bid 0", "bid 0", "bid 1", "play T20", "play T1", "play T3", "play T21",
         "play T2", "play T4")
    # B ends on 6 with an exact last hand; C on 6 after missing by 1
    assert state.result().ranks == (3, 1, 2)



def finish_hand(state):
    """Play the hand in progress to its end with each player's first legal action."""
    hand = state.s[R.HAND]
    while not state.is_terminal() and state.s[R.HAND] == hand:
        state.apply(state.legal_actions()[0])
    return state


def test_round_of_dealers_ending_plays_on_to_the_close_of_the_round():
    # tour 1 at 2 players, dealt by A, the last seat in dealing order (B dealt tour 0): A
    # reaches the As in the 2-card hand; the game ends after the blind hand, not before (C6)
    state = build(2, {A: "T20 T21", B: "T1 T2"}, dealer=A, tour=1, errors=(11, 4),
                  ending="round-of-dealers")
    play(state, "bid 1", "bid 0", "play T1", "play T20", "play T21", "play T2")
    assert state.observation(0).errors == (13, 5)
    assert not state.is_terminal()
    assert state.s[R.BLIND] == 1 and state.s[R.DEALER] == A
    finish_hand(state)
    assert state.is_terminal()
    assert state.s[R.HANDS_PLAYED] == 2 and state.result().ranks == (2, 1)


def test_round_of_dealers_ending_lets_the_last_seat_deal_its_tour():
    # the same As reached in tour 0, dealt by B: the tour ends, then A deals a full tour
    state = build(2, {A: "T20 T21", B: "T1 T2"}, dealer=B, errors=(11, 4),
                  ending="round-of-dealers")
    play(state, "bid 0", "bid 1", "play T20", "play T1", "play T21", "play T2")
    finish_hand(state)
    assert not state.is_terminal()
    assert state.s[R.DEALER] == A and state.s[R.CARDS] == 5
    for _ in range(4):
        finish_hand(state)
        assert not state.is_terminal()
    finish_hand(state)
    assert state.is_terminal() and state.s[R.HANDS_PLAYED] == 7

def test_short_target_ends_sooner():
    game = load(players=3, target_errors=2)
    state = play_python(game, [_random()] * 3, seed=1)
    errors = state.result().details["errors"]
    assert max(errors) >= 2
    earlier = state.records()[1][:-3]                # the rows of every earlier hand
    assert (earlier[:, 11] < 2).all()


def _random():
    import agents

    return agents.load("random")
