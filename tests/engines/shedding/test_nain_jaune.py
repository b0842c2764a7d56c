"""Le nain jaune: every scenario of the spec, the variants, invariants over random games
(hypothesis: cards and chips conserved, every game ends), determinism, hidden information,
the ``runner`` bot on clear positions, the search agents, the tables and the error paths."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.core.api import IllegalActionError
from engines.core.cards import parse_card
from engines.families.shedding.rules import hand_at
from engines.games.nain_jaune import rules as R
from sim.runner import play_python
from tests.engines.shedding.random_play import (
    documented_tables,
    play_random,
    random_position,
)
from tests.engines.shedding.shed_helpers import assert_world_keeps_the_seat, hand_of


def load(**params):
    return engines.load("nain-jaune", **params)


def position(game, hands, current=0, needed=0, pots=(4, 8, 12, 16, 20), chips=100,
             played_by=()):
    """A deal in progress: ``hands[p]`` for seat p, ``current`` to play the ``needed`` rank
    (0: a free lead); seats in ``played_by`` have already played this deal."""
    state = game.new_state(0)
    s = state.s
    s[R.HAND:R.HAND + R.MAX_PLAYERS * R.CARDS] = 0
    s[R.HAND_SIZE:R.HAND_SIZE + R.MAX_PLAYERS] = 0
    for p, names in enumerate(hands):
        for name in names.split():
            s[hand_at(R.HAND, R.CARDS, p) + parse_card(name)] = 1
            s[R.HAND_SIZE + p] += 1
    s[R.POT:R.POT + 5] = pots
    s[R.CHIPS:R.CHIPS + game.params.players] = chips
    s[R.PLAYED_DEAL:R.PLAYED_DEAL + R.MAX_PLAYERS] = 0
    for p in played_by:
        s[R.PLAYED_DEAL + p] = 1
    s[R.NEEDED] = needed
    s[R.CURRENT] = current
    s[R.LAST_PLAYER] = current
    return state


def legal(state):
    return [a.text for a in state.legal_actions()]


def test_the_first_deal_and_the_antes():
    """1. 4 players: 12 cards each, 4 in the écart; pots 4, 8, 12, 16, 20."""
    state = load(players=4).new_state(5)
    s = state.s
    assert [len(state.hand(p)) for p in range(4)] == [12] * 4
    assert int(s[R.ECART:R.ECART + 52].sum()) == 4
    assert list(s[R.POT:R.POT + 5]) == [4, 8, 12, 16, 20]
    assert list(s[R.CHIPS:R.CHIPS + 4]) == [105] * 4
    assert state.current_player == 0


@pytest.mark.parametrize("players, size", [(3, 15), (5, 9), (6, 8), (7, 7), (8, 6)])
def test_the_deal_table(players, size):
    state = load(players=players).new_state(1)
    assert {len(state.hand(p)) for p in range(players)} == {size}


def test_a_sequence_sans_and_the_nain_jaune():
    """2. P1 leads 3♦, plays 4♠ 5♠ 6♥, "sans 7"; P2 plays 7♦ or 7♣; the 7♦ wins its pot
    and P2 goes on with his 8."""
    state = position(load(), ["2♣", "3♦ 4♠ 5♠ 6♥ 9♣", "7♦ 7♣ 8♥ K♣", "2♥"], current=1)
    for card in ("3♦", "4♠", "5♠", "6♥"):
        assert state.current_player == 1
        state.apply(f"play {card}")
    assert state.current_player == 2 and legal(state) == ["play 7♦", "play 7♣"]
    state.apply("play 7♦")
    assert int(state.s[R.CHIPS + 2]) == 120 and int(state.s[R.POT + 4]) == 0
    assert state.current_player == 2 and legal(state) == ["play 8♥"]


def test_nobody_follows_and_the_last_player_leads_again():
    """3. After P1's "sans 7" nobody holds a 7: P1 leads any card."""
    state = position(load(), ["2♣", "3♦ 4♠ 9♣", "8♥ K♣", "2♥"], current=1)
    state.apply("play 3♦")
    state.apply("play 4♠")
    assert state.current_player == 1 and int(state.s[R.NEEDED]) == R.FREE
    assert legal(state) == ["play 9♣"]


def test_belles_cartes_and_the_king():
    """4. P3 plays Q♠ (its pot), then K♥ (its pot): the King lets him lead any card."""
    state = position(load(), ["2♣", "3♣", "4♣", "Q♠ K♥ 2♦ 5♦"], current=3, needed=12)
    state.apply("play Q♠")
    state.apply("play K♥")
    assert int(state.s[R.CHIPS + 3]) == 100 + 12 + 16
    assert state.current_player == 3 and legal(state) == ["play 2♦", "play 5♦"]


@pytest.mark.parametrize("double, doubled", [("pot", 20), ("base", 12)])
def test_payments_at_the_end_of_a_deal(double, doubled):
    """5. P2 goes out: P0 {5♣, K♠} pays 15, P1 {A♥, Q♠} pays 11 and doubles the Q♠ pot
    (its content, 20 here; with ``double_amount=base``, 4 players x 3)."""
    state = position(load(double_amount=double), ["5♣ K♠", "A♥ Q♠", "9♦", "2♥"],
                     current=2, needed=9, played_by=(0,), pots=(4, 8, 20, 16, 20))
    state.apply("play 9♦")
    s = state.s
    assert list(s[R.LAST_PAID:R.LAST_PAID + 4]) == [15, 11, 0, 2]
    assert int(s[R.LAST_CHIPS + 2]) == 128
    assert int(s[R.LAST_DOUBLED + 1]) == doubled
    assert int(s[R.LAST_CHIPS + 1]) == 100 - 11 - doubled
    assert not s[R.LAST_OPERA]
    rows = state._rounds[-1]
    assert rows[2, 2] == 1 and rows[1, 8] == doubled


@pytest.mark.parametrize("opera", [True, False])
def test_the_grand_opera(opera):
    """6. P1 plays all his cards before anyone else plays: all five pots too."""
    state = position(load(grand_opera=opera), ["5♣", "A♥ 2♥ 3♥", "9♦", "2♣"], current=1)
    for card in ("A♥", "2♥", "3♥"):
        state.apply(f"play {card}")
    s = state.s
    assert bool(s[R.LAST_OPERA]) == opera
    assert int(s[R.LAST_POTS_WON + 1]) == (60 if opera else 0)
    assert int(s[R.LAST_CHIPS + 1]) == 100 + 5 + 9 + 2 + (60 if opera else 0)


def test_variant_may_hold_back():
    state = position(load(may_hold_back=True), ["2♣", "3♦ 4♠ 9♣", "4♥", "2♥"], current=1)
    state.apply("play 3♦")
    assert legal(state) == ["play 4♠", "sans"]
    state.apply("sans")
    assert state.current_player == 2


def test_variant_forget_to_collect():
    state = position(load(forget_prob=1.0), ["2♣", "3♣", "4♣", "Q♠ 2♦"], current=3,
                     needed=12)
    state.apply("play Q♠")
    assert int(state.s[R.CHIPS + 3]) == 88 and int(state.s[R.POT + 2]) == 24


def test_the_game_ends_when_a_player_cannot_ante():
    state = position(load(), ["5♣ K♠", "A♥", "9♦", "2♥"], current=2, needed=9,
                     chips=(14, 100, 100, 100), played_by=(0,))
    state.apply("play 9♦")
    assert state.is_terminal()
    result = state.result()
    assert result.ranks[2] == 1 and result.stats["ending"] == "finished"


# --- invariants ---------------------------------------------------------------------------
@st.composite
def game_params(draw):
    return {"players": draw(st.integers(3, 8)), "start_chips": draw(st.sampled_from([30, 120])),
            "ante_once": draw(st.booleans()), "may_hold_back": draw(st.booleans()),
            "double_amount": draw(st.sampled_from(["pot", "base"])),
            "grand_opera": draw(st.booleans()),
            "forget_prob": draw(st.sampled_from([0.0, 0.3])), "max_deals": 40}


def check(state):
    s = state.s
    n = state.game.params.players
    total = int(s[R.CHIPS:R.CHIPS + n].sum() + s[R.POT:R.POT + 5].sum())
    assert total == n * state.game.params.start_chips
    if state.is_terminal():
        return
    cards = s[R.PLAYED:R.PLAYED + 52] + s[R.ECART:R.ECART + 52]
    for p in range(n):
        cards = cards + hand_of(s, R, p)
        assert hand_of(s, R, p).sum() == s[R.HAND_SIZE + p]
    assert (cards == 1).all()


@settings(max_examples=15)
@given(params=game_params(), seed=st.integers(0, 10_000))
def test_cards_and_chips_are_conserved_and_every_game_ends(params, seed):
    state = play_random(load(**params).new_state(seed), np.random.default_rng(seed), check)
    check(state)
    result = state.result()
    assert sum(result.win_shares) == pytest.approx(1.0)
    rows = state.records()[1]
    assert len(rows) == result.stats["rounds"] * params["players"]
    assert rows[:, 2].sum() == result.stats["rounds"]


@settings(max_examples=12)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_observation_and_determinization_keep_what_the_seat_knows(seed, steps):
    state = random_position(load(), seed, steps)
    if state is None:
        return
    player = state.current_player
    seen = state.observation(player)
    other = (player + 1) % 4
    assert hand_of(seen.array, R, other).sum() == 0
    assert_world_keeps_the_seat(state, seen, check, 4)


# --- bots -------------------------------------------------------------------------------
def runner_choice(state):
    bot = agents.load("runner", game="nain-jaune")
    p = state.current_player
    return bot.act(state.observation(p), state.legal_actions(), np.random.default_rng(0)).text


def test_runner_takes_the_belle_carte_and_leads_its_longest_run():
    state = position(load(), ["2♣", "3♣", "7♣ 7♦ 2♥", "2♦"], current=2, needed=7)
    assert runner_choice(state) == "play 7♦"
    state = position(load(), ["2♣ 3♠ 4♠ 5♥ 9♦", "3♣", "4♣", "2♦"], current=0)
    assert runner_choice(state) == "play 2♣"


def test_bots_and_search_agents_play_whole_games():
    game = load(players=3, max_deals=3)
    bots = [agents.load("runner", game="nain-jaune"), agents.load("random"),
            agents.load("flatmc", game="nain-jaune", iterations=3)]
    check(play_python(game, bots, 1, 0))
    bots[2] = agents.load("ismcts", game="nain-jaune", iterations=3)
    check(play_python(game, bots, 1, 1))


def test_batch_tables_hold_the_documented_columns():
    tables = documented_tables("nain-jaune", load().params,
                               ("runner", "random", "random", "random"), 4)
    assert tables["rounds"].num_rows == 4 * sum(tables["games"].to_pydict()["rounds"])


def test_errors_name_the_valid_choices():
    state = position(load(), ["2♣", "3♦ 4♠", "4♥", "2♥"], current=1, needed=3)
    with pytest.raises(IllegalActionError, match="legal: play 3♦"):
        state.apply("play 4♠")
    with pytest.raises(ValueError, match="valid values: pot, base"):
        load(double_amount="twice")
    with pytest.raises(ValueError, match="takes 5 values"):
        load(antes=(1, 2))
