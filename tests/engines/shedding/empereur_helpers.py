"""Helpers for the empereur tests: build a position card by card, read it back, and check
that every card is in exactly one place."""

from __future__ import annotations

import numpy as np

import engines
from engines.core.cards import card_name, parse_card
from engines.families.shedding.rules import hand_at
from engines.games.empereur import rules as R
from tests.engines.shedding.shed_helpers import hand_counts


def load(**params):
    return engines.load("empereur", **params)


def ids(names: str) -> list[int]:
    """Card ids of space-separated names (``"10♠ 10♦ Joker"``)."""
    return [parse_card(n) for n in names.split()]


def rank_index(name: str) -> int:
    return R.RANK_NAMES.index(name)


def position(game, hands: list[str], talon: str = "", stock: str | None = None,
             current: int = 0, last_player: int = -1, since_play: int = 0):
    """A state at the start of ``current``'s turn in round 1: ``hands[p]`` for seat p, the
    ``talon`` bottom to top as ``card:rank`` (``5♥:5``, ``Joker:Q``), the pioche listed in
    drawing order (first name drawn first; by default every other card, by card id, so that
    cards are conserved; given, the cards left over are out of play), ``last_player`` the
    seat who made the last play and ``since_play`` the passes since."""
    state = game.new_state(0)
    s = state.s
    players = game.params.players
    s[R.HAND:R.HAND + R.MAX_PLAYERS * R.CARDS] = 0
    s[R.HAND_SIZE:R.HAND_SIZE + R.MAX_PLAYERS] = 0
    used = []
    for p in range(players):
        for card in ids(hands[p]) if p < len(hands) else []:
            s[hand_at(R.HAND, R.CARDS, p) + card] += 1
            s[R.HAND_SIZE + p] += 1
            used.append(card)
    s[R.TALON_LEN] = 0
    for entry in talon.split():
        name, rank = entry.split(":")
        card = parse_card(name)
        s[R.TALON + s[R.TALON_LEN]] = card
        s[R.TALON_RANK + s[R.TALON_LEN]] = rank_index(rank)
        s[R.TALON_LEN] += 1
        used.append(card)
    if stock is None:
        drawn_first = [c for c in range(R.STANDARD_CARDS + game.params.num_jokers)
                       if c not in used]
    else:
        drawn_first = ids(stock)
    s[R.STOCK_LEN] = len(drawn_first)
    for i, card in enumerate(reversed(drawn_first)):
        s[R.STOCK + i] = card
    s[R.LEFT:R.LEFT + R.MAX_PLAYERS] = [p >= players for p in range(R.MAX_PLAYERS)]
    s[R.ACTIVE] = players
    s[R.FINISHED] = 0
    s[R.EMPEROR] = -1
    s[R.PENDING] = 0
    s[R.EXCHANGE_POS] = s[R.EXCHANGE_LEN]
    s[R.PHASE] = R.TURN
    s[R.CURRENT] = current
    s[R.LAST_PLAYER] = last_player
    s[R.SINCE_PLAY] = since_play
    s[R.TURN_DRAWN] = 0
    return state


def legal(state) -> list[str]:
    return [a.text for a in state.legal_actions()]


def stock(state) -> list[str]:
    """The pioche in drawing order (first drawn first)."""
    s = state.s
    return [card_name(int(s[R.STOCK + i])) for i in range(int(s[R.STOCK_LEN]) - 1, -1, -1)]


def check_conservation(state) -> None:
    """Every card of the pack in exactly one place; hand sizes match the hands; the talon
    climbs."""
    s = state.s
    params = state.game.params
    cards = hand_counts(state)
    for i in range(int(s[R.STOCK_LEN])):
        cards[s[R.STOCK + i]] += 1
    for i in range(int(s[R.TALON_LEN])):
        cards[s[R.TALON + i]] += 1
    deck = R.STANDARD_CARDS + params.num_jokers
    assert (cards[:deck] == 1).all() and (cards[deck:] == 0).all()
    ranks = s[R.TALON_RANK:R.TALON_RANK + int(s[R.TALON_LEN])]
    assert (np.diff(ranks) >= 0).all()
