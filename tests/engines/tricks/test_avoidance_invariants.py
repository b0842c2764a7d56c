"""Chasse-coeur and pétasse over random games and random parameters (hypothesis): every card
played exactly once per deal, one winner per trick, tricks adding up to the hand size,
points adding up to the deck's total (or the sweep's), clones and determinizations, hidden
information and the API's error paths.  Golden logs, whole games of random agents and the
search bots: ``test_trick_games``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines.families.avoidance import rules as R
from engines.games.chasse_coeur.params import ChasseCoeurParams
from engines.games.petasse.params import PetasseParams
from tests.engines.helpers import (
    assert_clone_and_determinize_change_nothing,
    assert_refused_unchanged,
    checked_decisions,
)
from tests.engines.tricks.avoidance_helpers import build, check_invariants
from tests.engines.tricks.trick_helpers import play

SLUGS = ("chasse-coeur", "petasse")


@st.composite
def chasse_coeur_params(draw):
    players = draw(st.integers(3, 10))
    return {
        "players": players,
        "leftover_rule": draw(st.sampled_from(["remove_low", "kitty"])),
        "first_trick_rule": draw(st.sampled_from(["no_point_cards", "points_void"])),
        "moon_value": draw(st.sampled_from([26, 65])),
        "pass_cards": draw(st.integers(0, 3)),
        "hearts_broken_rule": draw(st.booleans()),
        "end_threshold": draw(st.integers(30, 120)),
        "num_hands": draw(st.sampled_from([0, 0, 1, 2])),
        "first_dealer": draw(st.one_of(st.none(), st.integers(0, players - 1))),
    }


@st.composite
def petasse_params(draw):
    players = draw(st.integers(3, 4))
    return {
        "players": players,
        "rank_order": draw(st.sampled_from(["natural", "belote_plain"])),
        "first_lead": draw(st.sampled_from(["left_of_dealer", "holder_of_lowest_club"])),
        "shoot_condition": draw(st.sampled_from(["all_tricks", "all_points"])),
        "loss_threshold": draw(st.integers(10, 60)),
        "first_dealer": draw(st.one_of(st.none(), st.integers(0, players - 1))),
    }


def check_whole_game(slug, params, seed):
    game = engines.load(slug, **params)
    n = params["players"]
    pr = game.encoded_params
    in_play = pr[R.P_IN_PLAY:R.P_IN_PLAY + R.DECK_CARDS]
    deck_points = int(pr[R.P_POINTS:R.P_POINTS + R.DECK_CARDS][in_play == 1].sum())
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    played: list[int] = []
    for acts in checked_decisions(state, check_invariants):
        action = acts[rng.integers(len(acts))]
        if action.code < R.PASS:
            played.append(action.code)
        hands = int(state.s[R.HANDS_PLAYED])
        taken_before = state.s[R.TAKEN:R.TAKEN + n].copy()
        state.apply(action)
        if int(state.s[R.HANDS_PLAYED]) != hands:
            k = len(played) // n
            assert len(played) == len(set(played)) == k * n   # every card played once
            played = []
        elif int(state.s[R.PLAYED]) == 0 and action.code < R.PASS:
            # a trick has just been completed: exactly one seat took its points
            grew = np.flatnonzero(state.s[R.TAKEN:R.TAKEN + n] != taken_before)
            assert len(grew) <= 1
    result = state.result()
    rows = state.records()[1].reshape(-1, n, 11)
    assert len(rows) == result.stats["rounds"]
    for deal in rows:
        k = deal[0, 1]
        assert deal[:, 5].sum() == k                            # one winner per trick
        swept = deal[:, 9].sum()
        assert swept <= 1
        if swept:
            sweep_value = pr[R.P_SWEEP_VALUE]
            assert sorted(deal[:, 8].tolist()) == [0] + [sweep_value] * (n - 1)
        else:
            assert (deal[:, 8] == deal[:, 6]).all()
        if not (slug == "chasse-coeur" and params["first_trick_rule"] == "points_void"):
            assert deal[:, 6].sum() == deck_points                # points add up
    assert np.array_equal(rows[:, :, 8].sum(axis=0), np.array(result.details["totals"]))
    assert np.array_equal(rows[-1, :, 10], np.array(result.details["totals"]))
    assert sum(result.win_shares) == pytest.approx(1.0)
    best = min(result.details["totals"])
    assert all(result.details["totals"][p] == best for p in result.winners)
    assert result.stats["decisions"] == state.s[R.DECISIONS] == sum(result.details["decisions"])


PARAMS = {"chasse-coeur": chasse_coeur_params(), "petasse": petasse_params()}


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=25)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(slug, data, seed):
    check_whole_game(slug, data.draw(PARAMS[slug], label="params"), seed)


@settings(max_examples=15)
@given(params=chasse_coeur_params(), seed=st.integers(0, 2**32 - 1))
def test_clone_and_determinize_never_change_the_original(params, seed):
    def check_world(world, state, p):
        check_invariants(world)
        assert world.legal_actions() == state.legal_actions() or world.current_player != p

    assert_clone_and_determinize_change_nothing(engines.load("chasse-coeur", **params), seed,
                                                7, check_world, steps=80)


# ======================================================================================
# Hidden information
# ======================================================================================
def test_won_cards_are_public():
    state = build("petasse", {0: "A♥ 8♦", 1: "K♥ 7♦", 2: "Q♥ 9♦", 3: "7♥ 10♦"}, dealer=3)
    play(state, "play A♥", "play K♥", "play Q♥", "play 7♥")
    assert len(state.observation(2).won[0]) == 4 and state.observation(3).taken[0] == 4


# ======================================================================================
# API: actions, errors, parameters
# ======================================================================================
def test_illegal_action_raises_and_leaves_the_state_unchanged():
    state = build("petasse", {0: "A♥ 8♦", 1: "K♥ 7♦", 2: "Q♥ 9♦", 3: "7♥ 10♦"}, dealer=3)
    play(state, "play A♥")
    assert_refused_unchanged(
        state, "play 7♦", "play 7♦ is not legal for P1 in phase tricks; legal: play K♥")


def test_params_round_trip_through_strings():
    for params in (ChasseCoeurParams(players=5, leftover_rule="kitty", pass_cards=2),
                   PetasseParams(players=3, rank_order="belote_plain")):
        assert type(params).from_strings(params.to_strings()) == params
    refs = {i.key: i.ref for i in ChasseCoeurParams.describe()}
    assert refs["leftover_rule"] == "A1" and refs["moon_value"] == "A3"
    refs = {i.key: i.ref for i in PetasseParams.describe()}
    assert refs["rank_order"] == "A1" and refs["shoot_condition"] == "A3"
