"""The trick games' shared Python API (engines.families.tricks.game): the one-call decision step
keeps every decision's legal actions equal to what the rules list afresh; actions are accepted as
the game's Action objects, equal Actions, codes and texts (suits by symbol or letter), and
refused otherwise, an unknown text naming examples; an observation shows the position it was
made in, even when first read after the game moved on."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import engines
from engines.core.api import Action, IllegalActionError
from engines.core.seeding import decision_rng

GAMES = [("chasse-coeur", {"num_hands": 2, "pass_cards": 3}), ("petasse", {"num_hands": 2}),
         ("rikiki", {"hands": (3, 2)}), ("vicaire", {})]


def fresh_legal(state) -> list[Action]:
    """The legal actions the rules list for the state as it stands (no cached codes)."""
    twin = state.clone()
    twin.refresh()
    return twin.legal_actions()


@pytest.mark.parametrize("slug, params", GAMES)
def test_each_steps_legal_actions_are_the_rules_own(slug, params):
    game = engines.load(slug, **params)
    rng = decision_rng(4, 0)
    state = game.new_state(4)
    random = agents.load("random")
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == fresh_legal(state) and legal
        state.apply(random.act(None, legal, rng))
    assert state.legal_actions() == [] == fresh_legal(state)


@pytest.mark.parametrize("slug, text, shown, unknown, examples", [
    ("chasse-coeur", "play Qs", "play Q♠", "bid 2", "'play Q♠'"),
    ("petasse", "play Qs", "play Q♠", "bid 2", "'play Q♠'"),
    ("belote-a-trois", "play Js", "play J♠", "coinche", "'pass', 'take'"),
    ("belote-comptoir", "play Js", "play J♠", "coinche", "'pass', 'take'")])
def test_suits_read_by_letter_and_unknown_actions_name_examples(slug, text, shown, unknown,
                                                                 examples):
    game = engines.load(slug)
    assert game.action(text).text == shown
    with pytest.raises(IllegalActionError, match=f"examples: {examples}"):
        game.action(unknown)


def test_every_form_of_an_action_is_accepted_and_bad_ones_refused():
    game = engines.load("petasse", first_dealer=3)
    first = game.new_state(2).legal_actions()[0]
    for form in (first, Action(first.code, first.text), first.code, np.int64(first.code),
                 first.text):
        state = game.new_state(2)
        state.apply(form)
        assert state.log[1] == f"P0 {first.text}"
    state = game.new_state(2)
    illegal = next(a for a in game.actions if a not in state.legal_actions())
    for bad in (illegal, illegal.code, Action(first.code, "play nothing")):
        with pytest.raises(IllegalActionError, match="is not legal for P0"):
            state.apply(bad)
    for bad in (-1, len(game.actions), "play 2♣♣"):
        with pytest.raises(IllegalActionError, match="not a Pétasse action"):
            state.apply(bad)
    assert state.s[game.rules.DECISIONS] == 0 and len(state.log) == 1


def test_an_observation_read_late_shows_the_position_it_was_made_in():
    state = engines.load("chasse-coeur", first_dealer=0).new_state(7)
    early = state.observation(1)
    read_now = state.observation(1)
    hand, trick = read_now.hand, read_now.trick
    state.apply(state.legal_actions()[0])
    assert early.hand == hand and early.trick == trick == ()
    assert state.observation(1).trick != ()
    with pytest.raises(ValueError, match="stale observation"):
        early.determinize(np.random.default_rng(0))
    assert np.array_equal(early.array, read_now.array)


def test_observations_still_held_keep_the_position_they_were_made_in():
    state = engines.load("rikiki").new_state(1)
    before = state.clone()
    kept = [state.observation(p) for p in range(4)]
    hand = kept[0].hand                             # one read before the move, three after
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert kept[0].hand == hand
    for p, observation in enumerate(kept):
        assert np.array_equal(observation.array, before.observation(p).array)
        assert not np.array_equal(observation.array, state.observation(p).array)
