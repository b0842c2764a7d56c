"""Le rami: invariants over seeded games (cards conserved, every laid meld valid, a hand never
emptied before its discard, totals that add up), determinism, the golden log, the bots, the
search bots and the batch tables."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.games.rami import rules as R
from sim.runner import play_python
from tests.engines.helpers import batch_frames
from tests.engines.rummy.rami_helpers import (
    card_census,
    meld_is_valid,
    position,
    texts,
)

GOLDEN = Path(__file__).parent / "golden" / "rami.log"


FULL_DECK = np.array([2] * 52 + [4])


def check(state, max_jokers: int) -> None:
    s = state.s
    if state.is_terminal():
        return
    assert (card_census(state) == FULL_DECK).all()
    players = state.game.params.players
    for p in range(players):
        h = s[T.hand_at(p):T.hand_at(p) + rummy.CARD_KINDS]
        assert h.sum() == s[T.HAND_SIZE_AT + p] >= 1
    for k in range(int(s[T.MELDS_LEN])):
        assert meld_is_valid(s, k, max_jokers)


@settings(max_examples=12)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 7),
       jokers=st.sampled_from(["1", "2", "unlimited"]), bot=st.sampled_from(["eager",
                                                                               "random"]))
def test_cards_are_conserved_and_every_laid_meld_is_valid(seed, players, jokers, bot):
    game = engines.load("rami", players=players, max_jokers_per_meld=jokers, num_hands=1,
                        max_turns=150)
    state = game.new_state(seed)
    agent = agents.load(bot, game="rami")
    rng = np.random.default_rng(seed)
    limit = {"1": 1, "2": 2, "unlimited": 13}[jokers]
    while not state.is_terminal():
        check(state, limit)
        legal = state.legal_actions()
        assert legal, "a live state always has a legal action"
        state.apply(agent.act(state.observation(state.current_player), legal, rng))
    result = state.result()
    assert sum(result.win_shares) == pytest.approx(1.0)
    totals = result.details["total"]
    rounds = state.records()[1]
    assert tuple(rounds[:, len(R.ROUND_FIELDS):len(R.ROUND_FIELDS) + players].sum(axis=0)) \
        == totals


@settings(max_examples=6)
@given(seed=st.integers(0, 10**6))
def test_observation_hides_other_hands_and_determinize_keeps_what_is_seen(seed):
    game = engines.load("rami", players=3, num_hands=1)
    state = game.new_state(seed)
    bot = agents.load("eager", game="rami")
    rng = np.random.default_rng(seed)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply(bot.act(state.observation(state.current_player), state.legal_actions(),
                            rng))
    if state.is_terminal():
        return
    me = state.current_player
    seen = state.observation(me)
    other = (me + 1) % 3
    o = seen.array
    assert o[T.hand_at(other):T.hand_at(other) + rummy.CARD_KINDS].sum() == 0
    assert seen.hand == state.hand(me)
    world = seen.determinize(np.random.default_rng(1))
    assert world.hand(me) == state.hand(me)
    assert world.table == state.table
    assert (card_census(world) == FULL_DECK).all()
    assert [a.code for a in world.legal_actions()] == [a.code for a in state.legal_actions()]


def play(seed: int, names: tuple[str, ...], **params) -> list[str]:
    game = engines.load("rami", players=len(names), **params)
    state = play_python(game, [agents.load(n, game="rami") for n in names], seed, 0)
    result = state.result()
    return state.log + [f"ranks {list(result.ranks)}", f"totals {list(result.details['total'])}"]


def test_same_seed_same_match():
    assert play(7, ("eager", "planner", "random")) == play(7, ("eager", "planner", "random"))
    assert play(7, ("eager", "eager")) != play(8, ("eager", "eager"))


def golden_log() -> list[str]:
    return play(2026, ("eager", "planner", "random"), num_hands=2)


def test_a_seeded_match_replays_its_golden_log():
    assert golden_log() == GOLDEN.read_text(encoding="utf-8").splitlines()


def test_eager_lays_the_longest_meld_and_planner_the_richest():
    state = position({0: "5♠ 6♠ 7♠ 8♠ K♥ K♦ K♣ 2♦ 9♣"}, opened=(0,))
    eager = agents.load("eager", game="rami")
    planner = agents.load("planner", game="rami")
    rng = np.random.default_rng(0)
    legal = state.legal_actions()
    assert eager.act(state.observation(0), legal, rng).text == "lay 5♠ 6♠ 7♠ 8♠"
    assert planner.act(state.observation(0), legal, rng).text == "lay K♥ K♦ K♣"


def test_bots_take_a_discard_they_can_lay_and_shed_costly_loose_cards():
    state = position({1: "5♠ 6♠ 9♦ K♣ 8♣"}, current=1, phase="draw", turn=4, opened=(1,),
                     discard="7♠")
    rng = np.random.default_rng(0)
    for name in ("eager", "planner"):
        bot = agents.load(name, game="rami")
        assert bot.act(state.observation(1), state.legal_actions(), rng).text == \
            "take discard"
    loose = position({0: "K♣ 9♦ 4♥ 3♠ Joker"}, opened=(0,))
    assert all(t.startswith("discard") for t in texts(loose))
    planner = agents.load("planner", game="rami")
    eager = agents.load("eager", game="rami")
    assert planner.act(loose.observation(0), loose.legal_actions(), rng).text == "discard K♣"
    assert eager.act(loose.observation(0), loose.legal_actions(), rng).text == "discard K♣"


def test_search_bots_can_play_a_hand():
    game = engines.load("rami", players=2, num_hands=1, max_turns=30)
    for name in ("flatmc", "ismcts"):
        bots = [agents.load(name, iterations=2), agents.load("eager", game="rami")]
        state = play_python(game, bots, 3, 0)
        assert state.is_terminal()


def test_batch_tables_have_the_documented_columns():
    tables = batch_frames("rami", ("eager", "planner", "eager"), 3, players=3, num_hands=2)
    games, players, rounds = tables["games"], tables["players"], tables["rounds"]
    assert len(games) == 3 and len(players) == 9 and len(rounds) == 6
    for column in ("rounds", "turns", "rami_secs", "capped", "void_hands"):
        assert column in games.columns
    for column in ("total", "hands_won", "rami_secs", "openings", "never_laid_hands"):
        assert column in players.columns
    for column in ("winner", "rami_sec", "turns", "first_opening", "score_p2"):
        assert column in rounds.columns


if __name__ == "__main__":
    GOLDEN.write_text("\n".join(golden_log()) + "\n", encoding="utf-8")
    sys.exit(0)
