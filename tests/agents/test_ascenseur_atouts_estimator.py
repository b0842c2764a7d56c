"""The ``estimator`` bot of Ascenseur aux atouts: its estimate and its choices on positions
where the right one is clear, its parameters, and whole games."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.ascenseur_atouts import EstimatorAgent, EstimatorParams, expected_tricks
from engines.games.ascenseur_atouts import rules as R
from sim.runner import play_python
from tests.engines.ascenseur_atouts.ascenseur_helpers import build, card, load
from tests.engines.tricks.trick_helpers import play

A, B, C, D = 0, 1, 2, 3


def choice(state, **options):
    bot = agents.load("estimator", game="ascenseur-atouts", **options)
    player = state.current_player
    return bot.act(state.observation(player), state.legal_actions(),
                   np.random.default_rng(0)).text


def estimate(state, player, excuse_value=50):
    w = np.array([excuse_value, 50], dtype=np.float64)
    return expected_tricks(state.observation(player).array, state.game.encoded_params,
                           player, w)


FOUR = {A: "T1 T2 T3 T4 T5", B: "T17 T18 T19 T20 T21", C: "T6 T7 T8 T9 T10",
        D: "T11 T12 T13 T14 T15"}


# ======================================================================================
# Bids
# ======================================================================================
def test_top_trumps_bid_high_bottom_trumps_bid_zero():
    state = build(4, FOUR, dealer=D)
    assert estimate(state, B) > 4.0                  # only the Excuse is above its cards
    assert estimate(state, A) < 0.05
    assert choice(state) == "bid 0"                  # A: T1..T5
    state.apply("bid 0")
    assert choice(state) in ("bid 4", "bid 5")      # B: T17..T21 (the Excuse may take one)


def test_the_estimate_grows_with_the_cards_and_counts_the_excuse():
    low = build(2, {A: "T2 T9", B: "T3 T4"}, dealer=B)
    high = build(2, {A: "T15 T9", B: "T3 T4"}, dealer=B)
    excuse = build(2, {A: "Excuse T9", B: "T3 T4"}, dealer=B)
    assert estimate(low, A) < estimate(high, A)
    assert estimate(excuse, A, excuse_value=100) - estimate(excuse, A, excuse_value=0) == \
        pytest.approx(1.0)


def test_the_estimate_ignores_the_hidden_cards():
    a = build(3, {A: "T10 T12", B: "T1 T2", C: "T3 T4"}, dealer=C)
    b = build(3, {A: "T10 T12", B: "T21 T20", C: "Excuse T19"}, dealer=C)
    assert estimate(a, A) == estimate(b, A)


def test_the_dealer_bids_the_nearest_bid_the_hook_allows():
    # D (dealer) holds T11..T15: about one trick; B bid 5, C 0, A 0 -> 5 + 0 + 0 + 0 = 5 is
    # fine, but with A 0, B 4, C 0 the hook forbids D's 1
    state = build(4, FOUR, dealer=D)
    play(state, "bid 0", "bid 4", "bid 0")
    assert "bid 1" not in [a.text for a in state.legal_actions()]
    assert choice(state) in ("bid 0", "bid 2")


def test_blind_hand_takes_when_it_sees_only_low_cards():
    state = build(3, {A: "T17", B: "T1", C: "T2"}, dealer=C)
    assert choice(state) == "take"                 # every unseen card beats T2


def test_blind_hand_passes_when_it_sees_the_21_or_the_excuse():
    for other in ("T21", "Excuse"):
        state = build(3, {A: "T17", B: other, C: "T2"}, dealer=C)
        assert choice(state) == "not take"


def test_blind_take_threshold_is_a_parameter():
    # sees T14: 8 of the 20 unseen cards (T15..T21, Excuse) beat it: a 40% chance
    state = build(3, {A: "T1", B: "T14", C: "T2"}, dealer=C)
    assert choice(state) == "not take"
    assert choice(state, take_percent=40) == "take"


# ======================================================================================
# Play
# ======================================================================================
# (players, hands, dealer, bids and cards before, the estimator's card)
PLAYS = [
    pytest.param(4, {A: "T3 T4", B: "T10 T1", C: "T5 T6", D: "T12 T20"}, D,
                 ["bid 0", "bid 0", "bid 0", "bid 1", "play T4", "play T10", "play T5"],
                 "play T12", id="needing-a-trick-the-last-player-takes-it-with-its-cheapest"),
    # A leads; T21 is its own, so T21 is sure; T15 is not
    pytest.param(2, {A: "T15 T21", B: "T1 T2"}, B, ["bid 1", "bid 0"], "play T21",
                 id="needing-a-trick-it-plays-a-sure-winner-rather-than-a-doubtful-one"),
    pytest.param(3, {A: "T14 T16", B: "T1 T2", C: "T3 T4"}, C, ["bid 1", "bid 0", "bid 0"],
                 "play T16", id="needing-a-trick-without-a-sure-one-it-plays-its-strongest"),
    pytest.param(2, {A: "T21 T3", B: "T2 T9"}, B, ["bid 1", "bid 2", "play T21"], "play T2",
                 id="needing-a-trick-it-cannot-win-it-sheds-its-lowest"),
    # B: under the 15, the higher card
    pytest.param(3, {A: "T15 T1", B: "T14 T3", C: "T18 T2"}, C,
                 ["bid 1", "bid 0", "bid 0", "play T15"], "play T14",
                 id="with-its-tricks-made-it-ducks-with-its-highest-losing-card"),
    pytest.param(2, {A: "T2 T1", B: "Excuse T20"}, B, ["bid 1", "bid 0", "play T2"],
                 "play Excuse low",
                 id="with-its-tricks-made-it-gives-the-excuse-low-when-every-card-would-win"),
    pytest.param(2, {A: "T21 T1", B: "Excuse T2"}, B, ["bid 1", "bid 2", "play T21"],
                 "play Excuse high", id="needing-a-trick-the-excuse-high-takes-it"),
]


@pytest.mark.parametrize("players, hands, dealer, before, expected", PLAYS)
def test_the_estimator_plays_the_clear_card(players, hands, dealer, before, expected):
    state = build(players, hands, dealer=dealer)
    play(state, *before)
    assert choice(state) == expected


def test_blind_owner_of_the_excuse_declares_it_as_its_bid_needs():
    for bid, expected in (("take", "play Excuse high"), ("not take", "play Excuse low")):
        state = build(2, {A: "Excuse", B: "T21"}, dealer=B, blind_excuse="owner-chooses")
        play(state, bid, bid)                       # two takers, or nobody: the hook holds
        assert choice(state) == expected


# ======================================================================================
# Parameters, legality, strength
# ======================================================================================
def test_parameters_are_validated_and_named():
    assert EstimatorAgent(take_percent=70).params == EstimatorParams(take_percent=70)
    with pytest.raises(ValueError, match="valid keys: excuse_value, take_percent"):
        agents.load("estimator", game="ascenseur-atouts", bold=1)
    with pytest.raises(ValueError, match="unknown agent 'estimator' for paris-damis"):
        agents.load("estimator", game="paris-damis")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_plays_whole_games_legally_and_beats_random(players):
    game = load(players=players)
    bot = agents.load("estimator", game="ascenseur-atouts")
    wins = 0.0
    errors = []
    for seed in range(6):
        state = play_python(game, [bot] + [agents.load("random")] * (players - 1), seed)
        wins += state.result().win_shares[0]
        errors.append(state.records()[1].reshape(-1, players, 13)[:, :, 9])
    errors = np.concatenate(errors)                 # error per hand: bot at seat 0
    assert wins >= 4
    assert errors[:, 0].mean() < errors[:, 1:].mean()


def test_it_sees_nothing_hidden():
    a = build(3, {A: "T10 T12", B: "T1 T2", C: "T3 T4"}, dealer=C)
    b = build(3, {A: "T10 T12", B: "T21 T20", C: "Excuse T19"}, dealer=C)
    assert choice(a) == choice(b)
    assert card("T12") in a.observation(A).hand and a.s[R.CARDS] == 2
