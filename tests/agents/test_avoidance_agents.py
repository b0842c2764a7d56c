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


@pytest.mark.slow
def test_void_it_dumps_the_petasse_first():
    state = build("petasse", {0: "9♣ 8♦ 7♥", 1: "K♥ Q♠ A♦", 2: "A♣ 9♦ 8♥",
                              3: "10♣ J♦ 7♠"}, dealer=3)
    play(state, "play 9♣")
    assert choice(state, "petasse") == "play Q♠"


def test_void_without_the_queen_it_dumps_its_highest_heart():
    state = build("petasse", {0: "9♣ 8♦ 7♥", 1: "K♥ 8♥ A♦", 2: "A♣ 9♦ 10♥",
                              3: "10♣ J♦ 7♠"}, dealer=3)
    play(state, "play 9♣")
    assert choice(state, "petasse") == "play K♥"


def test_following_it_ducks_with_its_highest_card_below_the_trick():
    state = build("petasse", {0: "Q♦ 8♣ 7♥", 1: "K♦ J♦ 7♦", 2: "A♣ 9♦ 10♥",
                              3: "10♣ J♣ 7♠"}, dealer=3)
    play(state, "play Q♦")
    assert choice(state, "petasse") == "play J♦"


def test_forced_to_win_last_in_a_clean_trick_it_plays_its_highest():
    state = build("petasse", {0: "9♣ 8♦ 7♥", 1: "K♣ Q♣ A♦", 2: "8♣ 9♦ 10♥",
                              3: "7♣ J♦ 7♠"}, dealer=2, leader=2)
    play(state, "play 8♣", "play 7♣", "play 9♣")
    assert choice(state, "petasse") == "play K♣"


def test_void_in_chasse_coeur_it_dumps_the_queen_of_hearts():
    state = build("chasse-coeur", {0: "2♣ 3♦ 8♥", 1: "K♥ Q♥ A♦", 2: "5♣ 9♦ 2♥",
                                   3: "7♣ J♦ 7♠"}, dealer=3)
    play(state, "play 2♣", "play A♦", "play 5♣", "play 7♣")       # P3 wins, leads
    play(state, "play J♦", "play 3♦")
    # P1 played its A♦ in trick 1: void in diamonds, it dumps its most dangerous card
    assert choice(state, "chasse-coeur") == "play Q♥"


def test_it_leads_its_least_dangerous_card():
    state = build("petasse", {0: "A♠ 8♦ 7♥ Q♠", 1: "K♣ Q♣ A♦ 7♦", 2: "8♣ 9♦ 10♥ 9♠",
                              3: "7♣ J♦ 7♠ 8♠"}, dealer=3)
    assert choice(state, "petasse") == "play 8♦"


def test_dumper_takes_fewer_points_than_random():
    for slug, params in (("petasse", {"players": 4}), ("chasse-coeur", {"players": 4})):
        game = engines.load(slug, **params)
        bots = [agents.load("dumper", game=slug)] + [agents.load("random")] * 3
        totals = np.array([play_python(game, bots, 3, g).result().details["totals"]
                           for g in range(12)])
        assert totals[:, 0].mean() < 0.8 * totals[:, 1:].mean(), slug


def test_forced_to_win_before_the_last_seat_it_wins_with_its_lowest_card():
    state = build("petasse", {0: "10♥ 8♦ 7♥", 1: "K♣ Q♣ A♦", 2: "8♣ 9♦ 8♥",
                              3: "9♣ J♦ 7♠"}, dealer=2, leader=3)
    play(state, "play 9♣", "play 10♥")
    assert choice(state, "petasse") == "play Q♣"
