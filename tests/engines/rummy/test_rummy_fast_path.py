"""The rummy games' Python API fast path: the legal actions each compiled step writes equal
the rules' own, every action form is accepted or refused as before, clones and playouts
keep their own legal actions, and the meld enumeration's search shortcuts answer as the
plain search."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import engines
from engines.core.api import Action, IllegalActionError
from engines.core.streams import list_legal
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from sim.runner import decision_rng
from tests.engines.rummy.rami_helpers import cards


def rules_codes(state) -> list[int]:
    """The legal codes the rules give for the state's array, read afresh."""
    buffer = np.empty(T.MAX_LEGAL, dtype=np.int64)
    n = list_legal(state.game.tag, state.s, state.game.encoded_params, buffer)
    return buffer[:n].tolist()


@pytest.mark.parametrize("slug, agent, params", [
    ("rami", "eager", {"num_hands": 1}),
    ("petite-ecole", "climber", {"max_hands": 2}),
    ("pinacle", "slider", {}),
])
def test_legal_actions_after_each_step_are_the_rules_own(slug, agent, params):
    game = engines.load(slug, **params)
    bot = agents.load(agent, game=slug)
    for index in range(2):
        rng = decision_rng(3, index)
        state = game.new_state(3, index)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert [a.code for a in legal] == rules_codes(state)
            assert legal == [game.action(c) for c in rules_codes(state)]
            state.apply(bot.act(state.observation(state.current_player), legal, rng))
        assert state.legal_actions() == [] == rules_codes(state)


def test_every_action_form_is_accepted_and_an_illegal_one_refused_unchanged():
    game = engines.load("rami", num_hands=1)
    forms = [lambda a: a, lambda a: a.code, lambda a: np.int64(a.code), lambda a: a.text,
             lambda a: Action(a.code, a.text)]
    logs = []
    for form in forms:
        state = game.new_state(11)
        for _ in range(6):
            state.apply(form(state.legal_actions()[-1]))
        logs.append(state.log)
    assert all(log == logs[0] for log in logs)
    state = game.new_state(11)
    before = state.s.copy()
    discard = T.DISCARD_ACTION + cards("10♠")[0]
    for bad in (discard, game.action(discard), Action(T.DRAW_STOCK, "draw the stock"), -1):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert (state.s == before).all()
    assert [a.code for a in state.legal_actions()] == rules_codes(state)


def test_clones_and_playouts_keep_their_own_legal_actions():
    game = engines.load("rami", num_hands=1)
    state = game.new_state(4)
    state.apply(state.legal_actions()[0])
    twin = state.clone()
    assert twin.legal_actions() == state.legal_actions()
    twin.apply(twin.legal_actions()[-1])
    assert [a.code for a in state.legal_actions()] == rules_codes(state)
    assert [a.code for a in twin.legal_actions()] == rules_codes(twin)
    twin.playout(np.random.default_rng(0))
    assert twin.is_terminal() and twin.legal_actions() == []


def loose_bound(pr, hand, candidates, n, points, clean):
    """The opening search's first bound: a clean run if needed, and ``points`` within the
    value of every copy of every card some candidate uses."""
    codes = [int(c) for c in candidates[:n]]
    if clean and not any(rummy.meld_is_clean(c) for c in codes):
        return False
    used = 0
    for code in codes:
        used |= int(rummy.natural_cards(code))
    return points <= 0 or rummy.set_value(hand, used) >= points


def test_the_opening_search_answers_as_the_plain_search(monkeypatch):
    """``can_complete`` stops at once when no meld holds the card to include, and prunes
    with a bound that counts one meld with wilds per wild: on random hands it answers as
    the same search without the card filter and with the loose bound."""
    pr = engines.load("rami").encoded_params
    rng = np.random.default_rng(1)
    deck = np.array([c for c in range(rummy.JOKER) for _ in range(2)] + [rummy.JOKER] * 4)
    cases = []
    for _ in range(150):
        hand = np.zeros(rummy.CARD_KINDS, dtype=np.int32)
        for c in rng.choice(deck, 14, replace=False):
            hand[c] += 1
        card = int(rng.choice(np.flatnonzero(hand))) if rng.random() < 0.5 else -1
        cases.append((hand, card, int(rng.integers(0, 60)), bool(rng.random() < 0.5)))
    fast = [rummy.can_complete(pr, h, 14, need, clean, card, 0)
            for h, card, need, clean in cases]
    monkeypatch.setattr(rummy, "some_meld_holds", lambda *args: True)
    monkeypatch.setattr(rummy, "promising", loose_bound)
    plain = [rummy.may_complete(pr, h, 14, need, clean, card)
             and rummy.completes.py_func(pr, h, 14, need, clean, card, 0, rummy.search_room())
             for h, card, need, clean in cases]
    assert fast == plain
    assert 10 < sum(plain) < 140                     # both answers are met
