"""Ascenseur aux atouts over random games and random parameters (hypothesis): invariants
after every action, termination, determinism, hidden information, the API's error paths,
and the bots that must play every game (random, flatmc, ismcts)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
from engines.core.api import IllegalActionError
from engines.games.ascenseur_atouts import rules as R
from engines.games.ascenseur_atouts.params import AscenseurParams
from sim.runner import play_python
from tests.engines.ascenseur_atouts.ascenseur_helpers import (
    build,
    check_invariants,
    load,
    locations,
)
from tests.engines.helpers import (
    assert_clone_and_determinize_change_nothing,
    assert_refused_unchanged,
    random_steps,
)
from tests.engines.tricks.trick_helpers import play


@st.composite
def game_params(draw):
    players = draw(st.integers(2, 4))
    start = draw(st.integers(1, 22 // players))
    hook = draw(st.sampled_from(["all-hands", "sighted-hands"])) if start > 1 else "all-hands"
    return {
        "players": players, "start_cards": start, "hook": hook,
        "target_errors": draw(st.integers(1, 13)),
        "first_dealer": draw(st.integers(0, players - 1)),
        "blind_excuse": draw(st.sampled_from(["highest", "owner-chooses"])),
        "ties": draw(st.sampled_from(["shared", "last-hand"])),
    }


# ======================================================================================
# Invariants of whole games
# ======================================================================================
@settings(max_examples=60)
@given(params=game_params(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(params, seed):
    game = load(**params)
    n = params["players"]
    decisions = 0
    tricks_seen = 0
    for state, _ in random_steps(game, seed):
        check_invariants(state)
        assert state.s[R.DECISIONS] == decisions
        decisions += 1
        if state.phase == "bidding" and state.s[R.BIDS_MADE] == n - 1 and (
                params["hook"] == "all-hands" or not state.s[R.BLIND]):
            # the hook: no legal bid makes the total the number of cards
            total = int(state.s[R.BID_TOTAL])
            for a in state.legal_actions():
                b = 1 if a.text == "take" else 0 if a.text == "not take" else int(a.text[4:])
                assert total + b != state.s[R.CARDS]
    result = state.result()
    hands = state.records()[1].reshape(-1, n, 13)
    # one winner per trick: the tricks won in a hand add up to its cards
    for hand in hands:
        cards = hand[0, 2]
        assert hand[:, 8].sum() == cards
        assert all(hand[:, 9] == abs(hand[:, 6] - hand[:, 8]))
        tricks_seen += cards
        if params["hook"] == "all-hands" or cards > 1:
            assert hand[:, 6].sum() != cards            # the hook held ...
            assert hand[:, 9].sum() >= 1                # ... so somebody missed
    assert sum(result.details["tricks"]) == tricks_seen
    errors = np.array(result.details["errors"])
    assert np.array_equal(errors, hands[:, :, 9].sum(axis=0))
    assert np.array_equal(hands[-1, :, 11], errors)
    assert errors.max() >= params["target_errors"]
    assert (hands[:-1, :, 11].max(initial=0) < params["target_errors"])
    assert sum(result.win_shares) == pytest.approx(1.0)
    best = errors.min()
    assert all(errors[p] == best for p in result.winners)
    assert result.stats["rounds"] == len(hands)
    assert result.stats["decisions"] == decisions - 1 == sum(result.details["decisions"])


@settings(max_examples=30)
@given(params=game_params(), seed=st.integers(0, 2**32 - 1))
def test_clone_and_determinize_never_change_the_original(params, seed):
    assert_clone_and_determinize_change_nothing(      # a seat does not see its blind hand
        load(**params), seed, 7, lambda world, state, p: check_invariants(world),
        own_hand=False)


def test_different_seeds_deal_differently():
    game = load()
    assert not np.array_equal(locations(game.new_state(1)), locations(game.new_state(2)))


# ======================================================================================
# Hidden information
# ======================================================================================
def test_observation_shows_own_hand_only_in_a_sighted_hand():
    state = load(players=3).new_state(2)
    for p in range(3):
        obs = state.observation(p)
        assert obs.hand == state.hand_of(p)
        where = obs.array[R.LOCATION:R.LOCATION + R.PLAY_CARDS]
        assert set(where.tolist()) == {R.LOC_HAND + p, R.LOC_UNKNOWN}
        assert obs.visible_hands == {}


def test_blind_observation_does_not_depend_on_the_own_card():
    a = build(3, {0: "T1", 1: "T3", 2: "T5"}, dealer=2)
    b = build(3, {0: "Excuse", 1: "T3", 2: "T5"}, dealer=2)
    assert np.array_equal(a.observation(0).array, b.observation(0).array)
    assert not np.array_equal(a.observation(1).array, b.observation(1).array)


def test_blind_determinize_keeps_the_visible_cards_and_redeals_the_own_one():
    state = build(3, {0: "T1", 1: "T3", 2: "T5"}, dealer=2)
    own = set()
    for seed in range(30):
        world = state.determinize(0, np.random.default_rng(seed))
        assert world.hand_of(1) == state.hand_of(1) and world.hand_of(2) == state.hand_of(2)
        own |= set(world.hand_of(0))
    assert len(own) > 5 and not own & {2, 4}


def test_blind_card_is_known_to_its_owner_when_they_play_it():
    state = build(3, {0: "T1", 1: "T3", 2: "T5"}, dealer=2)
    play(state, "take", "take", "not take")
    assert state.current_player == 0
    assert state.observation(0).hand == (0,)
    assert state.observation(1).hand == ()            # still on P1's forehead
    for seed in range(10):
        assert state.determinize(0, np.random.default_rng(seed)).hand_of(0) == (0,)
    state.apply("play T1")
    assert state.observation(1).hand == (2,) and state.observation(0).hand == ()


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_search_bots_declare_a_blind_excuse_legally(name):
    # the game ends after this hand (target_errors=1): high, P0 and P2 share the win; low,
    # all three miss and share it three ways
    state = build(3, {0: "Excuse", 1: "T3", 2: "T5"}, dealer=2, blind_excuse="owner-chooses",
                  target_errors=1)
    play(state, "take", "take", "not take")
    bot = agents.load(name, game="ascenseur-atouts", iterations=12)
    for seed in range(4):
        action = bot.act(state.observation(0), state.legal_actions(),
                         np.random.default_rng(seed))
        assert action.text in ("play Excuse high", "play Excuse low")
    assert bot.act(state.observation(0), state.legal_actions(),
                   np.random.default_rng(0)).text == "play Excuse high"


def test_played_cards_and_bids_are_public():
    state = build(2, {0: "T1 T2", 1: "T3 T4"}, dealer=1)
    play(state, "bid 1", "bid 0", "play T2")
    obs = state.observation(1)
    assert obs.bids == (1, 0)
    assert obs.trick == ((0, 1, 2),)
    play(state, "play T3")
    assert state.observation(0).played == (1, 2)


# ======================================================================================
# API: actions, errors, parameters
# ======================================================================================
def test_illegal_action_raises_and_leaves_the_state_unchanged():
    state = load().new_state(0)
    assert_refused_unchanged(
        state, "play T3", "not legal for P1 in phase bidding; legal: bid 0, bid 1")


def test_unknown_action_names_examples():
    with pytest.raises(IllegalActionError, match="examples: 'bid 2'"):
        load().new_state(0).apply("raise 3")


def test_actions_after_the_end_are_refused():
    state = play_python(load(players=2, target_errors=1), [agents.load("random")] * 2, 0)
    assert state.is_terminal() and state.current_player == -1 and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("bid 0")


@pytest.mark.parametrize("params, expected", [
    ({"players": 5}, r"valid values: 2\.\.4"),
    ({"players": 4, "start_cards": 6}, r"valid values: 1\.\.5"),
    ({"blind_excuse": "lowest"}, "valid values: highest, owner-chooses"),
    ({"hook": "never"}, "valid values: all-hands, sighted-hands"),
    ({"ties": "first"}, "valid values: shared, last-hand"),
    ({"players": 2, "first_dealer": 2}, r"valid values: 0\.\.1"),
    ({"target_errors": 14}, r"valid values: 1\.\.13"),
    ({"start_cards": 1, "hook": "sighted-hands"}, "valid: hook=all-hands"),
    ({"trumps": 3}, "valid keys: players, start_cards"),
])
def test_bad_parameters_name_the_valid_choices(params, expected):
    with pytest.raises(ValueError, match=expected):
        load(**params)


def test_params_round_trip_through_strings():
    params = AscenseurParams(players=3, start_cards=7, blind_excuse="owner-chooses")
    assert AscenseurParams.from_strings(params.to_strings()) == params
    refs = {info.key: info.ref for info in AscenseurParams.describe()}
    assert refs["hook"] == "C2" and refs["start_cards"] == "C4" and refs["ties"] == "C3"


# ======================================================================================
# Bots that play every game
# ======================================================================================
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_agents_play_whole_games(players):
    game = load(players=players)
    for seed in range(3):
        state = play_python(game, [agents.load("random")] * players, seed)
        assert state.is_terminal()
        assert sum(state.result().win_shares) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_search_bots_play_a_game(name):
    game = load(players=3, target_errors=4)
    bot = agents.load(name, game="ascenseur-atouts", iterations=8)
    state = play_python(game, [bot, agents.load("random"), agents.load("random")], seed=2)
    assert state.is_terminal()
