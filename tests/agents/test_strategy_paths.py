"""The strategy bots (greedy, cautious, aggressive) choose the same actions on the Python path
(compiled decision on the seat's masked observation) as in the batch kernel (the same
decision on the state): identical games on >= 200 seeds each, alone and at mixed tables, under
rule variants.  Since the Python path sees only the observation, agreement also shows that the
kernel's strategies read nothing hidden."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from sim.runner import play_kernel, play_python

SEED = 31
STRATEGIES = ("greedy", "cautious", "aggressive")


def assert_same_games(game, names, seed, start, count):
    bots = [agents.load(n, game=game.slug) for n in names]
    out = play_kernel(game, names, seed, start, count, keep_states=True)
    for g in range(count):
        state = play_python(game, bots, seed, start + g)
        assert np.array_equal(state.s, out.finals[g]), f"{names} game {start + g} differs"


@pytest.mark.slow
@pytest.mark.parametrize("name", STRATEGIES)
def test_a_strategy_plays_identical_games_on_both_paths(name):
    for players, start in ((2, 0), (3, 70), (4, 140)):
        assert_same_games(engines.load("paris-damis", players=players), [name] * players,
                          SEED, start, 70)


@pytest.mark.slow
@pytest.mark.parametrize("names", [("greedy", "cautious", "aggressive", "random"),
                                   ("random", "aggressive", "greedy"),
                                   ("cautious", "greedy")])
def test_mixed_tables_play_identical_games_on_both_paths(names):
    assert_same_games(engines.load("paris-damis", players=len(names)), list(names), SEED, 0,
                      70)


@pytest.mark.parametrize("names", [("greedy@blindbet", "greedy@tuned", "aggressive"),
                                   ("greedy@tuned", "greedy@blindbet", "cautious",
                                    "greedy@blindbet")])
def test_blind_bettors_play_identical_games_on_both_paths(names):
    # random_bet draws from the decision stream on both paths alike
    assert_same_games(engines.load("paris-damis", players=len(names)), list(names), SEED, 0,
                      40)


VARIANTS = st.fixed_dictionaries({
    "players": st.integers(2, 4), "jokers": st.integers(0, 2),
    "joker_rule": st.sampled_from(["wild", "tiebreak"]),
    "discard": st.sampled_from(["half-down", "half-up", "none", "all"]),
    "column_tie": st.sampled_from(["first-placed", "last-placed", "nobody"]),
    "empty_column": st.sampled_from(["stays", "discard"]),
    "bet_options": st.sampled_from(["players", "four"]),
    "mulligan": st.booleans(), "scoring": st.sampled_from(["lowest-suit", "total"]),
    "correct_bet_cards": st.sampled_from(["10", "8", "12,10,9,8"]),
    "correct_bet_by": st.sampled_from(["value", "order"]),
})


@settings(max_examples=25)
@given(params=VARIANTS, seed=st.integers(0, 2**32 - 1), name=st.sampled_from(STRATEGIES))
def test_strategies_finish_legal_games_under_every_variant(params, seed, name):
    game = engines.load("paris-damis", **params)
    names = [name] + ["random"] * (game.num_players - 1)
    assert_same_games(game, names, seed, 0, 2)          # apply() refuses an illegal action


def test_strategy_parameters_are_validated():
    bot = agents.load("greedy", game="paris-damis", margin=3)
    assert bot.params.margin == 3
    with pytest.raises(ValueError, match="valid keys"):
        agents.load("greedy", game="paris-damis", colour=1)
    with pytest.raises(ValueError, match="margin"):
        agents.load("greedy", game="paris-damis", margin=0)
    with pytest.raises(ValueError, match="available agents"):
        agents.load("greedy", game="chess")
