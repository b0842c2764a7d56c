"""Belote à trois and belote de comptoir over random games and random parameters
(hypothesis): every card played once per deal, one winner per trick, card points adding up
(162 with the 24-card pack), scores adding up, hidden information and the API's error paths.
Golden logs, whole games of random agents and the search bots: ``test_trick_games``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.games.belote import rules as R
from engines.games.belote.summary import ROUND_FIELDS
from engines.games.belote_a_trois.params import BeloteATroisParams
from engines.games.belote_comptoir.params import BeloteComptoirParams
from sim.runner import play_python
from tests.engines.helpers import (
    assert_refused_unchanged,
    checked_decisions,
)
from tests.engines.tricks.belote_helpers import check_invariants

SLUGS = ("belote-a-trois", "belote-comptoir")
AT = {name: i for i, name in enumerate(ROUND_FIELDS)}


@st.composite
def trois_params(draw):
    return {
        "remove_ranks": draw(st.sampled_from(["7,8", "7,8", "", "7"])),
        "annonces": draw(st.booleans()),
        "belote_rebelote": draw(st.booleans()),
        "defender_partner_exemption": draw(st.booleans()),
        "must_undertrump": draw(st.booleans()),
        "fail_split": draw(st.sampled_from(["each_full", "shared"])),
        "tie_rule": draw(st.sampled_from(["dedans", "litige"])),
        "target": draw(st.sampled_from([300, 501])),
        "round2_any_suit": draw(st.booleans()),
        "first_dealer": draw(st.one_of(st.none(), st.integers(0, 2))),
    }


@st.composite
def comptoir_params(draw):
    players = draw(st.integers(2, 9))
    most = min(5, 32 // players)
    k = draw(st.sampled_from(["dealer_choice", "random", str(draw(st.integers(1, most)))]))
    return {
        "players": players,
        "cards_per_player": k,
        "allow_sa": draw(st.booleans()),
        "allow_ta": draw(st.booleans()),
        "visibility": draw(st.sampled_from(["normal", "blind", "partial_blind",
                                            "partial_open"])),
        "visibility_j": draw(st.integers(1, 3)),
        "blind_play": draw(st.booleans()),
        "auction": draw(st.sampled_from(["single_round", "open"])),
        "min_bid": draw(st.integers(1, 20)),
        "max_bid": draw(st.sampled_from([None, 60])),
        "dix_de_der": draw(st.booleans()),
        "belote_rebelote": draw(st.booleans()),
        "defenders_partners": draw(st.booleans()),
        "classic_sa_ta": draw(st.booleans()),
        "target": draw(st.integers(1, 4)),
        "first_dealer": draw(st.one_of(st.none(), st.integers(0, players - 1))),
    }


def low_bids(acts, rng):
    """One of the legal actions ``acts`` at random, bids drawn among the lowest ten (so that
    contracts are made often enough to exercise both outcomes)."""
    if acts[-1].text.startswith("bid"):
        acts = acts[:11]
    return acts[rng.integers(len(acts))]


def check_whole_game(slug, params, seed):
    game = engines.load(slug, **params)
    n = game.params.players
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    played: list[int] = []
    for acts in checked_decisions(state, check_invariants):
        action = low_bids(acts, rng)
        deals = int(state.s[R.ROUNDS_PLAYED])
        player = state.current_player
        tricks_before = state.s[R.TRICKS:R.TRICKS + n].copy()
        hand_before = set(state.hand_of(player))
        if state.phase == "tricks":
            points = state.s[R.CARD_POINTS:R.CARD_POINTS + R.DECK_CARDS].copy()
        state.apply(action)
        if action.text.startswith("play"):
            if int(state.s[R.ROUNDS_PLAYED]) == deals:
                grew = np.flatnonzero(state.s[R.TRICKS:R.TRICKS + n] != tricks_before)
                assert len(grew) == (1 if state.s[R.PLAYED] == 0 else 0)  # one winner a trick
                hand_after = set(state.hand_of(player))
            else:
                hand_after = set()
            (card,) = hand_before - hand_after
            played.append(card)
        if int(state.s[R.ROUNDS_PLAYED]) != deals:
            rows = state._rounds[-1]
            k = rows[0, AT["hand_size"]]
            if not rows[0, AT["passed_out"]]:
                assert len(played) == len(set(played)) == k * n    # every card played once
                assert rows[:, AT["tricks"]].sum() == k
                der = R.DIX_DE_DER if state.game.encoded_params[R.P_DIX_DE_DER] else 0
                taken = int(rows[:, AT["taken"]].sum())
                assert taken == int(points[played].sum()) + der     # card points add up
                if slug == "belote-a-trois" and params["remove_ranks"] == "7,8":
                    assert taken == 162
                check_deal_score(slug, game, rows)
            played = []
    result = state.result()
    rows = np.concatenate(state._rounds)
    assert len(rows) == result.stats["rounds"] * n
    totals = rows[:, AT["points"]].reshape(-1, n).sum(axis=0)
    assert totals.tolist() == [int(v) for v in result.scores]
    assert sum(result.win_shares) == pytest.approx(1.0)
    best = max(result.scores)
    assert all(result.scores[p] == best for p in result.winners)
    if not result.stats["aborted"]:
        assert len(result.winners) == 1 and best >= game.params.target
    assert result.stats["decisions"] == state.s[R.DECISIONS] == sum(result.details["decisions"])


def check_deal_score(slug, game, rows):
    """The score of a played deal against its figures."""
    taker = rows[0, AT["taker"]]
    made, points = rows[0, AT["made"]], rows[:, AT["points"]]
    defenders = [p for p in range(len(rows)) if p != taker]
    if slug == "belote-comptoir":
        assert made == (rows[0, AT["taker_total"]] >= rows[0, AT["high_bid"]])
        expected = [0] * len(rows)
        for p in ([taker] if made else defenders):
            expected[p] = 1
        assert points.tolist() == expected
    elif made and not game.params.tie_rule == "litige":
        assert points[taker] == rows[0, AT["taker_total"]]
        assert all(points[p] == rows[0, AT["defence_total"]] for p in defenders)
    elif not made:
        assert points[taker] in (0, 20)                     # only his belote


@settings(max_examples=20)
@given(params=trois_params(), seed=st.integers(0, 2**32 - 1))
def test_belote_a_trois_random_games_keep_every_invariant(params, seed):
    check_whole_game("belote-a-trois", params, seed)


@settings(max_examples=30)
@given(params=comptoir_params(), seed=st.integers(0, 2**32 - 1))
def test_belote_comptoir_random_games_keep_every_invariant(params, seed):
    check_whole_game("belote-comptoir", params, seed)


def test_a_full_comptoir_pack_adds_up_to_162():
    game = engines.load("belote-comptoir", players=8, cards_per_player="4", target=2)
    for seed in range(3):
        state = play_python(game, [agents.load("random")] * 8, seed)
        rows = np.concatenate(state._rounds)
        played = rows[rows[:, AT["passed_out"]] == 0].reshape(-1, 8, len(ROUND_FIELDS))
        for deal in played:
            if deal[0, AT["contract"]] < R.SUITS:
                assert deal[:, AT["taken"]].sum() == 162


# ======================================================================================
# Hidden information
# ======================================================================================
@settings(max_examples=10)
@given(params=comptoir_params(), seed=st.integers(0, 2**32 - 1))
def test_determinize_keeps_what_the_player_knows(params, seed):
    game = engines.load("belote-comptoir", **params)
    check_determinize(game, seed)


@settings(max_examples=6)
@given(params=trois_params(), seed=st.integers(0, 2**32 - 1))
def test_determinize_keeps_what_the_player_knows_a_trois(params, seed):
    check_determinize(engines.load("belote-a-trois", **params), seed)


def check_determinize(game, seed):
    n = game.num_players
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    step = 0
    while not state.is_terminal() and step < 60:
        if step % 5 == 0:
            before = state.s.copy()
            log = list(state.log)
            for p in range(n):
                world = state.determinize(p, np.random.default_rng(step + p))
                check_invariants(world)
                assert np.array_equal(world.observation(p).array, state.observation(p).array)
                assert world.observation(p).hand == state.observation(p).hand
                if world.current_player == p:
                    assert world.legal_actions() == state.legal_actions()
                copy = world.clone()
                while not copy.is_terminal() and copy.s[R.ROUND] == state.s[R.ROUND]:
                    copy.apply(copy.legal_actions()[0])
            assert np.array_equal(state.s, before) and state.log == log
        state.apply(low_bids(state.legal_actions(), rng))
        step += 1


def test_observation_hides_the_other_hands_and_the_stock():
    state = engines.load("belote-a-trois", first_dealer=0).new_state(5)
    obs = state.observation(1)
    assert obs.hand == state.hand_of(1)
    where = obs.array[R.LOCATION:R.LOCATION + R.DECK_CARDS]
    assert (where == R.LOC_UNKNOWN).sum() == 10 + 8
    assert (obs.array[R.DECK:R.DECK + 24] == -1).sum() == 18
    assert obs.turned == state.s[R.TURNED]


# ======================================================================================
# API: actions, errors, parameters
# ======================================================================================
def test_illegal_action_raises_and_leaves_the_state_unchanged():
    state = engines.load("belote-a-trois", first_dealer=0).new_state(0)
    assert_refused_unchanged(
        state, "take ♠", "take ♠ is not legal for P1 in phase bidding; legal: pass, take")


def test_params_round_trip_through_strings():
    for params in (BeloteATroisParams(remove_ranks=(7,), fail_split="shared"),
                   BeloteComptoirParams(players=6, cards_per_player="random", max_bid=90)):
        assert type(params).from_strings(params.to_strings()) == params
    refs = {i.key: i.ref for i in BeloteATroisParams.describe()}
    assert refs["fail_split"] == "A5" and refs["tie_rule"] == "A6"
    refs = {i.key: i.ref for i in BeloteComptoirParams.describe()}
    assert refs["auction"] == "A1" and refs["classic_sa_ta"] == "A5"


@pytest.mark.parametrize("slug, params, expected", [
    ("belote-a-trois", {"fail_split": "half"}, "valid values: each_full, shared"),
    ("belote-comptoir", {"cards_per_player": "6"}, "valid values: dealer_choice, random, 1"),
    ("belote-a-trois", {"players": 4}, "valid values: 3..3"),
    ("belote-a-trois", {"remove_ranks": "7,7"}, "lists a rank twice"),
    ("belote-comptoir", {"min_bid": 70, "max_bid": 60}, "above the highest bid 60"),
    ("belote-comptoir", {"players": 2, "first_dealer": 3}, "first_dealer"),
])
def test_bad_parameters_name_the_valid_choices(slug, params, expected):
    with pytest.raises(ValueError, match=expected):
        engines.load(slug, **params)
