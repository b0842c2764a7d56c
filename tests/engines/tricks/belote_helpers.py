"""Helpers for belote tests (belote-a-trois, belote-comptoir): build precise positions, play
scripted actions, check invariants.

Positions are built from a real game (``game.new_state(seed)``) whose flat state array is then
edited: every seat gets the cards the test names; the other cards of the pack are left out of
the deal (``LOC_OUT``), so card conservation still holds and the position plays on through the
public API.
"""

from __future__ import annotations

import numpy as np

import engines
from engines.core.cards import parse_card
from engines.games.belote import rules as R
from tests.engines.tricks.trick_helpers import check_out_of_play

CONTRACTS = {"♥": 0, "♦": 1, "♠": 2, "♣": 3, "SA": R.SANS_ATOUT, "TA": R.TOUT_ATOUT}


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def place(state, deal: dict) -> None:
    """Give each seat exactly the named cards; every other card is out of the deal."""
    s = state.s
    s[R.LOCATION:R.LOCATION + R.DECK_CARDS] = R.LOC_OUT
    s[R.HAND_SIZE:R.HAND_SIZE + R.MAX_PLAYERS] = 0
    used = []
    for p, text in deal.items():
        hand = cards(text)
        used += hand
        for c in hand:
            s[R.LOCATION + c] = R.LOC_HAND + p
        s[R.HAND_SIZE + p] = len(hand)
    assert len(used) == len(set(used)), "a card is used twice"
    state.refresh()


def build(slug: str, deal: dict, *, contract: str = "♥", taker: int = 0, dealer: int = 2,
          leader: int | None = None, trick: int = 0, taken=None, tricks=None, scores=None,
          high_bid: int = 0, seed: int = 0, **params):
    """A game in the tricks with exactly the given hands (seat -> card names), the contract
    (a suit symbol, ``SA`` or ``TA``) taken by ``taker``; ``trick`` tricks already played
    (with ``taken`` points and ``tricks`` won per seat); ``leader`` leads (default: the seat
    left of the dealer)."""
    params.setdefault("first_dealer", dealer)
    params.setdefault("players", len(deal))
    if slug == "belote-comptoir":
        params.setdefault("cards_per_player", "5")
    game = engines.load(slug, **params)
    state = game.new_state(seed)
    s = state.s
    place(state, deal)
    n = game.params.players
    s[R.CARDS] = trick + max(len(cards(h)) for h in deal.values())
    s[R.TRICK] = trick
    s[R.TAKER] = taker
    s[R.HIGH_BID] = high_bid
    s[R.TURNED] = -1
    R.set_contract(s, game.encoded_params, CONTRACTS[contract])
    for name, values in ((R.TAKEN, taken), (R.TRICKS, tricks), (R.SCORE, scores)):
        if values is not None:
            s[name:name + n] = values
    first = (dealer + 1) % n if leader is None else leader
    R.start_play(s, game.encoded_params, first)
    state.refresh()
    return state


def bidding(slug: str, deal: dict, *, dealer: int, turned: str | None = None,
            stock: str = "", seed: int = 0, **params):
    """A game at the start of the bidding with exactly the given hands, the turned card and
    the stock (dealt in that order when the hands are completed)."""
    params.setdefault("first_dealer", dealer)
    params.setdefault("players", len(deal))
    game = engines.load(slug, **params)
    state = game.new_state(seed)
    assert state.phase == "bidding"
    place(state, deal)
    s = state.s
    order = [c for h in deal.values() for c in cards(h)]
    if turned is not None:
        s[R.TURNED] = parse_card(turned)
        s[R.LOCATION + s[R.TURNED]] = R.LOC_TURNED
        order.append(int(s[R.TURNED]))
    s[R.DEALT] = len(order)
    for c in cards(stock):
        s[R.LOCATION + c] = R.LOC_STOCK
        order.append(c)
    s[R.DECK:R.DECK + len(order)] = order
    s[R.PACK] = len(order)
    state.refresh()
    return state


def check_invariants(state) -> None:
    """Every card of the pack in exactly one place; hand sizes match the locations; the
    points taken match the cards in each seat's tricks."""
    s = state.s
    n = state.game.params.players
    where, _ = check_out_of_play(state, R)
    if state.is_terminal():
        return
    for p in range(n):
        assert (where == R.LOC_HAND + p).sum() == s[R.HAND_SIZE + p]
    if state.phase == "tricks":
        points = s[R.CARD_POINTS:R.CARD_POINTS + R.DECK_CARDS]
        for p in range(n):
            won = np.flatnonzero(where == R.LOC_WON + p)
            assert points[won].sum() == s[R.TAKEN + p]
            assert len(won) == s[R.TRICKS + p] * n
