"""Le baccara: every test scenario of the spec (rules in ``docs/rules/baccara.md``), the
variants, the exact check of the natural and third-card frequencies (and the outcome of a coup)
computed by enumeration against a compiled simulation, invariants (chips and cards conserved),
determinism, the bots at 5 and whole sessions through the runner."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import agents
import engines
from engines.core.api import IllegalActionError
from engines.core.cards import parse_card
from engines.games.baccara import rules as R
from sim.runner import play_python
from tests.engines.helpers import batch_frames, random_steps


def load(**params):
    return engines.load("baccara", **params)


def stack(state, text: str):
    """The next cards of a continuous one-deck shoe set to ``text`` (swapped in from where
    they were, so the shoe stays one deck)."""
    s = state.s
    at = int(s[R.DEALT])
    shoe = s[R.SHOE:R.SHOE + R.DECK]
    for offset, name in enumerate(text.split()):
        card = parse_card(name)
        where = int(np.flatnonzero(shoe == card)[0])
        assert where >= at + offset
        shoe[at + offset], shoe[where] = shoe[where], shoe[at + offset]
    return state


def table(players=2, **params):
    """A session with a continuous shoe, so that tests can stack the next cards."""
    return load(players=players, reshuffle_each_coup=False, **params).new_state(1)


# --------------------------------------------------------------------------------------
# Spec scenarios (section 8)
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("cards, value", [("8♠ 7♥", 5), ("K♠ 9♥", 9), ("10♠ J♥", 0),
                                          ("A♠ 2♥ 9♣", 2)])
def test_1_hand_values_keep_the_units(cards, value):
    s = R.STATE.new()
    ids = [parse_card(c) for c in cards.split()]
    s[R.HAND:R.HAND + len(ids)] = ids
    s[R.HAND_SIZE] = len(ids)
    assert R.hand_value(s, R.ROLE_PONTE) == value


def test_2_a_natural_is_shown_at_once_and_wins_without_draws():
    state = stack(table(), "9♠ 7♥ 10♦ K♣")
    state.apply("stake 10")
    state.apply("banco")                            # P1 is the ponte
    assert state.chips == (90, 110)
    assert state.log[-1] == ("coup 1 (bank P0, ponte P1, staked 10): ponte 9♠ 10♦ = 9, "
                             "banker 7♥ K♣ = 7 -> ponte, bank -10")


def test_3_the_ponte_at_4_draws_and_the_banker_at_6_stands():
    state = stack(table(), "3♠ 6♥ A♦ K♣ 5♣")
    state.apply("stake 10")
    state.apply("banco")
    assert state.chips == (90, 110)
    assert state.log[-1].endswith("ponte 3♠ A♦ 5♣ = 9, banker 6♥ K♣ = 6 -> ponte, bank -10")


@pytest.mark.parametrize("banker_wins, chips", [(True, (105, 97, 98)), (False, (95, 103, 102))])
def test_4_a_partial_cover_makes_the_largest_contributor_ponte(banker_wins, chips):
    cards = "2♠ 9♥ 5♦ K♣" if banker_wins else "9♠ 2♥ K♦ 5♣"
    state = stack(table(players=3), cards)
    state.apply("stake 5")
    assert state.current_player == 2                # the banker's right speaks first
    state.apply("decline")
    state.apply("decline")
    state.apply("contribute 2")                     # P2
    assert [a.text for a in state.legal_actions()][-1] == "contribute 3"
    state.apply("contribute 3")                     # P1: the largest, the ponte
    assert state.log[-1].startswith("coup 1 (bank P0, ponte P1, staked 5)")
    assert state.chips == chips


def test_5_no_contribution_reaching_half_voids_the_coup_and_the_bank_passes():
    state = table(players=3)
    state.apply("stake 5")
    state.apply("decline")
    state.apply("decline")
    state.apply("contribute 2")
    state.apply("contribute 2")
    assert state.chips == (100, 100, 100)
    assert state.log[-1] == "coup 1 (bank P0, stake 5): void, nobody covered half the stake"
    assert int(state.s[R.BANKER]) == 2 and state.current_player == 2 and state.phase == "stake"


def test_6_a_tie_moves_no_chips_and_the_same_banker_offers_the_same_stake():
    state = stack(table(), "7♠ 7♥ K♦ K♣")
    state.apply("stake 10")
    state.apply("banco")
    assert state.chips == (100, 100)
    assert state.log[-1].endswith("-> tie, bank +0")
    assert state.phase == "banco" and int(state.s[R.BANKER]) == 0
    assert int(state.s[R.STAKE]) == 10


# --------------------------------------------------------------------------------------
# Decisions at 5, visibility, variants
# --------------------------------------------------------------------------------------
def test_the_ponte_and_the_banker_choose_at_5_and_see_a_face_up_third_card():
    state = stack(table(), "2♠ 2♥ 3♦ 3♣ 4♠ A♣")
    state.apply("stake 10")
    state.apply("banco")
    assert state.phase == "ponte at 5" and state.current_player == 1
    assert [a.text for a in state.legal_actions()] == ["draw", "stand"]
    state.apply("draw")                             # 2 + 3 + 4 = 9
    assert state.phase == "banker at 5" and state.current_player == 0
    seen = state.observation(0).hand(R.ROLE_PONTE)
    assert seen == (-1, -1, parse_card("4♠"))
    state.apply("draw")                             # 2 + 3 + A = 6
    assert state.chips == (90, 110)


def test_a_face_down_third_card_is_hidden_from_the_banker():
    state = stack(table(third_card_face_up=False), "2♠ 2♥ 3♦ 3♣ 4♠")
    state.apply("stake 10")
    state.apply("banco")
    state.apply("draw")
    assert state.observation(0).hand(R.ROLE_PONTE) == (-1, -1, -1)
    assert state.observation(1).hand(R.ROLE_PONTE) == tuple(parse_card(c)
                                                            for c in ("2♠", "3♦", "4♠"))


def test_all_stakes_stay_deals_again_after_a_tie_without_staking():
    state = stack(table(tie_rule="all_stakes_stay"), "7♠ 7♥ K♦ K♣ 9♠ 2♥ K♥ 5♣")
    state.apply("stake 10")
    state.apply("banco")
    assert state.log[-2].endswith("tie, bank +0")
    assert state.log[-1].endswith("-> ponte, bank -10")
    assert state.chips == (90, 110)


def test_rotate_on_banker_loss_keeps_a_winning_banker():
    state = stack(table(rotate_on="banker_loss"), "2♠ 9♥ 5♦ K♣")
    state.apply("stake 10")
    state.apply("banco")                            # ponte 7 stands, banker 9 wins
    assert state.chips == (110, 90) and int(state.s[R.BANKER]) == 0
    state = stack(table(), "2♠ 9♥ 5♦ K♣")
    state.apply("stake 10")
    state.apply("banco")
    assert int(state.s[R.BANKER]) == 1


def test_banker_reduces_lowers_the_stake_after_a_void():
    state = table(players=3, void_rule="banker_reduces")
    state.apply("stake 5")
    for action in ("decline", "decline", "contribute 2", "contribute 2"):
        state.apply(action)
    assert state.phase == "stake" and state.current_player == 0
    assert [a.text for a in state.legal_actions()][-1] == "stake 4"


def test_illegal_actions_and_parameters_are_refused_with_the_reason():
    state = table()
    with pytest.raises(IllegalActionError, match="legal: stake 1"):
        state.apply("banco")
    with pytest.raises(IllegalActionError, match="not a baccara action"):
        state.apply("bank")
    with pytest.raises(ValueError, match="banker_loss"):
        load(rotate_on="always")
    with pytest.raises(ValueError, match="at most 1000"):
        load(players=8, start_chips=200)


# --------------------------------------------------------------------------------------
# Exact frequencies by enumeration against a compiled simulation
# --------------------------------------------------------------------------------------
VALUE_COUNTS = [16] + [4] * 9                       # one deck: 10 J Q K are worth 0


def enumerate_coup(ponte_draws_5: bool, banker_draws_5: bool) -> dict[str, float]:
    """Exact probabilities of one coup from a fresh deck, by enumerating every sequence of
    card values (ponte, banker, ponte, banker, then the third cards) with its probability."""
    out = dict.fromkeys(("ponte_natural", "banker_natural", "ponte_draws", "banker_draws",
                         "banker_wins", "ponte_wins", "tie"), 0.0)
    counts = list(VALUE_COUNTS)

    def take(v, left):
        p = counts[v] / left
        counts[v] -= 1
        return p

    def settle(prob, ponte, banker):
        key = "tie" if ponte == banker else ("banker_wins" if banker > ponte
                                             else "ponte_wins")
        out[key] += prob

    def banker_turn(prob, ponte, banker, left):
        if banker <= 4 or (banker == 5 and banker_draws_5):
            out["banker_draws"] += prob
            for v in range(10):
                if counts[v]:
                    p = take(v, left)
                    settle(prob * p, ponte, (banker + v) % 10)
                    counts[v] += 1
        else:
            settle(prob, ponte, banker)

    for v1 in range(10):
        p1 = take(v1, 52)
        for v2 in range(10):
            if not counts[v2]:
                continue
            p2 = take(v2, 51)
            for v3 in range(10):
                if not counts[v3]:
                    continue
                p3 = take(v3, 50)
                for v4 in range(10):
                    if not counts[v4]:
                        continue
                    prob = p1 * p2 * p3 * take(v4, 49)
                    ponte, banker = (v1 + v3) % 10, (v2 + v4) % 10
                    out["ponte_natural"] += prob * (ponte >= 8)
                    out["banker_natural"] += prob * (banker >= 8)
                    if ponte >= 8:
                        settle(prob, ponte, banker)
                    elif ponte <= 4 or (ponte == 5 and ponte_draws_5):
                        out["ponte_draws"] += prob
                        for v5 in range(10):
                            if counts[v5]:
                                p5 = take(v5, 48)
                                banker_turn(prob * p5, (ponte + v5) % 10, banker, 47)
                                counts[v5] += 1
                    else:
                        banker_turn(prob, ponte, banker, 48)
                    counts[v4] += 1
                counts[v3] += 1
            counts[v2] += 1
        counts[v1] += 1
    return out


KEYS = ("ponte_natural", "banker_natural", "ponte_draws", "banker_draws", "banker_wins",
        "ponte_wins", "tie")


@njit
def _simulate(pr, coups, ponte_draws_5, banker_draws_5, rng, out):
    """Two players; the banker stakes 1, the other calls banco, each draws at 5 or not by
    the given policy; sessions restart when they end.  ``out`` counts KEYS over ``coups``."""
    s = np.empty(R.STATE_SIZE, dtype=np.int32)
    done = 0
    while done < coups:
        R.new_game(s, pr)
        R.advance(s, pr, rng)
        while s[R.PHASE] != R.OVER and done < coups:
            phase = s[R.PHASE]
            if phase == R.COUP_END:
                if s[R.OUTCOME] != R.VOID:
                    out[0] += s[R.NATURAL]
                    out[1] += s[R.NATURAL + 1]
                    out[2] += s[R.HAND_SIZE] == 3
                    out[3] += s[R.HAND_SIZE + 1] == 3
                    out[4] += s[R.OUTCOME] == R.BANKER_WINS
                    out[5] += s[R.OUTCOME] == R.PONTE_WINS
                    out[6] += s[R.OUTCOME] == R.TIE
                    done += 1
                R.resume(s, pr, rng)
            elif phase == R.SET_STAKE:
                R.apply_action(s, pr, R.STAKE_ACTION, rng)
            elif phase == R.FULL_COVER:
                R.apply_action(s, pr, R.BANCO, rng)
            elif phase == R.PONTE_FIVE:
                R.apply_action(s, pr, R.DRAW if ponte_draws_5 else R.STAND, rng)
            elif phase == R.BANKER_FIVE:
                R.apply_action(s, pr, R.DRAW if banker_draws_5 else R.STAND, rng)
            else:
                R.apply_action(s, pr, R.CONTRIBUTE + 1, rng)


COUPS = 400_000


@pytest.mark.slow
@pytest.mark.parametrize("ponte_draws_5, banker_draws_5", [(True, False), (False, True)])
def test_natural_and_third_card_frequencies_match_the_enumeration(ponte_draws_5,
                                                                  banker_draws_5):
    exact = enumerate_coup(ponte_draws_5, banker_draws_5)
    assert exact["ponte_natural"] == pytest.approx(exact["banker_natural"])
    assert sum(exact[k] for k in ("banker_wins", "ponte_wins", "tie")) == pytest.approx(1.0)
    game = load(players=2, start_chips=500, num_rotations=10**6, max_coups=10**6)
    out = np.zeros(len(KEYS), dtype=np.int64)
    _simulate(game.encoded_params, COUPS, ponte_draws_5, banker_draws_5,
              np.random.default_rng(3), out)
    for key, count in zip(KEYS, out, strict=True):
        p = exact[key]
        assert abs(count / COUPS - p) < 4.5 * math.sqrt(p * (1 - p) / COUPS), key


# --------------------------------------------------------------------------------------
# Invariants, determinism, bots, runner
# --------------------------------------------------------------------------------------
@st.composite
def baccara_params(draw):
    players = draw(st.integers(2, 8))
    return {"players": players, "num_decks": draw(st.sampled_from([1, 2, 6])),
            "reshuffle_each_coup": draw(st.booleans()),
            "third_card_face_up": draw(st.booleans()),
            "void_rule": draw(st.sampled_from(["pass_bank", "banker_reduces"])),
            "tie_rule": draw(st.sampled_from(["banker_stake_stays", "all_stakes_stay"])),
            "rotate_on": draw(st.sampled_from(["decided_coup", "banker_loss"])),
            "start_chips": draw(st.integers(1, 1000 // players)),
            "num_rotations": draw(st.integers(1, 2)), "max_coups": draw(st.integers(1, 60))}


@settings(max_examples=40)
@given(params=baccara_params(), seed=st.integers(0, 2**32 - 1))
def test_chips_and_cards_are_conserved(params, seed):
    total = params["players"] * params["start_chips"]
    size = params["num_decks"] * 52
    for state, _ in random_steps(load(**params), seed):
        assert sum(state.chips) == total and min(state.chips) >= 0
        s = state.s
        assert sorted(s[R.SHOE:R.SHOE + size].tolist()) == sorted(list(range(52))
                                                                 * params["num_decks"])
        if state.is_terminal():
            break
        p = state.current_player
        assert state.chips[p] > 0
        if state.phase == "banco":
            assert state.chips[p] >= int(s[R.STAKE])
    result = state.result()
    assert sum(result.scores) == total
    assert sum(result.win_shares) == pytest.approx(1.0)
    _, coups = state.records()
    assert coups[:, 18].sum() == result.stats["banker_net"]
    assert len(coups) == result.stats["coups"]


def test_determinize_redeals_only_what_the_seat_cannot_see():
    state = stack(table(players=3), "2♠ 2♥ 3♦ 3♣")
    state.apply("stake 5")
    state.apply("banco")                            # P2 is the ponte, at 5
    before = state.s.copy()
    other = state.observation(2).determinize(np.random.default_rng(4))
    assert np.array_equal(state.s, before)
    assert other.hand(R.ROLE_PONTE) == state.hand(R.ROLE_PONTE)
    assert np.array_equal(other.observation(2).array, state.observation(2).array)
    hidden = [o for o in (state.determinize(2, np.random.default_rng(k)) for k in range(5))
              if o.hand(R.ROLE_BANKER) != state.hand(R.ROLE_BANKER)]
    assert hidden                                   # the banker's cards are redealt


@pytest.mark.parametrize("name, choice", [("always", "draw"), ("never", "stand")])
def test_the_bots_at_5(name, choice):
    bot = agents.load(name, game="baccara")
    state = stack(table(), "2♠ 2♥ 3♦ 3♣")
    rng = np.random.default_rng(0)
    assert bot.act(state.observation(0), state.legal_actions(), rng).text == "stake 10"
    state.apply("stake 10")
    assert bot.act(state.observation(1), state.legal_actions(), rng).text == "banco"
    state.apply("banco")
    assert bot.act(state.observation(1), state.legal_actions(), rng).text == choice


def test_the_coinflip_bot_draws_half_the_time_and_contributes_all_it_may():
    bot = agents.load("coinflip", game="baccara")
    rng = np.random.default_rng(0)
    state = stack(table(), "2♠ 2♥ 3♦ 3♣")
    state.apply("stake 10")
    state.apply("banco")
    choices = [bot.act(state.observation(1), state.legal_actions(), rng).text
               for _ in range(400)]
    assert 150 < choices.count("draw") < 250
    state = table(players=3)
    state.apply("stake 50")
    state.apply("decline")
    state.apply("decline")
    assert bot.act(state.observation(2), state.legal_actions(), rng).text == "contribute 50"
    assert "always" not in agents.available("pharaon")


@pytest.mark.parametrize("name", ["flatmc", "ismcts"])
def test_search_bots_play_a_session(name):
    game = load(players=3, num_rotations=1, max_coups=6)
    bot = agents.load(name, game="baccara", iterations=4)
    state = play_python(game, [agents.load("never"), bot, agents.load("always")], 2)
    assert state.is_terminal()


def test_the_batch_runner_writes_the_tables():
    tables = batch_frames("baccara", ("always", "never", "coinflip", "random"), 12)
    games, players, rounds = tables["games"], tables["players"], tables["rounds"]
    assert (games["coups"] == rounds.groupby("game_id").size()).all()
    assert (players.groupby("game_id")["final_chips"].sum() == 400).all()
    assert set(rounds["outcome"]) <= {"banker", "ponte", "tie", "void"}
    assert (rounds.loc[rounds["ponte_natural"], "ponte_card_3"] == -1).all()
