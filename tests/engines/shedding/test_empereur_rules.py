"""L'empereur: the source's own worked examples first, then every scenario of the spec
(§10), the Deux, the clearing and the refill, the end of a round in each mode, the Joker
finish, the exchanges, the variants and the error paths."""

from __future__ import annotations

import pytest

from engines.core.api import IllegalActionError
from engines.games.empereur import rules as R
from tests.engines.shedding.empereur_helpers import check_conservation, legal, load, position, stock


def hand_size(state, p):
    return int(state.s[R.HAND_SIZE + p])


# --- "Règles de pioche": the source's three examples (spec scenarios 1-3) ---------------
def test_source_example_a_five_on_a_five_the_next_player_draws_one():
    """"Il y a un 5 en jeu, vous jouez un 5 : le joueur suivant pioche 1 carte." """
    state = position(load(players=3), ["K♣ 9♦", "5♥ 8♣", "3♠ 3♦"], talon="4♠:4 5♣:5",
                     current=1, last_player=0)
    state.apply("play 5")
    assert state.current_player == 2 and hand_size(state, 2) == 3
    assert state.log[-1] == "P2 draws 1"
    check_conservation(state)


def test_source_example_two_fours_on_two_fours_the_next_player_draws_three():
    """"Il y a deux 4 en jeux, vous jouez deux 4 : le joueur suivant pioche 3 cartes." """
    state = position(load(players=3), ["K♣", "4♥ 4♦ 8♣", "3♠ 3♦"], talon="4♠:4 4♣:4",
                     current=1, last_player=0)
    state.apply("play 4 4")
    assert state.current_player == 2 and hand_size(state, 2) == 5
    check_conservation(state)


def test_source_example_two_sevens_on_a_six_the_next_player_draws_one():
    """"Il y a un 6 en jeux, vous jouez deux 7, le joueur suivant pioche 1 carte." """
    state = position(load(players=3), ["K♣", "7♥ 7♦ 8♣", "3♠ 3♦"], talon="6♠:6",
                     current=1, last_player=0)
    state.apply("play 7 7")
    assert hand_size(state, 2) == 3


def test_no_run_no_penalty_and_the_penalised_player_keeps_his_turn():
    state = position(load(players=3), ["K♣", "7♥ 8♣", "3♠ 9♦"], talon="6♠:6",
                     current=1, last_player=0)
    state.apply("play 7")
    assert hand_size(state, 2) == 2
    state = position(load(players=3), ["K♣", "7♥ 8♣", "3♠ 9♦"], talon="7♠:7",
                     current=1, last_player=0)
    state.apply("play 7")
    assert hand_size(state, 2) == 3 and state.current_player == 2
    assert "play 9" in legal(state) and "draw" in legal(state)


def test_variant_penalty_skips_turn():
    state = position(load(players=3, penalty_skips_turn=True), ["K♣ 3♥", "7♥ 8♣", "3♠ 9♦"],
                     talon="7♠:7", current=1, last_player=0)
    state.apply("play 7")
    assert hand_size(state, 2) == 3 and state.current_player == 0


def test_a_joker_counts_as_its_declared_rank_in_a_run():
    state = position(load(players=3), ["K♣", "Joker 8♣", "3♠ 9♦"], talon="Q♠:Q",
                     current=1, last_player=0)
    state.apply("play Joker as Q")
    assert state.talon[-1] == ("Joker", "Q") and hand_size(state, 2) == 3


# --- 4. the Deux ----------------------------------------------------------------------
def test_a_deux_makes_every_other_player_draw_and_its_player_leads_again():
    """4 players, top K, P0 plays a 2: P1, P2, P3 each draw 1 and cannot play; the talon
    goes under the pioche; P0 leads on an empty talon."""
    state = position(load(players=4), ["2♥ 5♣ 9♦", "3♠", "4♠", "6♠"], talon="J♦:J K♠:K",
                     current=0, last_player=3)
    before = stock(state)
    state.apply("play 2")
    assert [hand_size(state, p) for p in range(4)] == [2, 2, 2, 2]
    assert state.current_player == 0 and state.talon == []
    assert stock(state)[-3:] == ["J♦", "K♠", "2♥"] and stock(state)[:-3] == before[3:]
    assert legal(state)[0] == "play 5" and "draw" in legal(state)
    assert state.log[-3:] == ["P1 draws 1", "P2 draws 1", "P3 draws 1"]
    check_conservation(state)


def test_legality_on_a_ten():
    """5. Top 10: {9} illegal, {10} legal, {2,2} illegal, {Joker as 2} legal, {Joker, 2}
    illegal."""
    state = position(load(players=2), ["9♥ 10♦ 2♣ 2♠ Joker", "3♠"], talon="10♠:10",
                     current=0, last_player=1)
    actions = legal(state)
    assert "play 9" not in actions and "play 10" in actions
    assert "play 2 2" not in actions and "play 2" in actions
    assert "play Joker as 2" in actions and "play 2 Joker as 2" not in actions
    assert "play Joker as 9" not in actions and "play 10 Joker as 10" in actions
    with pytest.raises(IllegalActionError, match="legal: play Joker as 10, play 10, "):
        state.apply("play 9")
    with pytest.raises(IllegalActionError, match="not an empereur action"):
        state.apply("play 11")


# --- 6. the refill ----------------------------------------------------------------------
@pytest.mark.parametrize("shuffled", [True, False])
def test_refill_keeps_the_highest_rank_on_the_talon(shuffled):
    """6. Empty pioche, talon 4,4,7,9,9: the new pioche is {4,4,7}, the talon 9,9; P draws
    one, two are left (in play order without ``shuffle_recycled_pile``)."""
    state = position(load(players=2, shuffle_recycled_pile=shuffled), ["3♠", "5♣"],
                     talon="4♠:4 4♦:4 7♣:7 9♥:9 9♦:9", stock="", current=0, last_player=1)
    state.apply("draw")
    assert state.talon == [("9♥", "9"), ("9♦", "9")]
    assert int(state.s[R.STOCK_LEN]) == 2 and hand_size(state, 0) == 2
    remaining = set(stock(state)) | set(state.hand(0))
    assert remaining == {"4♠", "4♦", "7♣", "3♠"}
    if not shuffled:
        assert state.hand(0) == ["3♠", "4♠"] and stock(state) == ["4♦", "7♣"]
    assert legal(state) == ["pass"]


def test_nothing_to_draw_then_the_player_may_still_pass():
    state = position(load(players=2), ["3♠", "5♣ 6♣"], talon="9♥:9 9♦:9", stock="",
                     current=0, last_player=1)
    state.apply("draw")
    assert hand_size(state, 0) == 1 and legal(state) == ["pass"]
    state.apply("pass")
    # everybody else passed since P1's play: the talon goes under the pioche, P1 leads
    assert state.current_player == 1 and state.talon == [] and stock(state) == ["9♥", "9♦"]


# --- clearing -------------------------------------------------------------------------
def test_when_everyone_else_passes_the_talon_is_cleared_and_the_last_player_leads():
    state = position(load(players=3), ["K♣ 3♥", "5♥ 6♣", "3♠ 4♦"], talon="", current=0)
    state.apply("play K")
    for p in (1, 2):
        assert state.current_player == p
        state.apply("draw")
        state.apply("pass")
    assert state.current_player == 0 and state.talon == [] and stock(state)[-1] == "K♣"
    check_conservation(state)


def test_declining_to_lead_and_the_variant_lead_must_play():
    state = position(load(players=2), ["3♥ 9♣", "5♥"], current=0)
    assert legal(state)[-1] == "draw"
    state = position(load(players=2, lead_must_play=True), ["3♥ 9♣", "5♥"], current=0)
    assert legal(state) == ["play 3", "play 9"]


# --- end of a round, Normal and Elite ---------------------------------------------------
def test_elite_scoring_of_the_subjects_hands():
    """7. Subjects hold {K, 2, Joker} and {3, 3}: the Emperor gains 54."""
    state = position(load(players=3, mode="elite"), ["8♦", "K♣ 2♥ Joker", "3♠ 3♦"],
                     current=0)
    state.apply("play 8")
    assert int(state.s[R.POINTS]) == 54 and int(state.s[R.ROUNDS_DONE]) == 1
    rows = state._rounds[-1]
    assert rows[0, 10] == 1 and rows[0, 14] == 54 and list(rows[:, 15]) == [0, 3, 2]
    assert state.log[-2:] == ["round 1 over: Emperor P0", state.log[-1]]
    assert state.log[-1].startswith("round 2: P")


def test_the_last_play_s_penalty_and_deux_are_applied_before_the_round_ends():
    state = position(load(players=3, mode="elite"), ["8♦", "K♣", "3♠ 3♦"], talon="8♣:8",
                     current=0, last_player=2)
    state.apply("play 8")
    # P1 draws the penalty (the pioche's first card, 2♥) before the round ends
    assert int(state.s[R.POINTS]) == 13 + 15 + 3 + 3
    assert list(state._rounds[-1][:, 15]) == [0, 2, 2]
    state = position(load(players=3, mode="elite"), ["2♦", "K♣", "3♠"], talon="8♣:8",
                     current=0, last_player=2)
    state.apply("play 2")
    assert list(state._rounds[-1][:, 15]) == [0, 2, 2]
    assert list(state._rounds[-1][:, 18]) == [0, 1, 1]


def test_a_joker_finish_loses_and_play_goes_on():
    """8. Elite, 3 players: P0 empties his hand with {Joker as Q}: a Subject; P1 and P2 go
    on; P1 goes out naturally and is the Emperor, scoring P2's hand only."""
    state = position(load(players=3, mode="elite"), ["Joker", "K♣ 5♦", "3♠ 3♦ A♥"],
                     talon="J♣:J", current=0, last_player=2)
    state.apply("play Joker as Q")
    assert state.current_player == 1 and int(state.s[R.LEFT]) == 1
    state.apply("play K")
    state.apply("draw")
    state.apply("pass")
    assert state.current_player == 1 and state.talon == []
    state.apply("play 5")
    rows = state._rounds[-1]
    assert list(rows[:, 10]) == [0, 1, 0] and list(rows[:, 13]) == [1, 0, 0]
    # P2 drew 2♥ (the pioche's first card) before passing: 3 + 3 + A + 2
    assert int(state.s[R.POINTS + 1]) == rows[1, 14] == 3 + 3 + 14 + 15


def test_a_joker_finish_with_one_player_left_makes_him_emperor():
    state = position(load(players=2, mode="elite"), ["Joker", "K♣ 5♦"], current=0)
    state.apply("play Joker as 3")
    rows = state._rounds[-1]
    assert list(rows[:, 10]) == [0, 1] and rows[1, 14] == 0


def test_normal_game_ends_after_its_rounds_with_the_last_emperor_winning():
    state = position(load(players=2, num_rounds=1), ["9♦", "K♣ 5♦"], current=0)
    state.apply("play 9")
    result = state.result()
    assert state.is_terminal() and result.ranks == (1, 2) and result.scores == (1.0, 0.0)
    assert result.stats["ending"] == "finished" and result.stats["rounds"] == 1


def test_elite_game_ends_at_the_target():
    state = position(load(players=3, mode="elite", target_points=20), ["8♦", "K♣ 9♦", "3♠"],
                     current=0)
    state.s[R.POINTS + 2] = 15
    state.apply("play 8")
    result = state.result()
    assert result.scores == (25.0, 0.0, 15.0) and result.ranks == (1, 3, 2)


# --- Miroir modes -----------------------------------------------------------------------
def test_miroir_players_leave_until_one_holds_cards():
    game = load(players=3, mode="miroir_normal", num_rounds=1)
    state = position(game, ["8♦", "9♣ 3♦", "3♠ 4♠"], current=0)
    state.apply("play 8")
    assert not state.is_terminal() and state.current_player == 1
    state.apply("play 9")
    state.apply("draw")
    state.apply("pass")
    # P0 has left: every player in play passed since P1's play; P1 leads
    assert state.current_player == 1 and state.talon == []
    state.apply("play 3")
    result = state.result()
    assert result.ranks == (1, 1, 3) and result.scores == (1.0, 1.0, 0.0)
    rows = state._rounds[-1]
    assert list(rows[:, 10]) == [1, 0, 0] and list(rows[:, 11]) == [0, 0, 1]
    assert list(rows[:, 12]) == [1, 2, 0]


def test_a_miroir_joker_finish_makes_the_exclu_at_once():
    state = position(load(players=3, mode="miroir_elite"), ["Joker", "9♣ 3♦", "3♠ 4♠"],
                     current=0)
    state.apply("play Joker as 5")
    rows = state._rounds[-1]
    assert list(rows[:, 11]) == [1, 0, 0] and list(rows[:, 10]) == [0, 0, 0]
    assert rows[0, 14] == 9 + 3 + 3 + 4
    state = position(load(players=3, mode="miroir_elite", miroir_joker_finish_points="zero"),
                     ["Joker", "9♣ 3♦", "3♠ 4♠"], current=0)
    state.apply("play Joker as 5")
    assert state._rounds[-1][0, 14] == 0


def test_miroir_elite_the_exclu_scores_his_hand_and_loses_at_the_target():
    state = position(load(players=2, mode="miroir_elite", target_points=10), ["8♦", "K♣"],
                     current=0)
    state.apply("play 8")
    result = state.result()
    assert result.ranks == (1, 2) and result.scores == (0.0, -13.0)


# --- the exchanges ------------------------------------------------------------------------
def test_elite_emperor_exchange_highest_cards_in_then_his_choices_out():
    game = load(players=3, mode="elite")
    state = position(game, ["8♦", "K♣ 9♦", "3♠ 4♠"], current=0)
    state.apply("play 8")
    s = state.s
    assert state.phase == "give" and state.current_player == 0
    assert int(s[R.HAND_SIZE]) == 9 and [hand_size(state, p) for p in (1, 2)] == [6, 6]
    hands = [state.hand(p) for p in range(3)]
    state.apply(legal(state)[0])                        # the lowest kind, to P1
    assert state.current_player == 0 and hand_size(state, 1) == 7
    state.apply(legal(state)[0])                        # to P2
    assert state.phase == "turn" and [hand_size(state, p) for p in range(3)] == [7, 7, 7]
    assert sorted(sum((state.hand(p) for p in range(3)), [])) == sorted(sum(hands, []))
    check_conservation(state)


def test_miroir_exchange_exclu_gives_highest_to_the_elus_in_their_order():
    game = load(players=3, mode="miroir_normal", num_rounds=2)
    state = position(game, ["8♦", "9♣ 3♦", "3♠ 4♠"], current=0)
    state.apply("play 8")
    state.apply("play 9")
    state.apply("draw")
    state.apply("pass")
    state.apply("play 3")                               # P0, then P1 out; P2 the Exclu
    s = state.s
    assert list(s[R.PREV_ORDER:R.PREV_ORDER + 2]) == [0, 1] and int(s[R.PREV_EXCLU]) == 2
    assert state.phase == "give" and state.current_player == 0
    assert [hand_size(state, p) for p in range(3)] == [8, 8, 5]
    state.apply(legal(state)[0])
    assert state.current_player == 1
    state.apply(legal(state)[-1])
    assert state.phase == "turn" and [hand_size(state, p) for p in range(3)] == [7, 7, 7]
    check_conservation(state)


def test_miroir_elite_makes_both_exchanges_unless_the_variant_says_not():
    for both, gives in ((True, 2 + 2), (False, 2)):
        game = load(players=3, mode="miroir_elite", miroir_elite_emperor_exchange=both)
        state = position(game, ["8♦", "9♣ 3♦", "3♠ 4♠"], current=0)
        state.apply("play 8")
        state.apply("play 9")
        state.apply("draw")
        state.apply("pass")
        state.apply("play 3")
        made = 0
        while state.phase == "give":
            state.apply(legal(state)[0])
            made += 1
        assert made == gives


# --- caps, cycles, errors ----------------------------------------------------------------
def test_a_full_round_of_passes_with_nothing_to_draw_is_a_cycle():
    state = position(load(players=2), ["3♥", "5♥"], stock="", current=0)
    for _ in range(2):
        state.apply("draw")
        state.apply("pass")
    result = state.result()
    assert state.is_terminal() and result.stats["ending"] == "cycle"
    assert result.ranks == (1, 1) and state.log[-1] == "game over (cycle)"
    assert len(state._rounds) == 1 and state._rounds[0][0, 3] == 0


def test_a_round_reaching_max_turns_is_capped():
    state = load(players=2, max_turns=10).new_state(3)
    while not state.is_terminal():
        actions = legal(state)
        state.apply("draw" if "draw" in actions else "pass" if "pass" in actions
                    else actions[0])
    assert state.result().stats["ending"] == "capped"


def test_bad_parameters_name_the_valid_choices():
    with pytest.raises(ValueError, match="valid values: normal, elite, miroir_normal, "
                                         "miroir_elite"):
        load(mode="royal")
    with pytest.raises(ValueError, match="valid values: 0, 1, 2"):
        load(num_jokers=3)
    with pytest.raises(ValueError, match="valid values: 2..6"):
        load(players=7)
    with pytest.raises(ValueError, match="valid values: all_remaining, zero"):
        load(miroir_joker_finish_points="half")


def test_no_result_before_the_end_and_no_action_after():
    state = position(load(players=2, num_rounds=1), ["9♦", "K♣ 5♦"], current=0)
    with pytest.raises(ValueError, match="not over"):
        state.result()
    state.apply("play 9")
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("draw")
