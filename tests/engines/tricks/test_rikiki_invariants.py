"""Rikiki over random games and random parameters (hypothesis): invariants after every
action (every card played exactly once per deal, one winner per trick, tricks adding up to
the hand size, points adding up), determinism, hidden information, the API's error paths,
and random agents playing whole games (the search bots: ``test_trick_games``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
from engines.core.api import IllegalActionError
from engines.games.rikiki import rules as R
from engines.games.rikiki.params import RikikiParams
from sim.runner import play_python
from tests.engines.helpers import (
    assert_clone_and_determinize_change_nothing,
    assert_refused_unchanged,
    checked_decisions,
)
from tests.engines.tricks.rikiki_helpers import build, check_invariants, load, locations
from tests.engines.tricks.trick_helpers import play


@st.composite
def game_params(draw):
    players = draw(st.integers(2, 10))
    max_rule = draw(st.sampled_from([51, 52]))
    most = 52 // players
    hands = draw(st.one_of(st.just(()), st.lists(st.integers(1, most), min_size=1,
                                                 max_size=4).map(tuple)))
    if not hands and players < 5:           # keep the spec's long schedules for 5+ players
        hands = (draw(st.integers(1, most)),)
    return {
        "players": players, "max_rule": max_rule, "hands": hands,
        "peak_twice": draw(st.booleans()), "allow_overbid": draw(st.booleans()),
        "hook_rule": draw(st.booleans()), "must_trump": draw(st.booleans()),
        "must_overtrump": draw(st.booleans()),
        "first_dealer": draw(st.one_of(st.none(), st.integers(0, players - 1))),
    }


# ======================================================================================
# Invariants of whole games
# ======================================================================================
@settings(max_examples=40)
@given(params=game_params(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(params, seed):
    game = load(**params)
    n = params["players"]
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    schedule = game.params.schedule()
    dealt = sorted(c for p in range(n) for c in state.hand_of(p))
    played: list[int] = []
    for acts in checked_decisions(state, check_invariants):
        if params["hook_rule"] and state.phase == "bidding" and state.s[R.BIDS_MADE] == n - 1:
            total = int(state.s[R.BID_TOTAL])
            assert all(total + a.code - R.BID_ACTION != state.s[R.CARDS] for a in acts)
        action = acts[rng.integers(len(acts))]
        if action.code < R.BID_ACTION:
            played.append(action.code)
        rounds = int(state.s[R.ROUNDS_PLAYED])
        state.apply(action)
        if int(state.s[R.ROUNDS_PLAYED]) != rounds:
            # every card dealt is played exactly once in its deal
            assert sorted(played) == dealt
            played = []
            if not state.is_terminal():
                dealt = sorted(c for p in range(n) for c in state.hand_of(p))
    result = state.result()
    rows = state.records()[1].reshape(-1, n, 14)
    assert len(rows) == len(schedule) == result.stats["rounds"]
    pr = game.encoded_params
    for r, deal in enumerate(rows):
        k = schedule[r]
        assert (deal[:, 1] == k).all() and deal[:, 6].tolist() == list(range(n))
        assert deal[:, 10].sum() == k                          # one winner per trick
        assert deal[:, 9].tolist() == [deal[:, 7].sum()] * n
        assert all(deal[p, 11] == R.round_points(pr, deal[p, 7], deal[p, 10]) for p in range(n))
        assert (deal[:, 12] == (deal[:, 7] == deal[:, 10])).all()
        assert (deal[:, 4] == -1).all() == (k * n == 52)       # no trump only with no card left
        assert (deal[:, 3] == (deal[:, 2] + 1) % n).all()
        if not params["allow_overbid"]:
            assert deal[:, 7].max() <= k
    # the points of the deals add up to the totals
    assert np.array_equal(rows[:, :, 11].sum(axis=0), np.array(result.scores))
    assert np.array_equal(rows[-1, :, 13], np.array(result.scores))
    assert sum(result.details["tricks"]) == sum(schedule)
    assert sum(result.win_shares) == pytest.approx(1.0)
    best = max(result.scores)
    assert all(result.scores[p] == best for p in result.winners)
    decisions = state.s[R.DECISIONS]
    assert result.stats["decisions"] == decisions == sum(result.details["decisions"])
    assert decisions == n * (len(schedule) + sum(schedule))


@settings(max_examples=20)
@given(params=game_params(), seed=st.integers(0, 2**32 - 1))
def test_clone_and_determinize_never_change_the_original(params, seed):
    assert_clone_and_determinize_change_nothing(
        load(**params), seed, 9, lambda world, state, p: check_invariants(world), steps=120)


def test_different_seeds_deal_differently():
    game = load()
    assert not np.array_equal(locations(game.new_state(1)), locations(game.new_state(2)))


def test_golden_game_log():
    """A fixed seed's whole game, as committed: any change to the rules, the deal or the
    random agent's draws shows here."""
    game = load(players=3, hands=(2, 3), first_dealer=1)
    state = play_python(game, [agents.load("random")] * 3, 20261130)
    assert state.log == GOLDEN


GOLDEN: list[str] = [
    'round 1: 2 cards, P1 deals, trump Q♦ turned',
    'P2 bid 0',
    'P0 bid 2',
    'P1 bid 0',
    'P2 play 9♥',
    'P0 play 2♥',
    'P1 play 5♠',
    'trick 1: P2 9♥, P0 2♥, P1 5♠ → P2',
    'P2 play K♠',
    'P0 play 4♠',
    'P1 play Q♠',
    'trick 2: P2 K♠, P0 4♠, P1 Q♠ → P2',
    ('round 1 ends: P0 bid 2 took 0 (-20, total -20), P1 bid 0 took 0 (+10, total 10), '
     'P2 bid 0 took 2 (-20, total -20)'),
    'round 2: 3 cards, P2 deals, trump 9♠ turned',
    'P0 bid 2',
    'P1 bid 2',
    'P2 bid 1',
    'P0 play 10♦',
    'P1 play 7♠',
    'P2 play 8♦',
    'trick 1: P0 10♦, P1 7♠, P2 8♦ → P1',
    'P1 play 10♠',
    'P2 play 8♣',
    'P0 play 6♥',
    'trick 2: P1 10♠, P2 8♣, P0 6♥ → P1',
    'P1 play 5♣',
    'P2 play 3♣',
    'P0 play 7♦',
    'trick 3: P1 5♣, P2 3♣, P0 7♦ → P1',
    ('round 2 ends: P0 bid 2 took 0 (-20, total -40), P1 bid 2 took 3 (-15, total -5), '
     'P2 bid 1 took 0 (-15, total -35); game over, P1 wins'),
]


# ======================================================================================
# Hidden information
# ======================================================================================
def test_observation_shows_own_hand_and_the_turned_card_only():
    state = load(players=3, hands=(5,)).new_state(2)
    for p in range(3):
        obs = state.observation(p)
        assert obs.hand == state.hand_of(p)
        where = obs.array[R.LOCATION:R.LOCATION + R.DECK_CARDS]
        assert set(where.tolist()) == {R.LOC_HAND + p, R.LOC_UNKNOWN, R.LOC_TURNED}
        assert obs.trump_card == int(state.s[R.TRUMP_CARD])


def test_determinize_redeals_only_the_hidden_cards():
    state = build({0: "2♥ 3♥", 1: "4♥ 5♥", 2: "6♥ 7♥"}, dealer=2, trump="A♠")
    play(state, "bid 0", "bid 0", "bid 0", "play 2♥")
    others = set()
    for seed in range(20):
        world = state.determinize(1, np.random.default_rng(seed))
        assert world.hand_of(1) == state.hand_of(1)
        assert world.s[R.TRUMP_CARD] == state.s[R.TRUMP_CARD]
        assert world.s[R.LOCATION + 0] == R.LOC_TRICK
        assert len(world.hand_of(0)) == 1 and len(world.hand_of(2)) == 2
        others |= set(world.hand_of(2))
    assert len(others) > 10


def test_played_cards_and_bids_are_public():
    state = build({0: "2♥ 3♥", 1: "4♥ 5♥"}, dealer=1, trump="A♠")
    play(state, "bid 1", "bid 0", "play 3♥")
    obs = state.observation(1)
    assert obs.bids == (1, 0) and obs.trick == ((0, 1),)
    play(state, "play 5♥")
    assert state.observation(0).played == (1, 3)


# ======================================================================================
# API: actions, errors, parameters
# ======================================================================================
def test_illegal_action_raises_and_leaves_the_state_unchanged():
    state = load(first_dealer=0).new_state(0)
    assert_refused_unchanged(
        state, "play 3♥", "not legal for P1 in phase bidding; legal: bid 0, bid 1")


def test_actions_after_the_end_are_refused():
    state = play_python(load(players=2, hands=(1,)), [agents.load("random")] * 2, 0)
    assert state.is_terminal() and state.current_player == -1 and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply("bid 0")


@pytest.mark.parametrize("params, expected", [
    ({"players": 11}, r"valid values: 2\.\.10"),
    ({"players": 1}, r"valid values: 2\.\.10"),
    ({"hands": "5,x"}, "comma-separated integers"),
    ({"hands": (0,)}, r"valid values: 1\.\.26"),
    ({"peak_twice": "maybe"}, "true or false"),
    ({"per_diff": -1}, r"valid values: 0\.\.1000"),
])
def test_bad_parameters_name_the_valid_choices(params, expected):
    with pytest.raises(ValueError, match=expected):
        load(**params)


def test_params_round_trip_through_strings():
    params = RikikiParams(players=5, hands=(5, 3), must_trump=True, first_dealer=2)
    assert RikikiParams.from_strings(params.to_strings()) == params
    assert RikikiParams.from_strings(RikikiParams().to_strings()) == RikikiParams()
    refs = {info.key: info.ref for info in RikikiParams.describe()}
    assert refs["max_rule"] == "A1" and refs["hook_rule"] == "A5" and refs["must_trump"] == "A4"


# ======================================================================================
# Bots that play every game
# ======================================================================================
@pytest.mark.parametrize("players", [2, 3, 4, 7, 10])
def test_random_agents_play_whole_games(players):
    game = load(players=players)
    state = play_python(game, [agents.load("random")] * players, players)
    assert state.is_terminal() and state.result().stats["rounds"] == len(game.params.schedule())
    assert sum(state.result().win_shares) == pytest.approx(1.0)
