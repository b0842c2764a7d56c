"""What the trick games' tests check alike, one test over the games for each check: a seeded
random game replays its committed golden log (``golden/SLUG.log``), random agents at every
seat play whole games, and the search bots play a game among the game's own bots."""

from __future__ import annotations

import pytest

import agents
import engines
from sim.runner import play_python
from tests.engines.helpers import assert_golden_random_game

# slug -> (parameters, seed) of the game whose log is committed
GOLDEN = {
    "chasse-coeur": ({"players": 3, "first_dealer": 0, "num_hands": 1}, 20261130),
    "petasse": ({"players": 3, "first_dealer": 2, "loss_threshold": 1}, 20261130),
    "belote-a-trois": ({"first_dealer": 0, "target": 200}, 20261130),
    "belote-comptoir": ({"players": 3, "first_dealer": 2, "target": 2}, 20261130),
    "tarot": ({"num_deals": 2}, 11),
    "tarot-lorrain": ({"num_deals": 2}, 12),
    "tarot-tare": ({}, 13),
}


@pytest.mark.parametrize("slug", GOLDEN)
def test_golden_game_log(slug):
    assert_golden_random_game(__file__, slug, *GOLDEN[slug])


@pytest.mark.parametrize("slug, players", [
    ("chasse-coeur", 3), ("chasse-coeur", 6), ("chasse-coeur", 10), ("petasse", 3),
    ("petasse", 4), ("belote-a-trois", 3), ("belote-comptoir", 2), ("belote-comptoir", 5),
    ("belote-comptoir", 16)])
def test_random_agents_play_whole_games(slug, players):
    state = play_python(engines.load(slug, players=players),
                        [agents.load("random")] * players, players)
    assert state.is_terminal() and sum(state.result().win_shares) == pytest.approx(1.0)


# (slug, parameters, the search bot's iterations, the bots at the other seats)
SEARCH = [
    ("chasse-coeur", {"players": 3, "num_hands": 1}, 6, ("random", "dumper")),
    ("petasse", {"players": 3, "loss_threshold": 5}, 6, ("random", "dumper")),
    ("belote-a-trois", {"target": 150}, 4, ("random", "random")),
    ("belote-comptoir", {"players": 3, "target": 2, "max_bid": 40}, 4, ("random", "random")),
    ("tarot", {"num_deals": 1}, 3, ("random",) * 3),
    ("tarot-lorrain", {"num_deals": 1}, 3, ("random",) * 3),
    ("tarot-tare", {"num_deals": 1}, 3, ("random",) * 3),
    ("rikiki", {"players": 3, "hands": (3, 2)}, 8, ("random", "counter")),
    ("vicaire", {"num_games": 1, "max_deals": 2}, 6, ("random", "exact")),
]


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
@pytest.mark.parametrize("slug, params, iterations, others", SEARCH)
def test_search_bots_play_a_game(slug, params, iterations, others, name):
    bots = [agents.load(name, game=slug, iterations=iterations),
            *(agents.load(other, game=slug) for other in others)]
    state = play_python(engines.load(slug, **params), bots, seed=2)
    assert state.is_terminal() and sum(state.result().win_shares) == pytest.approx(1.0)
