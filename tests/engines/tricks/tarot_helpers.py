"""Helpers for the tarot tests: build precise positions, play scripted actions, check the
invariants of a deal.

Positions are built from a real game (``game.new_state(seed)``) whose flat state array is
then edited: seats get the hands the test names, the other cards go to the won piles the
test names (the rest to ``rest_to``'s pile), so every card is still somewhere and the
position plays on through the public API.
"""

from __future__ import annotations

import numpy as np

import engines
from engines.games.tarot import rules as R
from engines.games.tarot.game import parse_tarot_card


def cards(text: str) -> list[int]:
    return [parse_tarot_card(t) for t in text.split()]


def points_of(text: str) -> float:
    return sum(int(R.CARD_POINTS[c]) for c in cards(text)) / 2


def build(slug: str, hands: dict, *, dealer: int = 0, leader: int | None = None,
          taker: int = 0, contract: int = R.GARDE, partner: int = -1,
          won: dict | None = None, rest_to: int | None = None, tricks: dict | None = None,
          trick_cards: str = "", scores=None, deals_played: int = 0, **params):
    """A game in trick play: ``hands`` (seat -> card names, all of one size), ``won`` (seat ->
    card names in its pile), every other card in ``rest_to``'s pile (default: the first
    defender; the dog under ``contract`` garde sans/contre when ``rest_to="dog"``);
    ``trick_cards``: cards of those hands already played to the trick in progress, from the
    leader (``leader``, default the dealer's left)."""
    players = params.setdefault("players", len(hands))
    params.setdefault("first_dealer", dealer)
    params.setdefault("num_deals", deals_played + 1)     # the deal stays on view at its end
    game = engines.load(slug, **params)
    state = game.new_state(0)
    s, pr = state.s, game.encoded_params
    R.clear_deal(s)
    hand_cards = {p: cards(h) for p, h in hands.items()}
    sizes = {len(h) for h in hand_cards.values()}
    assert len(sizes) == 1, "give every seat a hand of one size"
    size = sizes.pop()
    played = cards(trick_cards)
    bidding = bool(pr[R.P_BIDDING])
    if bidding:
        s[R.TAKER] = taker
        s[R.CONTRACT] = contract
        s[R.PARTNER] = partner
        s[R.BID + taker] = contract
    if rest_to is None:
        rest_to = (taker + 1) % players if bidding else 0
    placed = {c for h in hand_cards.values() for c in h}
    for p, text in (won or {}).items():
        for c in cards(text):
            s[R.LOCATION + c] = R.LOC_WON + p
            placed.add(c)
    for c in range(R.DECK_CARDS):
        if c not in placed:
            s[R.LOCATION + c] = R.LOC_DOG if rest_to == "dog" else R.LOC_WON + rest_to
        s[R.KNOWN + c] = R.EVERYONE
    for p, hand in hand_cards.items():
        for c in hand:
            s[R.LOCATION + c] = R.LOC_HAND + p
            s[R.KNOWN + c] = 1 << p
        s[R.HAND_SIZE + p] = len(hand)
    for p in range(players):
        s[R.TAKEN + p] = sum(int(R.CARD_POINTS[c]) for c in range(R.DECK_CARDS)
                             if s[R.LOCATION + c] == R.LOC_WON + p)
        s[R.HAS_PLAYED + p] = 1
    s[R.CARDS] = int(R.HAND_CARDS[players])
    s[R.TRICK] = s[R.CARDS] - size
    tricks = tricks if tricks is not None else {
        rest_to if isinstance(rest_to, int) else taker: int(s[R.TRICK])}
    assert sum(tricks.values()) == s[R.TRICK], tricks
    for p, n in tricks.items():
        s[R.TRICKS + p] = n
    s[R.DEALER] = dealer
    s[R.PHASE] = R.PLAYING
    s[R.DEALS_PLAYED] = deals_played
    s[R.DEAL_INDEX] = deals_played
    first = (dealer + 1) % players if leader is None else leader
    s[R.FIRST_LEADER] = first
    s[R.CURRENT] = first
    state.refresh()
    for c in played:
        R.play(s, pr, int(s[R.CURRENT]), c)
    if scores is not None:
        s[R.SCORE:R.SCORE + len(scores)] = [int(2 * v) for v in scores]
    return state


def check_deal(s, pr, n: int) -> None:
    """A state array just after a deal: every card in one pile (or the dog/écart), card
    points adding up to 91 and the oudlers to 3, one trick won per trick played, and (FFT)
    scores adding up to zero; nothing scored after an annulled deal."""
    where = s[R.LOCATION:R.LOCATION + R.DECK_CARDS]
    if s[R.ANNULLED] != R.PLAYED_OUT:
        assert (s[R.POINTS:R.POINTS + n] == 0).all()
        return
    assert ((where >= R.LOC_WON) | (where <= R.LOC_ECART)).all()
    assert s[R.TRICKS:R.TRICKS + n].sum() == s[R.CARDS]
    if pr[R.P_BIDDING]:
        assert R.camp_points(s, pr, R.ATTACK) + R.camp_points(s, pr, R.DEFENCE) == 182
        assert R.camp_oudlers(s, pr, R.ATTACK) + R.camp_oudlers(s, pr, R.DEFENCE) == 3
        assert s[R.POINTS:R.POINTS + n].sum() == 0
    else:
        dog = sum(int(R.CARD_POINTS[c]) for c in np.flatnonzero(where == R.LOC_DOG))
        assert sum(R.exchange(s, pr, p) for p in range(n)) == 0
        assert s[R.TAKEN:R.TAKEN + n].sum() + dog == 182
