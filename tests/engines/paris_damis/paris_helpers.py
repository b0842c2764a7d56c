"""Helpers for Paris d'amis tests: build precise positions, play scripted turns, check
invariants.

Positions are built from a real game (``game.new_state(seed)``) whose flat state array is then
edited: every play card is moved where the test wants it, so card conservation still holds
and the position can be played on through the public API.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

import engines
from engines.core.cards import card_id, parse_card
from engines.games.paris_damis import rules as R

HEARTS, DIAMONDS, SPADES, CLUBS = 0, 1, 2, 3
JOKER, JOKER2 = 52, 53


def load(**params):
    return engines.load("paris-damis", **params)


def cards(text: str | Iterable[int]) -> list[int]:
    """Card ids of a space-separated list of names (``"A♥ 10♠ Joker"``)."""
    if isinstance(text, str):
        return [parse_card(t) for t in text.split()]
    return [int(c) for c in text]


def play_cards_in_game(game) -> int:
    return 52 + game.params.jokers


def build(players: int = 2, hands: dict | None = None, *, trump: int = HEARTS,
          starter: int = 0, round_index: int = 0, seed: int = 0, deck_top: str = "",
          rest_to: int | None = None, faces: dict | None = None,
          treasures: dict | None = None, **params):
    """A game at the start of a turn phase with exactly the given hands.

    ``hands``: seat -> cards (names or ids).  ``deck_top``: cards on top of the play deck,
    the first one drawn first.  Every other play card goes to the bottom of the deck, or to
    seat ``rest_to``'s hand.  ``treasures``: seat -> points cards already won (taken out of
    their piles).  ``faces``: suit -> the points card face up in that pile.
    """
    game = load(players=players, **params)
    state = game.new_state(seed)
    s = state.s
    n_cards = play_cards_in_game(game)
    hands = {p: cards(h) for p, h in (hands or {}).items()}
    for p in range(players):
        hands.setdefault(p, [])
    top = cards(deck_top)
    used = [c for h in hands.values() for c in h] + top
    assert len(used) == len(set(used)), "a card is used twice"
    assert all(0 <= c < n_cards for c in used), "a card is not in this game's deck"
    rest = [c for c in range(n_cards) if c not in used]
    if rest_to is not None:
        hands[rest_to] = hands[rest_to] + rest
        rest = []
    s[R.HAND_SIZE:R.HAND_SIZE + R.MAX_PLAYERS] = 0
    s[R.MARKERS_USED:R.MARKERS_USED + R.MAX_PLAYERS] = 0
    for p, hand in hands.items():
        for c in hand:
            s[R.LOCATION + c] = R.LOC_HAND + p
        s[R.HAND_SIZE + p] = len(hand)
    deck = rest + top[::-1]                       # the top of the deck is the last entry
    s[R.DECK:R.DECK + R.PLAY_CARDS] = 0
    for i, c in enumerate(deck):
        s[R.DECK + i] = c
        s[R.LOCATION + c] = R.LOC_DECK
    s[R.DECK_SIZE] = len(deck)
    s[R.TRUMP] = trump
    s[R.ROUND] = round_index
    s[R.STARTER] = starter
    s[R.CURRENT] = starter
    s[R.PHASE] = R.TURN
    if treasures:
        set_treasures(state, treasures)
    for suit, card in (faces or {}).items():
        set_face_up(state, suit, cards(card)[0] if isinstance(card, str) else card)
    return refresh(state)


def refresh(state):
    """After editing ``state.s`` by hand: recompute what the rules derive from the card
    locations (hand masks and sizes, when the engine keeps them) and drop what the state
    object caches from its array."""
    rebuild = getattr(R, "rebuild_hands", None)
    if rebuild is not None:
        rebuild(state.s, state.game.encoded_params)
    state.refresh()
    return state


def set_treasures(state, treasures: dict) -> None:
    """Give points cards to seats: each pile is reordered so that the won cards come first
    (already turned and taken) and the pile top is the first card not won."""
    s = state.s
    owned = {}
    for p, names in treasures.items():
        for c in cards(names):
            owned[c] = p
    for suit in range(4):
        pile = [int(c) for c in s[R.PILE + suit * 8:R.PILE + suit * 8 + 8]]
        won = [c for c in pile if c in owned]
        free = [c for c in pile if c not in owned]
        s[R.PILE + suit * 8:R.PILE + suit * 8 + 8] = won + free
        s[R.PILE_TOP + suit] = len(won)
        for c in pile:
            s[R.POINTS_OWNER + c] = owned.get(c, R.OWNER_NONE)
    refresh(state)


def set_face_up(state, suit: int, card: int) -> None:
    """Make ``card`` (still in its pile, face down) the face-up card of its pile."""
    s = state.s
    base = R.PILE + suit * 8
    top = int(s[R.PILE_TOP + suit])
    pile = s[base:base + 8]
    where = int(np.flatnonzero(pile == card)[0])
    assert where >= top, "that points card has already left the pile"
    pile[top], pile[where] = pile[where], pile[top]


def face_up(state, suit: int) -> int:
    return int(R.face_up_card(state.s, suit))


def owner(state, card: int) -> int:
    return int(state.s[R.POINTS_OWNER + card])


def hand(state, player: int) -> set[int]:
    loc = state.s[R.LOCATION:R.LOCATION + R.PLAY_CARDS]
    return {int(c) for c in np.flatnonzero(loc == R.LOC_HAND + player)}


def deck(state) -> list[int]:
    """The play deck, bottom first."""
    return [int(c) for c in state.s[R.DECK:R.DECK + state.s[R.DECK_SIZE]]]


def hand_sizes(state) -> tuple[int, ...]:
    n = state.game.params.players
    return tuple(int(v) for v in state.s[R.HAND_SIZE:R.HAND_SIZE + n])


def play(state, *steps: str) -> None:
    """Apply scripted steps ``"P1 bet 2"``, checking whose turn it is before each."""
    for step in steps:
        seat, _, text = step.partition(" ")
        assert seat.startswith("P"), step
        assert state.current_player == int(seat[1:]), \
            f"expected {seat} to play {text!r}, but P{state.current_player} is to play"
        state.apply(text)


def legal_texts(state) -> set[str]:
    return {a.text for a in state.legal_actions()}


def placements(state) -> dict[str, set[str]]:
    """Legal placements by card name: card -> column names."""
    out: dict[str, set[str]] = {}
    for text in legal_texts(state):
        if text.startswith("place "):
            card, column = text[len("place "):].split(" → ")
            out.setdefault(card, set()).add(column)
    return out


def bets(state) -> set[int]:
    return {int(t.split()[1]) for t in legal_texts(state) if t.startswith("bet ")}


def column_value(rank: int) -> int:
    """Column value straight from the spec: 2..10 face value, J/Q/K 11, A 12."""
    return rank if rank <= 10 else (12 if rank == 14 else 11)


def points_value(rank: int) -> int:
    """Points value straight from the spec: 7..10 = 1, J/Q/K = 2, A = 3."""
    return 1 if rank <= 10 else (3 if rank == 14 else 2)


ALL_POINTS_CARDS = [card_id(r, s) for s in range(4) for r in range(7, 15)]


# --------------------------------------------------------------------------------------
# Invariants
# --------------------------------------------------------------------------------------
def check_invariants(state) -> None:
    """Assert every structural invariant of a Paris d'amis state (see test_..._invariants)."""
    s = state.s
    params = state.game.params
    n = params.players
    n_cards = 52 + params.jokers
    phase = int(s[R.PHASE])
    loc = s[R.LOCATION:R.LOCATION + R.PLAY_CARDS]

    # jokers the parameters leave out never enter the game
    assert (loc[n_cards:] == R.LOC_OUT).all()
    loc = loc[:n_cards]
    valid = ({R.LOC_DECK} | {R.LOC_HAND + p for p in range(n)}
             | set(range(R.LOC_COLUMN, R.LOC_COLUMN + 4))
             | {R.LOC_DISCARD + p for p in range(n)})
    assert set(int(v) for v in loc) <= valid, f"bad locations {set(loc.tolist()) - valid}"

    # hands
    for p in range(R.MAX_PLAYERS):
        counted = int((loc == R.LOC_HAND + p).sum()) if p < n else 0
        assert s[R.HAND_SIZE + p] == counted, f"P{p} hand_size {s[R.HAND_SIZE + p]} != {counted}"

    # hands kept as bit masks too (when the engine has them): in step with the locations
    if "hand_mask" in R.STATE.names():
        words, width = R.HAND_WORDS, R.WORD_BITS
        for p in range(R.MAX_PLAYERS):
            bits = set()
            for half in range(words):
                word = int(s[R.HAND_MASK + p * words + half])
                assert word >= 0, "a hand mask word has its sign bit set"
                bits |= {half * width + i for i in range(width) if word >> i & 1}
            expected = {int(c) for c in np.flatnonzero(loc == R.LOC_HAND + p)} if p < n else set()
            assert bits == expected, f"P{p} hand mask out of step with the locations"

    # deck: exactly the cards located in the deck, each once
    size = int(s[R.DECK_SIZE])
    in_deck = sorted(int(c) for c in s[R.DECK:R.DECK + size])
    assert in_deck == sorted(int(c) for c in np.flatnonzero(loc == R.LOC_DECK))

    # discards: only during the discard phase (the recycle takes them back)
    if phase == R.DISCARD:
        for p in range(n):
            assert s[R.DISCARDED + p] == int((loc == R.LOC_DISCARD + p).sum())
            assert s[R.TO_DISCARD + p] >= 0
    else:
        assert not ((loc >= R.LOC_DISCARD) & (loc < R.LOC_DISCARD + 4)).any()

    # columns: the cards in columns are exactly this round's placements
    in_columns = {int(c): int(loc[c]) - R.LOC_COLUMN
                  for c in np.flatnonzero((loc >= R.LOC_COLUMN) & (loc < R.LOC_COLUMN + 4))}
    placed = int(s[R.PLACEMENTS])
    markers_used = [int(s[R.MARKERS_USED + p]) for p in range(n)]
    assert all(0 <= m <= params.markers for m in markers_used)
    if phase in (R.TURN, R.DISCARD, R.OVER):
        record = {int(s[R.PLACEMENT_CARD + i]): int(s[R.PLACEMENT_COLUMN + i])
                  for i in range(placed)}
        assert len(record) == placed
        assert record == in_columns
        totals = np.zeros((n, 4), dtype=np.int64)
        for i in range(placed):
            p = int(s[R.PLACEMENT_PLAYER + i])
            c = int(s[R.PLACEMENT_CARD + i])
            if c >= 52:
                totals[p, s[R.PLACEMENT_COLUMN + i]] += (
                    params.joker_value if params.joker_rule == "wild" else 0)
            else:
                totals[p, s[R.PLACEMENT_COLUMN + i]] += column_value(c % 13 + 2)
        for p in range(n):
            count = sum(1 for i in range(placed) if s[R.PLACEMENT_PLAYER + i] == p)
            assert markers_used[p] == count
            for col in range(4):
                assert s[R.COLUMN_TOTAL + p * 4 + col] == totals[p, col]
    else:
        assert not in_columns
        assert markers_used == [0] * n

    # points cards: each pile a permutation of its suit; owner consistent with the pile top
    owners = s[R.POINTS_OWNER:R.POINTS_OWNER + 52]
    for suit in range(4):
        pile = [int(c) for c in s[R.PILE + suit * 8:R.PILE + suit * 8 + 8]]
        assert sorted(pile) == [card_id(r, suit) for r in range(7, 15)]
        top = int(s[R.PILE_TOP + suit])
        assert 0 <= top <= 8
        for i, c in enumerate(pile):
            o = int(owners[c])
            assert o in (R.OWNER_NONE, R.OWNER_DISCARDED) or 0 <= o < n
            if i < top:
                assert o != R.OWNER_NONE, "a turned points card left its pile without owner"
            elif i > top:
                assert o == R.OWNER_NONE, "a face-down points card has an owner"
    non_points = [c for c in range(52) if c not in ALL_POINTS_CARDS]
    assert (owners[non_points] == R.OWNER_NONE).all()

    # turn bookkeeping
    if phase == R.OVER:
        assert state.current_player == -1
    else:
        assert 0 <= state.current_player < n
    if phase == R.TURN:
        assert s[R.BET + state.current_player] == 0, "a player who bet has the turn"
        assert 0 <= s[R.BETS_PLACED] < n


def same_future(a, b, seed: int = 0) -> bool:
    """Whether two states play on identically (same chance events) under the same random
    decisions; neither is changed (clones are played)."""
    a, b = a.clone(), b.clone()
    rng = np.random.default_rng(seed)
    while not a.is_terminal():
        if b.is_terminal() or not np.array_equal(a.s, b.s):
            return False
        acts = a.legal_actions()
        choice = acts[rng.integers(len(acts))]
        a.apply(choice.code)
        b.apply(choice.code)
    return b.is_terminal() and np.array_equal(a.s, b.s)
