"""Belote à trois and belote de comptoir, rule by rule: every test scenario of the two specs,
then the other rules and every variant parameter, each on a position built for it."""

from __future__ import annotations

import numpy as np
import pytest

import engines
from engines.core.cards import HEARTS, SPADES, card_id, parse_card
from engines.games.belote import rules as R
from engines.games.belote.summary import ROUND_FIELDS
from tests.engines.tricks.belote_helpers import bidding, build, cards
from tests.engines.tricks.trick_helpers import play, texts

TROIS, COMPTOIR = "belote-a-trois", "belote-comptoir"


def deal_figure(state, name: str) -> list[int]:
    """A column of the last deal's round rows (one value per seat)."""
    return state._rounds[-1][:, ROUND_FIELDS.index(name)].tolist()


def points(state) -> list[int]:
    return deal_figure(state, "points")


def last_trick(taken, tricks, *, deal=None, taker=1, **params):
    """À trois, the last trick of a ♥ deal (dealer P0, P1 leads) with the given points and
    tricks so far; P1 (the taker) wins it with A♠ (+11 + dix de der)."""
    deal = deal or {0: "7♠", 1: "A♠", 2: "9♠"}
    return build(TROIS, deal, taker=taker, dealer=0, trick=7, taken=taken, tricks=tricks,
                 remove_ranks="", **params)


# ======================================================================================
# Belote à trois: the spec's scenarios
# ======================================================================================
def test_scenario_1_the_deck_and_the_deal():
    state = engines.load(TROIS, first_dealer=2).new_state(3)
    s = state.s
    in_play = state.game.encoded_params[R.P_IN_PLAY:R.P_IN_PLAY + R.DECK_CARDS]
    ranks = sorted({c % 13 + 2 for c in np.flatnonzero(in_play)})
    assert in_play.sum() == 24 and ranks == [9, 10, 11, 12, 13, 14]
    assert [state.hand_of(p).__len__() for p in range(3)] == [5, 5, 5]
    where = s[R.LOCATION:R.LOCATION + R.DECK_CARDS]
    assert (where == R.LOC_TURNED).sum() == 1 and (where == R.LOC_STOCK).sum() == 8
    turned = int(s[R.TURNED])
    assert state.current_player == 0 and texts(state) == ["pass", "take"]
    play(state, "pass", "take")
    assert [len(state.hand_of(p)) for p in range(3)] == [8, 8, 8]
    assert turned in state.hand_of(1) and state.s[R.TRUMP] == turned // 13
    assert turned in state.observation(0).face_up[1]       # everyone knows the taker has it
    assert state.current_player == 0 and state.phase == "tricks"


def test_scenario_2_card_values_with_trump_hearts():
    state = build(TROIS, {0: "J♥", 1: "9♥", 2: "A♥"}, contract="♥")
    pts = state.s[R.CARD_POINTS:R.CARD_POINTS + R.DECK_CARDS]
    assert [pts[parse_card(c)] for c in ("J♥", "9♥", "A♥", "J♠", "9♠")] == [20, 14, 11, 2, 0]
    in_play = state.game.encoded_params[R.P_IN_PLAY:R.P_IN_PLAY + R.DECK_CARDS]
    assert pts[in_play == 1].sum() == 152 and pts[in_play == 1].sum() + R.DIX_DE_DER == 162


def test_scenario_3_source_example_made():
    # before the last trick: taker P1 71, defence 70; P1 wins A♠ + der: 92 against 70
    state = last_trick([40, 71, 30], [3, 3, 1])
    play(state, "play A♠", "play 9♠", "play 7♠")
    assert deal_figure(state, "taker_total")[0] == 92
    assert deal_figure(state, "defence_total")[0] == 70
    assert points(state) == [70, 92, 70] and deal_figure(state, "made")[0] == 1


def test_scenario_4_failed_contract():
    state = last_trick([40, 59, 42], [3, 3, 1])          # taker 59 + 21 = 80, defence 82
    play(state, "play A♠", "play 9♠", "play 7♠")
    assert points(state) == [162, 0, 162] and deal_figure(state, "made")[0] == 0


def scenario_5(defender_1: str):
    return build(TROIS, {0: "A♠ 7♦", 1: defender_1, 2: "J♥ 10♣"}, contract="♥", taker=0,
                 dealer=2)


def test_scenario_5_must_trump_and_the_partner_exemption():
    state = scenario_5("K♥ 9♥ A♣")
    play(state, "play A♠")
    assert texts(state) == ["play 9♥", "play K♥"]
    play(state, "play K♥")
    assert texts(state) == ["play J♥", "play 10♣"]


def test_scenario_6_no_exemption_when_the_taker_holds_the_trick():
    state = scenario_5("A♣ 7♣")
    play(state, "play A♠", "play A♣")
    assert texts(state) == ["play J♥"]


def test_scenario_6_variant_without_the_exemption():
    state = build(TROIS, {0: "A♠ 7♦", 1: "K♥ 9♥", 2: "J♥ 10♣"}, contract="♥", taker=0,
                  dealer=2, defender_partner_exemption=False)
    play(state, "play A♠", "play K♥")
    assert texts(state) == ["play J♥"]


def test_scenario_7_belote_rebelote_counts_even_when_the_taker_fails():
    deal = {0: "A♠ 8♠", 1: "K♥ Q♥", 2: "7♠ 9♠"}
    state = build(TROIS, deal, taker=1, dealer=0, trick=6, taken=[90, 0, 40],
                  tricks=[4, 0, 2], remove_ranks="")
    play(state, "play K♥", "play 7♠", "play A♠", "play Q♥", "play 9♠", "play 8♠")
    assert deal_figure(state, "belote") == [0, 1, 0] and deal_figure(state, "made")[0] == 0
    assert points(state) == [162, 20, 162]


# ======================================================================================
# Belote à trois: bidding and the deal
# ======================================================================================
def test_second_round_names_another_suit_and_completes_the_hands():
    deal = {0: "A♠ K♠ 10♣ 9♣ A♦", 1: "J♥ 9♥ A♥ Q♣ J♣", 2: "Q♠ J♠ 9♠ K♦ Q♦"}
    state = bidding(TROIS, deal, dealer=2, turned="10♠",
                    stock="A♣ K♣ J♦ 10♦ 9♦ K♥ Q♥ 10♥")
    play(state, "pass", "pass", "pass")
    assert state.s[R.BID_ROUND] == 2
    assert texts(state) == ["pass", "take ♥", "take ♦", "take ♣"]
    play(state, "pass", "take ♥")
    assert state.s[R.TRUMP] == HEARTS and state.s[R.TAKER] == 1
    # from the dealer's left: P0 3 cards, the taker the 10♠ + 2, P2 3
    assert set(state.hand_of(0)) >= set(cards("A♣ K♣ J♦"))
    assert set(state.hand_of(1)) >= set(cards("10♠ 10♦ 9♦"))
    assert set(state.hand_of(2)) >= set(cards("K♥ Q♥ 10♥"))
    assert state.observation(0).bids[:3] == (0, 2, 0)


def test_round2_any_suit_allows_the_turned_suit():
    state = engines.load(TROIS, round2_any_suit=True, first_dealer=0).new_state(1)
    play(state, "pass", "pass", "pass")
    assert len(texts(state)) == 5


def test_everyone_passing_twice_redeals_by_the_next_dealer():
    state = engines.load(TROIS, first_dealer=0).new_state(4)
    play(state, *["pass"] * 6)
    assert state.s[R.DEALER] == 1 and state.s[R.REDEALS] == 1 and state.phase == "bidding"
    assert state.log[-2] == "deal 1 ends: everyone passed"
    assert state.log[-1].startswith("deal 2: P1 deals")


def test_max_deals_aborts_the_game():
    state = engines.load(TROIS, first_dealer=0, max_deals=2).new_state(4)
    play(state, *["pass"] * 12)
    assert state.is_terminal() and state.result().stats["aborted"]
    assert state.result().stats["redeals"] == 2 and state.result().ranks == (1, 1, 1)


# ======================================================================================
# Belote à trois: the tricks
# ======================================================================================
def test_trump_led_must_be_beaten_even_when_the_partner_holds_it():
    state = build(TROIS, {0: "Q♥ 7♠", 1: "J♥ 8♥ A♠", 2: "9♥ 7♥ K♠"}, taker=1, dealer=2,
                  leader=1, remove_ranks="")
    play(state, "play 8♥")
    assert texts(state) == ["play 9♥"]                     # monter
    play(state, "play 9♥")
    assert texts(state) == ["play Q♥"]                     # a trump, even below the 9♥


def test_void_player_must_overtrump_else_undertrump():
    deal = {0: "A♠ 8♠", 1: "9♥ 8♦", 2: "J♥ 7♥ 10♣"}
    state = build(TROIS, deal, taker=2, dealer=2, remove_ranks="")
    play(state, "play A♠", "play 9♥")
    assert texts(state) == ["play J♥"]                     # overtrump
    state = build(TROIS, {0: "A♠ 8♠", 1: "J♥ 8♦", 2: "9♥ 7♥ 10♣"}, taker=2, dealer=2,
                  remove_ranks="")
    play(state, "play A♠", "play J♥")
    assert texts(state) == ["play 7♥", "play 9♥"]          # undertrump is compulsory


def test_undertrump_variant_frees_the_player():
    state = build(TROIS, {0: "A♠ 8♠", 1: "J♥ 8♦", 2: "9♥ 7♥ 10♣"}, taker=2, dealer=2,
                  remove_ranks="", must_undertrump=False)
    play(state, "play A♠", "play J♥")
    assert texts(state) == ["play 7♥", "play 9♥", "play 10♣"]


def test_following_a_plain_suit_need_not_beat():
    state = build(TROIS, {0: "A♠ 8♠", 1: "10♠ 7♠ J♥", 2: "K♠ 9♣"}, taker=0, dealer=2)
    play(state, "play A♠")
    assert texts(state) == ["play 7♠", "play 10♠"]


def test_capot_by_the_taker():
    state = last_trick([0, 142, 0], [0, 7, 0])
    play(state, "play A♠", "play 9♠", "play 7♠")
    assert deal_figure(state, "capot")[0] == 1 and points(state) == [0, 250, 0]


def test_capot_by_the_defence_and_fail_split_shared():
    deal = {0: "A♠", 1: "7♠", 2: "9♠"}
    state = last_trick([80, 0, 61], [4, 0, 3], deal=deal, fail_split="shared")
    play(state, "play 7♠", "play 9♠", "play A♠")
    assert deal_figure(state, "capot")[0] == -1 and points(state) == [125, 0, 125]


def test_fail_split_shared_halves_162():
    state = last_trick([40, 59, 42], [3, 3, 1], fail_split="shared")
    play(state, "play A♠", "play 9♠", "play 7♠")
    assert points(state) == [81, 0, 81]


def test_a_tie_is_dedans_by_default():
    state = last_trick([40, 60, 41], [3, 3, 1])          # 81 each
    play(state, "play A♠", "play 9♠", "play 7♠")
    assert points(state) == [162, 0, 162]


def test_litige_holds_the_takers_points_for_the_next_winner():
    state = last_trick([40, 60, 41], [3, 3, 1], tie_rule="litige")
    play(state, "play A♠", "play 9♠", "play 7♠")
    assert points(state) == [81, 0, 81] and state.s[R.HELD] == 81
    # the next deal: P1 takes again and makes it: he also scores the 81 held
    nxt = last_trick([40, 71, 30], [3, 3, 1], tie_rule="litige")
    nxt.s[R.HELD] = 81
    play(nxt, "play A♠", "play 9♠", "play 7♠")
    assert points(nxt) == [70, 92 + 81, 70] and nxt.s[R.HELD] == 0


def test_announcements_only_the_best_side_scores():
    state = bidding(TROIS, {0: "A♠ K♠ Q♠ 9♦ 10♦", 1: "J♣ J♦ J♥ 9♥ A♥",
                            2: "K♣ Q♣ A♦ K♦ Q♦"}, dealer=2, turned="J♠",
                    stock="10♣ 9♣ 10♥ K♥ Q♥ A♣ 10♠ 9♠", annonces=True)
    play(state, "pass", "take")          # P1 takes the J♠ (+ K♥ Q♥): carré of J, A K Q J♥
    s = state.s
    assert s[R.ANNONCE + 1] == 200 + 50
    assert s[R.ANNONCE + 0] == 20 and s[R.ANNONCE + 2] == 40    # A K Q♠; A K Q♦, A K Q♣
    assert R.annonce_bonus(s, state.game.encoded_params, True) == 250
    assert R.annonce_bonus(s, state.game.encoded_params, False) == 0


def test_the_game_ends_at_the_target_with_a_single_leader():
    state = last_trick([40, 71, 30], [3, 3, 1], target=1000, scores=[900, 920, 900])
    play(state, "play A♠", "play 9♠", "play 7♠")                   # 970, 1012, 970
    assert state.is_terminal() and state.result().winners == (1,)
    short = last_trick([40, 71, 30], [3, 3, 1], target=1000, scores=[900, 900, 900])
    play(short, "play A♠", "play 9♠", "play 7♠")                    # 992 at most
    assert not short.is_terminal()
    tie = last_trick([40, 71, 30], [3, 3, 1], target=1000, scores=[930, 908, 900])
    play(tie, "play A♠", "play 9♠", "play 7♠")
    assert not tie.is_terminal()                                    # 1000, 1000: play on


# ======================================================================================
# Belote de comptoir: the spec's scenarios
# ======================================================================================
def test_comptoir_scenario_1_two_players_one_card():
    state = bidding(COMPTOIR, {0: "J♥", 1: "A♠"}, dealer=1, cards_per_player="1")
    play(state, "bid 30", "pass", "trump ♥", "play J♥", "play A♠")
    assert deal_figure(state, "taker_total")[0] == 41 and points(state) == [1, 0]


def test_comptoir_scenario_2_a_failed_bid_gives_everyone_else_a_point():
    state = build(COMPTOIR, {0: "A♠", 1: "K♠", 2: "10♠"}, taker=0, dealer=2, trick=1,
                  taken=[10, 0, 0], tricks=[1, 0, 0], high_bid=25)
    play(state, "play A♠", "play K♠", "play 10♠")           # 10 + 25 + 10 = 45 >= 25
    assert points(state) == [1, 0, 0]
    state = build(COMPTOIR, {0: "K♠", 1: "A♠", 2: "10♠"}, taker=0, dealer=2, trick=1,
                  taken=[21, 0, 0], tricks=[1, 0, 0], high_bid=25)
    play(state, "play K♠", "play A♠", "play 10♠")           # 21 < 25
    assert points(state) == [0, 1, 1]


def test_comptoir_scenario_3_tout_atout_must_beat():
    state = build(COMPTOIR, {0: "10♠ 7♣", 1: "9♠ Q♠", 2: "8♣ 7♦"}, contract="TA", taker=0,
                  dealer=2)
    play(state, "play 10♠")
    assert texts(state) == ["play 9♠"]
    play(state, "play 9♠")
    assert texts(state) == ["play 7♦", "play 8♣"]           # void: any card


def test_comptoir_scenario_4_sans_atout():
    state = build(COMPTOIR, {0: "10♦ 7♣", 1: "J♠ A♣", 2: "A♦ 8♣"}, contract="SA", taker=0,
                  dealer=2)
    play(state, "play 10♦")
    assert texts(state) == ["play J♠", "play A♣"]
    play(state, "play A♣", "play A♦")
    assert state.s[R.TRICK_WINNER] == 2


def test_comptoir_scenario_5_bids_must_rise():
    state = engines.load(COMPTOIR, players=3, first_dealer=0,
                         cards_per_player="3").new_state(0)
    play(state, "bid 20")
    assert "bid 20" not in texts(state) and "bid 21" in texts(state)
    with pytest.raises(engines.core.api.IllegalActionError, match="bid 20 is not legal"):
        state.apply("bid 20")
    play(state, "bid 21")
    assert state.observation(0).high_bid == 21


def test_comptoir_scenario_6_n_times_k_at_most_32():
    with pytest.raises(ValueError, match=r"n \* k <= 32\); valid values: 1..4"):
        engines.load(COMPTOIR, players=7, cards_per_player="5")
    state = engines.load(COMPTOIR, players=7, first_dealer=0).new_state(0)
    assert state.phase == "choosing k" and state.current_player == 0
    assert texts(state) == ["deal 1", "deal 2", "deal 3", "deal 4"]
    play(state, "deal 4")
    assert [len(state.hand_of(p)) for p in range(7)] == [4] * 7
    assert state.current_player == 1


# ======================================================================================
# Belote de comptoir: the other rules and variants
# ======================================================================================
def test_comptoir_everyone_passing_redeals():
    state = engines.load(COMPTOIR, players=3, first_dealer=0,
                         cards_per_player="2").new_state(0)
    play(state, "pass", "pass", "pass")
    assert state.s[R.DEALER] == 1 and state.s[R.REDEALS] == 1


def test_comptoir_single_round_ends_with_the_dealer():
    state = engines.load(COMPTOIR, players=3, first_dealer=0,
                         cards_per_player="2").new_state(0)
    play(state, "bid 10", "pass", "pass")
    assert state.phase == "contract" and state.current_player == 1
    assert texts(state) == ["trump ♥", "trump ♦", "trump ♠", "trump ♣"]


def test_comptoir_open_auction_goes_round_until_the_others_pass():
    state = engines.load(COMPTOIR, players=3, first_dealer=0, cards_per_player="2",
                         auction="open", allow_sa=True, allow_ta=True).new_state(0)
    play(state, "bid 10", "pass", "bid 12", "bid 15", "pass")
    assert state.phase == "bidding" and state.current_player == 0
    play(state, "pass")
    assert state.phase == "contract" and state.current_player == 1
    assert texts(state)[-2:] == ["sans atout", "tout atout"]


def test_comptoir_no_partner_exemption_by_default():
    deal = {0: "A♠ 7♦", 1: "K♥ 9♥ A♣", 2: "J♥ 10♣ 8♦"}
    state = build(COMPTOIR, deal, taker=0, dealer=2)
    play(state, "play A♠", "play K♥")
    assert texts(state) == ["play J♥"]                      # must overtrump
    state = build(COMPTOIR, deal, taker=0, dealer=2, defenders_partners=True)
    play(state, "play A♠", "play K♥")
    assert texts(state) == ["play J♥", "play 8♦", "play 10♣"]


def test_comptoir_belote_counts_for_the_declarer_only():
    state = build(COMPTOIR, {0: "K♥ Q♥", 1: "7♠ 8♠"}, taker=0, dealer=1, high_bid=35)
    play(state, "play K♥", "play 7♠", "play Q♥", "play 8♠")
    assert deal_figure(state, "taker_total")[0] == 4 + 3 + 10 + 20 and points(state) == [1, 0]
    state = build(COMPTOIR, {0: "K♥ Q♥", 1: "7♠ 8♠"}, taker=0, dealer=1, high_bid=35,
                  belote_rebelote=False, dix_de_der=False)
    play(state, "play K♥", "play 7♠", "play Q♥", "play 8♠")
    assert deal_figure(state, "taker_total")[0] == 7 and points(state) == [0, 1]


@pytest.mark.parametrize("classic, sa, ta", [(False, 152, 152), (True, 120, 248)])
def test_comptoir_sa_and_ta_tables(classic, sa, ta):
    game = engines.load(COMPTOIR, classic_sa_ta=classic, allow_ta=True)
    assert game.params.highest_bid() == (258 if classic else 182)
    for contract, total in (("SA", sa), ("TA", ta)):
        state = build(COMPTOIR, {0: "7♠", 1: "8♠"}, contract=contract, taker=0,
                      classic_sa_ta=classic, dealer=1)
        pts = state.s[R.CARD_POINTS:R.CARD_POINTS + R.DECK_CARDS]
        assert pts.sum() == total


def test_comptoir_blind_cards_are_seen_after_the_bidding():
    state = engines.load(COMPTOIR, players=3, first_dealer=0, cards_per_player="3",
                         visibility="blind").new_state(1)
    assert state.observation(1).hand == () and state.observation(1).unseen_own == 3
    play(state, "bid 10", "pass", "pass")
    assert len(state.observation(1).hand) == 3


def test_comptoir_partial_modes():
    state = engines.load(COMPTOIR, players=3, first_dealer=0, cards_per_player="3",
                         visibility="partial_blind", visibility_j=2).new_state(1)
    assert len(state.observation(1).hand) == 1
    state = engines.load(COMPTOIR, players=3, first_dealer=0, cards_per_player="3",
                         visibility="partial_open", visibility_j=1).new_state(1)
    seen = state.observation(0).face_up
    assert len(seen[1]) == 1 and len(seen[2]) == 1 and seen[1][0] in state.hand_of(1)


def test_comptoir_blind_play_lets_the_engine_pick_a_legal_card():
    state = engines.load(COMPTOIR, players=2, first_dealer=1, cards_per_player="3",
                         visibility="blind", blind_play=True).new_state(2)
    play(state, "bid 5", "pass", "trump ♠")
    assert texts(state) == ["play blind"]
    first = state.s[R.DECK:R.DECK + 6:2].tolist()            # P0's cards in dealt order
    play(state, "play blind")
    assert state.s[R.TRICK_CARD] == first[0]
    assert texts(state) == ["play blind"]


def test_comptoir_random_k_stays_within_bounds():
    game = engines.load(COMPTOIR, players=8, cards_per_player="random")
    sizes = {int(game.new_state(seed).s[R.CARDS]) for seed in range(30)}
    assert sizes == {1, 2, 3, 4}


def test_card_ids_are_engines_cards():
    assert parse_card("J♥") == card_id(11, HEARTS) and parse_card("A♠") == card_id(14, SPADES)


def test_litige_pot_goes_to_the_defence_when_the_next_contract_fails():
    state = last_trick([40, 59, 42], [3, 3, 1], tie_rule="litige", fail_split="shared")
    state.s[R.HELD] = 81
    play(state, "play A♠", "play 9♠", "play 7♠")
    assert points(state) == [81 + 40, 0, 81 + 40] and state.s[R.HELD] == 0


def test_announcements_equal_best_score_for_neither_side():
    state = build(TROIS, {0: "A♠ K♠ Q♠", 1: "A♣ K♣ Q♣", 2: "7♦"}, taker=1, dealer=0,
                  remove_ranks="", contract="♥")
    for seat in range(3):
        R.announce(state.s, seat)
    pr = state.game.encoded_params
    assert state.s[R.ANNONCE + 0] == state.s[R.ANNONCE + 1] == 20
    assert R.annonce_bonus(state.s, pr, True) == R.annonce_bonus(state.s, pr, False) == 0
    R.set_contract(state.s, pr, SPADES)                    # now P0's tierce is in trumps
    for seat in range(3):
        R.announce(state.s, seat)
    assert R.annonce_bonus(state.s, pr, False) == 20 and R.annonce_bonus(state.s, pr, True) == 0
