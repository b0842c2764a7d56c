"""Determinism: the Python API path and the compiled kernel play the same games; a game
depends only on (seed, index); chunking a run changes nothing; the seeding primitives."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import engines
from engines.core.seeding import (
    BLOCK,
    SFC64_WARMUP,
    ReseedableStream,
    check_seed,
    game_rngs,
    game_words,
    generator_from_words,
    reseed,
    seed_words,
)
from engines.games.paris_damis import summary
from sim.runner import play_kernel, play_python

SEED = 20241129


def python_games(game, seed, start, count):
    players = [agents.load("random") for _ in range(game.num_players)]
    return [play_python(game, players, seed, i) for i in range(start, start + count)]


def summary_row(state):
    row = np.zeros(summary.SIZE, dtype=np.int32)
    summary.summarize(state.s, row)
    return row


def assert_paths_agree(game, seed, start, count):
    states = python_games(game, seed, start, count)
    rows, _, _, finals = play_kernel(game, ["random"] * game.num_players, seed, start, count,
                               keep_states=True)
    assert rows.shape == (count, summary.SIZE)
    assert finals.shape == (count, states[0].s.size)
    for g, state in enumerate(states):
        assert state.is_terminal()
        assert np.array_equal(state.s, finals[g]), f"game {start + g} differs"
        assert np.array_equal(summary_row(state), rows[g])
        assert summary.result(game.params, rows[g]) == state.result()
    return states, rows


# 60 games at each player count and 15 for each variant: 270 games in all
PATH_CASES = [
    ({"players": 2}, 0, 60),
    ({"players": 3}, 0, 60),
    ({"players": 4}, max(0, 2 * BLOCK - 30), 60),        # across seeding block boundaries
    ({"players": 3, "jokers": 2, "joker_rule": "tiebreak"}, 100, 15),
    ({"players": 4, "jokers": 1, "joker_value": 20, "column_tie": "last-placed"}, 200, 15),
    ({"players": 3, "discard": "all", "mulligan": False}, 300, 15),
    ({"players": 4, "correct_bet_cards": "12,10,9,8", "correct_bet_by": "order",
      "empty_column": "discard", "bet_options": "four"}, 400, 15),
    ({"players": 2, "correct_bet_cards": "12,10,9,8", "discard": "half-up",
      "column_tie": "nobody", "first_player": 1, "rounds": 9, "scoring": "total"}, 500, 15),
    ({"players": 4, "markers": 3, "mulligan_penalty": 0, "initial_hand": 13}, 600, 15),
]


@pytest.mark.parametrize("params, start, count", PATH_CASES,
                         ids=[",".join(f"{k}={v}" for k, v in c[0].items()) for c in PATH_CASES])
def test_python_and_kernel_paths_play_identical_games(params, start, count):
    game = engines.load("paris-damis", **params)
    states, rows = assert_paths_agree(game, SEED, start, count)
    # the games really differ from one another (the index matters)
    assert len({s.s.tobytes() for s in states}) == count


@pytest.mark.jitless
def test_python_and_kernel_paths_agree_small():
    game = engines.load("paris-damis", players=3)
    assert_paths_agree(game, 7, 0, 5)


def test_same_seed_same_game():
    game = engines.load("paris-damis", players=4, jokers=1)
    a = python_games(game, SEED, 3, 4)
    b = python_games(game, SEED, 3, 4)
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x.s, y.s)
        assert x.log == y.log
    rows1, _, _, finals1 = play_kernel(game, ["random"] * 4, SEED, 3, 4, keep_states=True)
    rows2, _, _, finals2 = play_kernel(game, ["random"] * 4, SEED, 3, 4, keep_states=True)
    assert np.array_equal(rows1, rows2) and np.array_equal(finals1, finals2)


def test_a_different_seed_gives_different_games():
    game = engines.load("paris-damis", players=3)
    rows1 = play_kernel(game, ["random"] * 3, 1, 0, 20).rows
    rows2 = play_kernel(game, ["random"] * 3, 2, 0, 20).rows
    assert not np.array_equal(rows1, rows2)


@pytest.mark.parametrize("start, splits", [
    (0, [0, 1, 17, 40]),
    (2 * BLOCK - 9, [2 * BLOCK - 9, 2 * BLOCK - 3, 2 * BLOCK, 2 * BLOCK + 1, 2 * BLOCK + 15]),
])
def test_kernel_chunking_does_not_matter(start, splits):
    game = engines.load("paris-damis", players=3, jokers=1)
    end = start + 40
    rows, _, _, finals = play_kernel(game, ["random"] * 3, SEED, start, end - start,
                                     keep_states=True)
    bounds = splits + [end]
    parts = [play_kernel(game, ["random"] * 3, SEED, a, b - a, keep_states=True)
             for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
    assert np.array_equal(np.concatenate([p.rows for p in parts]), rows[splits[0] - start:])
    assert np.array_equal(np.concatenate([p.finals for p in parts]), finals[splits[0] - start:])
    # one game alone is the same game too
    one_rows, _, _, one_final = play_kernel(game, ["random"] * 3, SEED, start + 7, 1,
                                            keep_states=True)
    assert np.array_equal(one_rows[0], rows[7]) and np.array_equal(one_final[0], finals[7])


def test_kernel_without_states_gives_the_same_rows():
    game = engines.load("paris-damis", players=2)
    rows, _, _, finals = play_kernel(game, ["random"] * 2, SEED, 0, 10)
    rows2 = play_kernel(game, ["random"] * 2, SEED, 0, 10, keep_states=True).rows
    assert finals.shape[0] == 0
    assert np.array_equal(rows, rows2)


def test_runner_checks_the_seats():
    game = engines.load("paris-damis", players=3)
    with pytest.raises(ValueError, match="3 seats"):
        play_python(game, [agents.load("random")] * 2, 0)
    with pytest.raises(ValueError, match="3 seats"):
        play_kernel(game, ["random"] * 4, 0, 0, 1)
    with pytest.raises(ValueError, match="random"):
        play_kernel(game, ["random", "random", "genius"], 0, 0, 1)


# ======================================================================================
# engines.core.seeding
# ======================================================================================
@pytest.mark.parametrize("start, cuts", [
    (0, [5, 6, 100]),
    (BLOCK - 10, [BLOCK - 1, BLOCK, BLOCK + 3]),
    (3 * BLOCK - 1, [3 * BLOCK, 4 * BLOCK, 4 * BLOCK + 2]),
])
def test_seed_words_of_a_range_is_the_concatenation_of_sub_ranges(start, cuts):
    end = cuts[-1] + 7
    whole = seed_words(SEED, start, end - start)
    assert whole.shape == (end - start, 2, 3) and whole.dtype == np.uint64
    bounds = [start] + cuts + [end]
    parts = [seed_words(SEED, a, b - a) for a, b in zip(bounds, bounds[1:], strict=False)]
    assert np.array_equal(np.concatenate(parts), whole)
    for i in (start, end - 1):
        assert np.array_equal(seed_words(SEED, i, 1)[0], whole[i - start])


def test_seed_words_differ_between_games_streams_and_seeds():
    words = seed_words(SEED, 0, 2 * BLOCK + 5)
    flat = words.reshape(-1, 3)
    assert len({tuple(w) for w in flat.tolist()}) == len(flat)
    assert not np.array_equal(seed_words(SEED + 1, 0, 10), words[:10])
    assert seed_words(SEED, 5, 0).shape == (0, 2, 3)


def test_seed_checks():
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError):
            check_seed(bad)
    with pytest.raises(ValueError):
        seed_words(1, -1, 3)
    assert check_seed(np.int64(5)) == 5


def test_game_rngs_come_from_the_seed_words():
    words = seed_words(SEED, 12, 1)[0]
    chance, decisions = game_rngs(SEED, 12)
    assert np.array_equal(chance.random(8), generator_from_words(words[0]).random(8))
    assert np.array_equal(decisions.random(8), generator_from_words(words[1]).random(8))


@pytest.mark.jitless
def test_reseedable_stream_reproduces_generator_from_words():
    stream = ReseedableStream()
    stream.check()
    for words in seed_words(SEED, 0, 6).reshape(-1, 3):
        # a used stream, restarted in place, is the fresh generator's stream
        stream.generator.random(3)
        stream.generator.integers(0, 10, size=5)
        reseed(stream.generator, stream.alias, words)
        fresh = generator_from_words(words)
        assert np.array_equal(stream.generator.random(20), fresh.random(20))
        assert np.array_equal(stream.generator.integers(0, 1000, size=20),
                              fresh.integers(0, 1000, size=20))
        a, b = np.arange(30), np.arange(30)
        stream.generator.shuffle(a)
        fresh.shuffle(b)
        assert np.array_equal(a, b)


def test_generator_from_words_is_numpys_own_sfc64_seeding():
    # numpy's SFC64(seed_sequence) seeds itself from generate_state(3, uint64)
    for entropy in (0, 1, SEED, 2**70 + 3):
        sequence = np.random.SeedSequence(entropy)
        words = sequence.generate_state(3, np.uint64)
        ours = generator_from_words(words)
        numpys = np.random.Generator(np.random.SFC64(np.random.SeedSequence(entropy)))
        assert np.array_equal(ours.bit_generator.random_raw(16),
                              numpys.bit_generator.random_raw(16))


def test_generator_from_words_has_the_documented_sfc64_state():
    # the state (w0, w1, w2, counter 1) written through numpy's public state API, then the
    # warm-up outputs discarded: the stream generator_from_words must give
    for words in seed_words(SEED, 0, 4).reshape(-1, 3):
        by_hand = np.random.SFC64(0)
        state = by_hand.state
        state["state"]["state"] = np.array([*words, 1], dtype=np.uint64)
        state["has_uint32"] = 0
        state["uinteger"] = 0
        by_hand.state = state
        by_hand.random_raw(SFC64_WARMUP)
        assert np.array_equal(generator_from_words(words).bit_generator.random_raw(16),
                              by_hand.random_raw(16))


def test_game_words_are_the_games_row_of_seed_words():
    for index in (0, 5, BLOCK - 1, BLOCK, 3 * BLOCK + 7):
        assert np.array_equal(game_words(SEED, index), seed_words(SEED, index, 1)[0])
    with pytest.raises(ValueError):
        game_words(SEED, -1)
    with pytest.raises(ValueError):
        game_words(-2, 0)
