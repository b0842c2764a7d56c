"""Huit américain invariants over random games and random parameters (hypothesis), hidden
information, determinism, whole games with the ``random`` and search agents, the ``shedder``
bot on clear positions, the batch tables, and the kernel playing the Python path's games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
from engines.games.huit_americain import rules as R
from engines.games.huit_americain import summary
from sim.runner import play_kernel, play_python
from tests.engines.shedding.huit_helpers import check_conservation, hand, load, position
from tests.engines.shedding.random_play import (
    documented_tables,
    play_random,
    random_position,
)
from tests.engines.shedding.shed_helpers import assert_world_keeps_the_seat, hand_of


@st.composite
def game_params(draw):
    decks = draw(st.sampled_from([1, 2]))
    return {
        "num_decks": decks,
        "players": draw(st.integers(2, 5 if decks == 1 else 8)),
        "eight_must_match": draw(st.booleans()),
        "voluntary_draw": draw(st.booleans()),
        "drawn_card_optional": draw(st.booleans()),
        "counter_optional": draw(st.booleans()),
        "seven_skip_two_players": draw(st.booleans()),
        "kh_resume": draw(st.sampled_from(["last_kh_player", "first_attacker"])),
        "carte_call": draw(st.booleans()),
        "carte_forget": draw(st.sampled_from([0.0, 0.5, 1.0])),
        "rank_all": draw(st.booleans()),
    }


@pytest.mark.slow
@settings(max_examples=25)
@given(params=game_params(), seed=st.integers(0, 10_000))
def test_cards_are_conserved_and_every_game_ends(params, seed):
    game = load(**params)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)

    def check(state):
        check_conservation(state)
        assert state.legal_actions(), "a seat to play always has an action"
        s = state.s
        assert s[R.OUT + state.current_player] == 0, "a player who is out never plays"

    play_random(state, rng, check, limit=100_000)
    assert state.is_terminal()
    check_conservation(state)
    result = state.result()
    assert sum(result.win_shares) == pytest.approx(1.0)
    assert result.scores == tuple(-len(hand(state, p)) for p in range(game.params.players))
    if result.stats["ending"] == "finished":
        winner = result.ranks.index(1)
        assert hand(state, winner) == []
    assert sum(result.details["cards_drawn"]) >= sum(result.details["penalty_cards"])


@settings(max_examples=15)
@given(params=game_params(), seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_observation_and_determinization_keep_what_the_seat_knows(params, seed, steps):
    game = load(**params)
    state = random_position(game, seed, steps)
    if state is None:
        return
    player = state.current_player
    before = state.s.copy()
    seen = state.observation(player)
    assert seen.hand == hand(state, player)
    assert seen.hand_sizes == tuple(len(hand(state, p)) for p in range(game.params.players))
    other = (player + 1) % game.params.players
    if state.phase != "drawn":
        assert hand_of(state.observation(other).array, R, player).sum() == 0
    world = assert_world_keeps_the_seat(state, seen, check_conservation, 5)
    assert (state.s == before).all()
    for p in range(game.params.players):
        assert len(hand(world, p)) == len(hand(state, p))


def test_a_stale_observation_cannot_be_determinized():
    state = load().new_state(4)
    seen = state.observation(0)
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="stale"):
        seen.determinize(np.random.default_rng(0))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_random_agents_play_whole_games(players):
    game = load(players=players)
    bots = [agents.load("random")] * players
    endings = set()
    for index in range(20):
        state = play_python(game, bots, 11, index)
        check_conservation(state)
        endings.add(state.result().stats["ending"])
    assert "finished" in endings


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_search_agents_play_a_game(name):
    game = load(players=3)
    bots = [agents.load(name, game="huit-americain", iterations=8), agents.load("random"),
            agents.load("random")]
    state = play_python(game, bots, 2, 0)
    assert state.is_terminal()
    check_conservation(state)


# --- the shedder bot on clear positions ----------------------------------------------------
def shedder_choice(state):
    bot = agents.load("shedder", game="huit-americain")
    player = state.current_player
    return bot.act(state.observation(player), state.legal_actions(), np.random.default_rng(0)
                   ).text


def test_shedder_goes_out_when_it_can():
    state = position(load(players=3), ["5♦", "3♣", "4♣"], "9♦")
    assert shedder_choice(state) == "play 5♦"
    state = position(load(players=3), ["8♠", "3♣", "4♣"], "9♦")
    assert shedder_choice(state).startswith("play 8♠")


def test_shedder_keeps_its_eights_and_attacks_first():
    state = position(load(players=3), ["8♠ 5♦ A♦ 2♣", "3♣", "4♣"], "9♦")
    assert shedder_choice(state) == "play A♦"
    state = position(load(players=3), ["8♠ 5♦ 2♣", "3♣", "4♣"], "9♦")
    assert shedder_choice(state) == "play 5♦"


def test_shedder_announces_its_longest_suit():
    state = position(load(players=3), ["8♠ 2♣ 3♣ 4♣ 5♥", "3♣", "4♣"], "9♦")
    assert shedder_choice(state) == "play 8♠ → ♣"


def test_shedder_plays_from_its_longest_suit_and_calls_carte():
    state = position(load(players=3), ["5♦ 9♣ 2♣ 3♣", "3♣", "4♣"], "9♦")
    assert shedder_choice(state) == "play 9♣"
    game = load(players=3, carte_call=True, carte_forget=1.0)
    state = position(game, ["5♠ 2♥", "3♣", "4♣"], "Q♠", stock="2♦ 3♦")
    state.apply("play 5♠")
    assert shedder_choice(state) == "call carte"


def test_shedder_beats_random():
    game = load(players=2)
    bots = [agents.load("shedder", game="huit-americain"), agents.load("random")]
    out = play_kernel(game, ["shedder", "random"], 5, 0, 400)
    shares = summary.player_columns(game.params, out.rows)["win_share"].mean(axis=0)
    assert shares[0] > 0.55
    state = play_python(game, bots, 5, 0)
    assert state.result().win_shares == tuple(summary.player_columns(
        game.params, out.rows[:1])["win_share"][0].tolist())


# --- kernel and tables ---------------------------------------------------------------------
@pytest.mark.parametrize("params, agent_names", [
    ({}, ["random"] * 4),
    ({"players": 3, "num_decks": 1, "rank_all": True, "carte_call": True},
     ["random", "shedder", "random"]),
    ({"players": 2, "voluntary_draw": True, "counter_optional": True,
      "drawn_card_optional": True, "kh_resume": "first_attacker"}, ["shedder", "random"]),
])
def test_the_kernel_plays_the_python_paths_games(params, agent_names):
    game = load(**params)
    bots = [agents.load(n, game="huit-americain") for n in agent_names]
    out = play_kernel(game, agent_names, 13, 0, 200, keep_states=True)
    for index in range(200):
        state = play_python(game, bots, 13, index)
        assert np.array_equal(state.s, out.finals[index]), index
        row, _ = state.records()
        assert np.array_equal(row, out.rows[index])


def test_batch_tables_hold_the_documented_columns():
    tables = documented_tables("huit-americain", load().params,
                               ("random", "shedder", "random", "shedder"), 30,
                               ("games", "players"))
    games, players = tables["games"].to_pydict(), tables["players"].to_pydict()
    assert len(players["seat"]) == 120
    drawn = np.array(players["cards_drawn"]).reshape(30, 4).sum(axis=1)
    assert (drawn == np.array(games["cards_drawn"])).all()
