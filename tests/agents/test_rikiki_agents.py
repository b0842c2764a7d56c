"""The Rikiki ``counter`` bot on positions where its choice is clear, and over whole games."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.rikiki import counted_winners
from engines.games.rikiki import rules as R
from sim.runner import play_python
from tests.engines.tricks.rikiki_helpers import build, load
from tests.engines.tricks.trick_helpers import play

P0, P1, P2, P3 = range(4)


def choice(state) -> str:
    bot = agents.load("counter", game="rikiki")
    player = state.current_player
    return bot.act(state.observation(player), state.legal_actions(),
                   np.random.default_rng(0)).text


def test_it_bids_its_top_trumps_and_aces():
    # P1 holds the three top trumps: three sure winners
    state = build({P0: "2♣ 3♣ 4♣", P1: "A♠ K♠ Q♠", P2: "5♣ 6♣ 7♣", P3: "8♣ 9♣ 10♣"},
                  dealer=P0, trump="2♠")
    assert counted_winners(state.observation(P1).array, state.game.encoded_params,
                           P1) == pytest.approx(3.0)
    assert choice(state) == "bid 3"


def test_it_bids_nothing_with_low_cards_of_a_plain_suit():
    state = build({P0: "2♣ 3♣", P1: "2♥ 3♦", P2: "5♣ 6♣", P3: "8♣ 9♣"}, dealer=P0,
                  trump="2♠")
    assert choice(state) == "bid 0"


def test_under_the_hook_it_takes_the_nearest_legal_bid():
    state = build({P0: "A♠ K♠", P1: "2♥ 3♥", P2: "5♣ 6♣"}, dealer=P0, trump="2♠",
                  hook_rule=True)
    play(state, "bid 0", "bid 0")
    assert choice(state) == "bid 1"                # 2 would make the total: forbidden


def test_needing_a_trick_it_plays_its_cheapest_sure_winner():
    state = build({P0: "2♣ 3♣", P1: "A♥ K♥", P2: "5♥ 6♣", P3: "8♣ 9♣"}, dealer=P0,
                  trump="2♠", hands=(2,))
    play(state, "bid 1", "bid 0", "bid 0", "bid 0")
    # P1 leads: trumps are unseen, so no lead is sure: it leads its strongest card
    assert choice(state) == "play A♥"
    state.apply("play A♥")
    play(state, "play 5♥", "play 8♣", "play 2♣")
    # P1 took its trick: it now leads its weakest card
    assert choice(state) == "play K♥"


def test_a_sure_winner_is_played_when_no_trump_can_beat_it():
    state = build({P0: "2♣ 3♣", P1: "A♥ K♥", P2: "5♥ 6♣", P3: "8♣ 9♣"}, dealer=P0,
                  trump=None, hands=(2,))
    play(state, "bid 1", "bid 0", "bid 0", "bid 0")
    assert choice(state) == "play K♥"         # no trump: the K♥ loses only to the A♥, its own



def test_playing_last_it_wins_with_the_cheapest_card_that_beats_the_trick():
    state = build({P0: "Q♥ A♥", P1: "2♥ 3♣", P2: "10♥ 4♣", P3: "J♥ 5♣"}, dealer=P0,
                  trump="2♠", hands=(2,))
    play(state, "bid 0", "bid 0", "bid 0", "bid 1")
    play(state, "play 2♥", "play 10♥", "play J♥")
    assert choice(state) == "play Q♥"


def test_with_its_tricks_made_it_ducks_under_the_trick():
    state = build({P0: "Q♥ 9♥", P1: "K♥ 3♣", P2: "10♥ 4♣", P3: "J♥ 5♣"}, dealer=P0,
                  trump="2♠", hands=(2,))
    play(state, "bid 0", "bid 0", "bid 0", "bid 0")
    play(state, "play K♥", "play 10♥", "play J♥")
    assert choice(state) == "play Q♥"              # the highest card below the K♥


def test_with_nothing_to_win_it_leads_its_weakest_card():
    state = build({P0: "Q♥ 2♦", P1: "K♣ 3♣", P2: "10♥ 4♣", P3: "J♥ 5♣"}, dealer=P3,
                  trump="2♠", hands=(2,))
    play(state, "bid 0", "bid 0", "bid 0", "bid 0")
    assert choice(state) == "play 2♦"


def test_counter_beats_random():
    game = load(players=4, hands=(5,))
    bots = [agents.load("counter", game="rikiki")] + [agents.load("random")] * 3
    made = [play_python(game, bots, 7, g).result().details["made_bids"] for g in range(60)]
    counter, others = sum(m[0] for m in made), sum(sum(m[1:]) for m in made) / 3
    assert counter > 1.5 * others


def test_counter_is_registered_for_rikiki_only():
    assert "counter" in agents.available("rikiki")
    assert "counter" not in agents.available("ascenseur-atouts")
    assert R.N_ACTIONS == 79
