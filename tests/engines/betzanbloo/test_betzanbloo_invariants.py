"""Betzanbloo invariants over random games and random parameters (hypothesis), determinism,
and whole games with the ``random`` agent.

After every action: every personal card is in exactly one place, captures match the cards
taken, the seats choose in order 0..n-1 and the lone player captures.  Games last six turns,
scores are what the saved and captured cards are worth, win shares sum to 1; clone() and
determinize() leave the original alone; the same seed gives the same game.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.games.betzanbloo import rules as R
from engines.games.betzanbloo import summary
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk
from sim.runner import play_python
from tests.engines.betzanbloo.betz_helpers import cards, check_conservation, load


@st.composite
def game_params(draw):
    return {
        "players": draw(st.integers(3, 8)),
        "perso_max": draw(st.sampled_from([10, 12])),
        "drop_extremes": draw(st.booleans()),
        "scoring": draw(st.sampled_from(["points", "diamonds"])),
        "diamonds_11_12": draw(st.integers(0, 5)),
    }


def worth(params, v):
    if params.scoring == "points":
        return v
    return min(v, 11 - v) if v <= 10 else params.diamonds_11_12


@settings(max_examples=60)
@given(params=game_params(), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 2**32 - 1))
def test_invariants_hold_after_every_action(params, seed, moves):
    game = load(**params)
    n = game.num_players
    state = game.new_state(seed)
    rng = np.random.default_rng(moves)
    decisions = 0
    while not state.is_terminal():
        check_conservation(state)
        s = state.s
        turn, player = int(s[R.TURN]), state.current_player
        legal = state.legal_actions()
        if state.phase == "play":
            chosen = sum(int(s[R.PLAYED + p]) > 0 for p in range(n))
            assert player == chosen                         # seats choose in order
            t = int(s[R.THRESHOLD])
            assert [a.text for a in legal] == [f"play {v}" for v in sorted(
                cards(s[R.HAND + player]) - {t})]
        else:
            assert player == int(s[R.HISTORY_LONE + turn])
            mine = int(s[R.PLAYED + player]) > s[R.THRESHOLD]
            other = {int(s[R.PLAYED + p]) for p in range(n)
                     if (int(s[R.PLAYED + p]) > s[R.THRESHOLD]) != mine}
            assert [a.text for a in legal] == [f"capture {v}" for v in sorted(other)]
        copy = state.clone()
        world = state.determinize(player, np.random.default_rng(decisions))
        assert np.array_equal(world.observation(player).array,
                              state.observation(player).array)
        check_conservation(world)
        state.apply(legal[rng.integers(len(legal))])
        decisions += 1
        assert int(copy.s[R.DECISIONS]) == decisions - 1     # the copy did not move
    check_conservation(state)
    result = state.result()
    s = state.s
    assert int(s[R.TURN]) == R.TURNS
    assert result.stats["decisions"] == decisions == sum(result.details["decisions"])
    assert decisions == R.TURNS * n + result.stats["turns_lone"]
    assert (result.stats["turns_all_same"] + result.stats["turns_lone"]
            + result.stats["turns_split"]) == R.TURNS
    for p in range(n):
        score = sum(worth(game.params, v) for v in cards(s[R.SAVED + p])) + sum(
            worth(game.params, v) * int(s[R.CAPTURED + p * R.VALUES + v])
            for v in range(1, R.VALUES))
        assert result.scores[p] == score
        assert result.ranks[p] == 1 + sum(x > result.scores[p] for x in result.scores)
        hand = game.params.perso_max - 2 * game.params.drop_extremes
        assert len(cards(s[R.HAND + p])) == hand - R.TURNS
    assert sum(result.win_shares) == pytest.approx(1.0)
    assert state.records()[1].shape == (R.TURNS * n, summary.ROUND_WIDTH)


def test_other_seeds_give_other_games():
    game = load(players=5)
    bots = [agents.load("random")] * 5
    logs = {tuple(play_python(game, bots, seed).log) for seed in range(6)}
    assert len(logs) == 6
    piles = {tuple(game.new_state(0, index).s[R.PILE:R.PILE + R.TURNS]) for index in range(30)}
    assert len(piles) > 10


@pytest.mark.parametrize("players, expected", [
    (3, {"turns_all_same", "turns_lone"}),          # three players cannot split
    (5, {"turns_all_same", "turns_lone", "turns_split"}),
    (8, {"turns_lone", "turns_split"}),
])
def test_random_agents_play_whole_games(players, expected):
    game = load(players=players)
    bots = [agents.load("random", game="betzanbloo")] * players
    cases = set()
    for seed in range(20):
        state = play_python(game, bots, seed)
        assert state.is_terminal()
        result = state.result()
        assert sum(result.win_shares) == pytest.approx(1.0)
        cases |= {case for case in ("turns_all_same", "turns_lone", "turns_split")
                  if result.stats[case] > 0}
        check_conservation(state)
    assert cases >= expected
    if players == 3:
        assert "turns_split" not in cases


def test_the_batch_tables_agree_with_the_games():
    spec = RunSpec(game="betzanbloo", params=engines.params_class("betzanbloo")(players=4),
                   agents=("random",) * 4, seating="rotate", seed=2, games=12, chunk_size=12)
    tables = {name: table.to_pandas() for name, table in play_chunk(spec, 0, 12).items()}
    games, players, rounds = tables["games"], tables["players"], tables["rounds"]
    assert len(games) == 12 and len(players) == 48 and len(rounds) == 12 * 6 * 4
    assert (games.rounds == 6).all()
    assert (games.turns_all_same + games.turns_lone + games.turns_split == 6).all()
    assert (games.decisions == 24 + games.turns_lone).all()
    assert (players.cards_saved + players.cards_lost + players.cards_taken == 6).all()
    game = load(players=4)
    bots = [agents.load("random")] * 4
    for g in (0, 7):
        state = play_python(game, bots, 2, g)
        result = state.result()
        mine = players[players.game_id == g]
        assert tuple(mine.score) == result.scores
        assert tuple(mine.win_share) == pytest.approx(result.win_shares)
        turns = rounds[rounds.game_id == g]
        history = state.observation(0).history
        assert [tuple(turns[turns["round"] == t + 1].card) for t in range(6)] == [
            cards_played for _, cards_played in history]
        assert list(turns.threshold[turns.seat == 0]) == [t for t, _ in history]
        assert turns.captured.sum() == mine.captured_points.sum()
        assert turns.saved.sum() == mine.cards_saved.sum()
        by_case = turns[turns.seat == 0].case.value_counts()
        assert by_case.get("lone", 0) == games.turns_lone[g]


def test_a_game_seeded_from_a_generator_is_reproducible():
    game = load(players=4)
    a = game.new_state(np.random.default_rng(5))
    b = game.new_state(np.random.default_rng(5))
    c = game.new_state(np.random.default_rng(6))
    assert np.array_equal(a.s, b.s) and np.array_equal(a._stream, b._stream)
    assert not np.array_equal(a._stream, c._stream)
    assert sorted(a.s[R.PILE:R.PILE + R.TURNS].tolist()) == list(range(3, 9))
