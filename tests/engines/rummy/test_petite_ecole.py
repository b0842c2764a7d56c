"""La petite école: the specification's scenarios (its section 12; the rules
are in ``docs/rules/petite-ecole.md``), invariants over seeded matches, determinism, the
bot, the search bots and the batch tables."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
import engines
from engines.core.api import IllegalActionError
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.families.rummy.game import table_melds
from engines.games.petite_ecole import rules as R
from sim.runner import play_python
from tests.engines.helpers import batch_frames
from tests.engines.rummy.rami_helpers import build, card_census, texts

FILLER = "3♥ 5♦ 9♠ K♣ J♦ 4♠ 6♥ A♣"


def position(hands, *, stage=None, laid=None, players=3, current=0, phase="play", turn=10,
             table=(), stock="", discard="", **params):
    """A petite école match: ``stage`` {seat: stage 1..10}, ``laid`` the seats whose stage
    is laid this hand."""
    fields = {R.STAGE: {p: v - 1 for p, v in (stage or {}).items()},
              R.LAID_STAGE: {p: R.LAID for p in (laid or ())}}
    return build("petite-ecole", hands, fields, players=players, current=current,
                 phase=phase, turn=turn, table=table, stock=stock, discard=discard, **params)


def test_stage_one_two_triples_with_a_wild_two():
    """Scenario 1: 7♣ 7♦ 7♠ Q♥ Q♠ 2♣ lay the two triples, the 2 standing for a Q."""
    state = position({0: "7♣ 7♦ 7♠ Q♥ Q♠ 2♣ " + FILLER})
    legal = texts(state)
    assert "lay 7 7 7" in legal and "lay Q Q 2" in legal
    state.apply("lay Q Q 2")
    assert texts(state) == ["lay 7 7 7"]        # the stage is laid whole before a discard
    state.apply("lay 7 7 7")
    assert state.s[R.LAID_STAGE] == R.LAID
    assert all(t.startswith("discard") or t.startswith("lay off") for t in texts(state))


def test_stage_two_needs_a_same_suit_run_of_four():
    """Scenario 2: 5♥ 6♥ 7♥ 8♥ + K♣ K♦ K♠; 5♥ 6♠ 7♥ 8♥ is no run."""
    state = position({0: "5♥ 6♥ 7♥ 8♥ K♣ K♦ K♠ 3♣ 9♠ J♦ 4♠ A♣ 10♣ 3♦"}, stage={0: 2})
    assert "lay 5♥ 6♥ 7♥ 8♥" in texts(state)
    mixed = position({0: "5♥ 6♠ 7♥ 8♥ K♣ K♦ K♠ 3♣ 9♠ J♦ 4♠ A♣ 10♣ 3♦"}, stage={0: 2})
    assert all(t.startswith("discard") for t in texts(mixed))


def test_with_run_same_suit_false_a_run_mixes_suits_and_takes_layoffs_of_any_suit():
    """Scenario 2 with ``run_same_suit=false`` (A1): 5♥ 6♠ 7♥ 8♥ is a run; of two 7s the
    lowest card id (♥ before ♠) is laid; a mixed run takes 4♦, 9♣ and a 2 as lay-offs."""
    hand = "5♥ 6♠ 7♠ 7♥ 8♥ K♣ K♦ K♠ 9♣ 4♦ J♦ J♣ A♣ 2♦"
    same_suit = position({0: hand.replace("2♦", "3♣")}, stage={0: 2})
    assert all(t.startswith("discard") for t in texts(same_suit))
    state = position({0: hand}, stage={0: 2}, run_same_suit=False)
    assert "lay 5 6 7 8" in texts(state) and "lay 4 5 6 7 8 9" in texts(state)
    state.apply("lay 5 6 7 8")
    assert table_melds(state.s)[0]["cards"] == ["5♥", "6♠", "7♥", "8♥"]
    state.apply("lay K K K")
    legal = texts(state)
    assert "lay off 4♦ on meld 0 (low end)" in legal
    assert "lay off 9♣ on meld 0 (high end)" in legal
    assert "lay off 2♦ on meld 0 (high end)" in legal
    assert "lay off 7♠ on meld 0 (high end)" not in legal
    state.apply("lay off 9♣ on meld 0 (high end)")
    assert table_melds(state.s)[0]["cards"] == ["5♥", "6♠", "7♥", "8♥", "9♣"]


def test_run_same_suit_round_trips_from_key_value_strings():
    game = engines.load("petite-ecole", run_same_suit="false")
    assert game.params.run_same_suit is False
    params = type(game.params).from_strings(["run_same_suit=false", "players=3"])
    assert params == game.params.__class__(players=3, run_same_suit=False)
    assert type(params).from_strings(params.to_strings()) == params
    with pytest.raises(ValueError, match="run_same_suit"):
        engines.load("petite-ecole", run_same_suit="sometimes")


def test_stage_table_sets_the_stages_and_its_last_one_ends_the_match():
    """``stage_table``: the default is the text's ten; a two-stage table ends the match once
    its stage 2 is passed; a malformed table names the syntax."""
    assert engines.load("petite-ecole").params.stages[6] == (1, 5, 1, 4)
    table = "0,0,1,3;1,3,0,0"
    state = position({0: "5♠ 6♠ 7♠ 9♦", 1: "3♦", 2: "4♠"}, stage={0: 2}, stage_table=table)
    assert "lay 5♠ 6♠ 7♠" in texts(state)               # a run of 3 is this stage
    state.apply("lay 5♠ 6♠ 7♠")
    state.apply("discard 9♦")
    assert state.is_terminal() and state.result().ranks[0] == 1
    params = type(state.game.params).from_strings([f"stage_table={table}"])
    assert params.stages == ((0, 0, 1, 3), (1, 3, 0, 0))
    assert type(params).from_strings(params.to_strings()) == params
    for bad in ("2x3", "0,0,0,0", "1,2,0,0", "1,4,0,3", "2,7,0,0", ";".join(["0,0,1,3"] * 21)):
        with pytest.raises(ValueError, match="runs,run length,groups,group size"):
            engines.load("petite-ecole", stage_table=bad)


def test_runs_go_from_three_to_the_ace_and_a_two_fills_a_gap():
    """Scenario 3: J♠ Q♠ K♠ A♠ is a run, A♠ 3♠ 4♠ 5♠ is not, 3♠ 2♠(=4♠) 5♠ 6♠ is."""
    state = position({0: "J♠ Q♠ K♠ A♠ 3♠ 2♠ 5♠ 6♠ 9♥ 9♦ K♣ 4♦ 7♣ 8♥"}, stage={0: 4})
    legal = texts(state)
    assert "lay J♠ Q♠ K♠ A♠" in legal and "lay 3♠ 2=4♠ 5♠ 6♠" in legal
    assert not any(t.startswith("lay A♠") for t in legal)
    assert rummy.meld_points(rummy.encode(rummy.RUN, 2, 3, 4, 0)) == 18   # the core reads it


def test_end_of_hand_count_and_progression():
    """Scenarios 4 and 5: a loser's A K 10 5 2 count 60; P0 goes out, P1 laid his stage 3
    and moves to stage 4 with his cards counted, P2 never laid his stage 1 and stays."""
    state = position({0: "9♣", 1: "A♠ K♦ 10♣ 5♥ 2♠", 2: "7♦ 8♠"},
                     stage={0: 5, 1: 3, 2: 1}, laid=(0, 1), max_hands=1)
    state.apply("discard 9♣")
    assert state.is_terminal()
    assert state.totals == (0, 60, 10)
    assert state.stages == (6, 4, 1)
    rounds = state.records()[1]
    assert rounds[0, R.ROUND_PASSED:R.ROUND_PASSED + 3].tolist() == [1, 1, 0]


def test_no_layoff_before_ones_stage_is_laid():
    """Scenario 6: a player at stage 4 who has not laid it may not lay off on P1's run."""
    state = position({0: "9♠ K♣ 4♦ 7♣"}, stage={0: 4}, table=((1, "5♠ 6♠ 7♠ 8♠"),))
    assert not any(t.startswith("lay off") for t in texts(state))
    after = position({0: "9♠ K♣ 4♦ 7♣"}, stage={0: 5}, laid=(0,),
                     table=((1, "5♠ 6♠ 7♠ 8♠"),))
    assert "lay off 9♠ on meld 0 (high end)" in texts(after)


def test_the_card_taken_from_the_ecart_is_not_discarded_the_same_turn():
    state = position({0: "9♠ K♣ 4♦"}, phase="draw", discard="7♣")
    state.apply("take discard")
    assert "discard 7♣" not in texts(state)
    free = position({0: "9♠ K♣ 4♦"}, phase="draw", discard="7♣", may_rediscard_taken=True)
    free.apply("take discard")
    assert "discard 7♣" in texts(free)


def test_passing_stage_ten_ends_the_match_and_the_lowest_total_among_them_wins():
    state = position({0: "9♣", 1: "3♦", 2: "4♠"}, stage={0: 10, 1: 10, 2: 9},
                     laid=(0, 2))
    state.s[T.TOTAL:T.TOTAL + 3] = (300, 10, 5)
    state.apply("discard 9♣")
    assert state.is_terminal()
    assert state.result().ranks == (1, 3, 2)        # P0 alone passed stage 10
    overall = position({0: "9♣", 1: "3♦", 2: "4♠"}, stage={0: 10, 1: 10, 2: 9},
                       laid=(0, 2), winner_rule="lowest_points_overall")
    overall.s[T.TOTAL:T.TOTAL + 3] = (300, 10, 5)
    overall.apply("discard 9♣")
    assert overall.result().ranks == (3, 2, 1)


def test_errors_name_the_legal_actions_and_the_valid_choices():
    state = position({0: "9♠ K♣ 4♦"}, phase="draw", discard="7♣")
    with pytest.raises(IllegalActionError, match="legal: draw stock, take discard"):
        state.apply("discard 9♠")
    with pytest.raises(ValueError, match="one_natural"):
        engines.load("petite-ecole", wild_limit="any")
    with pytest.raises(ValueError, match="3 decks"):
        engines.load("petite-ecole", players=8, num_decks=2)


FULL = {2: np.array([2] * 52 + [0]), 3: np.array([3] * 52 + [0])}
MELDS = {(w, n) for n in (3, 4, 5) for w in range(1, n)}       # (wilds, cards)


@pytest.mark.parametrize("limit, allowed", [
    # (wilds, cards) of the melds allowed: as many wilds as naturals, never more
    ("naturals_ge_wilds", {(1, 3), (1, 4), (2, 4), (1, 5), (2, 5)}),
    ("one_natural", MELDS),
    ("max_one_wild", {(1, 3), (1, 4), (1, 5)}),
])
def test_wild_limits_count_wilds_against_naturals(limit, allowed):
    pr = engines.load("petite-ecole", wild_limit=limit).encoded_params
    assert {m for m in MELDS if rummy.wild_count_ok(pr, *m)} == allowed


@pytest.mark.parametrize("same_suit", [True, False])
@settings(max_examples=5)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6),
       limit=st.sampled_from(["one_natural", "naturals_ge_wilds", "max_one_wild"]),
       bot=st.sampled_from(["climber", "random"]))
def test_cards_are_conserved_and_figures_are_valid(same_suit, seed, players, limit, bot):
    """Matches play to their end, cards conserved; every run on the table is consecutive
    ranks from 3 to the Ace, of one suit (of any suits with ``run_same_suit=false``)."""
    game = engines.load("petite-ecole", players=players, wild_limit=limit, max_hands=2,
                        max_turns=120, run_same_suit=same_suit)
    state = game.new_state(seed)
    agent = agents.load(bot, game="petite-ecole")
    rng = np.random.default_rng(seed)
    s = state.s
    while not state.is_terminal():
        for p in range(players):
            assert s[T.HAND_SIZE_AT + p] >= 1
        assert (card_census(state) == FULL[game.params.decks]).all()
        for k in range(int(s[T.MELDS_LEN])):
            row = T.MELDS + k * rummy.MELD_WIDTH
            ids = s[row + rummy.M_CARDS:row + rummy.M_CARDS + s[row + rummy.M_LEN]].tolist()
            naturals = [c for c in ids if c % 13 != 0]
            assert len(ids) >= 3 and naturals
            if s[row + rummy.M_KIND] == rummy.GROUP:
                assert len({c % 13 for c in naturals}) == 1
            else:
                low = int(s[row + rummy.M_LOW])
                assert low >= 3 and low + len(ids) - 1 <= 14
                key = int(s[row + rummy.M_KEY])
                assert (key == rummy.ANY_SUIT) == (not same_suit)
                for i, c in enumerate(ids):
                    assert c % 13 == 0 or c % 13 + 2 == low + i and key in (c // 13,
                                                                            rummy.ANY_SUIT)
        legal = state.legal_actions()
        assert legal
        state.apply(agent.act(state.observation(state.current_player), legal, rng))
    assert sum(state.result().win_shares) == pytest.approx(1.0)


def test_same_seed_same_match_and_search_bots_play():
    def log(seed):
        game = engines.load("petite-ecole", players=3, max_hands=2)
        bots = [agents.load("climber", game="petite-ecole")] * 3
        return play_python(game, bots, seed, 0).log
    assert log(4) == log(4) and log(4) != log(5)
    game = engines.load("petite-ecole", players=2, max_hands=1, max_turns=20)
    for name in ("flatmc", "ismcts"):
        bots = [agents.load(name, iterations=2), agents.load("climber", game="petite-ecole")]
        assert play_python(game, bots, 3, 0).is_terminal()


def test_climber_takes_a_wild_and_sheds_an_isolated_high_card():
    state = position({0: "9♠ K♣ 4♦ 5♦"}, phase="draw", discard="2♥")
    bot = agents.load("climber", game="petite-ecole")
    rng = np.random.default_rng(0)
    assert bot.act(state.observation(0), state.legal_actions(), rng).text == "take discard"
    shed = position({0: "A♣ 4♦ 9♦ 2♠"}, laid=(0,))
    assert bot.act(shed.observation(0), shed.legal_actions(), rng).text == "discard A♣"


def test_batch_tables_have_the_documented_columns():
    tables = batch_frames("petite-ecole", ("climber",) * 3, 2, players=3, max_hands=3)
    assert len(tables["games"]) == 2
    for column in ("total", "stage_reached", "stages_passed", "hands_won"):
        assert column in tables["players"].columns
    for column in ("winner", "turns", "stage_p0", "passed_p2", "score_p1"):
        assert column in tables["rounds"].columns
