"""The ``dumper`` bot of chasse-coeur and pétasse on positions where its choice is clear,
and over whole games."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import engines
from sim.runner import play_python
from tests.engines.tricks.avoidance_helpers import build
from tests.engines.tricks.trick_helpers import play


def choice(state, slug) -> str:
    bot = agents.load("dumper", game=slug)
    p = state.current_player
    return bot.act(state.observation(p), state.legal_actions(), np.random.default_rng(0)).text


# (slug, hands, dealer and leader, cards played before, the dumper's card)
SCENARIOS = [
    pytest.param("petasse", {0: "9♣ 8♦ 7♥", 1: "K♥ Q♠ A♦", 2: "A♣ 9♦ 8♥", 3: "10♣ J♦ 7♠"},
                 {"dealer": 3}, ["play 9♣"], "play Q♠",
                 id="void-it-dumps-the-petasse-first", marks=pytest.mark.slow),
    pytest.param("petasse", {0: "9♣ 8♦ 7♥", 1: "K♥ 8♥ A♦", 2: "A♣ 9♦ 10♥", 3: "10♣ J♦ 7♠"},
                 {"dealer": 3}, ["play 9♣"], "play K♥",
                 id="void-without-the-queen-it-dumps-its-highest-heart"),
    pytest.param("petasse", {0: "Q♦ 8♣ 7♥", 1: "K♦ J♦ 7♦", 2: "A♣ 9♦ 10♥", 3: "10♣ J♣ 7♠"},
                 {"dealer": 3}, ["play Q♦"], "play J♦",
                 id="following-it-ducks-with-its-highest-card-below-the-trick"),
    pytest.param("petasse", {0: "9♣ 8♦ 7♥", 1: "K♣ Q♣ A♦", 2: "8♣ 9♦ 10♥", 3: "7♣ J♦ 7♠"},
                 {"dealer": 2, "leader": 2}, ["play 8♣", "play 7♣", "play 9♣"], "play K♣",
                 id="forced-to-win-last-in-a-clean-trick-it-plays-its-highest"),
    # P3 wins trick 1 and leads; P1 played its A♦ in it: void in diamonds, it dumps its
    # most dangerous card
    pytest.param("chasse-coeur",
                 {0: "2♣ 3♦ 8♥", 1: "K♥ Q♥ A♦", 2: "5♣ 9♦ 2♥", 3: "7♣ J♦ 7♠"},
                 {"dealer": 3},
                 ["play 2♣", "play A♦", "play 5♣", "play 7♣", "play J♦", "play 3♦"],
                 "play Q♥", id="void-in-chasse-coeur-it-dumps-the-queen-of-hearts"),
    pytest.param("petasse", {0: "A♠ 8♦ 7♥ Q♠", 1: "K♣ Q♣ A♦ 7♦", 2: "8♣ 9♦ 10♥ 9♠",
                             3: "7♣ J♦ 7♠ 8♠"},
                 {"dealer": 3}, [], "play 8♦", id="it-leads-its-least-dangerous-card"),
    pytest.param("petasse", {0: "10♥ 8♦ 7♥", 1: "K♣ Q♣ A♦", 2: "8♣ 9♦ 8♥", 3: "9♣ J♦ 7♠"},
                 {"dealer": 2, "leader": 3}, ["play 9♣", "play 10♥"], "play Q♣",
                 id="forced-to-win-before-the-last-seat-it-wins-with-its-lowest-card"),
]


@pytest.mark.parametrize("slug, hands, seats, before, expected", SCENARIOS)
def test_the_dumper_on_a_clear_position(slug, hands, seats, before, expected):
    state = build(slug, hands, **seats)
    play(state, *before)
    assert choice(state, slug) == expected


def test_dumper_takes_fewer_points_than_random():
    for slug, params in (("petasse", {"players": 4}), ("chasse-coeur", {"players": 4})):
        game = engines.load(slug, **params)
        bots = [agents.load("dumper", game=slug)] + [agents.load("random")] * 3
        totals = np.array([play_python(game, bots, 3, g).result().details["totals"]
                           for g in range(12)])
        assert totals[:, 0].mean() < 0.8 * totals[:, 1:].mean(), slug
