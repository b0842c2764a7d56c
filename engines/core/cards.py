"""Cards and decks shared by every engine: compact integer encodings and readable names.

French-suited cards (52-, 32- and 54-card decks) share one encoding::

    card id = suit * 13 + (rank - 2)      for the 52 standard cards (0..51)
    card id = 52, 53, ...                 for jokers

with suits in the French order ♥ ♦ ♠ ♣ (coeur, carreau, pique, trèfle) and ranks 2..14
(J = 11, Q = 12, K = 13, A = 14).  A 32-card deck is the subset of ranks 7..A, so a card keeps
its id and its name whatever deck it belongs to.

The 78-card tarot deck has its own encoding: ids 0..55 are the four suits of 14 cards
(1..10, V, C, D, R) in the order ♥ ♦ ♠ ♣, ids 56..76 the trumps 1..21, id 77 the Excuse.
"""

from __future__ import annotations

import numpy as np
from numba.core.extending import overload
from numba.cpython.unsafe.numbers import trailing_zeros

HEARTS, DIAMONDS, SPADES, CLUBS = 0, 1, 2, 3
SUITS = (HEARTS, DIAMONDS, SPADES, CLUBS)
SUIT_SYMBOLS = ("♥", "♦", "♠", "♣")
SUIT_NAMES = ("hearts", "diamonds", "spades", "clubs")

RANKS_PER_SUIT = 13
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
STANDARD_CARDS = 52
FIRST_JOKER = STANDARD_CARDS


def card_id(rank: int, suit: int) -> int:
    """The id of a standard card (rank 2..14, suit 0..3)."""
    if not 2 <= rank <= ACE or suit not in SUITS:
        raise ValueError(f"no such card: rank {rank}, suit {suit}")
    return suit * RANKS_PER_SUIT + rank - 2


def joker_id(index: int) -> int:
    """The id of the index-th joker (0-based)."""
    return FIRST_JOKER + index


def is_joker(card: int) -> bool:
    return card >= FIRST_JOKER


def suit_of(card: int) -> int:
    """Suit of a standard card; jokers have none (-1)."""
    return -1 if is_joker(card) else card // RANKS_PER_SUIT


def rank_of(card: int) -> int:
    """Rank 2..14 of a standard card; jokers have none (0)."""
    return 0 if is_joker(card) else card % RANKS_PER_SUIT + 2


def card_name(card: int) -> str:
    """Readable name: ``10♥``, ``Q♠``, ``A♣``, ``Joker`` (``Joker2`` for the second one)."""
    if is_joker(card):
        index = card - FIRST_JOKER
        return "Joker" if index == 0 else f"Joker{index + 1}"
    rank = rank_of(card)
    return f"{RANK_NAMES.get(rank, str(rank))}{SUIT_SYMBOLS[suit_of(card)]}"


_SUIT_LETTERS = {"♥": HEARTS, "h": HEARTS, "♦": DIAMONDS, "d": DIAMONDS,
                 "♠": SPADES, "s": SPADES, "♣": CLUBS, "c": CLUBS}
_RANK_LETTERS = {"J": JACK, "V": JACK, "Q": QUEEN, "D": QUEEN, "K": KING, "R": KING, "A": ACE}


def parse_card(text: str) -> int:
    """Inverse of :func:`card_name`; also accepts letters for suits (``10h``, ``Qs``)."""
    t = text.strip()
    if t.lower().startswith("joker"):
        rest = t[5:]
        return joker_id(int(rest) - 1 if rest else 0)
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r}")
    rank_text, suit_text = t[:-1].upper(), t[-1]
    suit = _SUIT_LETTERS.get(suit_text, _SUIT_LETTERS.get(suit_text.lower()))
    rank = _RANK_LETTERS.get(rank_text) or (int(rank_text) if rank_text.isdigit() else None)
    if rank_text.isdigit() and rank is not None and rank > 10:
        rank = None                                  # face cards go by letter: J Q K A
    if suit is None or rank is None or not 2 <= rank <= ACE:
        raise ValueError(f"not a card: {text!r} (examples: 10♥, Q♠, Ah, Joker)")
    return card_id(rank, suit)


def deck_52() -> np.ndarray:
    """The 52 standard cards, ids ascending."""
    return np.arange(STANDARD_CARDS, dtype=np.int32)


def deck_32() -> np.ndarray:
    """The 32-card piquet deck (7 to A in each suit), ids ascending."""
    return np.array([card_id(r, s) for s in SUITS for r in range(7, ACE + 1)], dtype=np.int32)


def deck_54(jokers: int = 2) -> np.ndarray:
    """52 standard cards plus ``jokers`` jokers (ids 52, 53, ...)."""
    return np.arange(STANDARD_CARDS + jokers, dtype=np.int32)


# --- Tarot --------------------------------------------------------------------------------
TAROT_SUIT_CARDS = 14
TAROT_FIRST_TRUMP = 4 * TAROT_SUIT_CARDS      # 56: trump 1 (le Petit)
TAROT_TRUMPS = 21
TAROT_EXCUSE = TAROT_FIRST_TRUMP + TAROT_TRUMPS  # 77
TAROT_CARDS = 78
_TAROT_FACES = {11: "V", 12: "C", 13: "D", 14: "R"}


def tarot_deck() -> np.ndarray:
    """The 78 tarot cards, ids ascending."""
    return np.arange(TAROT_CARDS, dtype=np.int32)


def tarot_trump_id(number: int) -> int:
    """Id of trump 1..21."""
    if not 1 <= number <= TAROT_TRUMPS:
        raise ValueError(f"no trump {number}: tarot trumps are 1..21")
    return TAROT_FIRST_TRUMP + number - 1


def tarot_card_name(card: int) -> str:
    """Readable tarot name: ``7♥``, ``R♠`` (roi), ``C♦`` (cavalier), ``T21``, ``Excuse``."""
    if not 0 <= card < TAROT_CARDS:
        raise ValueError(f"no tarot card {card}")
    if card == TAROT_EXCUSE:
        return "Excuse"
    if card >= TAROT_FIRST_TRUMP:
        return f"T{card - TAROT_FIRST_TRUMP + 1}"
    suit, index = divmod(card, TAROT_SUIT_CARDS)
    rank = index + 1
    return f"{_TAROT_FACES.get(rank, str(rank))}{SUIT_SYMBOLS[suit]}"


# ---------------------------------------------------------------------------------------------
# Sets of cards as bits of an integer (bit i: card i)
# ---------------------------------------------------------------------------------------------
def lowest_member(cards: int) -> int:
    """The lowest member of a set that is not empty (the index of its lowest set bit)."""
    cards = int(cards)
    return (cards & -cards).bit_length() - 1


@overload(lowest_member)
def _lowest_member(cards):  # type: ignore[no-untyped-def]
    """Compiled, one count of trailing zeros (the Python body above runs without numba)."""
    return lambda cards: trailing_zeros(cards)  # type: ignore[call-arg]
