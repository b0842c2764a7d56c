"""Rami, petite école, pinacle: the discard pile becomes the talon again, so a hand's
position can come back; the match ends at its first repetition, the same in the batch
kernel as through the Python API."""

from __future__ import annotations

import pytest

import engines
from engines.families.rummy import turns as T
from engines.families.shedding.rules import CYCLE
from engines.games.petite_ecole import summary as petite_ecole_summary
from engines.games.pinacle import summary as pinacle_summary
from engines.games.rami import summary as rami_summary
from tests.engines.helpers import assert_kernel_plays_python
from tests.engines.rummy.rami_helpers import build

SLUGS = ("rami", "petite-ecole", "pinacle")
SUMMARIES = {"rami": rami_summary, "petite-ecole": petite_ecole_summary,
             "pinacle": pinacle_summary}
HANDS = {0: "5♠ 9♥ K♣", 1: "4♦ 8♣ J♥"}


def one_card_talon(slug: str):
    """Two players at the start of a turn (the first round over): one card, the 7♦, in the
    talon, the Q♠ alone on the discard pile."""
    return build(slug, HANDS, {}, players=2, current=0, phase="draw", turn=10, table=(),
                 stock="7♦", discard="Q♠")


def draw_and_discard(state, card: str) -> None:
    state.apply("draw stock")
    state.apply(f"discard {card}")


@pytest.mark.parametrize("slug", SLUGS)
def test_one_card_drawn_and_thrown_back_by_turns_repeats_the_position(slug):
    """P0 draws the 7♦ and throws it; P1's draw rebuilds the talon from the Q♠ under it,
    he throws the Q♠; P0's draw rebuilds the talon from the 7♦ and draws it: the position
    after P0's first draw comes back four decisions later, and the match ends there."""
    state = one_card_talon(slug)
    draw_and_discard(state, "7♦")
    draw_and_discard(state, "Q♠")
    assert not state.is_terminal()
    state.apply("draw stock")
    assert state.is_terminal()
    s = state.s
    assert int(s[T.CYCLE_LENGTH]) == 4 and int(s[T.ENDING]) == CYCLE
    assert int(s[T.DECISIONS]) == 5
    stats = state.result().stats
    assert stats["cycle"] and stats["cycle_length"] == 4 and not stats["capped"]
    assert state.records()[1][-1][T.ROUND_ENDING] == T.CYCLE


@pytest.mark.parametrize("slug", SLUGS)
def test_another_card_thrown_breaks_the_loop(slug):
    """P1 keeps the Q♠ and throws his 8♣: the hands differ, no position comes back."""
    state = one_card_talon(slug)
    draw_and_discard(state, "7♦")
    draw_and_discard(state, "8♣")
    draw_and_discard(state, "7♦")
    assert not state.is_terminal() and int(state.s[T.CYCLE_LENGTH]) == 0


@pytest.mark.parametrize("slug", SLUGS)
def test_the_position_hash_reads_the_cards_not_the_counters(slug):
    state = one_card_talon(slug)
    rules, s, pr = state.game.rules, state.s, state.game.encoded_params
    h = rules.position_hash(s, pr)
    counted = s.copy()
    for field in (T.DECISIONS, T.TURNS, T.TAKES, T.RESHUFFLES, T.TOTAL):
        counted[field] += 3
    assert rules.position_hash(counted, pr) == h
    for field in (T.HAND + 5, T.STOCK, T.DISCARD, T.CURRENT, T.PHASE, T.TAKEN):
        moved = s.copy()
        moved[field] += 1
        assert rules.position_hash(moved, pr) != h, field


@pytest.mark.parametrize("slug", SLUGS)
def test_observations_do_not_carry_the_positions_seen(slug):
    state = one_card_talon(slug)
    draw_and_discard(state, "7♦")
    assert int(state.s[T.POSITIONS_SEEN]) > 0
    seen = state.observation(1).array
    assert int(seen[T.POSITIONS_SEEN]) == 0
    assert not seen[T.POSITION_HASHES:T.POSITIONS_SEEN].any()


@pytest.mark.slow
@pytest.mark.parametrize("slug, players", [("rami", 2), ("petite-ecole", 2), ("pinacle", 2)])
def test_the_kernel_plays_the_python_games_with_their_ends(slug, players):
    """Random matches, cycles or not: the kernel plays the Python path's games exactly."""
    game = engines.load(slug, players=players)
    out = assert_kernel_plays_python(game, ["random"] * players, seed=5, start=0, count=4)
    row = SUMMARIES[slug].ROW
    lengths, ending = row.game(out.rows, "cycle_length"), row.game(out.rows, "ending")
    assert ((lengths > 0) == (ending == CYCLE)).all()
