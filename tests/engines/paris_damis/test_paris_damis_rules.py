"""Paris d'amis rules: the spec's numbered scenarios (rules in docs/rules/paris-damis.md) and
the behaviour of every variant parameter, on positions built with
tests/engines/paris_damis/paris_helpers.py.

Expected values come from the spec (and the French source), never from running the engine.
"""

from __future__ import annotations

import numpy as np
import pytest

from engines.core.cards import card_id, card_name
from engines.games.paris_damis import rules as R
from engines.games.paris_damis.params import ParisDamisParams
from tests.engines.paris_damis.paris_helpers import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    bets,
    build,
    cards,
    check_invariants,
    column_value,
    deck,
    face_up,
    hand,
    hand_sizes,
    legal_texts,
    load,
    owner,
    placements,
    play,
    points_value,
)

COLUMN_NAMES = ("hearts", "diamonds", "spades", "clubs")
ALL_COLUMNS = set(COLUMN_NAMES)
# Keep everything a round end does besides the rule under test out of the way.
QUIET = dict(discard="none", mulligan=False)


def pr_of(**params):
    return R.encode_params(ParisDamisParams(**params))


def winner_of(state, suit):
    return int(state.s[R.COLUMN_WINNER + suit])


# ======================================================================================
# Placement legality (spec: "Column of suit X accepts cards of suit X and cards of the
# current trump suit (so the trump column accepts only trumps)")
# ======================================================================================
@pytest.mark.jitless
def test_scenario_1_trump_spades():
    state = build(2, {0: "5♠ 7♥ 9♦ 3♣ A♠"}, trump=SPADES)
    legal = placements(state)
    assert legal["5♠"] == ALL_COLUMNS
    assert legal["A♠"] == ALL_COLUMNS
    assert legal["7♥"] == {"hearts"}
    assert legal["9♦"] == {"diamonds"}
    assert legal["3♣"] == {"clubs"}
    # the spades (trump) column takes only spades
    assert {c for c, cols in legal.items() if "spades" in cols} == {"5♠", "A♠"}


@pytest.mark.parametrize("trump", [HEARTS, DIAMONDS, SPADES, CLUBS])
def test_every_card_under_every_trump(trump):
    state = build(2, {0: range(52)}, trump=trump)
    legal = placements(state)
    assert len(legal) == 52
    for card in range(52):
        suit = card // 13
        expected = ALL_COLUMNS if suit == trump else {COLUMN_NAMES[suit]}
        assert legal[card_name(card)] == expected, card_name(card)
    trump_column = {c for c, cols in legal.items() if COLUMN_NAMES[trump] in cols}
    assert trump_column == {card_name(card_id(r, trump)) for r in range(2, 15)}


def test_place_action_moves_card_and_uses_a_marker():
    state = build(2, {0: "10♥ 4♣", 1: "2♦"})
    play(state, "P0 place 10♥ → hearts")
    s = state.s
    c = card_id(10, HEARTS)
    assert s[R.LOCATION + c] == R.LOC_COLUMN + HEARTS
    assert hand(state, 0) == set(cards("4♣"))
    assert hand_sizes(state) == (1, 1)
    assert s[R.MARKERS_USED + 0] == 1
    assert s[R.COLUMN_TOTAL + 0 * 4 + HEARTS] == 10
    assert state.current_player == 1


@pytest.mark.jitless
def test_scenario_7_no_markers_left_only_bets():
    # P1 bets at once, so P0 keeps the turn and places 12 cards in a row.
    hearts = [card_id(r, HEARTS) for r in range(2, 15)]
    state = build(2, {0: hearts, 1: "2♣"}, starter=1)
    play(state, "P1 bet 1")
    for c in hearts[:12]:
        assert state.current_player == 0
        assert any(t.startswith("place ") for t in legal_texts(state))
        state.apply(f"place {card_name(c)} → hearts")
    assert state.s[R.MARKERS_USED + 0] == 12
    assert hand(state, 0) == {hearts[12]}          # a card left, but no marker
    assert legal_texts(state) == {"bet 1", "bet 2"}


def test_markers_parameter_limits_placements():
    state = build(2, {0: "2♥ 3♥ 4♥ 5♥", 1: "2♣"}, starter=1, markers=3)
    play(state, "P1 bet 1", "P0 place 2♥ → hearts", "P0 place 3♥ → hearts")
    assert any(t.startswith("place") for t in legal_texts(state))
    play(state, "P0 place 4♥ → hearts")
    assert legal_texts(state) == {"bet 1", "bet 2"}


def test_empty_hand_must_bet():
    state = build(3, {0: "", 1: "2♣", 2: "3♣"})
    assert legal_texts(state) == {"bet 1", "bet 2", "bet 3"}


def test_bet_allowed_on_the_very_first_turn():
    state = build(2, {0: "A♥ K♥", 1: "2♣"})
    assert {"bet 1", "bet 2"} <= legal_texts(state)
    play(state, "P0 bet 1")
    assert state.current_player == 1
    assert state.s[R.BET + 0] == 1


# ======================================================================================
# Turn order
# ======================================================================================
@pytest.mark.jitless
def test_turn_order_skips_bettors_and_last_player_places_in_a_row():
    state = build(3, {0: "2♥ 3♥ 4♥", 1: "2♦ 3♦", 2: "2♠ 3♠ 4♠ 5♠ 6♠"}, starter=0)
    play(state,
         "P0 place 2♥ → hearts",
         "P1 bet 2",
         "P2 place 2♠ → spades",
         "P0 place 3♥ → hearts",     # P1 has bet: skipped
         "P2 place 3♠ → spades",
         "P0 bet 2",
         "P2 place 4♠ → spades",     # everyone else has bet: P2 keeps the turn
         "P2 place 5♠ → spades",
         "P2 place 6♠ → spades",
         "P2 bet 2")
    assert state.phase != "turn"     # all have bet: the round is over
    assert state.s[R.ROUND_K] == 2   # P0 hearts, P2 spades


def test_turn_order_from_a_non_zero_starter_wraps_around():
    state = build(4, {p: f"{r}♣" for p, r in enumerate((2, 3, 4, 5))}, starter=2)
    seen = []
    for _ in range(4):
        seen.append(state.current_player)
        state.apply("bet 1")
    assert seen == [2, 3, 0, 1]


# ======================================================================================
# Columns: majority, ties (A4), the spec's scenario 2
# ======================================================================================
SCENARIO_2 = {
    # P0 placed A♥ (12) first; then P1 ...
    "K♥ and 2♥ (13 > 12)": (["P1 place K♥ → hearts", "P0 bet 1", "P1 place 2♥ → hearts"], 1),
    "only K♥ (12 > 11)": (["P1 place K♥ → hearts", "P0 bet 1"], 0),
    "10♥ and 2♥ (tie 12-12)": (["P1 place 10♥ → hearts", "P0 bet 1",
                                "P1 place 2♥ → hearts"], 0),
}


@pytest.mark.jitless
@pytest.mark.parametrize("case", list(SCENARIO_2))
def test_scenario_2_hearts_column(case):
    steps, expected = SCENARIO_2[case]
    state = build(2, {0: "A♥ 5♦", 1: "K♥ 10♥ 2♥ 4♦"}, trump=CLUBS, round_index=3,
                  faces={HEARTS: "Q♥"})
    prize = card_id(12, HEARTS)
    play(state, "P0 place A♥ → hearts", *steps, "P1 bet 1")
    assert winner_of(state, HEARTS) == expected
    assert owner(state, prize) == expected


@pytest.mark.parametrize("rule, expected", [("first-placed", 0), ("last-placed", 1),
                                            ("nobody", -1)])
def test_column_tie_rules(rule, expected):
    # P0 7♥ first; P1 5♥ then 2♥ equalises at 7.
    state = build(2, {0: "7♥", 1: "5♥ 2♥"}, column_tie=rule, faces={HEARTS: "A♥"})
    play(state, "P0 place 7♥ → hearts", "P1 place 5♥ → hearts", "P0 bet 1",
         "P1 place 2♥ → hearts", "P1 bet 1")
    assert winner_of(state, HEARTS) == expected
    assert owner(state, card_id(14, HEARTS)) == (R.OWNER_NONE if expected < 0 else expected)


def test_last_placed_means_the_latest_card_not_the_first():
    # P0 opens (5♥), P1 answers (7♥), P0 equalises with 2♥: P0's latest card is the latest.
    state = build(2, {0: "5♥ 2♥", 1: "7♥"}, column_tie="last-placed")
    play(state, "P0 place 5♥ → hearts", "P1 place 7♥ → hearts", "P0 place 2♥ → hearts",
         "P1 bet 1", "P0 bet 1")
    assert winner_of(state, HEARTS) == 0


def test_first_placed_compares_first_cards_not_latest_ones():
    # P0 2♥, then P1 7♥, then P0 5♥: 7-7; P0's first card came first, P1's card is not his
    # latest (a rule comparing the latest cards would give the column to P1).
    state = build(2, {0: "2♥ 5♥", 1: "7♥"}, column_tie="first-placed")
    play(state, "P0 place 2♥ → hearts", "P1 place 7♥ → hearts", "P0 place 5♥ → hearts",
         "P1 bet 1", "P0 bet 1")
    assert winner_of(state, HEARTS) == 0


def test_three_way_tie_goes_to_earliest_first_card():
    state = build(3, {0: "3♥ 5♥", 1: "8♥", 2: "6♥ 2♥"}, starter=1)
    play(state, "P1 place 8♥ → hearts", "P2 place 6♥ → hearts", "P0 place 3♥ → hearts",
         "P1 bet 1", "P2 place 2♥ → hearts", "P0 place 5♥ → hearts", "P2 bet 1", "P0 bet 1")
    # all three total 8; P1's first card came first
    assert [int(state.s[R.COLUMN_TOTAL + p * 4 + HEARTS]) for p in range(3)] == [8, 8, 8]
    assert winner_of(state, HEARTS) == 1


def test_column_tie_nobody_only_applies_to_ties():
    state = build(2, {0: "7♥", 1: "5♥"}, column_tie="nobody")
    play(state, "P0 place 7♥ → hearts", "P1 place 5♥ → hearts", "P0 bet 1", "P1 bet 1")
    assert winner_of(state, HEARTS) == 0


def test_trump_card_counts_in_the_column_it_is_placed_in():
    # trump ♠: P1's K♠ (11) placed in the hearts column beats P0's 10♥
    state = build(2, {0: "10♥", 1: "K♠"}, trump=SPADES)
    play(state, "P0 place 10♥ → hearts", "P1 place K♠ → hearts", "P0 bet 1", "P1 bet 1")
    assert winner_of(state, HEARTS) == 1
    assert winner_of(state, SPADES) == -1


def test_column_values_all_cards():
    pr = pr_of()
    for c in range(52):
        rank = c % 13 + 2
        expected = {11: 11, 12: 11, 13: 11, 14: 12}.get(rank, rank)
        assert R.column_value(pr, c) == expected == column_value(rank), card_name(c)


def test_points_values_all_cards():
    for suit in range(4):
        values = {r: int(R.points_value(card_id(r, suit))) for r in range(7, 15)}
        assert values == {7: 1, 8: 1, 9: 1, 10: 1, 11: 2, 12: 2, 13: 2, 14: 3}
        assert sum(values.values()) == 13


# ======================================================================================
# k and bets (spec scenario 3)
# ======================================================================================
def scenario_3(p1_bet, **params):
    # 3 players: P0 wins hearts and spades, P2 wins diamonds, clubs stays empty.
    state = build(3, {0: "A♥ K♠ 2♣", 1: "3♣", 2: "5♦"}, trump=HEARTS, **params)
    play(state, "P0 place A♥ → hearts", f"P1 bet {p1_bet}", "P2 place 5♦ → diamonds",
         "P0 place K♠ → spades", "P2 bet 1", "P0 bet 3")
    return state


@pytest.mark.jitless
@pytest.mark.parametrize("p1_bet", [1, 2, 3])
def test_scenario_3_k_and_bets(p1_bet):
    state = scenario_3(p1_bet)
    s = state.s
    assert [winner_of(state, c) for c in range(4)] == [0, 2, 0, -1]
    assert s[R.ROUND_K] == 2
    assert s[R.BET_CORRECT + 1] == (p1_bet == 2)
    assert s[R.BET_CORRECT + 0] == 0 and s[R.BET_CORRECT + 2] == 0  # bets 3 and 1


def test_k_counts_players_not_columns():
    state = build(2, {0: "2♥ 2♦ 2♠ 2♣", 1: "3♣"}, starter=1)
    play(state, "P1 bet 1", "P0 place 2♥ → hearts", "P0 place 2♦ → diamonds",
         "P0 place 2♠ → spades", "P0 place 2♣ → clubs", "P0 bet 2")
    assert [winner_of(state, c) for c in range(4)] == [0, 0, 0, 0]
    assert state.s[R.ROUND_K] == 1
    assert list(state.s[R.BET_CORRECT:R.BET_CORRECT + 2]) == [0, 1]


def test_nobody_places_k_zero_every_bet_wrong():
    state = build(2, {0: "2♥", 1: "3♥"})
    play(state, "P0 bet 1", "P1 bet 2")
    assert state.s[R.ROUND_K] == 0
    assert list(state.s[R.BET_CORRECT:R.BET_CORRECT + 2]) == [0, 0]


def test_k_four_with_four_players():
    state = build(4, {0: "2♥", 1: "2♦", 2: "2♠", 3: "2♣"}, trump=HEARTS)
    play(state, "P0 place 2♥ → hearts", "P1 place 2♦ → diamonds", "P2 place 2♠ → spades",
         "P3 place 2♣ → clubs", "P0 bet 4", "P1 bet 3", "P2 bet 4", "P3 bet 4")
    assert state.s[R.ROUND_K] == 4
    assert list(state.s[R.BET_CORRECT:R.BET_CORRECT + 4]) == [1, 0, 1, 1]


@pytest.mark.parametrize("players, option, expected", [
    (2, "players", {1, 2}), (3, "players", {1, 2, 3}), (4, "players", {1, 2, 3, 4}),
    (2, "four", {1, 2, 3, 4}), (3, "four", {1, 2, 3, 4})])
def test_bet_options(players, option, expected):
    state = build(players, {0: "2♥"}, bet_options=option)
    assert bets(state) == expected


# ======================================================================================
# Discard (A5; spec scenario 4)
# ======================================================================================
@pytest.mark.parametrize("rule, count", [
    ("half-down", lambda h: h // 2), ("half-up", lambda h: (h + 1) // 2),
    ("none", lambda h: 0), ("all", lambda h: h)])
def test_discard_count_arithmetic(rule, count):
    pr = pr_of(discard=rule)
    for h in range(0, 30):
        assert R.discard_count(pr, h) == count(h), (rule, h)


@pytest.mark.jitless
def test_scenario_4_discard_half_down():
    # P0 ends with 5 cards -> discards 2, keeps 3; P1 with 4 -> discards 2, keeps 2.
    state = build(2, {0: "2♥ 3♥ 4♥ 5♥ 6♥", 1: "2♣ 3♣ 4♣ 5♣"}, mulligan=False,
                  correct_bet_cards=0, wrong_bet_cards=0)
    before = {p: hand(state, p) for p in (0, 1)}
    play(state, "P0 bet 1", "P1 bet 1")
    decisions = []
    while state.phase == "discard":
        player = state.current_player
        assert state.observation(player).to_discard > 0
        options = state.legal_actions()
        assert {a.text for a in options} == {f"discard {card_name(c)}"
                                             for c in hand(state, player)}
        decisions.append(player)
        state.apply(options[-1])
    # the next starter (P1, who bet last) discards first, one decision per card
    assert decisions == [1, 1, 0, 0]
    assert hand_sizes(state) == (3, 2)
    for p in (0, 1):
        assert hand(state, p) < before[p]


@pytest.mark.parametrize("rule, discards", [("half-down", 2), ("half-up", 3), ("none", 0),
                                            ("all", 5)])
def test_discard_rules_end_to_end(rule, discards):
    state = build(2, {0: "2♥ 3♥ 4♥ 5♥ 6♥", 1: ""}, discard=rule, mulligan=False,
                  correct_bet_cards=0, wrong_bet_cards=0)
    play(state, "P0 bet 1", "P1 bet 1")      # P1 (empty hand) discards nothing
    n = 0
    while state.phase == "discard":
        assert state.current_player == 0
        state.apply(state.legal_actions()[0])
        n += 1
    assert n == discards
    assert hand_sizes(state) == (5 - discards, 0)
    assert state.phase == "turn"


def test_own_discards_are_chosen_by_the_player():
    state = build(2, {0: "2♥ 3♥ 4♥ A♠", 1: ""}, starter=1, mulligan=False,
                  correct_bet_cards=0, wrong_bet_cards=0)
    play(state, "P1 bet 1", "P0 bet 1", "P0 discard 2♥", "P0 discard 3♥")
    assert hand(state, 0) == set(cards("4♥ A♠"))


def test_no_discard_after_the_last_round():
    state = build(2, {0: "2♥ 3♥ 4♥ 5♥", 1: "2♣ 3♣"}, rounds=3, round_index=2, trump=SPADES)
    play(state, "P0 bet 1", "P1 bet 1")
    assert state.is_terminal()
    assert hand_sizes(state) == (4, 2)   # nothing discarded, nothing dealt


# ======================================================================================
# Recycle and new cards (spec steps 4 and 5; scenario 5)
# ======================================================================================
def test_recycle_returns_placed_and_discarded_cards_and_markers():
    state = build(2, {0: "2♥ 3♥ 4♥ 5♥ 6♥", 1: "2♣ 3♣ 4♣"}, deck_top="A♦ K♦",
                  mulligan=False, correct_bet_cards=0, wrong_bet_cards=0)
    deck_before = set(deck(state))
    play(state, "P0 place 2♥ → hearts", "P1 place 2♣ → clubs", "P0 place 3♥ → hearts",
         "P1 bet 1", "P0 bet 1",   # P0 bet last: discards first
         "P0 discard 4♥", "P1 discard 3♣")
    assert state.phase == "turn"
    expected = deck_before | set(cards("2♥ 3♥ 2♣ 4♥ 3♣"))
    assert set(deck(state)) == expected
    assert state.s[R.DECK_SIZE] == len(expected)
    assert hand(state, 0) == set(cards("5♥ 6♥")) and hand(state, 1) == set(cards("4♣"))
    s = state.s
    assert list(s[R.MARKERS_USED:R.MARKERS_USED + 2]) == [0, 0]
    assert s[R.PLACEMENTS] == 0
    assert not s[R.COLUMN_TOTAL:R.COLUMN_TOTAL + 16].any()
    assert (s[R.COLUMN_FIRST:R.COLUMN_FIRST + 16] == -1).all()
    assert list(s[R.BET:R.BET + 2]) == [0, 0]
    check_invariants(state)


@pytest.mark.parametrize("correct, wrong", [(10, 8), (12, 3), (0, 8)])
def test_new_cards_correct_and_wrong_bets(correct, wrong):
    # k = 1 (P0 wins hearts); P0 bets 1 (correct), P1 bets 2 (wrong)
    state = build(2, {0: "2♥ 3♥", 1: "2♣"}, correct_bet_cards=correct,
                  wrong_bet_cards=wrong, **QUIET)
    play(state, "P0 place 2♥ → hearts", "P1 bet 2", "P0 bet 1")
    assert hand_sizes(state) == (1 + correct, 1 + wrong)


@pytest.mark.jitless
def test_scenario_5_shortage_array_level():
    # deck of 5, owed 8, 10, 8, next starter seat 0 -> 2, 2, 1 and the deck ends empty
    state = build(3, {0: "", 1: "", 2: ""}, rest_to=0, deck_top="2♥ 3♥ 4♥ 5♥ 6♥")
    s = state.s
    for c in cards("2♥ 3♥ 4♥ 5♥ 6♥"):   # take the rest out of P0's hand for a clean count
        assert s[R.LOCATION + c] == R.LOC_DECK
    before = hand_sizes(state)
    s[R.OWED:R.OWED + 3] = (8, 10, 8)
    s[R.LAST_BETTOR] = 0
    R.deal_new_cards(s, state.game.encoded_params)
    gained = tuple(a - b for a, b in zip(hand_sizes(state), before, strict=True))
    assert gained == (2, 2, 1)
    assert s[R.DECK_SIZE] == 0
    # one card at a time from the top: P0 2♥, P1 3♥, P2 4♥, P0 5♥, P1 6♥
    assert s[R.LOCATION + card_id(2, HEARTS)] == R.LOC_HAND + 0
    assert s[R.LOCATION + card_id(3, HEARTS)] == R.LOC_HAND + 1
    assert s[R.LOCATION + card_id(4, HEARTS)] == R.LOC_HAND + 2
    assert s[R.LOCATION + card_id(5, HEARTS)] == R.LOC_HAND + 0
    assert s[R.LOCATION + card_id(6, HEARTS)] == R.LOC_HAND + 1
    assert not s[R.OWED:R.OWED + 3].any()
    # what the deck could not give is kept for the rounds table's cards_short
    assert tuple(s[R.CARDS_SHORT:R.CARDS_SHORT + 3]) == (6, 8, 7)


@pytest.mark.parametrize("starter, expected", [(0, (2, 2, 1)), (1, (1, 2, 2)),
                                               (2, (2, 1, 2))])
def test_shortage_round_robin_from_the_next_starter(starter, expected):
    state = build(3, {0: "", 1: "", 2: ""}, rest_to=0, deck_top="2♥ 3♥ 4♥ 5♥ 6♥")
    s = state.s
    before = hand_sizes(state)
    s[R.OWED:R.OWED + 3] = (8, 10, 8)
    s[R.LAST_BETTOR] = starter
    R.deal_new_cards(s, state.game.encoded_params)
    assert tuple(a - b for a, b in zip(hand_sizes(state), before, strict=True)) == expected


def test_shortage_skips_players_owed_nothing():
    state = build(3, {0: "", 1: "", 2: ""}, rest_to=0, deck_top="2♥ 3♥ 4♥ 5♥")
    s = state.s
    before = hand_sizes(state)
    s[R.OWED:R.OWED + 3] = (0, 1, 8)
    s[R.LAST_BETTOR] = 0
    R.deal_new_cards(s, state.game.encoded_params)
    assert tuple(a - b for a, b in zip(hand_sizes(state), before, strict=True)) == (0, 1, 3)
    assert tuple(s[R.CARDS_SHORT:R.CARDS_SHORT + 3]) == (0, 0, 5)


def test_scenario_5_end_to_end():
    # 3 players, 47 cards in hands, a deck of 3; two cards placed this round -> 5 to deal.
    # P1 bets 1 (correct: only P0 wins a card) -> owed 10; P0 and P2 wrong -> 8 each.
    state = build(3, {0: "7♥ 8♥", 1: "", 2: ""}, starter=1, rest_to=2,
                  deck_top="2♣ 3♣ 4♣", **QUIET)
    assert state.s[R.DECK_SIZE] == 3
    before = hand_sizes(state)
    play(state, "P1 bet 1", "P2 bet 2", "P0 place 7♥ → hearts", "P0 place 8♥ → hearts",
         "P0 bet 3")
    assert state.s[R.ROUND_K] == 1
    after = hand_sizes(state)
    # P0 placed 2 cards; the next starter is P0 (the last bettor)
    assert (after[0] - (before[0] - 2), after[1] - before[1], after[2] - before[2]) == (2, 2, 1)
    assert state.s[R.DECK_SIZE] == 0
    assert state.current_player == 0
    check_invariants(state)


# ======================================================================================
# Hand change (A6)
# ======================================================================================
def to_hand_change(players=2, hands=None, **params):
    """Play a round where everybody bets at once; P0 bets last.  Nothing is discarded or
    dealt, so the hands are unchanged when the hand change starts."""
    params = dict(discard="none", correct_bet_cards=0, wrong_bet_cards=0) | params
    state = build(players, hands, starter=1, **params)
    for _ in range(players):
        state.apply("bet 1")
    return state


@pytest.mark.jitless
def test_exchange_gives_h_minus_two_cards():
    state = to_hand_change(2, {0: "2♥ 3♥ 4♥ 5♥ 6♥ 7♥", 1: "2♣ 3♣"})
    assert state.phase == "hand_change" and state.current_player == 0
    assert legal_texts(state) == {"keep", "exchange"}
    pool = hand(state, 0) | set(deck(state))
    deck_before = state.s[R.DECK_SIZE]
    state.apply("exchange")
    assert hand_sizes(state)[0] == 4
    assert hand(state, 0) <= pool
    assert state.s[R.DECK_SIZE] == deck_before + 2
    assert state.s[R.EXCHANGES + 0] == 1
    # P0 has decided: the turn goes to P1, and P0 is not asked again
    assert state.current_player == 1
    state.apply("keep")
    assert state.phase == "turn" and state.current_player == 0
    assert hand_sizes(state) == (4, 2)
    check_invariants(state)


@pytest.mark.parametrize("penalty, h, expected", [(0, 6, 6), (3, 6, 3), (2, 1, 0)])
def test_mulligan_penalty(penalty, h, expected):
    hearts = " ".join(f"{r}♥" for r in range(2, 2 + h))
    state = to_hand_change(2, {0: hearts, 1: "2♣"}, mulligan_penalty=penalty)
    state.apply("exchange")
    assert hand_sizes(state)[0] == expected


def test_exchange_stops_when_the_deck_runs_out():
    # With a penalty >= 0 the deck always holds the h cards shuffled in, so the guard only
    # matters for the compiled function itself: a negative penalty asks for more.
    state = to_hand_change(2, {0: "2♥ 3♥ 4♥ 5♥", 1: ""}, rest_to=1)
    s = state.s
    assert s[R.DECK_SIZE] == 0
    pr = state.game.encoded_params.copy()
    pr[R.P_MULLIGAN_PENALTY] = -3       # draw h + 3 = 7 from a deck of 4
    s[R.PHASE] = R.EXCHANGE
    R.exchange_hand(s, pr, np.random.default_rng(0))
    assert hand_sizes(state)[0] == 4
    assert s[R.DECK_SIZE] == 0


def test_hand_change_order_from_next_starter_skipping_empty_hands():
    # 3 players, starter 1 -> bets P1, P2, P0: P0 bet last and starts the hand change.
    state = to_hand_change(3, {0: "2♥ 3♥", 1: "2♣ 3♣", 2: ""})
    order = []
    while state.phase == "hand_change":
        order.append(state.current_player)
        state.apply("keep")
    assert order == [0, 1]     # P2 has no cards: no decision
    assert state.phase == "turn" and state.current_player == 0


def test_mulligan_false_skips_the_hand_change():
    state = to_hand_change(2, {0: "2♥ 3♥", 1: "2♣"}, mulligan=False)
    assert state.phase == "turn"
    assert state.s[R.ROUND] == 1


def test_no_hand_change_before_round_1():
    game = load(players=3)
    for seed in range(5):
        state = game.new_state(seed)
        assert state.phase == "turn" and state.s[R.ROUND] == 0


# ======================================================================================
# Next round: starter, trump, points piles, empty column (A3)
# ======================================================================================
@pytest.mark.parametrize("script, last", [
    (("P0 bet 1", "P1 bet 1", "P2 place 2♠ → spades", "P2 bet 2"), 2),
    (("P0 bet 1", "P1 place 2♦ → diamonds", "P2 bet 1", "P1 bet 2"), 1),
])
def test_next_round_started_by_last_bettor_even_if_wrong(script, last):
    state = build(3, {0: "2♥ 3♥", 1: "2♦ 3♦", 2: "2♠ 3♠"}, starter=0, **QUIET)
    play(state, *script)
    assert state.s[R.ROUND_K] == 1
    assert state.s[R.BET_CORRECT + last] == 0          # the last bettor bet 2: wrong
    assert state.phase == "turn" and state.s[R.ROUND] == 1
    assert state.current_player == last and state.s[R.STARTER] == last


def test_trump_cycles_hearts_diamonds_spades_clubs():
    game = load(players=2, rounds=9)
    state = game.new_state(11)
    rng = np.random.default_rng(0)
    trumps = {}
    while not state.is_terminal():
        if state.phase == "turn":
            trumps.setdefault(int(state.s[R.ROUND]), int(state.s[R.TRUMP]))
        acts = state.legal_actions()
        state.apply(acts[rng.integers(len(acts))])
    assert trumps == {r: [HEARTS, DIAMONDS, SPADES, CLUBS][r % 4] for r in range(9)}


@pytest.mark.parametrize("rule", ["stays", "discard"])
def test_empty_column(rule):
    clubs_card = card_id(14, CLUBS)
    state = scenario_3(2, empty_column=rule, faces={CLUBS: clubs_card}, **QUIET)
    assert state.phase == "turn" and state.s[R.ROUND] == 1
    if rule == "stays":
        assert owner(state, clubs_card) == R.OWNER_NONE
        assert face_up(state, CLUBS) == clubs_card
        assert state.s[R.PILE_TOP + CLUBS] == 0
    else:
        assert owner(state, clubs_card) == R.OWNER_DISCARDED
        assert face_up(state, CLUBS) != clubs_card
        assert state.s[R.PILE_TOP + CLUBS] == 1
    # won piles turn their next card either way
    for suit in (HEARTS, DIAMONDS, SPADES):
        assert state.s[R.PILE_TOP + suit] == 1


def test_tie_nobody_with_empty_column_discard_removes_the_card():
    state = build(2, {0: "7♥", 1: "7♦"}, trump=DIAMONDS, column_tie="nobody",
                  empty_column="discard", faces={HEARTS: "K♥"}, **QUIET)
    play(state, "P0 place 7♥ → hearts", "P1 place 7♦ → hearts", "P0 bet 1", "P1 bet 1")
    assert owner(state, card_id(13, HEARTS)) == R.OWNER_DISCARDED
    assert state.s[R.ROUND_K] == 0


def test_exhausted_pile_has_nothing_to_win():
    state = build(2, {0: "7♥ 8♦", 1: "2♣"}, rounds=12, round_index=8, **QUIET)
    state.s[R.PILE_TOP + HEARTS] = 8
    for c in range(card_id(7, HEARTS), card_id(14, HEARTS) + 1):
        state.s[R.POINTS_OWNER + c] = 1
    assert face_up(state, HEARTS) == -1
    play(state, "P0 place 7♥ → hearts", "P1 bet 1", "P0 bet 1")
    assert state.s[R.ROUND_K] == 0        # the hearts column had nothing to win
    assert state.s[R.BET_CORRECT + 0] == 0


# ======================================================================================
# End of game (spec scenario 6 and the final tie-breaks)
# ======================================================================================
SCENARIO_6 = {
    # sorted suit scores P0 (1,2,3,5), P1 (1,2,4,4), P2 (0,4,4,5); every suit holds <= 13
    0: "7♥ J♦ A♠ A♣ J♣",              # ♥1 ♦2 ♠3 ♣5
    1: "A♥ 8♥ Q♦ K♦ J♠ 7♣",           # ♥4 ♦4 ♠2 ♣1
    2: "A♦ 7♦ Q♠ K♠ K♣ Q♣ 8♣",        # ♥0 ♦4 ♠4 ♣5
}


def suit_score_from_spec(names):
    out = [0, 0, 0, 0]
    for c in cards(names):
        out[c // 13] += points_value(c % 13 + 2)
    return out


@pytest.mark.jitless
def test_scenario_6_elimination_ranking():
    vectors = {p: sorted(suit_score_from_spec(t)) for p, t in SCENARIO_6.items()}
    assert vectors == {0: [1, 2, 3, 5], 1: [1, 2, 4, 4], 2: [0, 4, 4, 5]}
    state = build(3, treasures=SCENARIO_6)
    R.final_ranking(state.s, state.game.encoded_params)
    s = state.s
    for p, names in SCENARIO_6.items():
        assert list(s[R.SUIT_SCORE + p * 4:R.SUIT_SCORE + p * 4 + 4]) == \
            suit_score_from_spec(names)
    # P2 out first, then P0; P1 wins
    assert list(s[R.RANK:R.RANK + 3]) == [2, 1, 3]
    assert s[R.FINAL_TIEBREAK] == R.FINAL_CLEAR
    assert s[R.PHASE] == R.OVER


@pytest.mark.parametrize("scoring, expected", [("lowest-suit", [2, 1]), ("total", [1, 2])])
def test_scoring_total_vs_lowest_suit(scoring, expected):
    treasures = {0: "A♦ K♦ 7♦ A♠ K♠ 7♠ A♣ K♣ 7♣",     # (0, 6, 6, 6): total 18
                 1: "J♥ Q♦ Q♠ Q♣"}                    # (2, 2, 2, 2): total 8
    state = build(2, treasures=treasures, scoring=scoring)
    R.final_ranking(state.s, state.game.encoded_params)
    assert list(state.s[R.RANK:R.RANK + 2]) == expected


def test_lowest_suit_ranks_by_the_sorted_suit_scores():
    # suit scores (1, 5, 2, 9) sort to (1, 2, 5, 9), below (9, 3, 3, 1) sorted (1, 3, 3, 9):
    # the second lowest suit decides (2 < 3), whatever order the suits come in.
    treasures = {0: "7♥ A♦ J♦ J♠ A♣ K♣ Q♣ J♣",         # ♥1 ♦5 ♠2 ♣9
                 1: "A♥ K♥ Q♥ J♥ K♦ 8♦ A♠ 10♣"}         # ♥9 ♦3 ♠3 ♣1
    state = build(2, treasures=treasures)
    R.final_ranking(state.s, state.game.encoded_params)
    assert list(state.s[R.SUIT_SCORE:R.SUIT_SCORE + 8]) == [1, 5, 2, 9, 9, 3, 3, 1]
    assert list(state.s[R.RANK:R.RANK + 2]) == [2, 1]


def last_round(players=2, bets_script=(), **params):
    """The last round (8) with P0 and P1 at equal scores once P0 wins 7♥ and P1 wins 7♦."""
    treasures = {0: "8♦", 1: "8♥"}
    hands = {0: "2♥", 1: "2♦"} | {p: "" for p in range(2, players)}
    state = build(players, hands, trump=CLUBS, round_index=7, treasures=treasures,
                  faces={HEARTS: "7♥", DIAMONDS: "7♦"}, **params)
    play(state, "P0 place 2♥ → hearts", "P1 place 2♦ → diamonds", *bets_script)
    assert state.is_terminal()
    return state


@pytest.mark.jitless
@pytest.mark.parametrize("script, winner", [
    (("P0 bet 2", "P1 bet 2"), 0),      # both correct: P0 bet correctly first
    (("P0 bet 1", "P1 bet 2"), 1),      # only P1 correct
    (("P0 bet 2", "P1 bet 1"), 0),      # only P0 correct
])
def test_final_tie_broken_by_earliest_correct_bet(script, winner):
    state = last_round(2, script)
    result = state.result()
    scores = result.details["suit_scores"]
    assert sorted(scores[0]) == sorted(scores[1]) == [0, 0, 1, 1]
    assert result.winners == (winner,)
    assert result.ranks[winner] == 1 and result.ranks[1 - winner] == 2
    assert result.win_shares[winner] == 1.0
    assert result.stats["decided_by_bet_tiebreak"]
    assert not result.stats["shared_win"]


def test_final_tie_earliest_correct_bettor_when_second_bets_first():
    # P1 and P0 both correct; P1's bet came first.  P0 places again before betting.
    treasures = {0: "8♦", 1: "8♥"}
    state = build(2, {0: "2♥ 3♥", 1: "2♦"}, trump=CLUBS, round_index=7,
                  treasures=treasures, faces={HEARTS: "7♥", DIAMONDS: "7♦"})
    play(state, "P0 place 2♥ → hearts", "P1 place 2♦ → diamonds", "P0 place 3♥ → hearts",
         "P1 bet 2", "P0 bet 2")
    assert state.result().winners == (1,)


def test_final_tie_nobody_correct_is_a_shared_win():
    state = last_round(2, ("P0 bet 1", "P1 bet 1"))
    result = state.result()
    assert result.ranks == (1, 1)
    assert result.win_shares == (0.5, 0.5)
    assert result.stats["shared_win"] and not result.stats["decided_by_bet_tiebreak"]


def test_shared_win_with_a_third_player_behind():
    state = last_round(3, ("P2 bet 1", "P0 bet 1", "P1 bet 1"))
    result = state.result()
    assert result.ranks[0] == result.ranks[1] == 1 and result.ranks[2] == 3
    assert result.win_shares == (0.5, 0.5, 0.0)


def test_three_way_shared_win_one_third_each():
    state = build(3, {0: "", 1: "", 2: ""}, round_index=7, trump=CLUBS,
                  treasures={0: "8♥", 1: "8♦", 2: "8♠"})
    play(state, "P0 bet 1", "P1 bet 2", "P2 bet 3")       # k = 0: all wrong
    result = state.result()
    assert result.ranks == (1, 1, 1)
    assert result.win_shares == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert sum(result.win_shares) == pytest.approx(1.0)


def test_correct_bet_tiebreak_ignores_players_not_tied():
    # P2 leads clearly; P0/P1 tie for second: P2 wins outright whatever the bets.
    state = build(3, {0: "2♥", 1: "2♦", 2: ""}, trump=CLUBS, round_index=7,
                  treasures={0: "8♦", 1: "8♥", 2: "A♥ A♦ A♠ A♣"},
                  faces={HEARTS: "7♥", DIAMONDS: "7♦"})
    play(state, "P0 place 2♥ → hearts", "P1 place 2♦ → diamonds", "P2 bet 1", "P0 bet 2",
         "P1 bet 2")
    result = state.result()
    assert result.winners == (2,)
    assert result.ranks[0] == result.ranks[1] == 2
    assert not result.stats["decided_by_bet_tiebreak"]


# ======================================================================================
# Rewards (A1): flat, table by value, table by order
# ======================================================================================
def all_bet_one(**params):
    """3 players, k = 1 (P0 wins hearts), and all three bet 1 (all correct) in the order
    P1, P2, P0.  Returns the new cards each received."""
    state = build(3, {0: "2♥ 3♥", 1: "2♣", 2: "3♣"}, starter=1, **QUIET, **params)
    play(state, "P1 bet 1", "P2 bet 1", "P0 place 2♥ → hearts", "P0 bet 1")
    assert list(state.s[R.BET_CORRECT:R.BET_CORRECT + 3]) == [1, 1, 1]
    return tuple(a - b for a, b in zip(hand_sizes(state), (1, 1, 1), strict=True))


def test_reward_flat():
    assert all_bet_one() == (10, 10, 10)
    assert all_bet_one(correct_bet_cards=7) == (7, 7, 7)


def test_reward_table_by_order():
    # betting order P1, P2, P0 -> entries 12, 10, 9
    got = all_bet_one(correct_bet_cards="12,10,9,8", correct_bet_by="order")
    assert got == (9, 12, 10)


def test_reward_table_by_order_counts_only_correct_bettors():
    # P1 bets 2 (wrong) first; P2 and P0 correct: P2 is the first correct bettor.
    state = build(3, {0: "2♥ 3♥", 1: "2♣", 2: "3♣"}, starter=1, **QUIET,
                  correct_bet_cards="12,10,9,8", correct_bet_by="order", wrong_bet_cards=1)
    play(state, "P1 bet 2", "P2 bet 1", "P0 place 2♥ → hearts", "P0 bet 1")
    assert hand_sizes(state) == (1 + 10, 1 + 1, 1 + 12)


@pytest.mark.parametrize("k, table_entry", [(1, 12), (2, 10), (3, 9), (4, 8)])
def test_reward_table_by_value(k, table_entry):
    # 4 players; the first k seats each win a column; everybody bets k (all correct).
    hands = {p: f"2{'♥♦♠♣'[p]}" for p in range(4)}
    state = build(4, hands, correct_bet_cards="12,10,9,8", wrong_bet_cards=0, **QUIET)
    for p in range(4):
        if p < k:
            play(state, f"P{p} place 2{'♥♦♠♣'[p]} → {COLUMN_NAMES[p]}")
        else:
            play(state, f"P{p} bet {k}")
    while state.s[R.ROUND] == 0:
        state.apply(f"bet {k}")
    assert state.s[R.ROUND_K] == k
    kept = [0] * k + [1] * (4 - k)
    assert [h - kept[p] for p, h in enumerate(hand_sizes(state))] == [table_entry] * 4


def test_reward_table_by_value_is_not_by_order():
    got = all_bet_one(correct_bet_cards="12,10,9,8", correct_bet_by="value")
    assert got == (12, 12, 12)


# ======================================================================================
# Jokers (A7)
# ======================================================================================
@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_jokers_in_the_play_deck(jokers):
    game = load(players=4, jokers=jokers)
    state = game.new_state(5)
    loc = state.s[R.LOCATION:R.LOCATION + R.PLAY_CARDS]
    in_play = [c for c in range(R.PLAY_CARDS) if loc[c] != R.LOC_OUT]
    assert in_play == list(range(52 + jokers))
    assert state.s[R.DECK_SIZE] + sum(hand_sizes(state)) == 52 + jokers


@pytest.mark.jitless
@pytest.mark.parametrize("trump", [HEARTS, CLUBS])
def test_wild_joker_goes_in_any_column_with_joker_value(trump):
    state = build(2, {0: "Joker 2♦", 1: "Joker2 3♦"}, jokers=2, joker_value=5, trump=trump)
    assert placements(state)["Joker"] == ALL_COLUMNS
    play(state, "P0 place Joker → spades", "P1 place Joker2 → hearts")
    assert state.s[R.COLUMN_TOTAL + 0 * 4 + SPADES] == 5
    assert state.s[R.COLUMN_TOTAL + 1 * 4 + HEARTS] == 5


def test_wild_joker_default_value_is_11():
    state = build(2, {0: "Joker", 1: "A♠"}, jokers=1, trump=SPADES)
    play(state, "P0 place Joker → spades", "P1 place A♠ → spades", "P0 bet 1", "P1 bet 1")
    assert state.s[R.COLUMN_TOTAL + SPADES] == 11
    assert winner_of(state, SPADES) == 1         # A♠ 12 beats the joker's 11


def test_wild_joker_high_value_wins():
    state = build(2, {0: "Joker", 1: "A♠"}, jokers=1, joker_value=13, trump=SPADES)
    play(state, "P0 place Joker → spades", "P1 place A♠ → spades", "P0 bet 1", "P1 bet 1")
    assert winner_of(state, SPADES) == 0


@pytest.mark.parametrize("column_tie", ["first-placed", "last-placed", "nobody"])
def test_tiebreak_joker_worth_zero_wins_ties(column_tie):
    # P0 7♥ first; P1 5♥ + 2♥ + Joker (0) = 7: the tie goes to the joker's owner.
    state = build(2, {0: "7♥ 8♥", 1: "5♥ 2♥ Joker"}, jokers=1, joker_rule="tiebreak",
                  column_tie=column_tie)
    play(state, "P0 place 7♥ → hearts")
    assert placements(state)["Joker"] == ALL_COLUMNS
    play(state, "P1 place 5♥ → hearts", "P0 bet 1",
         "P1 place Joker → hearts", "P1 place 2♥ → hearts", "P1 bet 1")
    assert state.s[R.COLUMN_TOTAL + 1 * 4 + HEARTS] == 7
    assert winner_of(state, HEARTS) == 1


def test_tiebreak_joker_does_not_beat_a_higher_total():
    state = build(2, {0: "8♥", 1: "5♥ 2♥ Joker"}, jokers=1, joker_rule="tiebreak")
    play(state, "P0 place 8♥ → hearts", "P1 place 5♥ → hearts", "P0 bet 1",
         "P1 place Joker → hearts", "P1 place 2♥ → hearts", "P1 bet 1")
    assert winner_of(state, HEARTS) == 0


def test_same_tie_without_joker_goes_to_first_placed():
    state = build(2, {0: "7♥", 1: "5♥ 2♥"}, jokers=1, joker_rule="tiebreak")
    play(state, "P0 place 7♥ → hearts", "P1 place 5♥ → hearts", "P0 bet 1",
         "P1 place 2♥ → hearts", "P1 bet 1")
    assert winner_of(state, HEARTS) == 0


def test_two_tiebreak_jokers_fall_back_to_column_tie():
    state = build(2, {0: "Joker 7♥", 1: "Joker2 7♦"}, jokers=2, joker_rule="tiebreak",
                  trump=DIAMONDS)
    play(state, "P0 place Joker → hearts", "P1 place 7♦ → hearts", "P0 place 7♥ → hearts",
         "P1 place Joker2 → hearts", "P0 bet 1", "P1 bet 1")
    assert winner_of(state, HEARTS) == 0            # both 7 with a joker: P0 first


def test_tiebreak_joker_alone_takes_an_uncontested_column():
    state = build(2, {0: "Joker", 1: "2♣"}, jokers=1, joker_rule="tiebreak")
    play(state, "P0 place Joker → diamonds", "P1 bet 1", "P0 bet 1")
    assert state.s[R.COLUMN_TOTAL + DIAMONDS] == 0
    assert winner_of(state, DIAMONDS) == 0


# ======================================================================================
# Setup parameters: first_player, rounds, initial_hand
# ======================================================================================
def test_first_player_starts_and_deal_rotates():
    base = load(players=3).new_state(21)
    moved = load(players=3, first_player=1).new_state(21)
    assert base.current_player == 0 and moved.current_player == 1
    assert moved.s[R.STARTER] == 1
    # same shuffle, dealt from seat 1: seat p+1 gets what seat p got from seat 0
    for p in range(3):
        assert hand(moved, (p + 1) % 3) == hand(base, p)
    assert np.array_equal(moved.s[R.PILE:R.PILE + 32], base.s[R.PILE:R.PILE + 32])


@pytest.mark.parametrize("initial_hand", [0, 5, 13])
def test_initial_hand(initial_hand):
    state = load(players=4, initial_hand=initial_hand).new_state(3)
    assert hand_sizes(state) == (initial_hand,) * 4
    assert state.s[R.DECK_SIZE] == 52 - 4 * initial_hand


def test_setup_piles_and_trump():
    state = load(players=2).new_state(9)
    s = state.s
    assert s[R.TRUMP] == HEARTS and s[R.ROUND] == 0
    for suit in range(4):
        pile = sorted(int(c) for c in s[R.PILE + suit * 8:R.PILE + suit * 8 + 8])
        assert pile == [card_id(r, suit) for r in range(7, 15)]
        assert s[R.PILE_TOP + suit] == 0
        assert face_up(state, suit) // 13 == suit


@pytest.mark.parametrize("rounds", [1, 3])
def test_rounds_parameter(rounds):
    game = load(players=2, rounds=rounds)
    state = game.new_state(2)
    rng = np.random.default_rng(2)
    seen = set()
    while not state.is_terminal():
        seen.add(int(state.s[R.ROUND]))
        assert state.phase != "discard" or state.s[R.ROUND] < rounds - 1
        acts = state.legal_actions()
        state.apply(acts[rng.integers(len(acts))])
    assert seen == set(range(rounds))
    assert state.result().stats["rounds"] == rounds


def test_one_round_game_ends_after_the_bets():
    state = build(2, {0: "2♥ 3♥ 4♥", 1: "5♥"}, rounds=1)
    play(state, "P0 place 2♥ → hearts", "P1 bet 1", "P0 bet 1")
    assert state.is_terminal()
    assert state.result().winners == (0,)          # P0 won a card, P1 nothing
