"""Helpers for the war games' tests (bataille, super-bataille): positions with chosen piles,
and an independent reference of the rules in plain Python (a set of every pile state seen
detects cycles), written from the specs without the engine's code."""

from __future__ import annotations

import engines
from engines.core.cards import card_name, parse_card, rank_of
from engines.families.war import rules as R


def cards(text: str) -> list[int]:
    """Card ids from names: ``"K♠ 9♥ Joker"``."""
    return [parse_card(t) for t in text.split()]


def position(slug: str, piles: list[str], dealer: int = 0, **params):
    """A state of ``slug`` after a deal that gave seat p the pile ``piles[p]`` (top first)."""
    game = engines.load(slug, players=len(piles), **params)
    state = game.new_state(0)
    s = state.s
    R.new_game(s, game.encoded_params)
    s[R.DEALER] = dealer
    for p, text in enumerate(piles):
        for card in cards(text):
            R.put_under(s, p, card)
        s[R.INITIAL_COUNT + p] = s[R.COUNT + p]
    R.start_record(s, game.encoded_params)
    s[R.CURRENT] = R.first_in_game(s, game.encoded_params)
    s[R.PHASE] = R.PLAY
    return state


def names(ids) -> list[str]:
    return [card_name(c) for c in ids]


def strength(card: int) -> int:
    """2..14 for standard cards, 15 for a Joker."""
    return 15 if card >= 52 else rank_of(card)


def reference_game(piles, pickup: str, payment=None, losers_pay=True, dealer=0,
                   max_tricks=10**6):
    """Play a war game in plain Python from ``piles`` (top first) with a deterministic pickup
    order; ``payment(card)`` is a loser's number n (None: the bataille).  Returns (end,
    tricks, cycle length, final piles); ``end`` is ``all_cards``, ``cycle`` (a pile state
    seen before: the game would repeat forever) or ``exhausted``."""
    piles = [list(p) for p in piles]
    n = len(piles)
    seen = {}
    tricks = 0
    while tricks < max_tricks:
        key = tuple(tuple(p) for p in piles)
        if key in seen:
            return "cycle", tricks, tricks - seen[key], piles
        seen[key] = tricks
        table = [[] for _ in range(n)]
        up = {p: piles[p].pop(0) for p in range(n) if piles[p]}
        for p, c in up.items():
            table[p].append(c)
        first = True
        while True:
            if not up:
                winner = None
                best = 0
                for i in range(n):
                    p = (dealer + 1 + i) % n
                    if len(piles[p]) > best:
                        best, winner = len(piles[p]), p
                break
            best = max(strength(c) for c in up.values())
            tied = [p for p, c in up.items() if strength(c) == best]
            if payment is not None and (first or losers_pay):
                for p, c in up.items():
                    if p not in tied:
                        for _ in range(min(payment(c) - 1, len(piles[p]))):
                            table[p].append(piles[p].pop(0))
            first = False
            if len(tied) == 1:
                winner = tied[0]
                break
            up = {}
            for p in tied:
                if len(piles[p]) >= 2:
                    table[p].append(piles[p].pop(0))
                if piles[p]:
                    up[p] = piles[p].pop(0)
                    table[p].append(up[p])
        tricks += 1
        if winner is None:
            return "exhausted", tricks, 0, piles
        if pickup == "winner_first":
            order = [winner] + [(winner + i) % n for i in range(1, n)]
        elif pickup == "loser_first":
            order = [(winner + i) % n for i in range(1, n)] + [winner]
        else:
            order = list(range(n))
        for p in order:
            piles[winner].extend(table[p])
        if sum(1 for p in piles if p) == 1:
            return "all_cards", tricks, 0, piles
    return "max_tricks", tricks, 0, piles


def all_cards(state) -> list[int]:
    """Every card in the piles, sorted."""
    return sorted(c for pile in state.piles for c in pile)


def deck_of(game) -> list[int]:
    pr = game.encoded_params
    return sorted(pr[R.P_DECK:R.P_DECK + pr[R.P_DECK_SIZE]].tolist())


