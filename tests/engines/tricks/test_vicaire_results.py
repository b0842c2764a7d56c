"""Vicaire result tables through sim.batch's Python path (figures that agree; the documented
columns: tests/contract), and the ``exact`` bot on positions where its choice is clear."""

from __future__ import annotations

import numpy as np

import agents
import engines
from agents.vicaire import tricks_needed
from engines.games.vicaire.params import VicaireParams
from sim.runner import play_python
from tests.engines.helpers import checked_frames, per_seat
from tests.engines.tricks.trick_helpers import play
from tests.engines.tricks.vicaire_helpers import build


def test_tables_agree_with_each_other():
    tables = checked_frames("vicaire", ("exact", "random", "random"), 8, kernel=None,
                            num_games=2)[1]
    games, players, rounds = tables["games"], tables["players"], tables["rounds"]
    assert (games.games == 2).all()
    merged = per_seat(players, rounds, paid=("payout", "sum"), won=("won_game", "sum"),
                      took=("tricks", "sum"))
    assert (merged.score == merged.paid).all() and (merged.games_won == merged.won).all()
    assert (merged.tricks == merged.took).all()
    assert (rounds.groupby(["game_id", "round"]).tricks.sum() == 10).all()
    assert (rounds.points == rounds.tricks).all() and (rounds.trump == 0).all()
    assert (games.decisions == 30 * games.rounds).all()


# ======================================================================================
# The exact bot
# ======================================================================================
def choice(state) -> str:
    p = state.current_player
    return agents.load("exact", game="vicaire").act(
        state.observation(p), state.legal_actions(), np.random.default_rng(0)).text


def test_target_arithmetic():
    params = VicaireParams()
    assert tricks_needed(params, 7, 0, 10) == 3           # 10
    assert tricks_needed(params, 10, 0, 10) == 5          # 15: a trick is needed this deal
    assert tricks_needed(params, 8, 3, 7) == 4            # 11 passed 10: aims at 15
    assert tricks_needed(params, 8, 3, 2) == 0            # 15 and 20 out of reach: duck
    assert tricks_needed(params, 8, 2, 1) == 0            # on 10: duck
    assert tricks_needed(params, 4, 0, 3) == 0            # 10 and 15 out of reach: duck


def test_needing_tricks_it_wins_with_its_strongest_winner():
    state = build({0: "9♣ 8♦", 1: "K♣ 7♥", 2: "A♦ 9♠"}, dealer=2, totals=(0, 8, 0))
    play(state, "play 9♣")
    assert choice(state) == "play K♣"


def test_on_target_it_ducks_under_the_trick():
    state = build({0: "Q♣ 8♦", 1: "J♣ A♣", 2: "A♦ 9♠"}, dealer=2, totals=(0, 13, 0))
    play(state, "play Q♣")
    # at 13 it needs both tricks for 15: it wins; at 9 + 1 this deal it ducks
    assert choice(state) == "play A♣"
    state = build({0: "Q♣ 8♦", 1: "J♣ A♣", 2: "A♦ 9♠"}, dealer=2, totals=(0, 10, 0))
    state.s[state.game.rules.TOTAL + 1] = 9
    state.s[state.game.rules.TRICKS + 1] = 1
    play(state, "play Q♣")
    assert choice(state) == "play J♣"


def test_void_and_on_target_it_does_not_trump():
    state = build({0: "Q♣ 8♦", 1: "7♥ 8♠", 2: "A♦ 9♠"}, dealer=2, totals=(0, 9, 0))
    state.s[state.game.rules.TRICKS + 1] = 1
    play(state, "play Q♣")
    assert choice(state) == "play 8♠"


def test_exact_wins_more_games_than_random():
    game = engines.load("vicaire", num_games=1)
    bots = [agents.load("exact", game="vicaire")] + [agents.load("random")] * 2
    won = np.array([play_python(game, bots, 9, g).result().details["games_won"]
                    for g in range(40)])
    assert won[:, 0].sum() > 1.3 * won[:, 1:].sum() / 2
