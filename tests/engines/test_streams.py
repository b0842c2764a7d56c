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

import pytest

import engines
from engines.core.specialise import entry_point

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
