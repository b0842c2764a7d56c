"""The tarot bots ``prudent`` and ``ducker``: positions where their choice is clear, and
whole games against ``random``."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import engines
from agents.tarot import BID_FROM, DuckerAgent, PrudentAgent, hand_count
from engines.games.tarot import rules as R
from sim.runner import play_python
from tests.engines.tricks.tarot_helpers import build, cards


def choose(bot, state):
    action = bot.act(state.observation(state.current_player), state.legal_actions(),
                     np.random.default_rng(0))
    assert action in state.legal_actions()
    return action.text


def bidding_with(hand: str, seed: int = 3):
    """A fresh 4-player deal, seat 0 to bid, holding ``hand`` (18 cards)."""
    state = engines.load("tarot", first_dealer=3, petit_sec_annul=False).new_state(seed)
    s = state.s
    mine = cards(hand)
    swap = [c for c in state.hand_of(0) if c not in mine]
    for old, new in zip(swap, [c for c in mine if c not in state.hand_of(0)], strict=True):
        s[R.LOCATION + old], s[R.LOCATION + new] = s[R.LOCATION + new], R.LOC_HAND + 0
        s[R.KNOWN + old], s[R.KNOWN + new] = s[R.KNOWN + new], 1
    state.refresh()
    assert set(state.hand_of(0)) == set(mine)
    return state


STRONG = "T21 T1 Excuse T20 T19 T18 T17 T16 T15 T14 R♥ R♦ R♠ R♣ D♥ 2♥ 3♥ 4♥"
WEAK = "T2 T3 2♥ 3♥ 4♥ 5♥ 6♥ 2♦ 3♦ 4♦ 5♦ 6♦ 2♠ 3♠ 4♠ 5♠ 2♣ 3♣"


def test_prudent_bids_by_counting_its_hand():
    strong, weak = bidding_with(STRONG), bidding_with(WEAK)
    assert BID_FROM[R.GARDE_CONTRE] > hand_count(strong.s, 0) >= BID_FROM[R.GARDE_SANS]
    assert hand_count(weak.s, 0) < BID_FROM[R.PRISE]
    bot = PrudentAgent()
    assert choose(bot, weak) == "pass"
    assert choose(bot, strong) == "bid garde sans"


def test_prudent_calls_the_king_of_its_longest_plain_suit():
    """Five players: the taker calls a card of the plain suit it holds most cards of, in
    each of the first 20 deals where seat 0 takes."""
    game = engines.load("tarot", players=5, first_dealer=4, petit_sec_annul=False)
    calls = 0
    for seed in range(400):
        state = game.new_state(seed)
        while state.phase == "bidding":
            state.apply("bid prise" if state.current_player == 0 else "pass")
        if state.phase != "calling" or state.current_player != 0:
            continue
        hand = state.hand_of(0)
        lengths = [sum(R.CARD_SUIT[c] == suit for c in hand) for suit in range(R.SUITS)]
        called = cards(choose(PrudentAgent(), state).split()[1])[0]
        assert lengths[R.CARD_SUIT[called]] == max(lengths), (lengths, called)
        calls += 1
        if calls == 20:
            return
    pytest.fail(f"only {calls} deals where seat 0 takes")


def test_prudent_discards_its_shortest_suit_and_never_a_king():
    state = engines.load("tarot", first_dealer=3, petit_sec_annul=False).new_state(3)
    for action in ("bid prise", "pass", "pass", "pass"):
        state.apply(action)
    text = choose(PrudentAgent(), state)
    card = cards(text.split()[1])[0]
    hand = state.hand_of(0)
    lengths = {s: sum(R.CARD_SUIT[c] == s for c in hand) for s in range(4)}
    allowed = [a.code - R.DISCARD for a in state.legal_actions()]
    assert lengths[R.CARD_SUIT[card]] == min(lengths[R.CARD_SUIT[c]] for c in allowed)
    assert R.rank_of(card) != R.KING_RANK


def test_prudent_gives_points_to_its_camp_when_it_plays_last():
    """The defender at seat 1 holds the trick with the 21; seat 3, last, void: a Queen."""
    state = build("tarot", {0: "1♠ 2♣", 1: "T21 3♣", 2: "2♠ 4♣", 3: "D♦ 2♦"}, leader=0,
                  trick_cards="1♠ T21 2♠")
    assert choose(PrudentAgent(), state) == "play D♦"


def test_prudent_takes_the_trick_cheaply_when_it_plays_last():
    state = build("tarot", {1: "7♥ 2♣", 2: "9♥ 3♣", 3: "2♥ 4♣", 0: "R♥ 10♥"}, leader=1,
                  trick_cards="7♥ 9♥ 2♥")
    assert choose(PrudentAgent(), state) == "play 10♥"


def test_prudent_keeps_the_petit_when_it_may_trump_higher():
    state = build("tarot", {1: "7♠ 2♣", 2: "T1 T7", 3: "2♠ 4♣", 0: "3♠ 5♣"}, leader=1,
                  trick_cards="7♠")
    assert choose(PrudentAgent(), state) == "play T7"


def test_prudent_leads_a_king():
    state = build("tarot", {0: "2♥ R♦ T5", 1: "3♥ 4♥ 5♥", 2: "6♥ 7♥ 8♥", 3: "9♥ 10♥ V♥"},
                  leader=0)
    assert choose(PrudentAgent(), state) == "play R♦"


def test_ducker_dumps_the_excuse_or_its_highest_losing_card():
    state = build("tarot-tare", {1: "10♦ 1♣", 2: "Excuse 2♦", 3: "3♣ 4♣", 0: "5♣ 6♣"},
                  leader=1, trick_cards="10♦", rest_to="dog")
    assert choose(DuckerAgent(), state) == "play Excuse"
    state = build("tarot-tare", {1: "V♦ 1♣ 2♣", 2: "R♦ 2♦ 5♦", 3: "3♣ 4♣ 7♣",
                                 0: "5♣ 6♣ 8♣"}, leader=1, trick_cards="V♦", rest_to="dog")
    assert choose(DuckerAgent(), state) == "play 5♦"


def test_ducker_forced_to_take_gives_the_fewest_points():
    state = build("tarot-tare", {1: "2♦ 1♣ 9♣", 2: "3♣ 4♣ 7♣", 3: "5♣ 6♣ 8♣",
                                 0: "R♦ D♦ C♦"}, leader=1, trick_cards="2♦ 3♣ 5♣",
                  rest_to="dog")
    assert choose(DuckerAgent(), state) == "play C♦"


def test_ducker_leads_its_weakest_plain_card():
    state = build("tarot-tare", {0: "T2 5♥ 1♠", 1: "3♥ 4♥ 6♥", 2: "7♥ 8♥ 9♥",
                                 3: "10♥ V♥ C♥"}, leader=0, rest_to="dog")
    assert choose(DuckerAgent(), state) == "play 1♠"


@pytest.mark.parametrize("slug, name", [("tarot", "prudent"), ("tarot-lorrain", "prudent"),
                                        ("tarot-tare", "ducker")])
def test_the_bots_are_registered_and_play_whole_games(slug, name):
    assert name in agents.available(slug)
    assert name not in agents.available("rikiki")
    game = engines.load(slug, players=5 if slug == "tarot" else 4, num_deals=2)
    bots = [agents.load(name, game=slug)] + [agents.load("random")] * (game.num_players - 1)
    state = play_python(game, bots, 6)
    assert state.is_terminal()
