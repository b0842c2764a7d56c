"""Huit américain: every scenario of the spec (the source's worked examples first), each
variant parameter, the shedding core's reshuffle, cap and cycle, and the API's error paths."""

from __future__ import annotations

import pytest

from engines.core.api import IllegalActionError
from engines.games.huit_americain import rules as R
from tests.engines.helpers import assert_refused_unchanged
from tests.engines.shedding.huit_helpers import hand, legal, load, position


# --- the source's worked examples --------------------------------------------------------
def test_ten_chain_from_the_source():
    """"sur un 9 de pique, le même joueur peut poser un 10 de pique, puis un 10 de carreau et
    un roi de carreau"."""
    state = position(load(players=3), ["10♠ 10♦ K♦ 2♣", "3♥", "4♥"], "9♠")
    state.apply("play 10♠")
    assert state.current_player == 0
    state.apply("play 10♦")
    assert state.current_player == 0
    state.apply("play K♦")
    assert state.current_player == 1
    assert state.observation(1).top == "K♦"
    assert hand(state, 0) == ["2♣"]


@pytest.mark.parametrize("drawn, outcome", [("3♠", "wins"), ("8♥", "wins"),
                                            ("10♥", "replays"), ("2♥", "keeps")])
def test_ten_as_the_last_card_from_the_source(drawn, outcome):
    """"il ne me reste en main qu'une seule carte: le 10 de pique ... il faut ensuite que je
    pioche une carte ... Si cette carte est un pique, je le joue et j'ai gagné. Sinon, je la
    garde en main et c'est à mon voisin de gauche de jouer"."""
    state = position(load(players=3), ["10♠", "3♥ 4♥", "5♥ 6♥"], "6♠", stock=f"{drawn} 2♦")
    state.apply("play 10♠")
    assert state.current_player == 0 and legal(state) == ["draw"]
    state.apply("draw")
    if outcome == "wins" and drawn.startswith("8"):
        assert state.phase == "drawn"            # the 8 is played, announcing a suit
        assert legal(state) == [f"play 8♥ → {s}" for s in "♥♦♠♣"]
        state.apply("play 8♥ → ♦")
    if outcome == "wins":
        assert state.is_terminal()
        assert state.result().ranks == (1, 2, 2)
    elif outcome == "replays":
        assert not state.is_terminal() and state.current_player == 0
        assert legal(state) == ["draw"]
    else:
        assert state.current_player == 1 and hand(state, 0) == ["2♥"]


def test_ace_chain_from_the_source():
    """A plays A♠ on Q♠; B draws 2; C plays A♦; A draws 2; B draws 2 with A♣ among them and
    plays it; C and A draw 2; B resumes with a club (or an Ace, or an 8)."""
    game = load(players=3)
    stock = "2♥ 3♥  4♥ 5♥  6♥ A♣  7♥ 9♥  J♥ Q♥  2♦ 3♦"
    state = position(game, ["A♠ 5♣", "4♣ 9♦", "A♦ 6♦"], "Q♠", stock=stock)
    state.apply("play A♠")
    assert state.current_player == 1 and legal(state) == ["draw"]
    state.apply("draw")
    assert hand(state, 1) == ["2♥", "3♥", "9♦", "4♣"]
    assert state.current_player == 2 and legal(state) == ["play A♦"]
    state.apply("play A♦")
    assert state.current_player == 0 and legal(state) == ["draw"]
    state.apply("draw")
    assert state.current_player == 1
    state.apply("draw")                         # draws 6♥ and A♣, and plays the A♣ at once
    assert "A♣" not in hand(state, 1) and state.observation(1).top == "A♣"
    assert int(state.s[R.ATTACKER]) == 1
    assert state.current_player == 2
    state.apply("draw")
    assert state.current_player == 0
    state.apply("draw")
    assert state.current_player == 1 and state.phase == "turn"
    assert legal(state) == ["play 4♣"]          # no Ace and no 8 in hand: the clubs
    s = state.s
    assert list(s[R.PENALTY_CARDS:R.PENALTY_CARDS + 3]) == [4, 4, 2]
    assert int(s[R.ACE_CHAINS]) == 1 and int(s[R.LONGEST_CHAIN]) == 3


@pytest.mark.parametrize("kh_resume, resumes", [("last_kh_player", 2),
                                                ("first_attacker", 0)])
def test_king_of_hearts_chain_from_the_source(kh_resume, resumes):
    """A plays K♥, B draws 4, C plays the other K♥, A draws 4, B draws 4; then C's normal
    turn (A1), or A's as the text literally says."""
    game = load(players=3, kh_resume=kh_resume)
    stock = " ".join(["2♦ 3♦ 4♦ 5♦", "6♦ 9♦ J♦ Q♦", "2♣ 3♣ 4♣ 5♣", "6♣ 9♣"])
    state = position(game, ["K♥ 5♥", "3♠", "K♥ 4♠"], "9♥", stock=stock)
    state.apply("play K♥")
    state.apply("draw")
    assert len(hand(state, 1)) == 5
    assert legal(state) == ["play K♥"]
    state.apply("play K♥")
    state.apply("draw")
    state.apply("draw")
    assert state.current_player == resumes and state.phase == "turn"
    assert state.observation(0).top == "K♥" and int(state.s[R.ATTACK]) == R.NO_ATTACK


# --- the spec's other scenarios ----------------------------------------------------------
def test_matching_suit_or_rank_or_an_eight():
    state = position(load(players=3), ["6♠ 6♥ 2♦ 8♣ K♣ 3♥", "6♣ 2♠ 9♥ 8♦", "3♥"], "6♦")
    plays = legal(state)
    assert plays == ["play 6♥", "play 2♦", "play 6♠"] + [f"play 8♣ → {s}" for s in "♥♦♠♣"]
    state.apply("play 6♠")
    assert legal(state) == ["play 2♠", "play 6♣"] + [f"play 8♦ → {s}" for s in "♥♦♠♣"]


def test_an_eight_changes_the_suit_and_never_follows_an_eight():
    """"sur un roi de trèfle, on pose un 8 de trèfle et on dit: Je change en coeur ... il ne
    doit jamais y avoir deux huit de suite"."""
    state = position(load(players=3), ["8♣ 2♠", "K♦ 8♠ 5♥ 5♣", "3♥"], "K♣")
    state.apply("play 8♣ → ♥")
    assert state.observation(1).suit == "♥"
    assert legal(state) == ["play 5♥"]


def test_seven_skips_the_next_player():
    state = position(load(players=3), ["7♦ 2♠", "3♦", "4♦"], "9♦")
    state.apply("play 7♦")
    assert state.current_player == 2 and int(state.s[R.SKIPS]) == 1


@pytest.mark.parametrize("variant, after", [(False, 1), (True, 0)])
def test_seven_with_two_players_is_off_by_default(variant, after):
    state = position(load(players=2, seven_skip_two_players=variant), ["7♦ 2♠", "3♦"], "9♦")
    state.apply("play 7♦")
    assert state.current_player == after


def test_draw_only_when_unable_and_a_playable_drawn_card_is_played():
    state = position(load(players=3), ["5♦ 2♠", "3♣", "4♣"], "9♦", stock="Q♦ 2♣")
    assert legal(state) == ["play 5♦"]
    state = position(load(players=3), ["2♠ 3♠", "3♣", "4♣"], "9♦", stock="Q♦ 2♣")
    state.apply("draw")
    assert state.observation(0).top == "Q♦" and state.current_player == 1


def test_an_unplayable_drawn_card_is_kept():
    state = position(load(players=3), ["2♠ 3♠", "3♣", "4♣"], "9♦", stock="2♣ Q♦")
    state.apply("draw")
    assert hand(state, 0) == ["2♠", "3♠", "2♣"] and state.current_player == 1


def test_variant_voluntary_draw():
    state = position(load(players=3, voluntary_draw=True), ["5♦ 2♠", "3♣", "4♣"], "9♦",
                     stock="2♣")
    assert legal(state) == ["play 5♦", "draw"]


def test_variant_drawn_card_optional():
    state = position(load(players=3, drawn_card_optional=True), ["2♠ 3♠", "3♣", "4♣"],
                     "9♦", stock="Q♦")
    state.apply("draw")
    assert state.phase == "drawn" and legal(state) == ["play Q♦", "keep"]
    state.apply("keep")
    assert "Q♦" in hand(state, 0) and state.current_player == 1


def test_variant_eight_must_match():
    state = position(load(players=3, eight_must_match=True), ["8♣ 8♦ 2♠", "3♣", "4♣"], "9♦")
    assert legal(state) == [f"play 8♦ → {s}" for s in "♥♦♠♣"]


@pytest.mark.parametrize("optional", [False, True])
def test_a_counter_must_be_played_unless_the_variant(optional):
    state = position(load(players=3, counter_optional=optional), ["A♠ 2♥", "A♦ 3♠", "4♣"],
                     "Q♠", stock="2♦ 3♦")
    state.apply("play A♠")
    assert legal(state) == (["play A♦", "draw"] if optional else ["play A♦"])


def test_winning_on_an_ace_ends_the_game_at_once():
    state = position(load(players=3), ["A♠", "3♣", "4♣"], "Q♠")
    state.apply("play A♠")
    assert state.is_terminal() and state.result().win_shares == (1.0, 0.0, 0.0)
    assert sum(state.result().details["penalty_cards"]) == 0


def test_rank_all_plays_on_to_a_full_ranking():
    state = position(load(players=3, rank_all=True), ["5♠", "6♠", "7♥ 2♣"], "Q♠")
    state.apply("play 5♠")
    assert not state.is_terminal() and state.current_player == 1
    state.apply("play 6♠")
    assert state.is_terminal()
    assert state.result().ranks == (1, 2, 3)


def test_the_stock_is_rebuilt_from_the_discard_pile():
    """A3/A6: the top card stays; the rest of the discard pile, shuffled, is the stock."""
    state = position(load(players=3), ["2♠ 3♠", "3♣", "4♣"], "9♦", under="4♥ 5♥")
    state.apply("draw")
    assert int(state.s[R.RESHUFFLES]) == 1
    assert state.observation(0).top == "9♦"
    assert int(state.s[R.DISCARD_LEN]) == 1 and int(state.s[R.STOCK_LEN]) == 1


def test_a_game_where_nobody_can_move_is_recorded_as_a_cycle():
    state = position(load(players=3), ["2♠", "3♠", "4♠"], "9♦")
    for _ in range(3):
        assert legal(state) == ["draw"]
        state.apply("draw")
    assert state.is_terminal()
    result = state.result()
    assert result.stats["ending"] == "cycle"
    assert result.win_shares == pytest.approx((1 / 3,) * 3)


def test_a_game_reaching_its_cap_is_recorded_as_capped():
    state = position(load(players=3, max_turns=10), ["2♠ 3♠", "3♣ 4♣ 5♣", "4♠"], "9♦",
                     under="2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 9♥ J♥ Q♥ K♦")
    while not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    assert int(state.s[R.DECISIONS]) == 10
    assert state.result().stats["ending"] == "capped"


def test_carte_forgotten_and_called_costs_two_cards():
    game = load(players=3, carte_call=True, carte_forget=1.0)
    state = position(game, ["5♠ 2♥", "3♣", "4♣"], "Q♠", stock="2♦ 3♦")
    state.apply("play 5♠")
    assert state.phase == "carte" and state.current_player == 1
    assert legal(state) == ["call carte", "no call"]
    state.apply("no call")
    assert state.current_player == 2
    state.apply("call carte")
    assert len(hand(state, 0)) == 3 and state.current_player == 1 and state.phase == "turn"
    assert int(state.s[R.CARTE_PENALTIES]) == 1


def test_carte_said_opens_no_window():
    game = load(players=3, carte_call=True, carte_forget=0.0)
    state = position(game, ["5♠ 2♥", "3♣", "4♣"], "Q♠")
    state.apply("play 5♠")
    assert state.phase == "turn" and state.current_player == 1


def test_the_first_card_turned_up_is_ordinary():
    for seed in range(40):
        state = load().new_state(seed)
        assert not R.is_special(int(state.s[R.TOP]))
        assert state.current_player == 0
        assert [len(hand(state, p)) for p in range(4)] == [8] * 4


# --- error paths -------------------------------------------------------------------------
def test_an_illegal_action_is_refused_with_the_legal_ones():
    state = position(load(players=3), ["5♦ 2♠", "3♣", "4♣"], "9♦")
    assert_refused_unchanged(state, "play 2♠", "legal: play 5♦")
    with pytest.raises(IllegalActionError, match="not a huit américain action"):
        state.apply("play the joker")


def test_bad_parameters_name_the_valid_choices():
    with pytest.raises(ValueError, match="valid values: last_kh_player, first_attacker"):
        load(kh_resume="whoever")
    with pytest.raises(ValueError, match="with one deck, players is 2...5"):
        load(num_decks=1, players=6)
    with pytest.raises(ValueError, match="valid keys"):
        load(jokers=2)
