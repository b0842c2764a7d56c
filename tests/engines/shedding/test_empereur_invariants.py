"""L'empereur over whole games: invariants with hypothesis (cards conserved at every step,
the talon climbs, every game ends, the records add up), determinism, hidden information, the
compiled playout, the ``hoarder`` bot on clear positions, the search agents and the result
tables."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
from engines.core.cards import parse_card
from engines.core.chance import uniform_index
from engines.families.shedding.rules import hand_at
from engines.games.empereur import rules as R
from engines.games.empereur import summary
from engines.games.empereur.params import MODES
from sim.runner import play_python
from tests.engines.shedding.empereur_helpers import check_conservation, load, position
from tests.engines.shedding.random_play import documented_tables, random_position
from tests.engines.shedding.shed_helpers import assert_world_keeps_the_seat, hand_of


@st.composite
def game_params(draw):
    return {"players": draw(st.integers(2, 6)), "mode": draw(st.sampled_from(MODES)),
            "num_rounds": draw(st.integers(1, 3)), "target_points": 60,
            "num_jokers": draw(st.sampled_from([0, 1, 2])),
            "lead_must_play": draw(st.booleans()), "penalty_skips_turn": draw(st.booleans()),
            "shuffle_recycled_pile": draw(st.booleans()),
            "miroir_elite_emperor_exchange": draw(st.booleans()),
            "miroir_joker_finish_points": draw(st.sampled_from(["all_remaining", "zero"])),
            "max_turns": 150, "max_rounds": 4}


def play(state, rng, hoarders=()):
    """Random play (the ``hoarder`` bot at the seats in ``hoarders``), checking every step."""
    bot = agents.load("hoarder", game="empereur")
    while not state.is_terminal():
        check_conservation(state)
        p = state.current_player
        actions = state.legal_actions()
        if p in hoarders:
            state.apply(bot.act(state.observation(p), actions, rng))
        else:
            state.apply(actions[uniform_index(rng, len(actions))])
    return state


@settings(max_examples=30)
@given(params=game_params(), seed=st.integers(0, 10_000))
def test_cards_are_conserved_and_every_game_ends_with_consistent_records(params, seed):
    state = play(load(**params).new_state(seed), np.random.default_rng(seed), hoarders=(0, 1))
    result = state.result()
    n = params["players"]
    assert sum(result.win_shares) == pytest.approx(1.0)
    assert min(result.ranks) == 1 and len(result.ranks) == n
    row, rounds = state.records()
    assert len(rounds) == result.stats["rounds"] * n
    games = summary.game_columns(state.game.params, row[None, :])
    table = summary.round_columns(state.game.params, rounds)
    for name in ("turns", "refills", "clears", "twos", "penalties"):
        assert games[name][0] == table[name].sum() // n
    for name in ("cards_drawn", "penalty_cards", "two_cards"):
        assert games[name][0] == table[name].sum()
    complete = table["complete"].reshape(-1, n)[:, 0]
    if result.stats["ending"] == "finished":
        assert complete.all()
        if params["mode"] in ("normal", "miroir_normal"):
            assert result.stats["rounds"] == params["num_rounds"]
    players = summary.player_columns(state.game.params, row[None, :])
    assert players["points"].sum() == table["points"].sum()


@settings(max_examples=12)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80),
       mode=st.sampled_from(MODES))
def test_observation_and_determinization_keep_what_the_seat_knows(seed, steps, mode):
    state = random_position(load(mode=mode, max_turns=300), seed, steps)
    if state is None:
        return
    player = state.current_player
    seen = state.observation(player)
    other = (player + 1) % 4
    # hidden but for the cards the seat gave that seat in the exchanges (it knows those)
    gave = state.s[R.KNOWN + player * R.CARDS:R.KNOWN + (player + 1) * R.CARDS] == other + 1
    assert hand_of(seen.array, R, other)[~gave].sum() == 0
    assert seen.hand == state.hand(player) and seen.talon == state.talon
    world = assert_world_keeps_the_seat(state, seen, check_conservation, 4)
    assert [len(world.hand(p)) for p in range(4)] == [len(state.hand(p)) for p in range(4)]
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="stale"):
        seen.determinize(np.random.default_rng(1))


def test_the_exchanges_give_the_highest_cards_and_serve_the_elus_in_order():
    """Subjects give one of their highest cards (Joker > 2 > A ...); the Exclu serves the
    first Élu out first."""
    game = load(players=3, mode="miroir_elite")
    state = position(game, ["3♠ 5♦", "A♥ 2♣ 4♠", "Joker 2♥ K♠ 9♦"], current=0)
    s = state.s
    s[R.PREV_EMPEROR] = 1
    s[R.PREV_EXCLU] = 2
    s[R.PREV_ORDER:R.PREV_ORDER + 2] = [1, 0]
    R.plan_exchanges(s, game.encoded_params)
    R.run_exchanges(s, game.encoded_params, np.random.default_rng(0))
    # Emperor exchange: P2 gives the Joker to P1, P0 gives 5♦ to P1; then P1 chooses
    assert state.phase == "give" and state.current_player == 1
    assert state.hand(1) == ["A♥", "5♦", "4♠", "2♣", "Joker"]
    state.apply("give 4")                     # to P2
    state.apply("give 5")                     # to P0
    # Miroir exchange: the Exclu P2 gives his highest (2♥) to P1 first, then K♠ to P0
    assert "2♥" in state.hand(1) and "K♠" in state.hand(0)
    assert state.current_player == 1
    # a gift is seen by its giver: P1 knows P2 holds the 4♠ he gave, P2 the Joker and 2♥
    seen = state.observation(1).array
    assert seen[hand_at(R.HAND, R.CARDS, 2) + parse_card("4♠")] == 1
    assert hand_of(seen, R, 2).sum() == 1
    seen = state.observation(2)
    assert hand_of(seen.array, R, 1).sum() == 2
    assert seen.array[R.KNOWN + R.CARDS:R.KNOWN + 2 * R.CARDS].sum() == 0
    world = seen.determinize(np.random.default_rng(5))
    assert {"Joker", "2♥"} <= set(world.hand(1)) and world.hand(2) == state.hand(2)
    check_conservation(world)


# --- the hoarder bot ------------------------------------------------------------------------
def hoarder_choice(state):
    bot = agents.load("hoarder", game="empereur")
    p = state.current_player
    return bot.act(state.observation(p), state.legal_actions(), np.random.default_rng(0)).text


def test_hoarder_plays_its_lowest_set_and_keeps_deux_and_jokers():
    state = position(load(players=2), ["5♥ 5♦ 9♣ 2♠ Joker", "3♠"], talon="4♣:4",
                     last_player=1)
    assert hoarder_choice(state) == "play 5 5"
    state = position(load(players=2), ["5♥ 2♠ Joker 7♣ 8♣", "3♠"], talon="K♣:K",
                     last_player=1)
    assert hoarder_choice(state) == "play 2"
    state = position(load(players=2), ["5♥ 6♦ Joker 7♣ 8♣", "3♠"], talon="K♣:K",
                     last_player=1)
    assert hoarder_choice(state) == "play Joker as K"
    state = position(load(players=2), ["5♥ 6♦ 7♣ 8♣", "3♠"], talon="K♣:K", last_player=1)
    assert hoarder_choice(state) == "draw"


def test_hoarder_goes_out_naturally_and_never_on_a_joker():
    state = position(load(players=2), ["9♥ 9♦", "3♠"], talon="4♣:4", last_player=1)
    assert hoarder_choice(state) == "play 9 9"
    state = position(load(players=2), ["Joker", "3♠"], talon="4♣:4", last_player=1)
    assert hoarder_choice(state) == "draw"
    state = position(load(players=2), ["Joker 9♥ J♦", "3♠"], talon="4♣:4", last_player=1)
    assert hoarder_choice(state) == "play Joker as 4"


def test_hoarder_gives_its_weakest_card():
    game = load(players=2, mode="elite")
    state = position(game, ["Q♠ 4♦ Joker", "A♥"], current=0)
    s = state.s
    s[R.PREV_EMPEROR] = 0
    R.plan_exchanges(s, game.encoded_params)
    R.run_exchanges(s, game.encoded_params, np.random.default_rng(0))
    assert hoarder_choice(state) == "give 4"


def test_bots_and_search_agents_play_whole_games():
    game = load(players=2, num_rounds=1, max_turns=400)
    bots = [agents.load("hoarder", game="empereur"),
            agents.load("flatmc", game="empereur", iterations=2)]
    check_conservation(play_python(game, bots, 1, 0))
    bots[1] = agents.load("ismcts", game="empereur", iterations=2)
    check_conservation(play_python(game, bots, 1, 1))
    game = load(players=4, mode="miroir_elite", target_points=60, max_turns=300)
    final = play_python(game, [agents.load("random")] * 4, 2, 0)
    assert final.is_terminal()


def test_batch_tables_hold_the_documented_columns():
    params = load(mode="elite", target_points=100).params
    tables = documented_tables("empereur", params, ("hoarder", "hoarder", "hoarder", "random"), 4)
    assert tables["rounds"].num_rows == 4 * sum(tables["games"].to_pydict()["rounds"])
    assert "hoarder" in agents.available("empereur")
    assert "hoarder" not in agents.available("menteur")
