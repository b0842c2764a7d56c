"""Tarot, tarot lorrain and tarot taré over random games and random parameters
(hypothesis): every card played once per deal, one winner per trick, card points adding up
to 91, FFT scores adding up to zero; the golden log of prudent play, hidden information,
the API's error paths, the records, and random bots playing whole games.  Golden logs of
random games and the search bots: ``test_trick_games``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.core.api import IllegalActionError
from engines.games.tarot import rules as R
from sim.runner import play_python
from tests.engines.helpers import assert_golden_log
from tests.engines.tricks.tarot_helpers import check_deal

SLUGS = ("tarot", "tarot-lorrain", "tarot-tare")


@st.composite
def game_params(draw):
    slug = draw(st.sampled_from(SLUGS))
    players = draw(st.integers(3, 5))
    params = {"players": players, "num_deals": draw(st.integers(1, 3)),
              "first_dealer": draw(st.one_of(st.none(), st.integers(0, players - 1)))}
    if slug == "tarot-tare":
        params |= {"dog_to": draw(st.sampled_from(["none", "last_trick_winner",
                                                   "first_trick_winner"])),
                   "excuse_goes_with_trick": draw(st.booleans()),
                   "petit_au_bout_penalty": draw(st.booleans())}
        return slug, params
    params |= {"use_poignee": draw(st.booleans()), "use_chelem": draw(st.booleans()),
               "petit_sec_annul": draw(st.booleans())}
    if slug == "tarot-lorrain":
        params |= {"pass_offset": draw(st.sampled_from([1, -1])),
                   "bouts_owner": draw(st.sampled_from(["player_camp", "dealt_holder",
                                                        "standard"])),
                   "excuse_exchange": draw(st.booleans()),
                   "petit_au_bout_to": draw(st.sampled_from(["trick_winner_camp",
                                                             "player_camp"])),
                   "five_player_partner": "dealt_holder"}
    return slug, params


def check_whole_game(slug, params, seed):
    game = engines.load(slug, **params)
    n, pr = params["players"], game.encoded_params
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    decisions = 0
    while not state.is_terminal():
        acts = state.legal_actions()
        assert acts, "a player to move has no legal action"
        assert len({a.code for a in acts}) == len(acts)
        state.apply(acts[rng.integers(len(acts))])
        decisions += 1
    deal_points = np.zeros(n, dtype=np.int64)
    played: list[int] = []
    for kind, snap in (e for e in state._log if isinstance(e[0], str)):
        if kind == "trick":
            seats = snap[R.TRICK_SEAT:R.TRICK_SEAT + n].tolist()
            assert sorted(seats) == list(range(n))                  # everyone once
            assert int(snap[R.TRICK_WINNER]) in seats               # one winner
            played += snap[R.TRICK_CARD:R.TRICK_CARD + n].tolist()
        elif kind == "round_end":
            check_deal(snap, pr, n)
            if snap[R.ANNULLED] == R.PLAYED_OUT:
                assert len(played) == len(set(played)) == n * int(snap[R.CARDS])
            else:
                assert not played
            played = []
            deal_points += snap[R.POINTS:R.POINTS + n]
    result = state.result()
    assert np.array_equal(deal_points, state.s[R.SCORE:R.SCORE + n])
    assert result.stats["rounds"] == params["num_deals"]
    assert sum(result.win_shares) == pytest.approx(1.0)
    assert result.stats["decisions"] == decisions == sum(result.details["decisions"])
    row, rounds = state.records()
    assert rounds.shape[0] == n * params["num_deals"]


@settings(max_examples=30)
@given(setup=game_params(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(setup, seed):
    check_whole_game(*setup, seed)


# ======================================================================================
# Golden log
# ======================================================================================
def test_golden_log_of_prudent_play():
    """Four ``prudent`` seats take a contract, discard and show a poignée: the log of a
    fixed seed, as committed."""
    state = play_python(engines.load("tarot", num_deals=2), [agents.load("prudent")] * 4, 9)
    assert_golden_log(__file__, "tarot-prudent", state.log)
    assert any(line.startswith("P") and " discard " in line for line in state.log)


# ======================================================================================
# Hidden information
# ======================================================================================
def positions(slug, seed, every=7, **params):
    rng = np.random.default_rng(seed)
    state = engines.load(slug, num_deals=1, **params).new_state(seed)
    out = []
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.s[R.DECISIONS] % every == 0:
            out.append(state.clone())
        state.apply(legal[rng.integers(len(legal))])
    return out


@pytest.mark.parametrize("slug, params", [("tarot", {}), ("tarot", {"players": 5}),
                                          ("tarot-lorrain", {}), ("tarot-tare", {})])
def test_a_determinization_depends_only_on_the_observation(slug, params):
    for i, state in enumerate(positions(slug, 21, **params)):
        p = state.current_player
        other = state.determinize(p, np.random.default_rng(100 + i))
        assert np.array_equal(other.observation(p).array, state.observation(p).array)
        a = state.observation(p).determinize(np.random.default_rng(i))
        b = other.observation(p).determinize(np.random.default_rng(i))
        assert np.array_equal(a.s, b.s)
        assert len(a.legal_actions()) == len(state.legal_actions())


def test_the_hands_and_the_ecart_are_hidden_and_the_dog_shown_in_a_prise():
    state = engines.load("tarot", first_dealer=3, petit_sec_annul=False).new_state(3)
    seen = state.observation(0).array[R.LOCATION:R.LOCATION + R.DECK_CARDS]
    assert (seen == R.LOC_UNKNOWN).sum() == 18 * 3 + 6
    assert set(np.flatnonzero(seen == R.LOC_HAND)) == set(state.hand_of(0))
    dog = set(np.flatnonzero(state.s[R.LOCATION:R.LOCATION + 78] == R.LOC_DOG))
    for action in ("bid prise", "pass", "pass", "pass"):
        state.apply(action)
    hidden = state.observation(1).array[R.LOCATION:R.LOCATION + 78] == R.LOC_UNKNOWN
    assert hidden.sum() == 18 * 3 and not hidden[list(dog)].any()
    action = state.legal_actions()[0]
    state.apply(action)
    assert state.observation(0).ecart == (action.code - R.DISCARD,)
    assert state.observation(1).ecart == ()
    hidden = state.observation(1).array[R.LOCATION:R.LOCATION + 78] == R.LOC_UNKNOWN
    plain_dog = [c for c in dog if R.CARD_SUIT[c] != R.TRUMP]   # a trump discarded is shown
    assert hidden.sum() == 18 * 3 + len(plain_dog)     # in his hand or in his écart
    assert hidden[plain_dog].all()
    assert (state.observation(1).array[R.KNOWN:R.KNOWN + 78][list(dog)] & R.SHOWN_IN_DOG).all()
    for seed in range(20):
        world = state.determinize(1, np.random.default_rng(seed))
        where = world.s[R.LOCATION:R.LOCATION + 78]
        assert all(where[c] in (R.LOC_HAND + 0, R.LOC_ECART) for c in dog)
        assert all(R.may_discard(world.s, c) for c in np.flatnonzero(where == R.LOC_ECART))


def test_under_the_lorrain_passing_a_player_sees_every_hand_he_has_held():
    state = engines.load("tarot-lorrain", first_dealer=3, petit_sec_annul=False,
                         use_chelem=False).new_state(3)
    for action in ("bid garde sans", "pass", "pass", "pass"):
        state.apply(action)
    for trick in range(3):
        for _ in range(4):
            state.apply([a for a in state.legal_actions() if a.code < R.DISCARD][0])
        hidden = state.observation(0).array[R.LOCATION:R.LOCATION + 78] == R.LOC_UNKNOWN
        hands_unseen = 4 - min(trick + 2, 4)
        assert hidden.sum() == 6 + hands_unseen * (17 - trick)     # the dog stays unseen


def test_a_stale_observation_cannot_be_determinized():
    state = engines.load("tarot-tare").new_state(0)
    obs = state.observation(state.current_player)
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="stale"):
        obs.determinize(np.random.default_rng(0))


# ======================================================================================
# Error paths
# ======================================================================================
def test_bad_parameters_name_the_valid_choices():
    with pytest.raises(ValueError, match="player_camp"):
        engines.load("tarot-lorrain", bouts_owner="nobody")
    with pytest.raises(ValueError, match="valid keys"):
        engines.load("tarot", pass_hands=True)
    with pytest.raises(ValueError, match="dealt_holder"):
        engines.load("tarot-lorrain", players=5)
    with pytest.raises(ValueError, match="first_dealer"):
        engines.load("tarot-tare", players=3, first_dealer=4)
    with pytest.raises(ValueError, match="last_trick_winner"):
        engines.load("tarot-tare", dog_to="taker")
    assert engines.load("tarot-lorrain", players=5, five_player_partner="dealt_holder")


def test_illegal_actions_and_bad_seats_are_refused():
    state = engines.load("tarot").new_state(1)
    with pytest.raises(IllegalActionError, match="legal: pass, bid prise"):
        state.apply("play T21")
    with pytest.raises(IllegalActionError, match="not a Tarot action"):
        state.apply("bid everything")
    with pytest.raises(ValueError, match="no seat 4"):
        state.observation(4)
    with pytest.raises(ValueError, match="not over"):
        state.result()


def test_parameters_round_trip_through_strings():
    for slug in SLUGS:
        cls = engines.params_class(slug)
        params = cls(players=3, num_deals=2)
        assert cls.from_strings(params.to_strings()) == params


# ======================================================================================
# Bots
# ======================================================================================
@pytest.mark.parametrize("slug, players", [("tarot", 3), ("tarot", 5),
                                           ("tarot-lorrain", 4), ("tarot-tare", 5)])
def test_random_bots_play_whole_games(slug, players):
    game = engines.load(slug, players=players, num_deals=2)
    state = play_python(game, [agents.load("random")] * players, 8)
    assert state.is_terminal() and state.result().stats["rounds"] == 2
