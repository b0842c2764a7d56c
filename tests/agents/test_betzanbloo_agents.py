"""Betzanbloo bots: ``safe``, ``contrarian`` and ``responder`` on positions where their
choice is clear, whole games with every bot, and the search bots' blindness to the hidden
choices of the turn."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from engines.games.betzanbloo import rules as R
from sim.runner import play_python
from tests.engines.betzanbloo.betz_helpers import load, play_turn, start, with_threshold

HEURISTIC = ("safe", "contrarian", "responder")


def choose(name, state, **options):
    bot = agents.load(name, game="betzanbloo", **options)
    state.refresh()                     # the tests write positions into state.s
    player = state.current_player
    return bot.act(state.observation(player), state.legal_actions(),
                   np.random.default_rng(0)).text


def test_the_bots_are_registered_for_betzanbloo_only():
    for name in HEURISTIC:
        assert name in agents.available("betzanbloo")
        assert name not in agents.available("paris-damis")
    with pytest.raises(ValueError, match="unknown agent 'safe' for paris-damis"):
        agents.load("safe", game="paris-damis")


@pytest.mark.parametrize("threshold, safe, safe_highest, contrarian", [
    (3, "play 4", "play 10", "play 2"),     # the table is expected above: 7 cards of 9
    (8, "play 1", "play 7", "play 10"),     # ... below: 7 cards of 9
])
def test_safe_follows_the_crowd_and_contrarian_avoids_it(threshold, safe, safe_highest,
                                                          contrarian):
    state = start(threshold, players=4)
    assert choose("safe", state) == safe
    assert choose("safe", state, card="highest") == safe_highest
    assert choose("contrarian", state) == contrarian


def test_a_bot_without_a_card_in_its_camp_plays_its_lowest_of_the_other():
    state = start(3, players=3)
    state.s[R.HAND] = (1 << 7) | (1 << 9) | (1 << 10)      # nothing below 3
    assert choose("contrarian", state) == "play 7"
    state.s[R.HAND] = (1 << 1) | (1 << 2)                  # nothing above 3
    assert choose("safe", state) == "play 1"


def test_the_crowd_is_read_from_the_others_hands():
    state = start(6, players=3)
    # with full hands 4 cards of 9 are above 6: the crowd is below
    assert choose("safe", state) == "play 1"
    state.s[R.HAND + 1] = state.s[R.HAND + 2] = sum(1 << v for v in (1, 7, 8, 9, 10))
    assert choose("safe", state) == "play 7"               # now 4 of 5 above


@pytest.mark.parametrize("name", HEURISTIC)
@pytest.mark.parametrize("scoring, expected", [("points", "capture 10"),
                                               ("diamonds", "capture 6")])
def test_bots_capture_the_card_that_scores_most(name, scoring, expected):
    state = play_turn(start(4, scoring=scoring), [1, 10, 6])   # P0 alone below
    assert state.current_player == 0
    assert choose(name, state) == expected


def test_responder_follows_the_odds_of_uniform_play_without_history():
    state = start(8, players=3)
    for _ in range(2):
        state.apply("play 1")
    # the others go below with probability 7/9 each: alone above with 10 pays most
    assert choose("responder", state) == "play 10"


def test_responder_best_responds_to_a_table_that_always_plays_above():
    state = start(3, players=3)
    for threshold, cards in ((3, [6, 6, 4]), (4, [7, 7, 5]), (5, [9, 9, 6])):
        with_threshold(state, threshold)
        play_turn(state, cards)                     # everyone above, every time
    with_threshold(state, 8)
    play_turn(state, [1, 1])
    # by their hands the others would go below (1 card of 6 above 8), by their play above:
    # alone below with the highest card below is the best response
    assert choose("responder", state) == "play 7"
    assert choose("responder", state, prior=16.0) == "play 10"


def test_responder_reads_the_observation_not_the_hidden_choices():
    a = start(8, players=3)
    b = start(8, players=3)
    play_turn(a, [9, 10])
    play_turn(b, [1, 2])
    assert choose("responder", a) == choose("responder", b)


@pytest.mark.parametrize("players", [3, 6, 8])
def test_every_bot_plays_whole_games(players):
    game = load(players=players)
    names = ["safe", "contrarian", "responder", "random", "flatmc"][:players]
    names += ["safe"] * (players - len(names))
    bots = [agents.load(n, game="betzanbloo", **({"iterations": 5} if n == "flatmc" else {}))
            for n in names]
    for seed in range(3):
        state = play_python(game, bots, seed)
        assert state.is_terminal()
        assert sum(state.result().win_shares) == pytest.approx(1.0)
        again = play_python(game, bots, seed)
        assert again.log == state.log


def test_contrarian_does_better_than_safe_at_a_table_of_safe_bots():
    game = load(players=5)
    bots = [agents.load("contrarian")] + [agents.load("safe")] * 4
    shares = np.zeros(5)
    for seed in range(40):
        shares += play_python(game, bots, seed).result().win_shares
    assert shares[0] > shares[1:].mean()


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_search_bots_cannot_see_the_choices_of_the_turn(name):
    bot = agents.load(name, game="betzanbloo", iterations=20)
    chosen = set()
    for cards in ([9, 1], [2, 10], [7, 7]):
        state = play_turn(start(5, players=4), cards)
        chosen.add(bot.act(state.observation(2), state.legal_actions(),
                           np.random.default_rng(3)).text)
    assert len(chosen) == 1
