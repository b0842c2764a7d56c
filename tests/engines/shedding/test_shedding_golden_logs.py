"""Golden logs of the shedding games: one seeded game each, played by fixed bots, must replay
exactly as recorded in ``tests/engines/shedding/golden/`` (the rules, the chance streams and
the bots).  A deliberate change of any of them regenerates the file with
``python -m tests.engines.shedding.test_shedding_golden_logs`` and shows up in review as a diff."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import agents
import engines
from sim.runner import play_python

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "huit-americain": ({"players": 3}, ("shedder", "random", "random")),
    "menteur": ({"players": 3}, ("honest", "bluffer", "caller")),
    "nain-jaune": ({"players": 3, "max_deals": 2}, ("runner", "random", "random")),
    "empereur": ({"players": 3, "mode": "miroir_elite", "target_points": 300},
                 ("hoarder", "hoarder", "random")),
}


def golden_log(slug: str) -> list[str]:
    params, names = CASES[slug]
    game = engines.load(slug, **params)
    state = play_python(game, [agents.load(n, game=slug) for n in names], 2026, 0)
    result = state.result()
    return state.log + [f"ranks {list(result.ranks)}", f"scores {list(result.scores)}"]


@pytest.mark.parametrize("slug", sorted(CASES))
def test_a_seeded_game_replays_its_golden_log(slug):
    expected = (GOLDEN / f"{slug}.log").read_text(encoding="utf-8").splitlines()
    assert golden_log(slug) == expected


if __name__ == "__main__":
    for name in sys.argv[1:] or sorted(CASES):
        (GOLDEN / f"{name}.log").write_text("\n".join(golden_log(name)) + "\n",
                                            encoding="utf-8")
