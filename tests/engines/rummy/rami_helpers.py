"""Building rummy positions (rami, petite école) for rule tests: hands, table melds, talon
and discard pile set by card names on top of a dealt game."""

from __future__ import annotations

import numpy as np

import engines
from engines.core.cards import parse_card
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.games.rami import rules as R
from engines.games.rami.game import RamiState


def cards(text: str) -> list[int]:
    """Card ids from names: ``"5♠ 6♠ Joker"``."""
    return [parse_card(t) for t in text.split()]


def position(hands: dict[int, str], *, players: int = 4, current: int = 0,
             phase: str = "play", turn: int = 10, opened: tuple[int, ...] = (),
             laid: dict[int, int] | None = None, table: tuple[tuple[int, str], ...] = (),
             stock: str = "", discard: str = "", **params) -> RamiState:
    """A rami match of ``players`` with the given hands (other seats keep one card), table
    melds ``(owner, "10♦ Joker Q♦")``, the talon (its top card last) and the discard pile
    (its top card last); the seats in ``opened`` have opened (and laid 3 cards, unless
    ``laid`` says otherwise)."""
    fields = {R.OPENED: {p: R.OPENED_BEFORE for p in opened},
              R.LAID: {p: (laid or {}).get(p, 3 if p in opened else 0)
                       for p in range(players)}}
    return build("rami", hands, fields, players=players, current=current, phase=phase,
                 turn=turn, table=table, stock=stock, discard=discard, **params)


def build(slug: str, hands: dict[int, str], fields: dict[int, dict[int, int]], *,
          players: int, current: int, phase: str, turn: int,
          table: tuple[tuple[int, str], ...], stock: str, discard: str, **params):
    """A position of any rummy game: hands, per-seat ``fields`` (state offset -> {seat:
    value}), table melds, talon and discard pile, whose turn and phase."""
    game = engines.load(slug, players=players, **params)
    rules = game.rules
    state = game.new_state(0)
    s = state.s
    s[T.HAND:T.HAND + T.MAX_PLAYERS * rummy.CARD_KINDS] = 0
    for p in range(players):
        held = cards(hands.get(p, "9♣"))
        for c in held:
            s[T.hand_at(p) + c] += 1
        s[T.HAND_SIZE_AT + p] = len(held)
    for offset, values in fields.items():
        for p in range(players):
            s[offset + p] = values.get(p, 0)
    s[T.MELDS_LEN] = 0
    for owner, text in table:
        put_table_meld(s, rules, owner, cards(text))
    for field, length, text in ((T.STOCK, T.STOCK_LEN, stock),
                                (T.DISCARD, T.DISCARD_LEN, discard)):
        ids = cards(text)
        s[field:field + len(ids)] = ids
        s[length] = len(ids)
    s[T.CURRENT] = current
    s[T.PHASE] = T.PLAY if phase == "play" else T.DRAW
    s[T.TURN] = turn
    if hasattr(rules, "TABLE_BEFORE"):
        s[rules.TABLE_BEFORE] = s[T.MELDS_LEN] > 0
    return game.state_class(game, s, state._stream)


def put_table_meld(s: np.ndarray, rules, owner: int, ids: list[int]) -> None:
    """Write a meld given card by card: a run when its naturals share a suit and differ in
    rank, else a group (of different suits in rami, free in petite école)."""
    wild = rummy.JOKER if rules is R else -1
    naturals = [c for c in ids if c != wild and (wild >= 0 or c % 13 != 0)]
    free = rules is not R
    suits = {c // 13 for c in naturals}
    ranks = {c % 13 for c in naturals}
    k = int(s[T.MELDS_LEN])
    row = T.MELDS + k * rummy.MELD_WIDTH
    if len(suits) == 1 and len(ranks) == len(naturals):
        first = ids.index(naturals[0])
        low = naturals[0] % 13 + 2 - first
        s[row + rummy.M_KIND] = rummy.RUN
        s[row + rummy.M_KEY] = suits.pop()
        s[row + rummy.M_LOW] = low
    else:
        s[row + rummy.M_KIND] = rummy.GROUP
        s[row + rummy.M_KEY] = ranks.pop()
        s[row + rummy.M_LOW] = len(naturals) if free else sum(1 << (c // 13) for c in naturals)
    s[row + rummy.M_LEN] = len(ids)
    s[row + rummy.M_OWNER] = owner
    s[row + rummy.M_CARDS:row + rummy.M_CARDS + len(ids)] = ids
    s[T.MELDS_LEN] = k + 1


def texts(state: RamiState) -> list[str]:
    return [a.text for a in state.legal_actions()]


def table_cards(s: np.ndarray, rules=R) -> list[int]:
    """Every card on the table."""
    out = []
    for k in range(int(s[T.MELDS_LEN])):
        row = T.MELDS + k * rummy.MELD_WIDTH
        out += s[row + rummy.M_CARDS:row + rummy.M_CARDS + s[row + rummy.M_LEN]].tolist()
    return out


def card_census(state) -> np.ndarray:
    """How many of each card the talon, the discard pile, the hands and the table hold."""
    s = state.s
    counts = np.zeros(rummy.CARD_KINDS, dtype=np.int64)
    for c in s[T.STOCK:T.STOCK + s[T.STOCK_LEN]].tolist() + \
            s[T.DISCARD:T.DISCARD + s[T.DISCARD_LEN]].tolist() + table_cards(s):
        counts[c] += 1
    for p in range(state.game.params.players):
        counts += s[T.hand_at(p):T.hand_at(p) + rummy.CARD_KINDS]
    return counts


def meld_is_valid(s: np.ndarray, k: int, max_jokers: int = 1) -> bool:
    """A table meld checked from its cards alone: a run of one suit on consecutive positions
    within 1..14 (not both Aces), or a group of one rank in different suits, 3 or 4 cards;
    at most ``max_jokers`` jokers and at least two naturals."""
    row = T.MELDS + k * rummy.MELD_WIDTH
    length = int(s[row + rummy.M_LEN])
    ids = s[row + rummy.M_CARDS:row + rummy.M_CARDS + length].tolist()
    jokers = ids.count(rummy.JOKER)
    if length < 3 or jokers > max_jokers or length - jokers < 2:
        return False
    if s[row + rummy.M_KIND] == rummy.RUN:
        suit, low = int(s[row + rummy.M_KEY]), int(s[row + rummy.M_LOW])
        if low < 1 or low + length - 1 > 14 or (low == 1 and low + length - 1 == 14):
            return False
        for i, c in enumerate(ids):
            position = low + i
            rank = 14 if position == 1 else position
            if c != rummy.JOKER and c != suit * 13 + rank - 2:
                return False
        return True
    naturals = [c for c in ids if c != rummy.JOKER]
    return length <= 4 and len({c % 13 for c in naturals}) == 1 \
        and len({c // 13 for c in naturals}) == len(naturals)
