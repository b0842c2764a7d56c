"""The war games (bataille, super-bataille): invariants over random deals and parameters
(hypothesis), determinism, the API (clone, determinize, observation), whole games through the
batch runner, and the compiled kernel playing the very games of the Python path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.families.war import rules as R
from sim.batch import tables
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk, uses_kernel
from sim.kernels import has_kernel, kernel_for
from sim.runner import play_python
from tests.engines.war.war_helpers import all_cards, deck_of

ORDERS = ["winner_first", "seat_order", "loser_first", "random"]


@st.composite
def war_game(draw):
    if draw(st.booleans()):
        return engines.load(
            "bataille", players=draw(st.integers(2, 6)), deck=draw(st.sampled_from([52, 32])),
            jokers=draw(st.booleans()), pickup_order=draw(st.sampled_from(ORDERS)),
            bataille_shortage=draw(st.sampled_from(["last_card_up", "lose_immediately"])),
            stop_at_first_elimination=draw(st.booleans()), max_tricks=400)
    return engines.load(
        "super-bataille", players=draw(st.integers(2, 6)), ace_n=draw(st.sampled_from([1, 14])),
        battle_losers_pay=draw(st.booleans()), pickup_order=draw(st.sampled_from(ORDERS[:2]
                                                                                 + ORDERS[3:])),
        stop_at_first_elimination=draw(st.booleans()), max_tricks=400)


@settings(max_examples=40)
@given(game=war_game(), seed=st.integers(0, 2**32 - 1))
def test_cards_are_conserved_and_turns_go_to_the_lowest_seat_in_play(game, seed):
    n = game.num_players
    deck = deck_of(game)
    state = game.new_state(seed)
    counts = [len(p) for p in state.piles]
    assert max(counts) - min(counts) <= 1                 # one card at a time
    out = set()
    while not state.is_terminal():
        piles = state.piles
        assert all_cards(state) == deck
        assert sum(len(p) for p in piles) == len(deck)
        holding = [p for p in range(n) if piles[p]]
        assert state.current_player == holding[0]
        assert out.isdisjoint(holding)                     # nobody comes back
        out |= set(range(n)) - set(holding)
        trick = int(state.s[R.TRICK])
        state.apply("step")
        assert state.s[R.TRICK] == trick + 1
    result = state.result()
    unclaimed = int(state.s[R.UNCLAIMED])
    assert len(all_cards(state)) + unclaimed == len(deck)
    assert sum(result.win_shares) == pytest.approx(1.0)
    assert sum(result.scores) + unclaimed == len(deck)
    assert state.current_player == -1 and state.legal_actions() == []
    if state.end == "all_cards":
        assert sorted(result.scores) == [0.0] * (n - 1) + [float(len(deck))]
    if state.end in ("cycle", "max_tricks", "first_elimination"):
        best = max(result.scores)
        assert all((r == 1) == (s == best) for r, s in
                   zip(result.ranks, result.scores, strict=True))
    assert sum(result.details["decisions"]) == result.stats["tricks"]


def test_different_games_of_a_run_are_dealt_differently():
    game = engines.load("bataille")
    assert game.new_state(5, 0).piles != game.new_state(5, 1).piles


def test_determinize_keeps_what_is_public_and_redeals_the_piles():
    game = engines.load("super-bataille")
    state = game.new_state(2)
    state.apply("step")
    before = state.s.copy()
    obs = state.observation(1)
    other = obs.determinize(np.random.default_rng(0))
    assert np.array_equal(state.s, before)
    assert [len(p) for p in other.piles] == list(obs.counts)
    assert all_cards(other) == all_cards(state)
    assert other.piles != state.piles
    assert other.observation(1).last_trick == obs.last_trick
    state.apply("step")
    with pytest.raises(ValueError, match="stale"):
        obs.determinize(np.random.default_rng(0))
    with pytest.raises(ValueError, match="no seat 3"):
        state.observation(3)


def test_the_log_reads_trick_by_trick():
    state = engines.load("bataille").new_state(1)
    state.apply("step")
    assert state.log[0].startswith("deal: dealer P")
    assert state.log[1].startswith("trick 1: P0 ") and " -> P" in state.log[1]


# --------------------------------------------------------------------------------------
# Whole games: agents, batch runner, kernel
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", ["bataille", "super-bataille"])
@pytest.mark.parametrize("name", ["random", "flatmc", "ismcts"])
def test_every_generic_agent_plays_a_whole_game(slug, name):
    game = engines.load(slug, max_tricks=2000)
    bot = agents.load(name, game=slug, **({} if name == "random" else {"iterations": 3}))
    state = play_python(game, [bot] * game.num_players, seed=3)
    assert state.is_terminal()
    assert sum(state.result().win_shares) == pytest.approx(1.0)


@pytest.mark.parametrize("slug, params", [
    ("bataille", {}),
    ("bataille", {"players": 3, "pickup_order": "random", "jokers": True}),
    ("bataille", {"pickup_order": "seat_order", "deck": 32}),
    ("super-bataille", {}),
    ("super-bataille", {"players": 4, "ace_n": 14, "pickup_order": "random"}),
])
@pytest.mark.slow
def test_the_kernel_plays_the_games_of_the_python_path(slug, params):
    game = engines.load(slug, **params)
    games, seed, start = 200, 11, 40
    kernel = kernel_for(slug)
    seats = np.zeros((games, game.num_players), dtype=np.int32)
    out = kernel.play(game, seats, seed, start, games, keep_states=True)
    bots = [agents.load("random")] * game.num_players
    for g in range(games):
        state = play_python(game, bots, seed, start + g)
        row, rounds = state.records()
        assert np.array_equal(out.rows[g], row), g
        assert np.array_equal(out.finals[g], state.s), g
        assert rounds.shape[0] == 0


def test_the_batch_runner_writes_the_documented_tables_on_both_paths(monkeypatch):
    spec = RunSpec(game="bataille", params=engines.load("bataille").params,
                   agents=("random", "random"), seating="rotate", seed=1, games=30,
                   chunk_size=30)
    assert has_kernel("bataille") and uses_kernel(spec)
    kernel_tables = play_chunk(spec, 0, 30)
    monkeypatch.setattr(tables, "uses_kernel", lambda spec: False)
    python_tables = play_chunk(spec, 0, 30)
    for name, table in kernel_tables.items():
        assert table.equals(python_tables[name]), name
    games = kernel_tables["games"].to_pandas()
    players = kernel_tables["players"].to_pandas()
    assert set(games["end"]) <= set(R.END_NAMES[1:])
    assert (games["tricks"] > 0).all()
    assert (players.groupby("game_id")["cards"].sum() + games["unclaimed"].values
            == 52).all()
    with pytest.raises(ValueError, match="no compiled policy for greedy"):
        kernel_for("bataille").policy_ids(["greedy"])
