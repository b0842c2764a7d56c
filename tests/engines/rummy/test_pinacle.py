"""Le pinacle: the specification's scenarios (its section 10; the rules are in
``docs/rules/pinacle.md``), the source's pinacle move first, invariants over seeded matches,
determinism, the bot, the search bots and the batch tables."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.games.pinacle import rules as R
from sim.runner import play_python
from tests.engines.helpers import batch_frames
from tests.engines.rummy.rami_helpers import build, card_census, texts


def position(hands, *, laid=None, laid_value=None, laid_at_start=0, players=3, current=0,
             phase="play", turn=10, table=(), stock="", discard="", **params):
    """A pinacle match: ``laid`` and ``laid_value`` (half points) per seat this hand."""
    fields = {R.LAID: laid or {}, R.LAID_VALUE: laid_value or {}}
    state = build("pinacle", hands, fields, players=players, current=current, phase=phase,
                  turn=turn, table=table, stock=stock, discard=discard, **params)
    state.s[R.LAID_AT_START] = laid_at_start
    return state


def test_the_deal_gives_twelve_each_turns_the_37th_and_leaves_fifteen():
    state = engines.load("pinacle", players=3).new_state(5)
    s = state.s
    assert [int(s[T.HAND_SIZE_AT + p]) for p in range(3)] == [12, 12, 12]
    assert s[T.DISCARD_LEN] == 1 and s[T.STOCK_LEN] == 15


def test_the_pinacle_moves_to_either_end_when_its_card_comes():
    """"Si un joueur possède le valet et que la suite 10-pinacle-dame est étalée, il a la
    possibilité de placer son valet dans la suite et de poser le pinacle à la place du roi
    ou du 9.\""""
    table = ((1, "10♠ 2♠ Q♠"),)
    high = position({0: "J♠ 4♦ 9♣"}, table=table)
    assert "move the pinacle at place 1 of meld 0 to the high end" in texts(high)
    high.apply("move the pinacle at place 1 of meld 0 to the high end")
    assert high.table[0]["cards"] == ["10♠", "J♠", "Q♠", "2♠"]
    low = position({0: "J♠ 4♦ 9♣"}, table=table)
    low.apply("move the pinacle at place 1 of meld 0 to the low end")
    assert low.table[0]["cards"] == ["2♠", "10♠", "J♠", "Q♠"]
    assert int(low.s[R.LAID_VALUE]) == 2               # the J♠ is credited to its layer


def test_pinacles_stay_in_their_suit_and_only_runs_are_melds():
    state = position({0: "K♠ Q♠ 2♥ 9♦ 4♣ K♥ K♦"})
    assert not any(t.startswith("lay") for t in texts(state))
    runs = position({0: "K♠ Q♠ J♠ K♥ K♦ 2♠ 4♣"})
    legal = texts(runs)
    assert "lay J♠ Q♠ K♠" in legal and "lay 2=10♠ J♠ Q♠ K♠" in legal
    assert not any("K♥" in t for t in legal if t.startswith("lay "))


def test_hand_count_plus_laid_minus_held_and_the_winner_bonus():
    """Scenarios 4 and 5: a loser laid A K 7 and a pinacle (5.5) and holds 6 3 (1): +4.5;
    the winner laid 9.5: 10 + 9.5 (default) or 10 (flat)."""
    for scoring, expected in (("bonus_plus_laid", 19.5), ("flat", 10.0)):
        state = position({0: "9♣", 1: "6♦ 3♣", 2: "5♥"}, laid={0: 9, 1: 4},
                         laid_value={0: 19, 1: 11}, laid_at_start=9, max_hands=1,
                         winner_scoring=scoring)
        state.apply("discard 9♣")
        assert state.is_terminal()
        assert state.totals == (expected, 4.5, -0.5)


def test_laying_every_card_in_one_turn_scores_thirty():
    hand = "3♥ 4♥ 5♥ 6♥ 7♠ 8♠ 9♠ 10♠ J♣ Q♣ K♣ A♣ 5♦"
    state = position({0: hand}, max_hands=1)
    for run in ("lay 3♥ 4♥ 5♥ 6♥", "lay 7♠ 8♠ 9♠ 10♠", "lay J♣ Q♣ K♣ A♣"):
        state.apply(run)
    state.apply("discard 5♦")
    assert state.log[-1] == "hand 1 won by P0 (in one go)"
    assert state.totals[0] == 30 + 10.5


def test_laying_the_last_card_goes_out_unless_a_discard_is_required():
    state = position({0: "7♠ 8♠ 9♠"}, laid={0: 5}, laid_at_start=5, max_hands=1)
    state.apply("lay 7♠ 8♠ 9♠")
    assert state.is_terminal()
    strict = position({0: "7♠ 8♠ 9♠"}, must_discard_to_go_out=True)
    assert "lay 7♠ 8♠ 9♠" not in texts(strict)


def test_teams_add_their_scores_and_partners_share_the_rank():
    state = position({0: "9♣", 1: "6♦", 2: "5♥", 3: "K♦"}, players=4,
                     laid_value={0: 10, 2: 6}, laid_at_start=3, max_hands=1)
    state.apply("discard 9♣")
    result = state.result()
    assert result.scores[0] == result.scores[2] == (20 + 10 + 6 - 1) / 2
    assert result.ranks[0] == result.ranks[2] == 1
    assert result.ranks[1] == result.ranks[3] > 1


def test_own_team_scope_forbids_laying_off_on_opponents():
    table = ((1, "5♠ 6♠ 7♠"),)
    assert "lay off 8♠ on meld 0 (high end)" in texts(position({0: "8♠ K♦"}, table=table))
    closed = position({0: "8♠ K♦"}, table=table, layoff_scope="own_team_only")
    assert not any(t.startswith("lay off") for t in texts(closed))


def test_bad_parameters_name_the_valid_choices():
    with pytest.raises(ValueError, match="2, 3, 4"):
        engines.load("pinacle", players=5)
    with pytest.raises(ValueError, match="flat"):
        engines.load("pinacle", winner_scoring="double")


@settings(max_examples=8)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]),
       bot=st.sampled_from(["slider", "random"]))
def test_cards_are_conserved_and_runs_stay_valid(seed, players, bot):
    game = engines.load("pinacle", players=players, max_hands=2, max_turns=150)
    state = game.new_state(seed)
    agent = agents.load(bot, game="pinacle")
    rng = np.random.default_rng(seed)
    s = state.s
    while not state.is_terminal():
        assert (card_census(state) == np.array([1] * 52 + [0])).all()
        for k in range(int(s[T.MELDS_LEN])):
            row = T.MELDS + k * rummy.MELD_WIDTH
            ids = s[row + rummy.M_CARDS:row + rummy.M_CARDS + s[row + rummy.M_LEN]].tolist()
            suit, low = int(s[row + rummy.M_KEY]), int(s[row + rummy.M_LOW])
            assert len(ids) >= 3 and all(c // 13 == suit for c in ids)
            assert 1 <= low and low + len(ids) - 1 <= 14 and not (low == 1
                                                                  and len(ids) == 14)
            for i, c in enumerate(ids):
                position_rank = 14 if low + i == 1 else low + i
                assert c % 13 == 0 or c % 13 + 2 == position_rank
        legal = state.legal_actions()
        assert legal
        state.apply(agent.act(state.observation(state.current_player), legal, rng))
    result = state.result()
    assert sum(result.win_shares) == pytest.approx(1.0)
    rounds = state.records()[1]
    width = len(R.ROUND_FIELDS)
    assert tuple(rounds[:, width:width + players].sum(axis=0) / 2) == state.totals


def test_same_seed_same_match_and_search_bots_play():
    def log(seed):
        game = engines.load("pinacle", players=3, max_hands=2)
        return play_python(game, [agents.load("slider", game="pinacle")] * 3, seed, 0).log
    assert log(4) == log(4) and log(4) != log(5)
    game = engines.load("pinacle", max_hands=1, max_turns=20)
    for name in ("flatmc", "ismcts"):
        bots = [agents.load(name, iterations=2), agents.load("slider", game="pinacle")]
        assert play_python(game, bots, 3, 0).is_terminal()


def test_slider_takes_a_discard_it_can_lay_and_keeps_its_pinacles():
    bot = agents.load("slider", game="pinacle")
    rng = np.random.default_rng(0)
    take = position({0: "5♠ 6♠ K♦"}, phase="draw", discard="7♠")
    assert bot.act(take.observation(0), take.legal_actions(), rng).text == "take discard"
    runs = position({0: "2♠ K♦ 5♠ 6♠"})
    assert bot.act(runs.observation(0), runs.legal_actions(), rng).text == "lay 2=4♠ 5♠ 6♠"
    loose = position({0: "2♣ K♦ 9♠ 4♥"})
    assert bot.act(loose.observation(0), loose.legal_actions(), rng).text == "discard K♦"


def test_batch_tables_have_the_documented_columns():
    tables = batch_frames("pinacle", ("slider",) * 4, 2, players=4, max_hands=3)
    for column in ("total", "one_go_finishes", "pinacle_moves", "runs_laid"):
        assert column in tables["players"].columns
    for column in ("winner", "one_go", "moves", "score_p3"):
        assert column in tables["rounds"].columns
