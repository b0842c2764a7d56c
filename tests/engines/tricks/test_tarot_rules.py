"""Tarot rule scenarios: the test scenarios of the specs (rules in
``docs/rules/tarot-lorrain.md`` and ``docs/rules/tarot-tare.md``), and the
FFT rules they write out (obligations, the Excuse, the dog and the écart, contract thresholds by
oudlers, multipliers, petit au bout, poignée, chelem, the called King at five)."""

from __future__ import annotations

import numpy as np
import pytest

import engines
from engines.core.api import IllegalActionError
from engines.core.cards import tarot_card_name
from engines.games.tarot import rules as R
from tests.engines.tricks.tarot_helpers import build, cards, points_of
from tests.engines.tricks.trick_helpers import play, texts

LOW = "2♥ 3♥ 4♥ 5♥"                     # four 0.5 cards for a last trick


def pile(half_points: int, oudlers: int, exclude: str = LOW) -> str:
    """Card names worth exactly ``half_points`` half points, with ``oudlers`` oudlers (the
    21 and the Excuse first, the Petit last), avoiding ``exclude``."""
    taken = set(cards(exclude))
    chosen = [c for c in (R.TWENTY_ONE, R.EXCUSE, R.PETIT) if c not in taken][:oudlers]
    left = half_points - 9 * oudlers
    for card in sorted(range(R.DECK_CARDS), key=lambda c: -int(R.CARD_POINTS[c])):
        value = int(R.CARD_POINTS[card])
        if card in taken or card in chosen or R.is_oudler(card) or value > left:
            continue
        chosen.append(card)
        left -= value
    assert left == 0
    return " ".join(tarot_card_name(c) for c in chosen)


def last_trick(slug="tarot", *, taker_pile, contract=R.GARDE, hands=None, leader=1,
               **kwargs):
    """A 4-player deal at its last trick: the taker (seat 0) has ``taker_pile`` won, the
    defence (seat 1) everything else but the four cards of ``hands`` (default: the low
    hearts, seat 1 leading and winning with 5♥); the earlier tricks split 8 to the taker, 9
    to the defence unless ``tricks`` says otherwise."""
    hands = hands or {1: "5♥", 2: "3♥", 3: "4♥", 0: "2♥"}
    kwargs.setdefault("tricks", {0: 8, 1: 9})
    return build(slug, hands, leader=leader, contract=contract, won={0: taker_pile},
                 **kwargs)


def finish(state):
    """Play the current trick with each seat's only card."""
    while not state.is_terminal() and state.s[R.PHASE] == R.PLAYING:
        state.apply(state.legal_actions()[0])
    return state


def stake_after(state):
    finish(state)
    return int(state.s[R.STAKE])


# ======================================================================================
# Components
# ======================================================================================
def test_the_deck_has_78_cards_worth_91_points_and_three_oudlers():
    assert R.DECK_CARDS == 78 and R.CARD_POINTS.sum() == 182
    assert (R.CARD_SUIT == R.TRUMP).sum() == 21 and R.CARD_SUIT[R.EXCUSE] < 0
    assert [R.is_oudler(c) for c in range(78)].count(True) == 3
    assert points_of("R♥ D♥ C♥ V♥ 10♥ T1 T2 Excuse") == 4.5 + 3.5 + 2.5 + 1.5 + 0.5 + 4.5 \
        + 0.5 + 4.5


@pytest.mark.parametrize("players, each, dog", [(3, 24, 6), (4, 18, 6), (5, 15, 3)])
def test_the_deal_gives_each_player_his_share_and_the_rest_to_the_dog(players, each, dog):
    """Lorrain scenario 1 (the deal) and taré scenario 1: the dog is aside."""
    for slug in ("tarot", "tarot-tare"):
        state = engines.load(slug, players=players, petit_sec_annul=False) if slug == "tarot" \
            else engines.load(slug, players=players)
        state = state.new_state(5)
        assert [len(state.hand_of(p)) for p in range(players)] == [each] * players
        where = state.s[R.LOCATION:R.LOCATION + R.DECK_CARDS]
        assert (where == R.LOC_DOG).sum() == dog


# ======================================================================================
# Obligations (A6; Lorrain scenario 2, taré scenarios 2 and 3)
# ======================================================================================
# (game, hands, the trick so far, P0 leading, where the other cards lie, the legal cards)
OBLIGATIONS = [
    pytest.param("tarot", {0: "1♠ 2♠", 1: "T9 T10", 2: "T5 T12", 3: "4♠ 5♠"}, "1♠ T9", {},
                 ["play T12"], id="out-of-the-suit-led-one-must-overtrump"),
    pytest.param("tarot", {0: "1♠ 2♠", 1: "T9 T10", 2: "T5 Excuse", 3: "4♠ 5♠"}, "1♠ T9", {},
                 ["play T5", "play Excuse"],
                 id="unable-to-overtrump-one-plays-a-lower-trump-or-the-excuse"),
    pytest.param("tarot", {0: "1♠ 2♠", 1: "T9 T10", 2: "T5 2♥", 3: "4♠ 5♠"}, "1♠ T9", {},
                 ["play T5"], id="unable-to-overtrump-one-plays-a-lower-trump"),
    # taré scenario 2: T9 led; T5, T12 and 2♥ in hand: only the 12
    pytest.param("tarot-tare", {0: "T9 1♣ 6♥", 1: "T5 T12 2♥", 2: "3♥ 4♥ 5♥", 3: "7♥ 8♥ 9♥"},
                 "T9", {"rest_to": "dog"}, ["play T12"],
                 id="trump-led-must-be-overtrumped-when-able"),
    # taré scenario 3: ♦ led, no ♦, T3 and R♠ in hand: only the 3
    pytest.param("tarot-tare", {0: "2♦ 2♣", 1: "T3 R♠", 2: "3♦ 3♣", 3: "4♦ 4♣"}, "2♦",
                 {"rest_to": "dog"}, ["play T3"], id="a-void-player-must-trump-even-low"),
    pytest.param("tarot", {0: "2♦ 2♣", 1: "5♦ T21", 2: "3♦ 3♣", 3: "4♦ 4♣"}, "2♦", {},
                 ["play 5♦"], id="holding-the-suit-led-one-must-follow-it"),
    pytest.param("tarot", {0: "Excuse 2♣", 1: "5♦ 6♣", 2: "3♦ 3♣", 3: "4♦ 4♣"}, "Excuse 5♦",
                 {}, ["play 3♦"], id="after-the-excuse-is-led-the-next-card-fixes-the-suit"),
]


@pytest.mark.parametrize("slug, hands, trick, rest, legal", OBLIGATIONS)
def test_the_obligations_leave_only_the_legal_cards(slug, hands, trick, rest, legal):
    state = build(slug, hands, leader=0, trick_cards=trick, **rest)
    assert texts(state) == legal


def test_cards_read_with_letters_for_suits_and_faces():
    game = engines.load("tarot")
    assert game.action("play Rs").text == "play R♠"
    assert game.action("discard 3h").text == "discard 3♥"
    assert game.action("play t21").text == "play T21"
    assert game.action("play excuse").text == "play Excuse"
    assert game.action("call Kd").text == "call R♦"
    for text in ("call T5", "play 11h", "discard Zs"):
        with pytest.raises(IllegalActionError, match="examples"):
            game.action(text)


def test_an_illegal_card_is_refused_with_the_legal_ones_named():
    state = build("tarot", {0: "2♦ 2♣", 1: "5♦ T21", 2: "3♦ 3♣", 3: "4♦ 4♣"},
                  leader=0, trick_cards="2♦")
    with pytest.raises(IllegalActionError, match="legal: play 5♦"):
        state.apply("play T21")
    with pytest.raises(IllegalActionError, match="not a Tarot action"):
        state.apply("play 5z")
    assert texts(state) == ["play 5♦"]


# ======================================================================================
# Who keeps the cards: the Excuse, the Lorrain oudlers, the taré Excuse
# ======================================================================================
def test_the_excuse_stays_with_its_camp_which_gives_a_half_point_card():
    """Lorrain scenario 7: the taker leads R♥, a defender plays the Excuse."""
    state = build("tarot", {0: "R♥ 2♣", 1: "Excuse 6♣", 2: "3♥ 3♣", 3: "4♥ 4♣"}, leader=0)
    play(state, "play R♥", "play Excuse", "play 3♥", "play 4♥")
    s, pr = state.s, state.game.encoded_params
    assert s[R.LOCATION + R.EXCUSE] == R.LOC_WON + 1
    assert s[R.LOCATION + cards("R♥")[0]] == R.LOC_WON + 0
    assert R.exchange(s, pr, R.ATTACK) == 1 and R.exchange(s, pr, R.DEFENCE) == -1


def test_the_excuse_in_the_last_trick_goes_to_the_winner_but_not_in_the_lorrain():
    for slug, keeper in (("tarot", 0), ("tarot-lorrain", 1)):
        state = last_trick(slug, taker_pile="", hands={0: "R♥", 1: "Excuse", 2: "3♥",
                                                       3: "4♥"}, leader=0)
        finish(state)
        assert state.s[R.LOCATION + R.EXCUSE] == R.LOC_WON + keeper, slug


def test_the_petit_is_captured_in_plain_tarot_but_kept_in_the_lorrain():
    """Lorrain scenario 3: a defender plays the Petit, the taker wins with the 15."""
    for slug, keeper in (("tarot", 0), ("tarot-lorrain", 1)):
        state = build(slug, {0: "T15 2♣", 1: "T1 6♣", 2: "3♥ 3♣", 3: "4♥ 4♣"}, leader=0)
        play(state, "play T15", "play T1", "play 3♥", "play 4♥")
        assert state.s[R.LOCATION + R.PETIT] == R.LOC_WON + keeper, slug
        assert state.s[R.LOCATION + cards("3♥")[0]] == R.LOC_WON + 0


def test_the_dealt_holder_reading_keeps_the_oudler_with_the_seat_dealt_it():
    state = build("tarot-lorrain", {0: "T15 2♣", 1: "T1 6♣", 2: "3♥ 3♣", 3: "4♥ 4♣"},
                  leader=0, bouts_owner="dealt_holder")
    state.s[R.PASSES] = 1                  # the hands have moved once: seat 1 was dealt seat 0's
    play(state, "play T15", "play T1", "play 3♥", "play 4♥")
    assert state.s[R.LOCATION + R.PETIT] == R.LOC_WON + 0


def test_the_tare_excuse_goes_with_the_trick():
    """Taré scenario 4: R♦, Excuse, 2♦, 5♦: the R♦ takes 10 points, the Excuse included."""
    state = build("tarot-tare", {1: "R♦ 1♣", 2: "Excuse 2♣", 3: "2♦ 3♣", 0: "5♦ 4♣"},
                  leader=1, rest_to="dog")
    play(state, "play R♦", "play Excuse", "play 2♦", "play 5♦")
    assert state.s[R.TAKEN + 1] == 20
    assert state.s[R.LOCATION + R.EXCUSE] == R.LOC_WON + 1


def test_the_tare_excuse_led_lets_the_next_card_fix_the_suit():
    """Taré scenario 5: Excuse, 3♣, D♣, 1♣: the D♣ takes 9 points."""
    state = build("tarot-tare", {1: "Excuse 1♦", 2: "3♣ 2♦", 3: "D♣ 3♦", 0: "1♣ 4♦"},
                  leader=1, rest_to="dog")
    play(state, "play Excuse", "play 3♣", "play D♣", "play 1♣")
    assert state.s[R.TRICK_WINNER] == 3 and state.s[R.TAKEN + 3] == 18


def test_the_standard_excuse_rule_in_the_tare_exchanges_between_seats():
    state = build("tarot-tare", {1: "R♦ 1♣", 2: "Excuse 2♣", 3: "2♦ 3♣", 0: "5♦ 4♣"},
                  leader=1, rest_to="dog", excuse_goes_with_trick=False)
    play(state, "play R♦", "play Excuse", "play 2♦", "play 5♦")
    s, pr = state.s, state.game.encoded_params
    assert s[R.LOCATION + R.EXCUSE] == R.LOC_WON + 2
    assert R.exchange(s, pr, 1) == 1 and R.exchange(s, pr, 2) == -1


# ======================================================================================
# Scoring (A7; Lorrain scenarios 4 to 6)
# ======================================================================================
def test_a_garde_made_by_seven_with_two_oudlers():
    """Lorrain scenario 4: garde, 2 oudlers, 48 points: D = (25 + 7)·2 = 64."""
    state = last_trick(taker_pile=pile(96 - 4, 2), hands={0: "T2", 1: "2♥", 2: "3♥",
                                                          3: "4♥"}, leader=0)
    finish(state)
    s = state.s
    assert (s[R.TAKER_POINTS], s[R.TAKER_OUDLERS], s[R.MADE], s[R.STAKE]) == (96, 2, 1, 64)
    assert list(s[R.POINTS:R.POINTS + 4] // 2) == [192, -64, -64, -64]


def test_a_poignee_shown_by_a_defender_goes_to_the_winning_camp():
    """Lorrain scenario 5: the same deal with a simple poignée: D = 64 + 20."""
    state = last_trick(taker_pile=pile(92, 2), hands={0: "T2", 1: "2♥", 2: "3♥", 3: "4♥"},
                       leader=0)
    state.s[R.POIGNEE + 2] = 1
    assert stake_after(state) == 84


def test_a_failed_prise_with_the_petit_lost_in_the_last_trick():
    """Lorrain scenario 6: prise, 1 oudler, 45 points, the Petit au bout to the defence:
    -31 - 10 = -41; taker -123, each defender +41."""
    state = last_trick(taker_pile=pile(90, 1, exclude="T1 T5 2♥ 3♥"), contract=R.PRISE,
                       hands={1: "T5", 2: "2♥", 3: "3♥", 0: "T1"}, leader=1)
    finish(state)
    s = state.s
    assert (s[R.TAKER_POINTS], s[R.TAKER_OUDLERS], s[R.PETIT_AU_BOUT_SIGN]) == (90, 1, -1)
    assert s[R.STAKE] == -41
    assert list(s[R.POINTS:R.POINTS + 4] // 2) == [-123, 41, 41, 41]


@pytest.mark.parametrize("oudlers, threshold", [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_the_contract_threshold_depends_on_the_oudlers(oudlers, threshold):
    made = last_trick(taker_pile=pile(2 * threshold, oudlers), contract=R.PRISE)
    assert stake_after(made) == 25 and made.s[R.MADE] == 1
    short = last_trick(taker_pile=pile(2 * threshold - 1, oudlers), contract=R.PRISE)
    assert stake_after(short) == -26 and short.s[R.MADE] == 0   # 0.5 short: rounded up


@pytest.mark.parametrize("contract, multiplier", [(R.PRISE, 1), (R.GARDE, 2),
                                                  (R.GARDE_SANS, 4), (R.GARDE_CONTRE, 6)])
def test_each_contract_multiplies_the_stake(contract, multiplier):
    state = last_trick(taker_pile=pile(2 * 51 + 6, 1), contract=contract)   # made by 3
    assert stake_after(state) == 28 * multiplier


def test_the_dog_counts_for_the_taker_in_a_garde_sans_and_for_the_defence_in_a_contre():
    dog = "R♦ D♦ C♦ V♦ 10♦ 9♦"                                          # 13 points
    for contract, expected in ((R.GARDE_SANS, 2 * 40 + 26), (R.GARDE_CONTRE, 2 * 40)):
        state = last_trick(taker_pile=pile(80, 2, exclude=LOW + " " + dog), contract=contract)
        for c in cards(dog):
            state.s[R.LOCATION + c] = R.LOC_DOG
        finish(state)
        assert state.s[R.TAKER_POINTS] == expected


def test_the_petit_au_bout_won_by_the_taker_is_multiplied():
    state = last_trick(taker_pile=pile(2 * 45, 1, exclude="T1 2♥ 3♥ 4♥"),
                       hands={0: "T1", 1: "2♥", 2: "3♥", 3: "4♥"}, leader=1)
    # 45 + 4.5 (Petit) + 1.5 (trick) = 51 with 2 oudlers: made by 10
    finish(state)
    assert state.s[R.PETIT_AU_BOUT_SIGN] == 1 and state.s[R.STAKE] == (35 + 10) * 2


def test_the_lorrain_petit_au_bout_variant_counts_for_the_camp_that_played_it():
    for to, sign in (("trick_winner_camp", -1), ("player_camp", 1)):
        state = last_trick("tarot-lorrain", taker_pile=pile(90, 1, exclude="T1 T5 2♥ 3♥"),
                           hands={1: "T5", 2: "2♥", 3: "3♥", 0: "T1"}, leader=1,
                           petit_au_bout_to=to)
        finish(state)
        assert state.s[R.PETIT_AU_BOUT_SIGN] == sign
        assert state.s[R.LOCATION + R.PETIT] == R.LOC_WON + 0      # kept by its player


def test_a_chelem_led_with_the_excuse_wins_the_last_trick():
    everything = pile(182 - 9 - 3, 2, exclude="Excuse 2♥ 3♥ 4♥")
    for declared, bonus in ((0, 200), (1, 400)):
        state = last_trick(taker_pile=everything, hands={0: "Excuse", 1: "2♥", 2: "3♥",
                                                         3: "4♥"}, leader=0, tricks={0: 17})
        state.s[R.CHELEM_DECLARED] = declared
        finish(state)
        s = state.s
        assert s[R.TRICK_WINNER] == 0 and s[R.EXCUSE_WON_LAST] == 1
        assert s[R.CHELEM] == bonus and s[R.TAKER_POINTS] == 182
        assert s[R.STAKE] == (25 + 55) * 2 + bonus


def test_an_announced_chelem_that_fails_costs_200():
    state = last_trick(taker_pile=pile(2 * 60, 2))
    state.s[R.CHELEM_DECLARED] = 1
    assert stake_after(state) == (25 + 19) * 2 - 200


def test_every_trick_to_the_defence_costs_the_taker_200():
    state = last_trick(taker_pile="", contract=R.PRISE, tricks={1: 17})
    assert stake_after(state) == -(25 + 56) - 200


def test_three_players_pay_the_taker_twice_the_stake():
    state = build("tarot", {0: "T2", 1: "2♥", 2: "3♥"}, leader=0, won={0: pile(96 - 3, 2)})
    finish(state)
    assert list(state.s[R.POINTS:R.POINTS + 3] // 2) == [2 * 64, -64, -64]


# ======================================================================================
# Five players: the called King
# ======================================================================================
def test_the_taker_calls_a_king_or_a_queen_when_he_holds_the_four_kings():
    state = engines.load("tarot", players=5, first_dealer=0, petit_sec_annul=False
                         ).new_state(3)
    play(state, "bid prise", "pass", "pass", "pass", "pass")
    assert texts(state) == ["call R♥", "call R♦", "call R♠", "call R♣"]
    s = state.s
    taker = state.current_player
    for king in cards("R♥ R♦ R♠ R♣"):
        s[R.LOCATION + king] = R.LOC_HAND + taker
    state.refresh()
    assert texts(state) == ["call D♥", "call D♦", "call D♠", "call D♣"]


def test_the_partner_is_the_holder_of_the_called_king_and_takes_one_share():
    state = engines.load("tarot", players=5, first_dealer=0, petit_sec_annul=False
                         ).new_state(3)
    play(state, "bid prise", "pass", "pass", "pass", "pass")
    taker = state.current_player
    holder_of_king = R.holder(state.s, cards("R♣")[0])
    state.apply("call R♣")
    expected = -1 if holder_of_king in (taker, -1) else holder_of_king
    assert state.s[R.PARTNER] == expected
    others = [p for p in range(5) if p not in (taker, expected)]
    if expected >= 0:
        assert state.observation(others[0]).partner is None
        assert state.observation(expected).partner == expected


@pytest.mark.parametrize("partner, shares", [(2, [2, -1, 1, -1, -1]), (-1, [4, -1, -1, -1,
                                                                              -1])])
def test_five_player_payments(partner, shares):
    state = build("tarot", {0: "T2", 1: "2♥", 2: "3♥", 3: "4♥", 4: "5♥"}, leader=0,
                  partner=partner, won={0: pile(96 - 5, 2, exclude=LOW + " T2 5♥")})
    finish(state)
    stake = int(state.s[R.STAKE])
    assert stake > 0
    assert list(state.s[R.POINTS:R.POINTS + 5] // 2) == [k * stake for k in shares]


# ======================================================================================
# Bids, the dog and the écart, the Petit sec, the poignée
# ======================================================================================
def fresh(slug="tarot", seed=3, **params):
    params.setdefault("first_dealer", 3)
    params.setdefault("petit_sec_annul", False)
    return engines.load(slug, **params).new_state(seed)


def test_each_bid_must_be_higher_and_the_dealer_speaks_last():
    state = fresh()
    assert state.current_player == 0
    assert texts(state) == ["pass", "bid prise", "bid garde", "bid garde sans",
                            "bid garde contre"]
    play(state, "bid garde")
    assert texts(state) == ["pass", "bid garde sans", "bid garde contre"]


def test_all_passing_annuls_the_deal_and_the_next_dealer_deals():
    state = fresh()
    play(state, "pass", "pass", "pass", "pass")
    assert state.s[R.DEALS_PLAYED] == 1 and state.s[R.DEALER] == 0
    assert state.phase == "bidding" and state.current_player == 1
    assert list(state.s[R.SCORE:R.SCORE + 4]) == [0] * 4
    assert "all passed" in state.log[-2]


def test_the_dog_is_shown_to_everyone_and_joins_the_takers_hand():
    state = fresh()
    dog = [c for c in range(78) if state.s[R.LOCATION + c] == R.LOC_DOG]
    play(state, "bid prise", "pass", "pass", "pass")
    assert state.phase == "écart" and len(state.hand_of(0)) == 24
    for seat in range(4):
        assert set(dog) <= set(np.flatnonzero(
            state.observation(seat).array[R.LOCATION:R.LOCATION + 78] == R.LOC_HAND))


def test_the_ecart_may_hold_no_king_no_oudler_and_trumps_only_when_forced():
    state = fresh()
    play(state, "bid prise", "pass", "pass", "pass")
    legal = [a.code - R.DISCARD for a in state.legal_actions()]
    assert legal and all(R.CARD_SUIT[c] < 4 and R.rank_of(c) != 14 for c in legal)
    s = state.s
    for c in range(78):
        if s[R.LOCATION + c] == R.LOC_HAND + 0:
            s[R.LOCATION + c] = R.LOC_WON + 1
    for c in cards("R♥ R♦ R♠ R♣ T1 T21 Excuse") + list(range(R.PETIT + 1, R.PETIT + 18)):
        s[R.LOCATION + c] = R.LOC_HAND + 0
    state.refresh()
    assert texts(state) == [f"discard T{n}" for n in range(2, 19)]
    state.apply("discard T2")
    assert state.observation(1).ecart == tuple(cards("T2"))


def test_a_trump_the_taker_was_dealt_is_shown_when_he_discards_it():
    """"It may contain trumps only if the taker has no other choice, and any trump
    discarded is shown" (A4): shown to every seat, not only to those that happened to see
    it before."""
    state = fresh()
    play(state, "bid prise", "pass", "pass", "pass")
    s = state.s
    for c in range(78):
        if s[R.LOCATION + c] == R.LOC_HAND + 0:
            s[R.LOCATION + c] = R.LOC_WON + 1
            s[R.KNOWN + c] = R.EVERYONE
    for c in cards("R♥ R♦ R♠ R♣ T1 T21 Excuse") + list(range(R.PETIT + 1, R.PETIT + 18)):
        s[R.LOCATION + c] = R.LOC_HAND + 0
        s[R.KNOWN + c] = 1                              # dealt to the taker, seen by him only
    state.refresh()
    state.apply("discard T2")
    assert [state.observation(p).ecart for p in range(4)] == [tuple(cards("T2"))] * 4


def test_six_discards_end_the_ecart_and_the_taker_chooses_the_chelem():
    state = fresh()
    play(state, "bid garde", "pass", "pass", "pass")
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    assert state.phase == "chelem" and texts(state) == ["no chelem", "declare chelem"]
    assert len(state.hand_of(0)) == 18
    assert state.observation(0).ecart and not state.observation(1).ecart
    state.apply("declare chelem")
    assert state.phase == "tricks" and state.current_player == 0


def test_a_garde_sans_leaves_the_dog_unseen():
    state = fresh()
    play(state, "bid garde sans", "pass", "pass", "pass")
    assert state.phase == "chelem"
    where = state.observation(0).array[R.LOCATION:R.LOCATION + 78]
    assert (where == R.LOC_UNKNOWN).sum() == 18 * 3 + 6
    play(state, "no chelem")
    assert state.current_player == 0                 # the dealer's left leads


def test_a_petit_sec_must_be_declared_and_annuls_the_deal():
    game = engines.load("tarot", players=5, first_dealer=0)
    state = next(st for st in (game.new_state(seed) for seed in range(500))
                 if st.phase == "petit sec")
    seat = state.current_player
    assert R.petit_sec(state.s, seat) and texts(state) == ["declare petit sec"]
    assert R.petit_sec_holder(state.s, game.encoded_params) == seat
    state.apply("declare petit sec")
    assert state.s[R.DEALS_PLAYED] == 1 and state.s[R.DEALER] == 1
    assert "petit sec" in state.log[-2]


def test_a_petit_sec_with_the_excuse_is_no_petit_sec():
    state = build("tarot", {0: "T1 Excuse 2♥", 1: "T2 3♥ 4♥", 2: "5♥ 6♥ 7♥",
                            3: "8♥ 9♥ 10♥"})
    assert not R.petit_sec(state.s, 0)
    state.s[R.LOCATION + R.EXCUSE] = R.LOC_WON + 1
    assert R.petit_sec(state.s, 0) and R.petit_sec_holder(state.s,
                                                         state.game.encoded_params) == 0


def test_a_poignee_is_offered_before_the_first_card_only():
    trumps = " ".join(f"T{n}" for n in range(2, 11))                  # nine trumps
    hands = {0: trumps + " Excuse", 1: "1♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥",
             2: "1♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦", 3: "1♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠"}
    state = build("tarot", hands, leader=0)
    state.s[R.HAS_PLAYED + 0] = 0
    state.refresh()
    assert texts(state)[-1] == "show poignée simple"          # the Excuse stands in
    state.apply("show poignée simple")
    assert state.observation(1).array[R.LOCATION + R.EXCUSE] == R.LOC_HAND + 0
    assert "show poignée simple" not in texts(state)
    state.apply("play T2")
    assert state.s[R.POIGNEE + 0] == 1
    no_poignee = build("tarot", hands, leader=0, use_poignee=False)
    no_poignee.s[R.HAS_PLAYED + 0] = 0
    no_poignee.refresh()
    assert not any("poignée" in t for t in texts(no_poignee))


# ======================================================================================
# The Lorrain passing (Lorrain scenario 1)
# ======================================================================================
def test_after_each_trick_every_hand_moves_to_the_next_seat():
    state = fresh("tarot-lorrain")
    play(state, "bid prise", "pass", "pass", "pass")
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    state.apply("no chelem")
    before = {p: set(state.hand_of(p)) for p in range(4)}
    played = {}
    for _ in range(4):
        seat = state.current_player
        action = [a for a in state.legal_actions() if a.code < R.DISCARD][0]
        played[seat] = action.code
        state.apply(action)
    for p in range(4):
        assert set(state.hand_of(p)) == before[(p - 1) % 4] - {played[(p - 1) % 4]}
    assert state.current_player == int(state.s[R.TRICK_WINNER])
    seen = state.observation(1).array[R.LOCATION:R.LOCATION + 78]
    assert all(seen[c] == R.LOC_HAND + 2 for c in before[1] - {played[1]})


def test_the_passing_direction_is_a_parameter():
    state = fresh("tarot-lorrain", pass_offset=-1, use_chelem=False)
    play(state, "bid garde sans", "pass", "pass", "pass")
    before = {p: set(state.hand_of(p)) for p in range(4)}
    played = {}
    for _ in range(4):
        seat = state.current_player
        played[seat] = state.legal_actions()[0].code
        state.apply(state.legal_actions()[0])
    for p in range(4):
        assert set(state.hand_of(p)) == before[(p + 1) % 4] - {played[(p + 1) % 4]}


# ======================================================================================
# The end of the game
# ======================================================================================
def test_the_tare_lowest_total_wins():
    """Taré scenario 6: totals 20, 17.5, 30, 23.5 after the last deal: the 17.5 wins."""
    state = build("tarot-tare", {1: "1♥", 2: "2♥", 3: "3♥", 0: "4♥"}, leader=1,
                  rest_to="dog", scores=[18, 17.5, 30, 23.5], deals_played=3)
    finish(state)
    result = state.result()
    assert result.details["totals"] == (20, 17.5, 30, 23.5)
    assert result.ranks == (2, 1, 4, 3) and result.win_shares[1] == 1.0


def test_the_tare_threshold_ends_the_game_early():
    state = build("tarot-tare", {1: "1♥", 2: "2♥", 3: "3♥", 0: "4♥"}, leader=1,
                  rest_to="dog", scores=[99, 0, 0, 0], loss_threshold=100)
    finish(state)
    assert state.is_terminal() and state.result().ranks[0] == 4


def test_the_tare_petit_au_bout_penalty():
    for penalty, expected in ((False, 4.5 + 1.5), (True, 16)):
        state = build("tarot-tare", {1: "T1", 2: "2♥", 3: "3♥", 0: "4♥"}, leader=1,
                      rest_to="dog", petit_au_bout_penalty=penalty)
        finish(state)
        assert state.s[R.POINTS + 1] == 2 * expected


def test_the_tare_dog_may_go_to_the_last_trick_winner():
    state = build("tarot-tare", {1: "1♥", 2: "2♥", 3: "3♥", 0: "4♥"}, leader=1,
                  rest_to="dog", dog_to="last_trick_winner")
    finish(state)
    assert state.s[R.POINTS + 0] == 182 - 4 * 0 and state.s[R.TAKEN + 0] == 182


def test_the_highest_fft_total_wins_and_ties_share():
    state = last_trick(taker_pile=pile(2 * 56, 0), contract=R.PRISE, scores=[0, 0, 0, 100],
                       num_deals=1)
    finish(state)
    assert state.is_terminal() and state.result().ranks == (1, 3, 3, 1)
    assert state.result().win_shares == (0.5, 0, 0, 0.5)


def test_lorrain_five_players_keep_the_partner_dealt_the_called_card():
    state = fresh("tarot-lorrain", players=5, five_player_partner="dealt_holder",
                  first_dealer=4, use_chelem=False)
    play(state, "bid garde sans", "pass", "pass", "pass", "pass")
    king = cards("R♣")[0]
    dealt_to = R.holder(state.s, king)
    state.apply("call R♣")
    partner = int(state.s[R.PARTNER])
    assert partner == (-1 if dealt_to in (0, -1) else dealt_to)
    for _ in range(5):
        state.apply([a for a in state.legal_actions() if a.code < R.DISCARD][0])
    if R.holder(state.s, king) >= 0:
        assert R.holder(state.s, king) == (dealt_to + 1) % 5      # the card moved on ...
    assert state.s[R.PARTNER] == partner                            # ... the partner did not


def test_a_king_called_from_the_dog_leaves_the_taker_alone():
    state = fresh(players=5, first_dealer=4)
    play(state, "bid prise", "pass", "pass", "pass", "pass")
    dog_king = next((c for c in cards("R♥ R♦ R♠ R♣") if state.s[R.LOCATION + c] == R.LOC_DOG),
                    None)
    if dog_king is None:                      # put one there: swap it with a dog card
        dog_card = next(c for c in range(78) if state.s[R.LOCATION + c] == R.LOC_DOG)
        dog_king = cards("R♣")[0]
        s = state.s
        s[R.LOCATION + dog_card], s[R.LOCATION + dog_king] = s[R.LOCATION + dog_king], R.LOC_DOG
        s[R.KNOWN + dog_card], s[R.KNOWN + dog_king] = s[R.KNOWN + dog_king], 0
        state.refresh()
    state.apply(f"call {tarot_card_name(dog_king)}")
    assert state.s[R.PARTNER] == -1 and R.holder(state.s, dog_king) == 0
