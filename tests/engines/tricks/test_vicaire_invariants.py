"""Vicaire over random matches and random parameters (hypothesis): every card played once
per deal, one winner per trick, ten tricks a deal, totals and payouts adding up;
determinism, a golden log, hidden information and API errors (the search bots:
``test_trick_games``)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.core.api import IllegalActionError
from engines.games.vicaire import rules as R
from engines.games.vicaire.params import VicaireParams
from sim.runner import play_python
from tests.engines.helpers import (
    assert_golden_log,
    assert_refused_unchanged,
)
from tests.engines.tricks.trick_helpers import play
from tests.engines.tricks.vicaire_helpers import build


@st.composite
def match_params(draw):
    return {
        "require_trick_this_deal": draw(st.booleans()),
        "must_trump": draw(st.booleans()),
        "payout_25_plus": draw(st.sampled_from([20, 30])),
        "num_games": draw(st.sampled_from([1, 2, None])),
        "match_target": draw(st.sampled_from([50, 100])),
        "max_deals": draw(st.sampled_from([3, 200])),
        "first_dealer": draw(st.one_of(st.none(), st.integers(0, 2))),
    }


@settings(max_examples=30)
@given(params=match_params(), seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_every_invariant(params, seed):
    game = engines.load("vicaire", **params)
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    played: list[int] = []
    dealt = sorted(c for p in range(3) for c in state.hand_of(p))
    while not state.is_terminal():
        s = state.s
        where = s[R.LOCATION:R.LOCATION + 52]
        assert (where == R.LOC_ECART).sum() == 2 and (where == R.LOC_OUT).sum() == 20
        assert sum(int(s[R.TRICKS + p]) for p in range(3)) == s[R.TRICK]
        acts = state.legal_actions()
        action = acts[rng.integers(len(acts))]
        played.append(action.code)
        deals = int(s[R.ROUNDS_PLAYED])
        state.apply(action)
        if int(state.s[R.ROUNDS_PLAYED]) != deals:
            assert sorted(played) == dealt                   # every card played once
            played = []
            if not state.is_terminal():
                dealt = sorted(c for p in range(3) for c in state.hand_of(p))
    result = state.result()
    rows = state.records()[1].reshape(-1, 3, 15)
    assert len(rows) == result.stats["rounds"]
    for deal in rows:
        assert deal[:, 7].sum() == 10                         # one winner per trick
        assert deal[:, 11].sum() <= 1
        for p in range(3):
            winning = deal[p, 9] == 10 or (deal[p, 9] > 10 and deal[p, 9] % 5 == 0)
            took = deal[p, 7] > 0 or not params["require_trick_this_deal"]
            assert deal[p, 10] == (winning and took)
        if deal[:, 11].any():
            w = int(np.argmax(deal[:, 11]))
            assert deal[w, 12] or deal[w, 10]
    assert rows[:, :, 13].sum(axis=0).tolist() == list(map(int, result.scores))
    assert rows[-1, :, 14].tolist() == list(map(int, result.scores))
    games = result.stats["games"]
    if params["num_games"]:
        assert games == params["num_games"]
    else:
        assert max(result.scores) >= params["match_target"]
    assert sum(result.win_shares) == pytest.approx(1.0)
    assert all(result.scores[p] == max(result.scores) for p in result.winners)


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1))
def test_determinize_and_clone_never_change_the_original(seed):
    state = engines.load("vicaire", num_games=1).new_state(seed)
    rng = np.random.default_rng(seed)
    for step in range(40):
        if state.is_terminal():         # a capot in the first deal ends a one-game match
            break
        if step % 6 == 0:
            before = state.s.copy()
            state.clone().apply(state.legal_actions()[0])
            for p in range(3):
                world = state.determinize(p, np.random.default_rng(step))
                assert world.hand_of(p) == state.hand_of(p)
                assert np.array_equal(world.observation(p).array, state.observation(p).array)
                assert sorted(len(world.hand_of(q)) for q in range(3)) == sorted(
                    len(state.hand_of(q)) for q in range(3))
            assert np.array_equal(state.s, before)
        acts = state.legal_actions()
        state.apply(acts[rng.integers(len(acts))])


def test_golden_game_log():
    """A fixed seed's whole single game, as committed."""
    state = play_python(engines.load("vicaire", num_games=1, first_dealer=0),
                        [agents.load("random")] * 3, 20261130)
    assert_golden_log(__file__, "vicaire", state.log)


def test_observation_hides_the_other_hands_and_the_ecart():
    state = engines.load("vicaire").new_state(2)
    where = state.observation(0).array[R.LOCATION:R.LOCATION + 52]
    assert (where == R.LOC_UNKNOWN).sum() == 22 and (where == R.LOC_HAND).sum() == 10
    a = build({0: "9♣ 8♦", 1: "7♥ 8♠", 2: "J♥ 9♠"}, dealer=2)
    b = build({0: "9♣ 8♦", 1: "J♥ 9♠", 2: "7♥ 8♠"}, dealer=2)
    assert np.array_equal(a.observation(0).array, b.observation(0).array)


def test_api_errors():
    state = build({0: "9♣ 8♦", 1: "7♥ 8♣", 2: "J♥ 9♠"}, dealer=2)
    play(state, "play 9♣")
    assert_refused_unchanged(state, "play 7♥", "legal: play 8♣")
    with pytest.raises(IllegalActionError, match="not a Vicaire action"):
        state.apply("bid 3")
    with pytest.raises(ValueError, match="not over"):
        state.result()
    with pytest.raises(ValueError, match=r"seats are 0\.\.2"):
        state.observation(3)
    params = VicaireParams(num_games=3, must_trump=True)
    assert VicaireParams.from_strings(params.to_strings()) == params
