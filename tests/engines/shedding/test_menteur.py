"""Le menteur: every scenario of the spec, the variants, invariants over random games
(hypothesis: cards conserved, every game ends), determinism, hidden information, the bots on
clear positions, the search agents, the batch tables and the API's error paths."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
from agents.menteur import truth_chance
from engines.core.api import IllegalActionError
from engines.core.seeding import decision_rng
from engines.games.menteur import rules as R
from sim.batch.spec import RunSpec
from sim.batch.tables import play_chunk
from sim.runner import play_python
from tests.engines.shedding.menteur_helpers import check_conservation, load, position
from tests.engines.shedding.random_play import (
    documented_tables,
    play_random,
    random_position,
)
from tests.engines.shedding.shed_helpers import assert_world_keeps_the_seat


def hand(state, p):
    return state.hand(p)


# --- the spec's scenarios -------------------------------------------------------------------
def test_a_lie_called_sends_the_pile_back_to_the_liar_who_leads_again():
    """1. P0 leads 5♥ as ♠; P1 calls: a lie, P0 takes the pile and leads a new suit."""
    state = position(load(players=3), ["5♥ 2♣", "3♣", "4♣"])
    state.apply("lay 5♥ as ♠")
    assert state.phase == "window" and state.current_player == 1
    state.apply("call")
    assert hand(state, 0) == ["5♥", "2♣"]
    assert state.phase == "lead" and state.current_player == 0
    assert state.log[-1] == "shown: 5♥ (a lie by P0)"


def test_a_truth_called_sends_the_pile_to_the_accuser_who_leads():
    """2. Pile of 3, suit ♠; P2 lays 9♠; P3 calls: the truth, P3 takes 4 cards and leads."""
    state = position(load(players=4), ["2♣", "3♣", "9♠ 4♣", "5♣"], pile="2♠ 3♠ 4♠",
                     owners=(3, 0, 1), suit="♠", current=2)
    state.apply("lay 9♠")
    assert state.current_player == 3
    state.apply("call")
    assert len(hand(state, 3)) == 5 and state.phase == "lead" and state.current_player == 3
    assert int(state.s[R.CORRECT_CALLS + 3]) == 0 and int(state.s[R.CALLS + 3]) == 1


def test_variant_after_truth_next_after_layer():
    state = position(load(players=4, after_truth="next_after_layer"),
                     ["2♣", "3♣", "9♠ 4♣", "5♣"], pile="2♠", owners=(1,), suit="♠",
                     current=2)
    state.apply("lay 9♠")
    state.apply("call")
    assert state.phase == "lead" and state.current_player == 3


def test_a_true_last_card_unchallenged_wins():
    """3. P1 has one card, lays 4♦ on ♦; nobody calls: P1 wins."""
    state = position(load(players=3), ["2♣ 3♣", "4♦", "5♣"], pile="2♦", owners=(0,),
                     suit="♦", current=1)
    state.apply("lay 4♦")
    state.apply("no call")
    state.apply("no call")
    assert state.is_terminal() and state.result().ranks == (2, 1, 2)


@pytest.mark.parametrize("called", [True, False])
def test_a_lie_on_the_last_card(called):
    """4. P1 lays K♣ on ♦ as his last card: called, he takes the pile and play goes on;
    not called, he wins (A6)."""
    state = position(load(players=3), ["2♣ 3♣", "K♣", "5♣"], pile="2♦", owners=(0,),
                     suit="♦", current=1)
    state.apply("lay K♣")
    if called:
        state.apply("call")
        assert not state.is_terminal() and hand(state, 1) == ["2♦", "K♣"]
        assert state.phase == "lead" and state.current_player == 1
    else:
        state.apply("no call")
        state.apply("no call")
        assert state.is_terminal() and state.result().stats["won_on_lie"]


def test_only_the_first_caller_in_turn_order_counts():
    """5. After P1 lays, P2 is asked first; his call closes the window."""
    state = position(load(players=4), ["2♣", "K♣ 3♣", "5♣", "6♣"], pile="2♦", owners=(0,),
                     suit="♦", current=1)
    state.apply("lay K♣")
    assert state.current_player == 2
    state.apply("call")
    assert int(state.s[R.CALLS + 2]) == 1 and int(state.s[R.CALLS + 3]) == 0
    assert state.phase == "lead"


def test_variant_random_caller_priority_asks_everyone_once():
    game = load(players=5, caller_priority="random")
    orders = set()
    for seed in range(12):
        state = position(game, ["2♣ 3♣", "4♣", "5♣", "6♣", "7♣"])
        state._stream = state.game.new_state(seed)._stream
        state.apply("lay 2♣ as ♣")
        asked = []
        while state.phase == "window":
            asked.append(state.current_player)
            state.apply("no call")
        assert sorted(asked) == [1, 2, 3, 4]
        orders.add(tuple(asked))
    assert len(orders) > 1


def test_a_follower_lays_any_card_and_the_leader_any_suit():
    state = position(load(players=3), ["5♥ 2♣", "3♣", "4♣"])
    assert [a.text for a in state.legal_actions()] == [
        f"lay {c} as {s}" for c in ("5♥", "2♣") for s in "♥♦♠♣"]
    state = position(load(players=3), ["5♥ 2♣", "3♣", "4♣"], pile="2♦", owners=(2,),
                     suit="♦")
    assert [a.text for a in state.legal_actions()] == ["lay 5♥", "lay 2♣"]


@pytest.mark.parametrize("rule, lie", [("always_lie", True), ("wild", False)])
def test_a_joker_is_a_lie_or_wild(rule, lie):
    state = position(load(players=3, deck=54, joker_rule=rule), ["Joker 2♣", "3♣", "4♣"])
    state.apply("lay Joker as ♠")
    state.apply("call")
    assert (state.current_player == 0) == lie


def test_play_to_last_ranks_everyone():
    state = position(load(players=3, play_to_last=True), ["2♦", "3♦", "4♣ 5♣"])
    state.apply("lay 2♦ as ♦")
    state.apply("no call")
    state.apply("no call")
    assert not state.is_terminal() and state.current_player == 1 and state.phase == "follow"
    state.apply("lay 3♦")
    state.apply("no call")
    assert state.is_terminal() and state.result().ranks == (1, 2, 3)


def test_the_deal_and_the_packs():
    for deck, size in ((52, 13), (32, 8), (54, 14)):
        state = load(players=4, deck=deck).new_state(3)
        check_conservation(state)
        assert sorted(len(hand(state, p)) for p in range(4))[-1] == size
        assert state.phase == "lead" and state.current_player == 0


def test_a_game_reaching_its_cap_is_recorded_as_capped():
    """Honest players are seldom caught, so no position comes back before the cap (random
    ones often end sooner, caught lying on a lead: a cycle)."""
    game = load(players=3, max_turns=10)
    state = play_python(game, [agents.load("honest", game="menteur")] * 3, 1, 0)
    assert state.result().stats["ending"] == "capped"
    assert int(state.s[R.DECISIONS]) == 10


# --- invariants, determinism, hidden information --------------------------------------------
@st.composite
def game_params(draw):
    return {"players": draw(st.integers(2, 10)), "deck": draw(st.sampled_from([52, 32, 54])),
            "joker_rule": draw(st.sampled_from(["always_lie", "wild"])),
            "after_truth": draw(st.sampled_from(["taker_leads", "next_after_layer"])),
            "caller_priority": draw(st.sampled_from(["turn_order", "random"])),
            "play_to_last": draw(st.booleans()), "max_turns": 3000}


@pytest.mark.slow
@settings(max_examples=20)
@given(params=game_params(), seed=st.integers(0, 10_000))
def test_cards_are_conserved_and_every_game_ends(params, seed):
    game = load(**params)

    def check(state):
        check_conservation(state)
        assert state.s[R.OUT + state.current_player] == 0

    state = play_random(game.new_state(seed), np.random.default_rng(seed), check)
    check_conservation(state)
    result = state.result()
    assert sum(result.win_shares) == pytest.approx(1.0)
    d = result.details
    assert all(c <= lay for c, lay in zip(d["lies"], d["lays"], strict=True))
    for p in range(game.params.players):
        assert d["piles_taken"][p] == d["caught"][p] + d["calls"][p] - d["correct_calls"][p]
    assert sum(d["calls"]) == result.stats["challenges"] == sum(d["piles_taken"])


@settings(max_examples=15)
@given(params=game_params(), seed=st.integers(0, 10_000), steps=st.integers(0, 80))
def test_observation_and_determinization_keep_what_the_seat_knows(params, seed, steps):
    game = load(**params)
    state = random_position(game, seed, steps)
    if state is None:
        return
    player = state.current_player
    seen = state.observation(player)
    assert seen.hand == hand(state, player)
    for card, owner in seen.pile:
        assert (card == R.HIDDEN) == (owner != player)
    assert_world_keeps_the_seat(state, seen, check_conservation, 5)


def test_clone_is_independent_and_stale_observations_refuse():
    state = load().new_state(4)
    seen = state.observation(0)
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert state.s[R.DECISIONS] == 0
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="stale"):
        seen.determinize(np.random.default_rng(0))


# --- bots -------------------------------------------------------------------------------
def choice(name, state, **options):
    bot = agents.load(name, game="menteur", **options)
    p = state.current_player
    return bot.act(state.observation(p), state.legal_actions(), np.random.default_rng(0)).text


def test_honest_tells_the_truth_when_it_can_and_leads_its_longest_suit():
    state = position(load(players=3), ["5♥ 2♣ 3♣ 9♦", "3♦", "4♣"], pile="2♦", owners=(2,),
                     suit="♦")
    assert choice("honest", state) == "lay 9♦"
    state = position(load(players=3), ["5♥ 2♣ 3♣ 9♦", "3♦", "4♣"])
    assert choice("honest", state) == "lay 2♣ as ♣"
    state = position(load(players=3), ["5♥ 2♣ 3♣", "3♦", "4♣"], pile="2♦", owners=(2,),
                     suit="♦")
    assert choice("honest", state) == "lay 5♥"          # must lie: its shortest suit


def test_bots_lie_with_a_joker_that_is_always_a_lie_and_keep_a_wild_one():
    hands = ["5♥ 2♣ Joker", "3♦", "4♣"]
    state = position(load(players=3, deck=54), hands, pile="2♦", owners=(2,), suit="♦")
    assert choice("honest", state) == "lay Joker"
    state = position(load(players=3, deck=54, joker_rule="wild"), hands, pile="2♦",
                     owners=(2,), suit="♦")
    assert choice("honest", state) == "lay 5♥"


def test_with_two_cards_left_the_bots_lay_the_lie_first_and_keep_a_true_last_card():
    state = position(load(players=3), ["9♦ 2♣", "3♦", "4♣"], pile="2♦", owners=(2,),
                     suit="♦")
    for name in ("honest", "bluffer", "caller"):              # the bluffer lies either way
        assert choice(name, state) == "lay 2♣"
    state = position(load(players=3), ["9♦ 2♣", "3♦", "4♣"])
    assert choice("honest", state) == "lay 2♣ as ♦"
    state = position(load(players=3), ["9♦ 2♣ 3♣", "3♦", "4♣"], pile="2♦", owners=(2,),
                     suit="♦")
    assert choice("honest", state) == "lay 9♦"          # three cards: the truth


def test_bluffer_lies_at_its_rate():
    state = position(load(players=3), ["5♥ 2♣ 3♣ 9♦", "3♦", "4♣"], pile="2♦", owners=(2,),
                     suit="♦")
    assert choice("bluffer", state, lie_rate=1.0) == "lay 5♥"
    assert choice("bluffer", state, lie_rate=0.0) == "lay 9♦"
    with pytest.raises(ValueError, match="lie_rate"):
        agents.load("bluffer", game="menteur", lie_rate=2)


def test_callers_call_a_certain_lie_and_caller_counts_cards():
    # P0 holds every diamond but 2♦: the 2♦ is in the pile (laid by P0), so P1's ♦ is a lie
    diamonds = " ".join(f"{r}♦" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                           "K", "A"))
    state = position(load(players=3), [diamonds, "2♣ 3♣", "4♣"], pile="2♦", owners=(0,),
                     suit="♦", current=1)
    state.apply("lay 2♣")
    state.s[R.CURRENT] = 0
    for name in ("honest", "bluffer", "caller"):
        assert choice(name, state) == "call"
    # P0 sees no diamond at all: the card is likely true, nobody calls
    state = position(load(players=3), ["2♣ 3♣", "4♦ 3♥", "4♣"], pile="2♦", owners=(2,),
                     suit="♦", current=1)
    state.apply("lay 4♦")
    state.s[R.CURRENT] = 0
    for name in ("honest", "bluffer", "caller"):
        assert choice(name, state) == "no call"


def test_everybody_calls_a_last_card_that_would_end_the_game():
    # P1 lays his last card, P2 cannot tell it is a lie, but letting it pass loses the game
    for name in ("honest", "bluffer"):
        state = position(load(players=3), ["2♣ 3♣", "4♥", "4♣ 5♣"], pile="2♦", owners=(2,),
                         suit="♦", current=1)
        state.apply("lay 4♥")
        assert choice(name, state) == "call"
        # with play_to_last two others still hold cards: P1's going out loses nothing
        state = position(load(players=3, play_to_last=True), ["2♣ 3♣", "4♥", "4♣ 5♣"],
                         pile="2♦", owners=(2,), suit="♦", current=1)
        state.apply("lay 4♥")
        assert choice(name, state) == "no call"
        # ... but it would leave the last other player last
        state = position(load(players=2, play_to_last=True), ["2♣ 3♣", "4♥"], pile="2♦",
                         owners=(0,), suit="♦", current=1)
        state.apply("lay 4♥")
        assert choice(name, state) == "call"


def window_chances(seed: int, index: int, seat: int) -> list[tuple[int, int, float]]:
    """A game of honest, bluffer, caller, honest: at each window where ``seat`` is asked,
    (the pile's number, the layer, ``truth_chance`` from ``seat``'s observation)."""
    game = load()
    bots = [agents.load(name, game="menteur") for name in ("honest", "bluffer", "caller",
                                                           "honest")]
    state, decisions, piles, seen = game.new_state(seed, index), decision_rng(seed, index), 0, []
    while not state.is_terminal():
        p = state.current_player
        observation = state.observation(p)
        piles += observation.phase == "lead"
        if observation.phase == "window" and p == seat:
            seen.append((piles, observation.layer, truth_chance(observation)))
        state.apply(bots[p].act(observation, state.legal_actions(), decisions))
    return seen


def test_the_estimate_falls_as_a_layer_lays_more_cards_on_one_pile():
    """Issue 22: the estimate was (suit cards unseen) / (cards unseen), the same at every
    card for a seat that had taken no pile: ``caller`` called nothing but last cards and
    every game went the same way."""
    for index in range(3):
        seen = window_chances(0, index, 2)
        assert len({round(chance, 6) for _, _, chance in seen}) > 10
        for (pile, layer, chance), (pile2, layer2, chance2) in pairwise(seen):
            if (pile, layer) == (pile2, layer2):
                assert chance2 <= chance + 1e-12


def test_a_mixed_table_plays_a_different_game_for_each_deal():
    """Issue 22: with honest, bluffer, caller, honest every game lasted 209 decisions with 2
    challenges and the caller (seat 2) won them all, whatever the deal."""
    for seating in ("fixed", "rotate"):
        spec = RunSpec(game="menteur", params=load().params,
                       agents=("honest", "bluffer", "caller", "honest"), seating=seating,
                       seed=0, games=60, chunk_size=60)
        tables = play_chunk(spec, 0, 60)
        games, players = tables["games"].to_pydict(), tables["players"].to_pydict()
        assert len(set(games["decisions"])) > 20
        assert len(set(games["challenges"])) > 5
        assert not any(games["capped"])
        wins: dict[str, float] = {}
        for agent, share in zip(players["agent"], players["win_share"], strict=True):
            wins[agent] = wins.get(agent, 0.0) + share
        assert all(0 < won < 0.8 * 60 for won in wins.values()), wins
        seats = np.array(players["win_share"]).reshape(60, 4).sum(axis=0)
        assert seats.max() < 0.8 * 60, seats


def test_bots_and_search_agents_play_whole_games():
    game = load(players=4, max_turns=400)
    bots = [agents.load("honest", game="menteur"), agents.load("bluffer", game="menteur"),
            agents.load("caller", game="menteur"),
            agents.load("flatmc", game="menteur", iterations=4)]
    state = play_python(game, bots, 3, 0)
    check_conservation(state)
    bots[3] = agents.load("ismcts", game="menteur", iterations=4)
    check_conservation(play_python(game, bots, 3, 1))


def test_batch_tables_hold_the_documented_columns():
    tables = documented_tables("menteur", load().params, ("honest", "bluffer", "caller", "random"),
                               6, ("games", "players"))
    games, players = tables["games"].to_pydict(), tables["players"].to_pydict()
    lies = np.array(players["lies"]).reshape(6, 4).sum(axis=1)
    assert (lies == np.array(games["lies"])).all()


# --- error paths ------------------------------------------------------------------------
def test_errors_name_the_valid_choices():
    state = position(load(players=3), ["5♥ 2♣", "3♣", "4♣"])
    with pytest.raises(IllegalActionError, match="legal: lay 5♥ as ♥"):
        state.apply("lay 3♣ as ♥")
    with pytest.raises(IllegalActionError, match="not a menteur action"):
        state.apply("pass")
    with pytest.raises(ValueError, match="valid values: 52, 32, 54"):
        load(deck=36)
