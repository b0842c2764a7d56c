"""The belote bots (``taker``, ``claimer``) on positions where their choice is clear, and over
whole games."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import engines
from agents.belote import beats, strength
from engines.core.cards import HEARTS, SPADES, parse_card
from engines.games.belote import rules as R
from sim.runner import play_python
from tests.engines.tricks.belote_helpers import bidding, build

RNG = np.random.default_rng(0)


def choose(bot, state):
    player = state.current_player
    return bot.act(state.observation(player), state.legal_actions(), RNG).text


def test_strength_counts_trumps_and_aces():
    hand = tuple(parse_card(c) for c in "J♥ 9♥ A♠ K♦".split())
    assert strength(hand, HEARTS) == 20 + 14 + 11
    assert strength(hand, SPADES) == 11 + 2 - 2 + 0       # A♠ as trump (11), no plain ace


def test_taker_takes_a_strong_turned_suit_and_passes_a_weak_one():
    bot = agents.load("taker", game="belote-a-trois")
    strong = bidding("belote-a-trois", {0: "J♥ A♠ K♠ Q♦ 10♣", 1: "9♦ A♦ 10♠ Q♠ J♣",
                                        2: "K♦ 10♦ J♠ 9♠ Q♣"}, dealer=2, turned="9♥")
    assert choose(bot, strong) == "take"                  # J♥ 20 + 9♥ 14 + A♠ 11
    weak = bidding("belote-a-trois", {0: "Q♥ 10♠ K♠ Q♦ 10♣", 1: "9♦ A♦ A♠ Q♠ J♣",
                                      2: "K♦ 10♦ J♠ 9♠ Q♣"}, dealer=2, turned="K♥")
    assert choose(bot, weak) == "pass"


@pytest.mark.slow
def test_taker_names_its_strongest_suit_in_round_two():
    bot = agents.load("taker", game="belote-a-trois")
    state = bidding("belote-a-trois", {0: "J♣ 9♣ A♣ Q♦ 10♦", 1: "9♦ A♦ 10♠ Q♠ J♠",
                                       2: "K♦ 10♥ A♠ 9♠ Q♣"}, dealer=2, turned="K♥")
    state.apply("pass")
    state.apply("pass")
    state.apply("pass")
    assert choose(bot, state) == "take ♣"


def test_beats_tells_the_cards_that_win_the_trick():
    state = build("belote-a-trois", {0: "10♠ 7♦", 1: "A♠ K♠ 8♠", 2: "9♣ 7♣"}, taker=1,
                  dealer=2, remove_ranks="")
    state.apply("play 10♠")
    assert beats(state.observation(1), parse_card("A♠"))
    assert not beats(state.observation(1), parse_card("K♠"))


# (hands, taker, cards played before, the taker bot's card), belote à trois, 32 cards
PLAYS = [
    pytest.param({0: "10♠ 7♦", 1: "A♠ K♠ 8♠", 2: "9♣ 7♣"}, 1, ["play 10♠"], "play A♠",
                 id="it-wins-with-its-highest-winner"),
    pytest.param({0: "A♠ 7♦", 1: "K♠ 10♠ 8♠", 2: "9♣ 7♣"}, 1, ["play A♠"], "play 8♠",
                 id="without-a-winner-it-gives-its-lowest-card"),
    pytest.param({0: "A♠ 7♦", 1: "8♠ 9♦", 2: "10♠ 7♠"}, 1, ["play A♠", "play 8♠"],
                 "play 10♠", id="a-defender-loads-points-on-its-partners-trick"),
    pytest.param({0: "J♥ A♠ 7♦", 1: "8♠ 9♦ Q♣", 2: "10♠ 7♠ K♣"}, 0, [], "play J♥",
                 id="leading-it-plays-its-strongest-card"),
]


@pytest.mark.parametrize("hands, taker, before, expected", PLAYS)
def test_the_taker_bot_plays_the_clear_card(hands, taker, before, expected):
    bot = agents.load("taker", game="belote-a-trois")
    state = build("belote-a-trois", hands, taker=taker, dealer=2, remove_ranks="")
    for action in before:
        state.apply(action)
    assert choose(bot, state) == expected


def test_claimer_deals_the_most_cards_bids_its_strength_and_names_its_suit():
    bot = agents.load("claimer", game="belote-comptoir")
    state = engines.load("belote-comptoir", players=4, first_dealer=0).new_state(0)
    assert choose(bot, state) == "deal 5"
    state = bidding("belote-comptoir", {0: "J♥ 9♥ A♠", 1: "7♣ 8♣ 9♣"}, dealer=1,
                    cards_per_player="3")
    assert choose(bot, state) == "bid 55"                  # 20 + 14 + 11 + dix de der
    state.apply("bid 55")
    assert choose(bot, state) == "pass"                    # 7♣ 8♣ 9♣: 14 is not above 55
    state.apply("pass")
    assert choose(bot, state) == "trump ♥"


@pytest.mark.parametrize("slug, name, players", [("belote-a-trois", "taker", 3),
                                                 ("belote-comptoir", "claimer", 4)])
def test_bots_play_whole_games(slug, name, players):
    game = engines.load(slug, players=players)
    bots = [agents.load(name, game=slug)] + [agents.load("random")] * (players - 1)
    state = play_python(game, bots, seed=3)
    assert state.is_terminal()


def test_bots_are_registered_for_their_game_only():
    assert "taker" in agents.available("belote-a-trois")
    assert "taker" not in agents.available("belote-comptoir")
    assert "claimer" in agents.available("belote-comptoir")
    with pytest.raises(ValueError, match="unknown agent 'claimer' for belote-a-trois"):
        agents.load("claimer", game="belote-a-trois")
    assert R.TAKE in {a.code for a in engines.load("belote-a-trois").actions}
