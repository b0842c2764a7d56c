"""Le pharaon: every test scenario of the spec (rules in ``docs/rules/pharaon.md``), the
variants, the exact check of the banker's edge against probability (3/51 per unit staked with a
fresh deck, and the conditional pair chance in a run-through deck), invariants (chips
conserved), determinism and whole sessions through the runner."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import agents
import engines
from engines.core.api import IllegalActionError
from engines.core.cards import parse_card
from engines.games.pharaon import rules as R
from sim.runner import play_python
from tests.engines.helpers import batch_frames, random_steps


def load(**params):
    return engines.load("pharaon", **params)


def next_cards(state, right: str, left: str):
    """The state with ``right`` and ``left`` next in the shoe (swapped in from where they
    were, so the shoe stays one deck)."""
    s = state.s
    at = int(s[R.DRAWN])
    for offset, name in enumerate((right, left)):
        card = parse_card(name)
        where = int(np.flatnonzero(s[R.SHOE:R.SHOE + R.DECK] == card)[0])
        assert where >= at, f"{name} was already drawn"
        s[R.SHOE + at + offset], s[R.SHOE + where] = s[R.SHOE + where], card
    return state


def play_coup(state, *bets):
    for bet in bets:
        state.apply(bet)
    return state


# --------------------------------------------------------------------------------------
# Spec scenarios (section 9)
# --------------------------------------------------------------------------------------
def test_1_the_higher_card_pays_its_side_even_money():
    state = next_cards(load(players=3).new_state(1), "K♠", "7♥")
    play_coup(state, "bet right 10", "bet left 5")
    assert state.chips == (5 - 10, 110, 95)
    assert state.log[-1] == "coup 1 (bank P0): right K♠, left 7♥ -> right wins, bank -5"


def test_2_a_pair_gives_the_banker_every_stake():
    state = next_cards(load(players=3).new_state(1), "9♣", "9♥")
    play_coup(state, "bet right 10", "bet left 5")
    assert state.chips == (15, 90, 95)
    assert state.s[R.PAIRS] == 1


@pytest.mark.parametrize("ace_low, chips", [(False, (-3, 103)), (True, (3, 97))])
def test_3_ace_high_or_low(ace_low, chips):
    state = next_cards(load(players=2, ace_low=ace_low).new_state(1), "A♠", "K♥")
    play_coup(state, "bet right 3")
    assert state.chips == chips


def test_4_run_through_one_deck_is_26_coups_then_a_reshuffle():
    state = load(players=2, num_coups=52).new_state(2)
    drawn = []
    while not state.is_terminal():
        state.apply("no bet")
        drawn.append((int(state.s[R.RIGHT_CARD]), int(state.s[R.LEFT_CARD])))
    first = sorted(c for pair in drawn[:26] for c in pair)
    assert first == list(range(52))
    assert sorted(c for pair in drawn[26:] for c in pair) == list(range(52))
    assert drawn[:26] != drawn[26:]


def test_5_the_last_two_cards_a_pair_every_bet_loses():
    state = load(players=3).new_state(4)
    for _ in range(25):
        play_coup(state, "no bet", "no bet")
    s = state.s
    rest = s[R.SHOE + 50:R.SHOE + 52].tolist()
    assert state.observation(1).pair_probability == (1.0 if rest[0] % 13 == rest[1] % 13
                                                     else 0.0)
    # force the last two cards to be 5♦ 5♠ by swapping them in from where they were drawn
    state = load(players=3).new_state(4)
    s = state.s
    shoe = s[R.SHOE:R.SHOE + R.DECK]
    for offset, card in enumerate((parse_card("5♦"), parse_card("5♠"))):
        where = int(np.flatnonzero(shoe == card)[0])
        shoe[50 + offset], shoe[where] = shoe[where], shoe[50 + offset]
    for _ in range(25):
        play_coup(state, "no bet", "no bet")
    assert state.observation(2).pair_probability == 1.0
    play_coup(state, "bet right 4", "bet left 6")
    assert state.chips == (10, 96, 94)


# --------------------------------------------------------------------------------------
# Variants and limits
# --------------------------------------------------------------------------------------
def test_stakes_are_bounded_by_limits_and_chips():
    state = load(players=2, min_bet=2, max_bet=5, punter_bankroll=4).new_state(0)
    texts = [a.text for a in state.legal_actions()]
    assert texts == ["no bet", "bet right 2", "bet right 3", "bet right 4", "bet left 2",
                     "bet left 3", "bet left 4"]
    with pytest.raises(IllegalActionError, match="legal: no bet"):
        state.apply("bet right 5")
    with pytest.raises(IllegalActionError, match="not a pharaon action"):
        state.apply("bet middle 1")


def test_both_sides_the_punter_is_asked_again_for_the_left():
    state = next_cards(load(players=2, allow_both_sides=True).new_state(0), "K♠", "7♥")
    state.apply("bet right 3")
    assert state.current_player == 1
    assert [a.text for a in state.legal_actions()][:2] == ["no bet", "bet left 1"]
    state.apply("bet left 2")
    assert state.chips == (-1, 101)


def test_a_finite_bank_pays_in_seat_order_until_it_is_empty():
    state = next_cards(load(players=3, bank_bankroll=5).new_state(0), "K♠", "7♥")
    play_coup(state, "bet right 4", "bet right 3")
    assert state.chips == (0, 104, 101)


def test_broke_punters_make_no_decision_and_the_session_ends_when_all_are():
    state = next_cards(load(players=2, punter_bankroll=3).new_state(0), "9♠", "9♥")
    play_coup(state, "bet left 3")
    assert state.is_terminal() and state.s[R.COUP] == 1
    assert state.result().ranks == (1, 2)


def test_the_bank_rotates_after_each_deck():
    state = load(players=3, rotate_bank=True, num_coups=60).new_state(0)
    assert state.chips == (100, 100, 100)
    while state.s[R.COUP] < 26:
        assert state.current_player != 0
        state.apply("bet right 1")
    assert int(state.s[R.BANKER]) == 1 and state.current_player == 2
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    _, coups = state.records()
    assert coups[:26, 1].tolist() == [0] * 26 and coups[26:52, 1].tolist() == [1] * 26
    assert coups[52:, 1].tolist() == [2] * 8
    assert state.result().details["coups_banked"] == (26, 26, 8)


def test_bad_parameters_name_the_problem():
    with pytest.raises(ValueError, match="min_bet"):
        load(min_bet=6, max_bet=5)
    with pytest.raises(ValueError, match="run_through"):
        load(deck_mode="burn")


# --------------------------------------------------------------------------------------
# Exact checks against probability
# --------------------------------------------------------------------------------------
@njit
def _session_figures(pr, coups, rng, out):
    """One punter stakes 1 on the right every coup: out = pairs, banker net, sum of the exact
    pair probabilities before each draw, and the pairs on the deck's last coup."""
    s = np.empty(R.STATE_SIZE, dtype=np.int32)
    R.new_game(s, pr)
    R.advance(s, pr, rng)
    probability = 0.0
    for _ in range(coups):
        R.apply_action(s, pr, R.bet_action(R.RIGHT, 1), rng)
        left = s[R.COUP_CARDS_LEFT]
        probability += s[R.COUP_PAIR_CHANCES] / (left * (left - 1.0))
        pair = s[R.RIGHT_CARD] % R.RANKS == s[R.LEFT_CARD] % R.RANKS
        out[0] += pair
        out[1] += s[R.COUP_BANKER_NET]
        if left == 2:
            out[3] += pair
    out[2] = probability


COUPS = 1_300_000


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["reshuffle_each_coup", "run_through"])
def test_the_banker_edge_is_3_in_51_per_unit_staked(mode):
    game = load(players=2, deck_mode=mode, num_coups=COUPS + 1, punter_bankroll=10**9)
    out = np.zeros(4, dtype=np.float64)
    _session_figures(game.encoded_params, COUPS, np.random.default_rng(5), out)
    p = 3 / 51
    z = 4.5
    # pairs: binomial; the banker's net per unit: +1 on a pair or a left win, -1 on a right
    # win, mean 3/51 by the symmetry of right and left
    assert abs(out[0] / COUPS - p) < z * math.sqrt(p * (1 - p) / COUPS)
    assert abs(out[1] / COUPS - p) < z * math.sqrt((1 - p * p) / COUPS)
    # the exact conditional chance, averaged over the coups, is 3/51 too (exchangeability),
    # and the realised pairs follow it
    assert abs(out[2] / COUPS - p) < z * math.sqrt(p * (1 - p) / COUPS)
    if mode == "run_through":
        decks = COUPS // 26
        assert abs(out[3] / decks - p) < z * math.sqrt(p * (1 - p) / decks)


def test_the_pair_probability_counts_the_ranks_left():
    state = load(players=2).new_state(3)
    obs = state.observation(1)
    assert obs.pair_probability == pytest.approx(3 / 51)
    next_cards(state, "K♠", "K♥")
    state.apply("no bet")
    # ranks left: 12 ranks of 4 and the kings' 2 among 50 cards
    assert state.observation(1).pair_probability == pytest.approx((12 * 12 + 2) / (50 * 49))


# --------------------------------------------------------------------------------------
# Invariants, determinism, runner
# --------------------------------------------------------------------------------------
@st.composite
def pharaon_params(draw):
    min_bet = draw(st.integers(1, 5))
    return {"players": draw(st.integers(2, 11)), "ace_low": draw(st.booleans()),
            "deck_mode": draw(st.sampled_from(["run_through", "reshuffle_each_coup"])),
            "min_bet": min_bet, "max_bet": draw(st.integers(min_bet, 30)),
            "punter_bankroll": draw(st.integers(1, 80)),
            "bank_bankroll": draw(st.one_of(st.none(), st.integers(1, 60))),
            "allow_both_sides": draw(st.booleans()), "num_coups": draw(st.integers(1, 60)),
            "rotate_bank": draw(st.booleans())}


@settings(max_examples=40)
@given(params=pharaon_params(), seed=st.integers(0, 2**32 - 1))
def test_chips_are_conserved_and_stakes_stay_within_limits(params, seed):
    game = load(**params)
    total = sum(game.new_state(seed).chips)
    limited = params["bank_bankroll"] is not None
    for state, _ in random_steps(game, seed):
        assert sum(state.chips) == total
        for q in range(params["players"]):
            # an unlimited bank may go below zero, and keeps its debt after the bank rotates
            banked = q == int(state.s[R.BANKER]) or state.s[R.COUPS_BANKED + q] > 0
            if limited or not banked:
                assert state.chips[q] >= 0
        if state.is_terminal():
            break
        assert state.current_player != int(state.s[R.BANKER])
        for a in state.legal_actions()[1:]:
            amount = int(a.text.split()[-1])
            assert params["min_bet"] <= amount <= params["max_bet"]
    result = state.result()
    assert sum(result.scores) == 0
    assert sum(result.win_shares) == pytest.approx(1.0)
    assert all(m <= c for m, c in zip(result.details["min_chips"],
                                      result.details["final_chips"], strict=True))
    _, coups = state.records()
    assert coups[:, 7].sum() == result.stats["banker_net"] or params["rotate_bank"]


def test_clone_and_determinize_leave_the_original_alone():
    state = load().new_state(6)
    state.apply("bet left 2")
    before = state.s.copy()
    obs = state.observation(2)
    other = obs.determinize(np.random.default_rng(1))
    assert np.array_equal(state.s, before)
    assert sorted(other.s[R.SHOE:R.SHOE + R.DECK]) == list(range(52))
    assert np.array_equal(other.observation(2).array, obs.array)
    copy = state.clone()
    copy.apply("no bet")
    assert np.array_equal(state.s, before)
    state.apply("no bet")
    with pytest.raises(ValueError, match="stale"):
        obs.determinize(np.random.default_rng(1))


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_search_bots_play_a_session(name):
    game = load(players=3, num_coups=4)
    bot = agents.load(name, game="pharaon", iterations=5)
    state = play_python(game, [agents.load("random"), bot, agents.load("random")], 2)
    assert state.is_terminal() and state.result().details["decisions"][1] >= 4


def test_the_batch_runner_writes_the_tables():
    tables = batch_frames("pharaon", ("random",) * 4, 20)
    games, players, rounds = tables["games"], tables["players"], tables["rounds"]
    assert (games["coups"] == 26).all()
    assert len(rounds) == 20 * 26
    assert rounds.groupby("game_id")["banker_net"].sum().tolist() == \
        games["banker_net"].tolist()
    assert (players.groupby("game_id")["net"].sum() == 0).all()
    assert rounds["pair_probability"].between(0, 1).all()
