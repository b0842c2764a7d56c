"""Le pouilleux: every test scenario of the spec (rules in ``docs/rules/pouilleux.md``)
(positions with chosen hands), the mystérieux and holder_arranges variants, invariants over
random games (cards conserved, turn order, a single loser holding the pouilleux), determinism,
hidden information and whole games through the runner."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.core.api import IllegalActionError
from engines.core.cards import card_name, parse_card
from engines.games.pouilleux import rules as R
from sim.runner import play_python
from tests.engines.helpers import batch_frames


def load(**params):
    return engines.load("pouilleux", **params)


def ids(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def names(cards) -> list[str]:
    return sorted(card_name(c) for c in cards)


def position(hands: list[str], drawer: int = 0, **params):
    """A game whose seats hold ``hands`` (no pairs in them), ``drawer`` to draw; the cards not
    in any hand count as laid."""
    game = load(players=len(hands), **params)
    state = game.new_state(0)
    s = state.s
    s[R.HAND_SIZE:R.HAND_SIZE + R.MAX_PLAYERS] = 0
    s[R.LAID:R.LAID + R.CARDS] = 1
    s[R.EMPTIED_AT:R.EMPTIED_AT + R.MAX_PLAYERS] = -1
    for p, text in enumerate(hands):
        for card in ids(text):
            R.receive(s, p, card)
            s[R.LAID + card] = 0
    s[R.TURN] = 0
    R.start_turn(s, game.encoded_params, np.random.default_rng(0), drawer)
    return state


def draw_card(state, name: str):
    """The drawer draws the named card from his neighbour."""
    neighbour = int(state.s[R.NEIGHBOUR])
    k = state.hand(neighbour).index(parse_card(name))
    state.apply(f"draw {k}")
    return state


# --------------------------------------------------------------------------------------
# Spec scenarios (section 10)
# --------------------------------------------------------------------------------------
def test_1_three_players_are_dealt_17_cards_each():
    state = load().new_state(3)
    assert [int(state.s[R.INITIAL_CARDS + p]) for p in range(3)] == [17, 17, 17]
    held = sorted(c for p in range(3) for c in state.hand(p))
    laid = [c for c in range(52) if state.s[R.LAID + c]]
    assert sorted(held + laid) == sorted(set(range(52)) - {parse_card("J♣")})


def test_2_the_initial_pairing_lays_same_colour_pairs():
    s = R.STATE.new()
    for card in ids("K♥ K♦ K♠ 7♣ 7♠ J♠"):
        R.receive(s, 0, card)
    assert names(s[R.HAND:R.HAND + s[R.HAND_SIZE]]) == ["J♠", "K♠"]
    assert s[R.PAIRS] == 2


@pytest.mark.parametrize("a, b, pair", [("K♥", "K♠", False), ("J♠", "J♥", False),
                                        ("K♥", "K♦", True), ("7♣", "7♠", True)])
def test_3_only_same_rank_same_colour_cards_pair(a, b, pair):
    assert (R.partner(parse_card(a)) == parse_card(b)) == pair


def test_4_a_drawn_card_that_pairs_is_laid_and_the_neighbour_draws_next():
    state = position(["Q♦ 4♣", "Q♥ 9♠", "J♠ 2♥ 5♦"])
    draw_card(state, "Q♥")
    assert names(state.hand(0)) == ["4♣"]
    assert state.current_player == 1 and int(state.s[R.NEIGHBOUR]) == 2
    assert state.log[-1] == "P0 draws Q♥ from P1 and lays a pair"


def test_5_the_holder_of_the_last_card_the_pouilleux_loses():
    state = position(["4♣", "4♠", "J♠"])
    draw_card(state, "4♠")                          # P0 and P1 empty together
    assert state.is_terminal()
    result = state.result()
    assert int(state.s[R.LOSER]) == 2 and result.ranks == (1, 1, 3)
    assert result.win_shares == (0.5, 0.5, 0.0)
    assert state.log[-1] == "end: P2 keeps the pouilleux (J♠)"


def test_6_a_simultaneous_empty_is_a_shared_win_and_play_goes_on():
    state = position(["4♣", "4♠", "J♠ 9♦", "9♥"])
    draw_card(state, "4♠")                          # P0 and P1 empty at draw 1
    assert not state.is_terminal()
    assert state.current_player == 2 and int(state.s[R.NEIGHBOUR]) == 3
    draw_card(state, "9♥")                          # P2 pairs, P3 empties at draw 2
    assert state.is_terminal() and int(state.s[R.LOSER]) == 2
    assert state.result().ranks == (1, 1, 4, 3)
    assert state.result().win_shares == (0.5, 0.5, 0.0, 0.0)


def test_the_first_to_empty_wins_alone_and_later_empties_rank_after():
    state = position(["4♣", "4♠ 8♥", "J♠ 8♦"], drawer=0)
    draw_card(state, "4♠")                          # P0 empties at draw 1
    assert state.current_player == 1 and int(state.s[R.NEIGHBOUR]) == 2
    draw_card(state, "8♦")                          # P1 pairs his last card
    assert state.is_terminal()
    assert state.result().ranks == (1, 2, 3)
    assert state.result().win_shares == (1.0, 0.0, 0.0)


def test_a_player_empty_after_the_deal_has_emptied_first():
    for seed in range(200):
        state = load(players=8, deck=32).new_state(seed)
        empty = [p for p in range(8) if not state.hand(p)]
        if empty:
            assert all(int(state.s[R.EMPTIED_AT + p]) == 0 for p in empty)
            while not state.is_terminal():
                state.apply(state.legal_actions()[0])
            assert all(state.result().ranks[p] == 1 for p in empty)
            return
    pytest.fail("no deal with an empty hand in 200 seeds")


# --------------------------------------------------------------------------------------
# Variants, hidden information, errors
# --------------------------------------------------------------------------------------
def test_the_32_card_pack_deals_31_cards():
    state = load(deck=32).new_state(1)
    assert sum(int(state.s[R.INITIAL_CARDS + p]) for p in range(3)) == 31


def test_mysterieux_hides_the_pouilleux_until_the_end():
    removed = set()
    for seed in range(30):
        state = load(mysterieux=True).new_state(seed)
        removed.add(int(state.s[R.REMOVED]))
        assert int(state.s[R.POUILLEUX]) == R.partner(int(state.s[R.REMOVED]))
        assert state.observation(0).pouilleux == -1
        assert int(state.observation(1).array[R.REMOVED]) == -1
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        loser = int(state.s[R.LOSER])
        assert state.hand(loser) == (int(state.s[R.POUILLEUX]),)
        assert state.observation(0).pouilleux == int(state.s[R.POUILLEUX])
    assert len(removed) > 10
    assert load().new_state(0).observation(0).pouilleux == parse_card("J♠")


def test_holder_arranges_the_holder_places_the_pouilleux_where_the_drawer_picks():
    state = position(["4♣ 9♥", "J♠ 2♥ 5♦"], holder_arranges=True)
    assert state.current_player == 1
    assert [a.text for a in state.legal_actions()] == ["place 0", "place 1", "place 2"]
    state.apply("place 2")
    assert state.hand(1)[2] == parse_card("J♠") and state.current_player == 0
    state.apply("draw 2")
    assert parse_card("J♠") in state.hand(0)
    assert state.log[-2:] == ["P1 places the pouilleux at 2", "P0 draws J♠ from P1"]


def test_observations_hide_the_other_hands():
    state = position(["Q♦ 4♣", "Q♥ 9♠", "J♠ 2♥ 5♦"])
    obs = state.observation(0)
    assert names(obs.hand) == ["4♣", "Q♦"] and obs.hand_sizes == (2, 2, 3)
    assert (obs.array[R.HAND + R.MAX_HAND:R.HAND + R.MAX_HAND + 2] == -1).all()
    draw_card(state, "Q♥")
    assert int(state.observation(2).array[R.LAST_DRAWN]) == parse_card("Q♥")  # laid: public
    draw_card(state, "J♠")                         # P1 draws J♠ from P2: no pair
    assert int(state.observation(0).array[R.LAST_DRAWN]) == -1
    assert int(state.observation(2).array[R.LAST_DRAWN]) == parse_card("J♠")


def test_determinize_keeps_the_seats_hand_and_the_hand_sizes():
    state = load(players=4, mysterieux=True).new_state(5)
    state.apply("draw 0")
    before = state.s.copy()
    p = state.current_player
    other = state.observation(p).determinize(np.random.default_rng(2))
    assert np.array_equal(state.s, before)
    assert other.hand(p) == state.hand(p)
    assert [len(other.hand(q)) for q in range(4)] == [len(state.hand(q)) for q in range(4)]
    unseen = sorted(c for q in range(4) if q != p for c in state.hand(q))
    unseen_other = sorted(c for q in range(4) if q != p for c in other.hand(q))
    assert sorted(unseen + [int(state.s[R.REMOVED])]) == \
        sorted(unseen_other + [int(other.s[R.REMOVED])])
    obs = state.observation(p)
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="stale"):
        obs.determinize(np.random.default_rng(0))


def test_illegal_actions_and_parameters():
    state = position(["Q♦ 4♣", "Q♥ 9♠", "J♠ 2♥ 5♦"])
    with pytest.raises(IllegalActionError, match="legal: draw 0 .. draw 1"):
        state.apply("draw 5")
    with pytest.raises(IllegalActionError, match="not a pouilleux action"):
        state.apply("pass")
    with pytest.raises(ValueError, match="32"):
        load(deck=36)
    with pytest.raises(ValueError, match="players"):
        load(players=9)


# --------------------------------------------------------------------------------------
# Invariants, determinism, runner
# --------------------------------------------------------------------------------------
@settings(max_examples=40)
@given(players=st.integers(2, 8), deck=st.sampled_from([52, 32]), mysterieux=st.booleans(),
       arranges=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_cards_are_conserved_and_one_player_keeps_the_pouilleux(players, deck, mysterieux,
                                                                arranges, seed):
    game = load(players=players, deck=deck, mysterieux=mysterieux, holder_arranges=arranges)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    everything = sorted(int(c) for c in game.encoded_params[R.P_DECK:R.P_DECK + deck])
    while not state.is_terminal():
        s = state.s
        held = [c for p in range(players) for c in state.hand(p)]
        laid = [c for c in range(52) if s[R.LAID + c]]
        assert sorted(held + laid + [int(s[R.REMOVED])]) == everything
        for p in range(players):                   # no pair stays in a hand
            hand = set(state.hand(p))
            assert not any(R.partner(c) in hand for c in hand)
        if state.s[R.PHASE] == R.DRAW:
            drawer, neighbour = state.current_player, int(s[R.NEIGHBOUR])
            assert state.hand(drawer) and state.hand(neighbour) and drawer != neighbour
            between = [(drawer + i) % players for i in range(1, players)]
            assert all(not state.hand(q) for q in between[:between.index(neighbour)])
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    result = state.result()
    loser = int(state.s[R.LOSER])
    assert state.hand(loser) == (int(state.s[R.POUILLEUX]),)
    assert result.ranks[loser] == players and sum(result.win_shares) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_search_bots_play_a_game(name):
    game = load(players=3, holder_arranges=True)
    bot = agents.load(name, game="pouilleux", iterations=3)
    state = play_python(game, [bot, agents.load("random"), agents.load("random")], 4)
    assert state.is_terminal()


def test_the_batch_runner_writes_the_tables():
    tables = batch_frames("pouilleux", ("random",) * 3, 30)
    games, players = tables["games"], tables["players"]
    assert (players.groupby("game_id")["lost"].sum() == 1).all()
    assert (games["removed_card"] == parse_card("J♣")).all()
    assert (players.groupby("game_id")["dealt_pouilleux"].sum() == 1).all()
