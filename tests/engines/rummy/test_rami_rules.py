"""Le rami: the specification's scenarios (its section 12; the rules are in
``docs/rules/rami.md``), the French source's worked examples first, and the error paths."""

from __future__ import annotations

import pytest

import engines
from engines.core.api import IllegalActionError
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.games.rami import rules as R
from tests.engines.helpers import assert_refused_unchanged
from tests.engines.rummy.rami_helpers import cards, position, texts

FILLER = "2♣ 4♦ 9♠ K♣ 3♥ 5♣ 8♦ A♠"


def run_code(suit: int, low: int, length: int, mask: int = 0) -> int:
    return rummy.encode(rummy.RUN, suit, low, length, mask)


# --- the source's examples ------------------------------------------------------------
def test_five_six_seven_of_spades_laid_and_ten_discarded_wins():
    """"S'il me reste en main trois cartes, le 5, le 6 et le 10 de pique, et que je pioche
    le 7 de pique, je peux poser la suite 5-6-7 et jeter le 10.\""""
    state = position({0: "5♠ 6♠ 10♠"}, phase="draw", opened=(0,), stock="7♠",
                     num_hands=1)
    state.apply("draw stock")
    assert "lay 5♠ 6♠ 7♠" in texts(state)
    state.apply("lay 5♠ 6♠ 7♠")
    assert texts(state) == ["discard 10♠"]
    state.apply("discard 10♠")
    assert state.is_terminal()
    assert state.log[-1] == "hand 1 won by P0"
    assert state.result().ranks[0] == 1


def test_five_six_with_the_seven_cannot_be_laid_with_no_card_left_to_discard():
    """"S'il me reste deux cartes, le 5 et le 6 de pique, et que je pioche le 7 de pique, je
    ne peux pas poser cette suite ... qu'en complétant des combinaisons déjà posées.\""""
    state = position({0: "5♠ 6♠"}, phase="draw", opened=(0,), stock="7♠",
                     table=((1, "8♠ 9♠ 10♠"),))
    state.apply("draw stock")
    legal = texts(state)
    assert "lay 5♠ 6♠ 7♠" not in legal
    assert "lay off 7♠ on meld 0 (low end)" in legal
    state.apply("lay off 7♠ on meld 0 (low end)")
    assert state.table[0]["cards"] == ["7♠", "8♠", "9♠", "10♠"]
    assert "lay off 6♠ on meld 0 (low end)" in texts(state)
    state.apply("lay off 6♠ on meld 0 (low end)")
    assert texts(state) == ["discard 5♠"]           # the last card is discarded, not laid


def test_joker_of_a_run_is_swapped_for_the_card_it_stands_for_and_must_be_laid():
    """"Si la combinaison 10 de carreau-joker-dame de carreau est posée ... je possède le valet
    de carreau, je peux récupérer le joker ... et m'en servir.\""""
    state = position({0: "J♦ 5♠ 6♠ K♣"}, opened=(0,), table=((1, "10♦ Joker Q♦"),))
    legal = texts(state)
    assert "swap the joker at place 1 of meld 0" in legal
    state.apply("swap the joker at place 1 of meld 0")
    assert state.table[0]["cards"] == ["10♦", "J♦", "Q♦"]
    assert "Joker" in state.hand(0)
    legal = texts(state)
    assert legal and not any(t.startswith("discard") for t in legal)
    assert all("Joker" in t for t in legal)
    state.apply("lay 5♠ 6♠ Joker=7♠")
    assert "discard K♣" in texts(state)


def test_joker_of_a_group_cannot_be_taken_back():
    """"Si joker figure dans un brelan ... on ne peut pas dire quelle carte il remplace.\""""
    state = position({0: "10♥ 10♣ 5♠ 6♠"}, opened=(0,), table=((1, "10♦ 10♠ Joker"),))
    assert not any(t.startswith("swap") for t in texts(state))


def test_full_carre_swap_in_its_variant():
    state = position({0: "10♣ 5♠ 6♠ K♣"}, opened=(0,),
                     table=((1, "10♥ 10♦ 10♠ Joker"),), swap_from_full_carre=True)
    assert "swap the joker at place 3 of meld 0" in texts(state)


def test_joker_to_hand_variant_lets_the_joker_stay():
    state = position({0: "J♦ 9♣ K♣"}, opened=(0,), table=((1, "10♦ Joker Q♦"),),
                     joker_to_hand=True)
    state.apply("swap the joker at place 1 of meld 0")
    assert "discard K♣" in texts(state)


# --- the opening: 51 points with a clean run ------------------------------------------
def test_opening_of_51_with_a_clean_run_is_legal_and_48_is_not():
    state = position({0: "10♥ J♥ Q♥ 7♣ 7♦ 7♠ " + "2♣ 4♦ 9♠ K♣ 3♥ 5♣ 8♦ A♠"})
    legal = texts(state)
    assert "lay 10♥ J♥ Q♥" in legal and "lay 7♦ 7♠ 7♣" in legal
    state.apply("lay 7♦ 7♠ 7♣")
    assert not any(t.startswith("discard") for t in texts(state))   # 21 points: not yet
    assert texts(state) == ["lay 10♥ J♥ Q♥"]
    state.apply("lay 10♥ J♥ Q♥")
    assert state.s[R.OPENED] == R.OPENING_NOW
    assert any(t.startswith("discard") for t in texts(state))
    low = position({0: "10♥ J♥ Q♥ 6♣ 6♦ 6♠ " + "2♣ 4♦ 9♠ K♣ 3♥ 5♣ 8♦ A♠"})
    assert all(t.startswith("discard") for t in texts(low))


def test_opening_without_a_clean_run_is_illegal():
    state = position({0: "K♣ K♦ K♠ Q♣ Q♦ Q♥ 5♥ Joker 7♥ 2♠ 9♦ 4♣ A♠ 6♣"})
    assert all(t.startswith("discard") for t in texts(state))
    assert engines.load("rami", opening_needs_clean_run=False)     # the variant exists
    free = position({0: "K♣ K♦ K♠ Q♣ Q♦ Q♥ 5♥ Joker 7♥ 2♠ 9♦ 4♣ A♠ 6♣"},
                    opening_needs_clean_run=False)
    assert "lay K♦ K♠ K♣" in texts(free)


def test_ace_values_in_runs():
    assert rummy.meld_points(run_code(2, 12, 3)) == 31          # Q♠ K♠ A♠
    assert rummy.meld_points(run_code(1, 1, 3)) == 6            # A♦ 2♦ 3♦
    assert rummy.meld_points(rummy.encode(rummy.GROUP, 12, 0b0111, 3, 0)) == 33   # A A A
    assert rummy.meld_points(run_code(0, 10, 3, 0b010)) == 20   # 10♥ Joker Q♥


def test_no_layoff_on_the_opening_turn_unless_the_variant():
    hand = "10♥ J♥ Q♥ 7♣ 7♦ 7♠ 9♠ K♣ 3♥ 5♣ 8♦"
    table = ((1, "2♦ 3♦ 4♦"),)
    for allowed in (False, True):
        state = position({0: hand + " 5♦"}, table=table, layoff_on_opening_turn=allowed)
        state.apply("lay 7♦ 7♠ 7♣")
        state.apply("lay 10♥ J♥ Q♥")
        assert ("lay off 5♦ on meld 0 (high end)" in texts(state)) == allowed


# --- taking the discard ---------------------------------------------------------------
def test_discard_cannot_be_taken_in_the_first_round():
    state = position({1: "5♠ 6♠ 9♦ K♣"}, current=1, phase="draw", turn=1, opened=(1,),
                     discard="7♠")
    assert texts(state) == ["draw stock"]
    later = position({1: "5♠ 6♠ 9♦ K♣"}, current=1, phase="draw", turn=4, opened=(1,),
                     discard="7♠")
    assert texts(later) == ["draw stock", "take discard"]


def test_discard_taken_must_be_laid_this_turn():
    state = position({1: "5♠ 6♠ 9♦ K♣ 8♣"}, current=1, phase="draw", turn=4, opened=(1,),
                     discard="7♠")
    state.apply("take discard")
    legal = texts(state)
    assert legal and all("7♠" in t for t in legal)
    useless = position({1: "5♥ 6♦ 9♦ K♣"}, current=1, phase="draw", turn=4, opened=(1,),
                       discard="7♠")
    assert texts(useless) == ["draw stock"]


def test_unopened_player_takes_the_discard_only_into_an_opening():
    hand = "10♥ J♥ 7♣ 7♦ 7♠ 2♣ 4♦ 9♠ K♣ 3♥ 5♣ 8♦ A♠"
    state = position({1: hand}, current=1, phase="draw", turn=5, discard="Q♥")
    assert "take discard" in texts(state)
    state.apply("take discard")
    assert set(texts(state)) == {"lay 10♥ J♥ Q♥", "lay 7♦ 7♠ 7♣"}   # no discard yet
    short = position({1: hand.replace("7♣ 7♦ 7♠", "6♣ 6♦ 6♠")}, current=1, phase="draw",
                     turn=5, discard="Q♥")
    assert texts(short) == ["draw stock"]


# --- scoring --------------------------------------------------------------------------
def test_hand_count_penalties_and_the_never_laid_hundred():
    state = position({0: "K♥", 1: "A♠ K♠ Joker 7♥", 2: "3♣ 4♦", 3: "9♣ 9♦"},
                     opened=(0, 1), laid={3: 2}, num_hands=1)
    state.apply("discard K♥")
    assert state.is_terminal()
    result = state.result()
    assert result.details["total"] == (0, 78, 100, 18)
    assert result.ranks == (1, 3, 4, 2)


def test_rami_sec_scores_minus_fifty():
    hand = "A♥ K♥ Q♥ J♥ 10♥ 5♠ 5♦ 5♣ 5♥ 8♣ 9♣ 10♣ J♣ K♠"
    state = position({0: hand}, num_hands=1)
    for _ in range(3):
        lays = [t for t in texts(state) if t.startswith("lay")]
        state.apply(max(lays, key=len))
    assert texts(state) == ["discard K♠"]
    state.apply("discard K♠")
    assert state.log[-1] == "hand 1 won by P0 (rami sec)"
    assert state.result().details["total"] == (-50, 100, 100, 100)


def test_rami_sec_only_variant_lays_only_whole_hands():
    hand = "A♥ K♥ Q♥ J♥ 10♥ 5♠ 5♦ 5♣ 5♥ 8♣ 9♣ 10♣ J♣ K♠"
    state = position({0: hand}, rami_sec_only=True, num_hands=1)
    assert any(t.startswith("lay") for t in texts(state))
    partial = position({0: hand.replace("J♣", "2♦")}, rami_sec_only=True)
    assert all(t.startswith("discard") for t in texts(partial))


def test_empty_talon_is_rebuilt_from_the_discard_pile_or_voids_the_hand():
    state = position({0: "5♠ 9♦ K♣"}, phase="draw", stock="", discard="3♣ 4♦ 8♥")
    state.apply("draw stock")
    assert state.s[T.DISCARD_LEN] == 1 and state.s[T.STOCK_LEN] == 1
    assert state.s[T.RESHUFFLES] == 1
    void = position({0: "5♠ 9♦ K♣"}, phase="draw", stock="", discard="3♣ 4♦",
                    stock_out="hand_void", num_hands=1)
    void.apply("draw stock")
    assert void.is_terminal() and void.log[-1] == "hand 1 void"


# --- error paths ----------------------------------------------------------------------
def test_illegal_actions_are_refused_with_the_legal_ones_named():
    state = position({0: "5♠ 6♠ 10♠"}, phase="draw", opened=(0,), stock="7♠")
    with pytest.raises(IllegalActionError, match="legal: draw stock"):
        state.apply("discard 10♠")
    with pytest.raises(IllegalActionError, match="not a rami action"):
        state.apply(3.5)
    assert_refused_unchanged(state, T.DISCARD_ACTION + cards("10♠")[0], "not legal for P0")


@pytest.mark.parametrize("params, expected", [
    ({"max_jokers_per_meld": "3"}, "unlimited"),
    ({"players": 9}, "players"),
    ({"stock_out": "never"}, "reshuffle"),
])
def test_bad_parameters_name_the_valid_choices(params, expected):
    with pytest.raises(ValueError, match=expected):
        engines.load("rami", **params)
