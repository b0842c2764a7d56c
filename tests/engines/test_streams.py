"""The compiled calls the Python API makes (engines.core.streams), written once for every game:
every rules module declares whether its ``apply_action`` draws, and a second process loads
each game's calls from numba's cache instead of compiling them again."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import engines
from engines.core import streams
from engines.core.specialise import entry_point
from engines.games.paris_damis import rules as paris

# every game's rules module (several games may share one)
RULES = sorted({engines.game_class(slug).rules.__name__ for slug in engines.available()})


@pytest.mark.parametrize("name", RULES)
def test_every_rules_module_declares_whether_apply_action_draws(name):
    rules = importlib.import_module(name)
    apply_action = entry_point(rules, "apply_action")
    parameters = inspect.signature(apply_action.py_func).parameters
    assert len(parameters) == (4 if rules.APPLY_DRAWS else 3)     # (s, pr, action[, rng])


def test_a_second_process_compiles_no_call_again(tmp_path):
    """A trick game, a shedding game and a rummy game played through the Python API (deal,
    decisions, playout): a second process finds every call of engines.core.streams they make in
    numba's cache, each specialised per rules module by an argument's type."""
    script = textwrap.dedent("""
        import json, numpy as np, engines
        from engines.core import streams
        for slug, params in (("rikiki", {"hands": 2}), ("huit-americain", {}),
                             ("rami", {"num_hands": 1})):
            state = engines.load(slug, **params).new_state(1)
            for _ in range(6):
                state.apply(state.legal_actions()[0])
            state.clone().playout(np.random.default_rng(2))
        calls = {name: getattr(streams, name) for name in
                 ("advance_with_stream", "step_with_stream", "playout_with_stream", "decide")}
        print(json.dumps({
            "misses": sum(sum(c.stats.cache_misses.values()) for c in calls.values()),
            "loaded": {name: sorted(sig[0].tag for sig in c.stats.cache_hits)
                       for name, c in calls.items()}}))
    """)
    path = tmp_path / "load.py"
    path.write_text(script)
    for _ in range(2):      # the first run may compile (a fresh cache); the second may not
        done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                              check=True)
    report = json.loads(done.stdout)
    assert report["misses"] == 0
    rikiki, huit, rami = "engines.games.rikiki.rules", "engines.games.huit_americain.rules", \
        "engines.games.rami.rules"
    assert report["loaded"] == {"advance_with_stream": [rikiki],
                                "step_with_stream": [huit, rami],
                                "playout_with_stream": [huit, rami, rikiki],
                                "decide": [rami, rikiki]}


@pytest.mark.parametrize("slug, params", [("paris-damis", {"players": 3}), ("rikiki", {}),
                                          ("tarot", {"num_deals": 3}), ("chasse-coeur", {})])
def test_a_simulation_cut_at_a_round_s_end_ranks_the_seats_there(slug, params):
    """``play_rounds`` plays as ``play_to_end`` does until the rounds asked have been played,
    then ends the game with the rules' ranking of the standings; with no limit it is
    ``play_to_end``."""
    game = engines.load(slug, **params)
    rules = game.rules
    assert streams.has_rounds(rules)
    for seed in range(4):
        state = game.new_state(seed)
        whole, cut, again = state.s.copy(), state.s.copy(), state.s.copy()
        actions = state._buffer.copy()

        def streams_of(seed=seed):
            return np.random.default_rng(seed), np.random.default_rng(seed + 50)
        streams.play_to_end(game.tag, whole, state._pr, *streams_of(), actions)
        streams.play_rounds(game.tag, again, state._pr, *streams_of(), actions, 0)
        assert np.array_equal(again, whole)
        limit = state.s[rules.ROUNDS_PLAYED] + 1
        assert whole[rules.ROUNDS_PLAYED] > limit                # the cut is a real one
        streams.play_rounds(game.tag, cut, state._pr, *streams_of(), actions, limit)
        assert cut[rules.ROUNDS_PLAYED] == limit and cut[rules.PHASE] == rules.OVER
        ranks = cut[rules.RANK:rules.RANK + game.num_players]
        assert ranks.min() == 1 and not np.array_equal(cut, whole)
        if slug == "paris-damis":                     # ranked on the suit scores then
            keys = [paris.ranking_key(cut, state._pr, p) for p in range(game.num_players)]
            for a in range(game.num_players):
                above = sum(k > keys[a] for k in keys)
                assert ranks[a] == above + 1 or (above == 0 and ranks[a] == 2)  # tie-break


def test_games_without_rounds_have_no_horizon():
    assert not streams.has_rounds(engines.game_class("huit-americain").rules)
    assert not streams.has_rounds(engines.game_class("bataille").rules)
