"""The rummy core: melds, wild cards, the table and the feasibility of an opening, as
compiled functions that the rummy engines (``rami``, and the family's later games) share.

Cards are counted by id (``engines.core.cards``: ``suit * 13 + rank - 2`` for the 52 standard
cards, 52 for a joker; every joker is the same card), so a hand is 53 counters and two or
three decks are just larger counts.

**Melds.**  A *run* (suite) is ``length >= 3`` consecutive *positions* of one suit, where
position 1 is the Ace played low, 2..13 the ranks 2..K and 14 the Ace played high; a game
bounds the positions it allows (``run_min``/``run_max``) and a run may never hold both
Aces' positions (no K-A-2 wrap).  A *group* (brelan, carré) is 3 or 4 cards of one rank in
different suits.  A *wild* card stands for a card of the meld; the wild policy is one of:

* ``JOKERS``: the jokers, standing for any card;
* ``TWOS``: every 2, standing for any card (a 2 is never natural);
* ``SUIT_TWOS``: a 2 stands for any card of its own suit only (pinacle's "pinacles").

A meld holds at most ``max_wilds`` wilds and at least ``min_naturals`` natural cards.
A game may allow *mixed* runs (``mixed_runs``: petite école's ``run_same_suit=false``), of
consecutive ranks in any suits; their key is ``ANY_SUIT``, and the natural card laid at a
position is the hand's lowest card id of that rank (its lowest suit), so one code names one
set of cards.

**Meld codes.**  A meld a player may lay is one integer: ``kind | key << 1 | low << 5 |
length << 9 | mask << 13`` where, for a run, ``key`` is the suit, ``low`` the first
position and bit ``i`` of ``mask`` marks a wild at position ``low + i``; for a group,
``key`` is ``rank - 2``, ``low`` the mask of the natural cards' suits and ``length`` the
size (the wilds stand for the missing suits).  A game may instead allow *free* groups
(``free_groups``: petite école's multi-deck triples), of any suits, repeats included, and
any size: ``low`` is then the number of natural cards.  Candidate melds are enumerated by suit and
rank buckets (every window of positions of a suit, every subset of the suits held of a
rank), never by subsets of the hand; a wild only ever stands for a card the hand does not
hold (a player who wants a wild elsewhere lays the other meld first).

**The table.**  Laid melds are rows of ``MELD_WIDTH`` ints: kind, key, low, length, owner
and the card in each place (a run's places are its positions in order; a group's are its
naturals, then its wilds).  Melds grow by lay-offs at either end of a run or into a group
with a missing suit, and a wild comes back by :func:`swap_wild`.

**Card sets.**  A set of card ids is one integer, bit ``card`` for each (the joker's is bit
52): a hand's naturals of a suit, a rank's suits, the cards a table meld accepts at an end
are read off the set of cards the hand holds rather than card by card.

**Openings.**  :func:`can_complete` answers whether a hand can still lay new melds worth a
number of points, including a clean run (one with no wild), including a given card, and
leaving the cards a discard needs: a depth-first search over the hand's candidate melds,
each level enumerated afresh on what is left, after quick necessary conditions read off
the hand's card set (:func:`may_complete`) that refuse most hands at once.
:func:`can_fill` answers the same for a contract of figures (petite école's stages); its
last figure is looked for directly (:func:`holds_at_least`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import register_jitable

from engines.core.cards import ACE, RANKS_PER_SUIT, STANDARD_CARDS, lowest_member
from engines.core.layout import Layout, copy_into, stack_room

# --------------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------------
CARD_KINDS = STANDARD_CARDS + 1         # 52 standard cards and the joker
JOKER = STANDARD_CARDS
SUITS = 4
ANY_SUIT = SUITS                        # the key of a mixed run (any suits)
ACE_LOW, ACE_HIGH = 1, 14               # the two positions of the Ace in a run
MAX_RUN = 14                            # positions 1..14
MAX_GROUP = SUITS                       # groups are of different suits
MELD_MIN = 3                            # the fewest cards of a meld
NO_FIGURE = MAX_RUN + 1                 # a figure length no meld reaches: none of that kind
JOKERS, TWOS, SUIT_TWOS = 0, 1, 2       # wild policies
RUN, GROUP = 0, 1                       # meld kinds
FACE_VALUE, ACE_VALUE_HIGH, ACE_VALUE_LOW = 10, 11, 1

# A table meld: kind, key (suit of a run, rank - 2 of a group), low (first position of a
# run, natural suits of a group), length, owner, then its cards place by place.
MELD = Layout("kind", "key", "low", "len", "owner", ("cards", MAX_RUN))
M_KIND, M_KEY, M_LOW, M_LEN, M_OWNER, M_CARDS = MELD.offsets(
    "kind", "key", "low", "len", "owner", "cards")
MELD_WIDTH = MELD.size

# The most candidate melds one hand can have (windows of runs and subsets of groups).
MAX_CANDIDATES = 2048
# Nodes a feasibility search may visit; beyond it the search answers "no" (never met on
# 13- or 14-card hands with four jokers; it bounds the time of pathological hands).
SEARCH_BUDGET = 200_000
NO_MELD = -1                            # the end of the melds an opening search found
# The most cards of a hand the searches take (their work room is sized for it; the games
# deal 13 and a hand holds at most 15), and the levels of a search on such a hand.
MAX_SEARCH_HAND = 21
SEARCH_LEVELS = MAX_SEARCH_HAND // MELD_MIN + 2

# Rule parameters every rummy engine passes in its parameter array, first in its layout.
CORE_PARAMS = (("players", 1), ("wild_policy", 1), ("max_wilds", 1), ("min_naturals", 1),
               ("groups", 1), ("run_min", 1), ("run_max", 1), ("free_groups", 1),
               ("wilds_le_naturals", 1), ("mixed_runs", 1))
(P_PLAYERS, P_WILD_POLICY, P_MAX_WILDS, P_MIN_NATURALS, P_GROUPS, P_RUN_MIN, P_RUN_MAX,
 P_FREE_GROUPS, P_WILDS_LE_NATURALS, P_MIXED_RUNS) = Layout(*CORE_PARAMS).offsets(
    "players", "wild_policy", "max_wilds", "min_naturals", "groups", "run_min", "run_max",
    "free_groups", "wilds_le_naturals", "mixed_runs")


@njit(cache=True)
def card_suit(card):
    return card // RANKS_PER_SUIT


@njit(cache=True)
def card_rank(card):
    """Rank 2..14 of a standard card."""
    return card % RANKS_PER_SUIT + 2


@njit(cache=True)
def card_at(suit, position):
    """The card of ``suit`` at run position 1..14 (1 and 14 are both the Ace)."""
    rank = ACE if position == ACE_LOW else position
    return suit * RANKS_PER_SUIT + rank - 2


@njit(cache=True)
def fits_position(key, position, card):
    """Whether ``card`` is the natural card a run of ``key`` (a suit, or ``ANY_SUIT``)
    holds at a run position."""
    if key == ANY_SUIT:
        rank = ACE if position == ACE_LOW else position
        return card < STANDARD_CARDS and card_rank(card) == rank
    return card == card_at(key, position)


@njit(cache=True)
def natural_of_rank(pr, hand, position):
    """The natural card a mixed run lays from ``hand`` at a run position: the lowest id
    of that rank held (-1 if none)."""
    for s in range(SUITS):
        card = card_at(s, position)
        if hand[card] > 0 and not is_wild(pr, card):
            return card
    return -1


@njit(cache=True)
def is_wild(pr, card):
    if pr[P_WILD_POLICY] == JOKERS:
        return card == JOKER
    return card < STANDARD_CARDS and card_rank(card) == 2


@njit(cache=True)
def wild_fits(pr, card, suit):
    """Whether the wild ``card`` may stand for a card of ``suit`` (any suit for a group:
    ``suit`` -1)."""
    if pr[P_WILD_POLICY] != SUIT_TWOS:
        return True
    return suit >= 0 and card_suit(card) == suit


@njit(cache=True)
def wilds_for(pr, hand, suit):
    """How many wilds of ``hand`` may stand in a meld of ``suit`` (-1: a group)."""
    policy = pr[P_WILD_POLICY]
    if policy == JOKERS:
        return hand[JOKER]
    if policy == SUIT_TWOS:
        return hand[card_at(suit, 2)] if suit >= 0 else 0
    n = 0
    for s in range(SUITS):
        n += hand[card_at(s, 2)]
    return n


@njit(cache=True)
def wild_count(pr, hand):
    """How many wild cards ``hand`` holds."""
    if pr[P_WILD_POLICY] == JOKERS:
        return hand[JOKER]
    n = 0
    for s in range(SUITS):
        n += hand[card_at(s, 2)]
    return n


@njit(cache=True)
def pick_wild(pr, hand, given, suit):
    """The wild card ``hand`` gives next for a meld of ``suit`` (the lowest id that fits and
    that it still holds, ``given`` counting the wilds it gave already, 4 bits per suit of
    the 2s), and ``given`` with it counted."""
    if pr[P_WILD_POLICY] == JOKERS:
        return JOKER, given
    for s in range(SUITS):
        card = card_at(s, 2)
        if hand[card] > (given >> (4 * s)) & 15 and wild_fits(pr, card, suit):
            return card, given + (1 << (4 * s))
    return -1, given


@njit(cache=True)
def meld_value_of(card, position):
    """The meld value of a natural card (the 51 count): face value, 10 for K Q J, the Ace
    11 except at the low end of a run (1)."""
    if position == ACE_LOW:
        return ACE_VALUE_LOW
    rank = card_rank(card)
    if rank == ACE:
        return ACE_VALUE_HIGH
    return min(rank, FACE_VALUE)


# --------------------------------------------------------------------------------------
# Card sets: one bit per card id (the joker's is bit 52)
# --------------------------------------------------------------------------------------
SUIT_CARDS = (1 << RANKS_PER_SUIT) - 1  # a suit's 13 cards, at bit 0 for its 2


@njit(cache=True)
def held_cards(hand):
    """The set of cards ``hand`` holds at least one copy of."""
    cards = np.int64(0)
    for card in range(CARD_KINDS):
        cards |= np.int64(hand[card] > 0) << card
    return cards


@njit(cache=True)
def wild_cards(pr):
    """The set of the wild cards."""
    if pr[P_WILD_POLICY] == JOKERS:
        return np.int64(1) << JOKER
    twos = np.int64(0)
    for s in range(SUITS):
        twos |= np.int64(1) << card_at(s, 2)
    return twos


@njit(cache=True)
def wilds_fitting(pr, suit, wilds):
    """The wild cards of the set ``wilds`` that may stand in a meld of ``suit`` (-1: a
    group)."""
    if pr[P_WILD_POLICY] != SUIT_TWOS:
        return wilds
    if suit < 0 or suit >= SUITS:
        return np.int64(0)
    return wilds & np.int64(1) << card_at(suit, 2)


@njit(cache=True)
def first_card(cards):
    """The lowest card id of a set that is not empty."""
    return lowest_member(cards)


# --------------------------------------------------------------------------------------
# Meld codes
# --------------------------------------------------------------------------------------
@njit(cache=True)
def encode(kind, key, low, length, mask):
    return kind | key << 1 | low << 5 | length << 9 | mask << 13


@njit(cache=True)
def meld_kind(code):
    return code & 1


@njit(cache=True)
def meld_key(code):
    return (code >> 1) & 15


@njit(cache=True)
def meld_low(code):
    return (code >> 5) & 15


@njit(cache=True)
def meld_length(code):
    return (code >> 9) & 15


@njit(cache=True)
def meld_mask(code):
    return code >> 13


@njit(cache=True)
def popcount(x):
    """The number of bits set in ``x`` (0 <= x < 2**63)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def meld_wilds(pr, code):
    """How many wilds a meld code uses."""
    if meld_kind(code) == RUN:
        return popcount(meld_mask(code))
    if pr[P_FREE_GROUPS]:
        return meld_length(code) - meld_low(code)
    return meld_length(code) - popcount(meld_low(code))


@njit(cache=True)
def meld_points(code):
    """The meld value of a meld code (wilds count nothing: "le joker ne compte aucun
    point")."""
    total = 0
    if meld_kind(code) == RUN:
        suit, low, mask = meld_key(code) % SUITS, meld_low(code), meld_mask(code)
        for i in range(meld_length(code)):                  # the value is the rank's
            if not (mask >> i) & 1:
                total += meld_value_of(card_at(suit, low + i), low + i)
        return total
    card = meld_key(code)                       # rank - 2 is the id of its ♥ card
    return popcount(meld_low(code)) * meld_value_of(card, 0)


@njit(cache=True)
def meld_is_clean(code):
    """A "vraie suite": a run with no wild."""
    return meld_kind(code) == RUN and meld_mask(code) == 0


@njit(cache=True)
def meld_cards(pr, hand, code, out):
    """The cards of ``hand`` a meld code lays, place by place, into ``out``; returns the
    count.  Wilds are the lowest-id wild cards that fit."""
    n = meld_length(code)
    if pr[P_WILD_POLICY] == JOKERS and not pr[P_FREE_GROUPS] and not pr[P_MIXED_RUNS]:
        return joker_meld_cards(code, out)
    given = 0
    if meld_kind(code) == RUN:
        suit, low, mask = meld_key(code), meld_low(code), meld_mask(code)
        for i in range(n):
            if (mask >> i) & 1:
                out[i], given = pick_wild(pr, hand, given, -1 if suit == ANY_SUIT else suit)
            elif suit == ANY_SUIT:
                out[i] = natural_of_rank(pr, hand, low + i)
            else:
                out[i] = card_at(suit, low + i)
        return n
    rank_card, suits = meld_key(code), meld_low(code)
    k = 0
    if pr[P_FREE_GROUPS]:
        for s in range(SUITS):
            card = s * RANKS_PER_SUIT + rank_card
            for _ in range(min(hand[card], suits - k)):
                out[k] = card
                k += 1
    else:
        for s in range(SUITS):
            if (suits >> s) & 1:
                out[k] = s * RANKS_PER_SUIT + rank_card
                k += 1
    while k < n:
        out[k], given = pick_wild(pr, hand, given, -1)
        k += 1
    return n


@njit(cache=True)
def joker_meld_cards(code, out):
    """:func:`meld_cards` when the jokers are the wilds (every wild is the same card) and
    groups are of different suits: the cards follow from the code alone."""
    n = meld_length(code)
    if meld_kind(code) == RUN:
        suit, low, mask = meld_key(code), meld_low(code), meld_mask(code)
        for i in range(n):
            out[i] = JOKER if (mask >> i) & 1 else card_at(suit, low + i)
        return n
    rank_card, suits = meld_key(code), meld_low(code)
    k = 0
    for s in range(SUITS):
        if (suits >> s) & 1:
            out[k] = s * RANKS_PER_SUIT + rank_card
            k += 1
    while k < n:
        out[k] = JOKER
        k += 1
    return n


@njit(cache=True)
def meld_holds(pr, hand, code, card):
    """Whether the meld code, laid from ``hand``, contains ``card``."""
    if pr[P_WILD_POLICY] == JOKERS and not pr[P_FREE_GROUPS] and not pr[P_MIXED_RUNS]:
        if card == JOKER:
            return meld_wilds(pr, code) > 0
        if meld_kind(code) == GROUP:
            return card % RANKS_PER_SUIT == meld_key(code) \
                and (meld_low(code) >> card_suit(card)) & 1 == 1
        suit, low, mask = meld_key(code), meld_low(code), meld_mask(code)
        for i in range(meld_length(code)):
            if not (mask >> i) & 1 and card_at(suit, low + i) == card:
                return True
        return False
    places = stack_room(MAX_RUN)
    n = meld_cards(pr, hand, code, places)
    for i in range(n):
        if places[i] == card:
            return True
    return False


# --------------------------------------------------------------------------------------
# Enumerating the melds of a hand, by suit and rank buckets
# --------------------------------------------------------------------------------------
@njit(cache=True)
def wild_count_ok(pr, wilds, length):
    """The wild limits of a meld: at most ``max_wilds``, at least ``min_naturals`` naturals,
    and (``wilds_le_naturals``) no more wilds than naturals."""
    if pr[P_WILDS_LE_NATURALS] and wilds > length - wilds:
        return False
    return wilds <= pr[P_MAX_WILDS] and length - wilds >= pr[P_MIN_NATURALS]


@njit(cache=True)
def natural_positions(pr, cards, suit):
    """The run positions (bits 1..14) at which the card set ``cards`` holds the natural
    card of ``suit`` (an Ace at both 1 and 14)."""
    held = ((cards >> (suit * RANKS_PER_SUIT)) & SUIT_CARDS) << 2    # rank r at bit r
    if is_wild(pr, card_at(suit, 2)):
        held &= ~(1 << 2)
    return held | ((held >> ACE_HIGH) & 1) << ACE_LOW


@njit(cache=True)
def rank_cards(rank_card):
    """The four cards of a rank (``rank - 2``), as a card set."""
    cards = np.int64(0)
    for s in range(SUITS):
        cards |= np.int64(1) << (s * RANKS_PER_SUIT + rank_card)
    return cards


@njit(cache=True)
def rank_suits(pr, cards, rank_card):
    """The suits (bits 0..3) in which the card set ``cards`` holds the natural card of a
    rank (``rank - 2``)."""
    if is_wild(pr, rank_card):                              # its ♥ card: the rank is wild
        return 0
    held = 0
    for s in range(SUITS):
        held |= ((cards >> (s * RANKS_PER_SUIT + rank_card)) & 1) << s
    return held


@njit(cache=True)
def enumerate_melds(pr, hand, max_length, out):
    """Write into ``out`` the codes of every meld ``hand`` can lay with at most
    ``max_length`` cards: runs suit by suit (first position, then length; with
    ``mixed_runs``, one bucket of any suits), then groups rank by rank (natural suits as a
    mask, then wilds).  Returns the count.

    A suit's naturals are one bit mask of positions (a mixed run's, the masks of the four
    suits OR-ed), a rank's one mask of suits: a window reads its wilds off the mask, a
    group's suits are the subsets of the rank's mask."""
    return enumerate_figures(pr, hand, held_cards(hand), max_length, MELD_MIN, MELD_MIN, out)


@njit(cache=True)
def enumerate_figures(pr, hand, cards, max_length, least_run, least_group, out):
    """:func:`enumerate_melds`' codes for ``hand`` (the set ``cards``), in its order, of the
    runs of at least ``least_run`` cards and the groups of at least ``least_group``
    (``NO_FIGURE``: none of that kind)."""
    n = 0
    lo, hi = pr[P_RUN_MIN], pr[P_RUN_MAX]
    max_wilds = pr[P_MAX_WILDS]
    mixed = pr[P_MIXED_RUNS] != 0
    buckets = 0 if least_run > max_length else 1 if mixed else SUITS
    for bucket in range(buckets):
        if mixed:
            suit = ANY_SUIT
            available = min(wilds_for(pr, hand, -1), max_wilds)
            held = 0
            for s in range(SUITS):
                held |= natural_positions(pr, cards, s)
        else:
            suit = bucket
            available = min(wilds_for(pr, hand, suit), max_wilds)
            held = natural_positions(pr, cards, suit)
        if held == 0 and pr[P_MIN_NATURALS] > 0:
            continue
        starts = run_starts(held, available) & ((1 << (hi - 1)) - (1 << lo))
        while starts:
            low = first_card(starts)
            starts &= starts - 1
            mask = 0
            wilds = 0
            for length in range(1, min(hi - low + 1, max_length) + 1):
                position = low + length - 1
                if low == ACE_LOW and position == ACE_HIGH:
                    break                                   # no wrap round the Ace
                if not (held >> position) & 1:
                    mask |= 1 << (length - 1)
                    wilds += 1
                    if wilds > available:
                        break
                if length >= least_run and wild_count_ok(pr, wilds, length):
                    out[n] = encode(RUN, suit, low, length, mask)
                    n += 1
    if pr[P_GROUPS] == 0 or least_group > max_length:
        return n
    available = wilds_for(pr, hand, -1)
    if pr[P_FREE_GROUPS]:
        return enumerate_free_groups(pr, hand, max_length, least_group, available, out, n)
    by_suit = (suit_naturals(pr, cards, 0), suit_naturals(pr, cards, 1),
               suit_naturals(pr, cards, 2), suit_naturals(pr, cards, 3))
    ranks = ranks_held(by_suit, MELD_MIN - available)
    while ranks:
        rank_card = first_card(ranks)
        ranks &= ranks - 1
        held = 0
        for s in range(SUITS):
            held |= ((by_suit[s] >> rank_card) & 1) << s
        suits = 0
        while True:                                         # the subsets, in order
            suits = (suits - held) & held
            if suits == 0:
                break
            naturals = popcount(suits)
            for wilds in range(0, min(available, MAX_GROUP - naturals) + 1):
                length = naturals + wilds
                if least_group <= length <= max_length and wild_count_ok(pr, wilds, length):
                    out[n] = encode(GROUP, rank_card, suits, length, 0)
                    n += 1
    return n


@njit(cache=True)
def run_starts(held, wilds):
    """The positions at which a run of the natural positions ``held`` with at most
    ``wilds`` wilds may start: its first three positions hold ``MELD_MIN - wilds``
    naturals or more."""
    a, b, c = held, held >> 1, held >> 2
    if wilds <= 0:
        return a & b & c
    if wilds == 1:
        return (a & b) | (c & (a | b))
    if wilds == 2:
        return a | b | c
    return np.int64(-1)


@njit(cache=True)
def ranks_held(by_suit, times):
    """The ranks (bit ``rank - 2``) that the four suits' masks ``by_suit`` (one bit per
    rank) hold in ``times`` suits or more (at least one)."""
    a, b, c, d = by_suit
    if times <= 1:
        return a | b | c | d
    if times == 2:
        return (a & (b | c | d)) | (b & (c | d)) | (c & d)
    if times == 3:
        return (a & b & (c | d)) | (c & d & (a | b))
    return a & b & c & d


@njit(cache=True)
def enumerate_free_groups(pr, hand, max_length, least, available, out, n):
    """Free groups of at least ``least`` cards rank by rank: every count of naturals held,
    then of wilds."""
    for rank in range(2, ACE + 1):
        held = 0
        for s in range(SUITS):
            card = s * RANKS_PER_SUIT + rank - 2
            if not is_wild(pr, card):
                held += hand[card]
        for naturals in range(1, held + 1):
            for wilds in range(0, available + 1):
                length = naturals + wilds
                if least <= length <= min(max_length, MAX_RUN) \
                        and wild_count_ok(pr, wilds, length):
                    out[n] = encode(GROUP, rank - 2, naturals, length, 0)
                    n += 1
    return n


@njit(cache=True)
def remove_meld(pr, hand, code, places):
    """Take a meld code's cards out of ``hand`` (its cards go into ``places``); returns
    their count."""
    n = meld_cards(pr, hand, code, places)
    for i in range(n):
        hand[places[i]] -= 1
    return n


# --------------------------------------------------------------------------------------
# Can a hand still open?
# --------------------------------------------------------------------------------------
@njit(cache=True)
def positions_cards(suit, positions):
    """The cards of ``suit`` at a set of run positions (bits 1..14), as a card set."""
    cards = ((positions >> 2) & SUIT_CARDS) << (suit * RANKS_PER_SUIT)
    if (positions >> ACE_LOW) & 1:
        cards |= np.int64(1) << card_at(suit, ACE_LOW)
    return cards


@njit(cache=True)
def set_value(hand, cards):
    """The value (an Ace 11) of every copy ``hand`` holds of the cards of a set."""
    total = 0
    while cards:
        card = first_card(cards)
        cards &= cards - 1
        total += hand[card] * meld_value_of(card, 0)
    return total


@njit(cache=True)
def set_worth(cards):
    """The value (an Ace 11) of one copy of each card of a set."""
    total = 0
    while cards:
        card = first_card(cards)
        cards &= cards - 1
        total += meld_value_of(card, 0)
    return total


@njit(cache=True)
def may_complete(pr, hand, size, points, clean, card):
    """Quick necessary conditions for :func:`can_complete` (runs of one suit, groups of
    different suits), read off the hand's card set, cheapest first: a run of three naturals
    if a clean run is needed; the natural card to include in one of the hand's melds
    (:func:`holds_meld_with`); and ``points`` within a bound above :func:`promising`'s (every
    copy of the cards in three consecutive naturals of a suit or of a rank held in three
    suits, plus per wild the most one suit's or one rank's other naturals are worth)."""
    if pr[P_FREE_GROUPS] or pr[P_MIXED_RUNS]:
        return True
    cards = held_cards(hand)
    lo, hi = pr[P_RUN_MIN], pr[P_RUN_MAX]
    in_bounds = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
    groups = pr[P_GROUPS] != 0
    if clean:
        has_clean = False
        for suit in range(SUITS):
            held = natural_positions(pr, cards, suit) & in_bounds
            has_clean = has_clean or (held & (held >> 1) & (held >> 2)) != 0
        if not (has_clean and size - 1 >= 3):
            return False
    if card >= 0 and not is_wild(pr, card) \
            and not holds_meld_with(pr, hand, cards, size - 1, card):
        return False
    if points <= 0:
        return True
    plain = np.int64(0)                         # the cards of melds without wilds
    for suit in range(SUITS):
        held = natural_positions(pr, cards, suit) & in_bounds
        starts = held & (held >> 1) & (held >> 2)
        plain |= positions_cards(suit, starts | starts << 1 | starts << 2)
    if groups:
        plain |= threefold_ranks(pr, cards)
    bound = set_value(hand, plain)
    wilds = wild_count(pr, hand)
    if bound < points and wilds > 0:
        rest = cards & ~plain & ~wild_cards(pr)
        best = 0
        for suit in range(SUITS):
            best = max(best, set_worth(rest & np.int64(SUIT_CARDS) << (suit * RANKS_PER_SUIT)))
        if groups:
            for rank_card in range(RANKS_PER_SUIT):
                suits = popcount(rest & rank_cards(rank_card))
                best = max(best, suits * meld_value_of(rank_card, 0))
        bound += wilds * best
    return bound >= points


@njit(cache=True)
def threefold_ranks(pr, cards):
    """The natural cards of the set ``cards`` whose rank it holds in three suits or more,
    as a card set: a rank's suits side by side, one suit's ranks to a mask."""
    three = ranks_held((suit_naturals(pr, cards, 0), suit_naturals(pr, cards, 1),
                        suit_naturals(pr, cards, 2), suit_naturals(pr, cards, 3)), 3)
    out = np.int64(0)
    for suit in range(SUITS):
        out |= np.int64(three & suit_naturals(pr, cards, suit)) << (suit * RANKS_PER_SUIT)
    return out


@njit(cache=True)
def suit_naturals(pr, cards, suit):
    """The natural cards of ``suit`` in the set ``cards``, one bit per rank (bit 0 the 2)."""
    held = (cards >> (suit * RANKS_PER_SUIT)) & SUIT_CARDS
    if is_wild(pr, card_at(suit, 2)):
        held &= ~1
    return held


@njit(cache=True)
def can_complete(pr, hand, size, points, clean, card, left_exact):
    """Whether ``hand`` (``size`` cards) can lay new melds worth ``points`` more, including
    a clean run if ``clean``, including ``card`` if it is >= 0, so that at least one card
    stays in hand (exactly ``left_exact`` if it is > 0)."""
    return may_complete(pr, hand, size, points, clean, card) \
        and completes(pr, hand, size, points, clean, card, left_exact, search_room())


@register_jitable(inline="always")
def search_room():
    """Work room for :func:`completes`, per level of its search: its candidate melds, their
    count, the cursor, the meld chosen, what is still needed (points, clean, card, cards
    left) and the chosen meld's cards.  Compiled code inlines this function, so the room is
    in the stack frame of its caller, for that call (:func:`engines.core.layout.stack_room`);
    called from Python, it is numpy arrays."""
    return (stack_room((SEARCH_LEVELS, MAX_CANDIDATES), np.int64),
            stack_room(SEARCH_LEVELS, np.int64), stack_room(SEARCH_LEVELS, np.int64),
            stack_room(SEARCH_LEVELS, np.int64), stack_room((SEARCH_LEVELS, 4), np.int64),
            stack_room((SEARCH_LEVELS, MAX_RUN)))


@njit(cache=True)
def completes(pr, hand, size, points, clean, card, left_exact, room):
    """:func:`can_complete`'s answer without its quick refusal, searched on ``hand`` in
    place (left as it was) with ``room`` (:func:`search_room`); after a "yes", the room's
    chosen melds are the ones found, ended by ``NO_MELD``.

    An iterative depth-first search: each level enumerates the melds of what is left and
    takes them in code order (a set of melds is tried once); a level where the opening is
    made lists nothing, nor one whose hand :func:`may_complete` refuses.  A hand of more than
    ``MAX_SEARCH_HAND`` cards, beyond the room, is answered "no"."""
    if size > MAX_SEARCH_HAND:
        return False
    candidates, counts, cursor, chosen, state, taken = room
    depth_max = size // 3 + 1
    state[0, 0], state[0, 1], state[0, 2], state[0, 3] = points, 1 if clean else 0, card, size
    depth = 0
    counts[0] = 0
    cursor[0] = 0
    if not completed(points, clean, card, size, left_exact):
        counts[0] = enumerate_melds(pr, hand, size - 1, candidates[0])
        if not promising(pr, hand, candidates[0], counts[0], points, clean) \
                or not some_meld_holds(pr, hand, candidates[0], counts[0], card):
            counts[0] = 0
    visited = 0
    while True:
        need, need_clean = state[depth, 0], state[depth, 1]
        need_card, left = state[depth, 2], state[depth, 3]
        if completed(need, need_clean, need_card, left, left_exact):
            put_back(hand, chosen, taken, depth)
            chosen[depth] = NO_MELD
            return True
        visited += 1
        if visited > SEARCH_BUDGET:
            put_back(hand, chosen, taken, depth)
            return False
        advanced = False
        while cursor[depth] < counts[depth]:
            code = candidates[depth, cursor[depth]]
            cursor[depth] += 1
            if depth > 0 and code < chosen[depth - 1]:
                continue
            if meld_length(code) > left - 1 or depth + 1 > depth_max:
                continue
            holds = need_card >= 0 and meld_holds(pr, hand, code, need_card)
            n = remove_meld(pr, hand, code, taken[depth])
            chosen[depth] = code
            depth += 1
            state[depth, 0] = need - meld_points(code)
            state[depth, 1] = 1 if need_clean != 0 and not meld_is_clean(code) else 0
            state[depth, 2] = -1 if holds else need_card
            state[depth, 3] = left - n
            counts[depth] = 0
            cursor[depth] = 0
            if not completed(state[depth, 0], state[depth, 1], state[depth, 2], left - n,
                             left_exact) \
                    and may_complete(pr, hand, left - n, state[depth, 0], state[depth, 1] != 0,
                                     state[depth, 2]):
                counts[depth] = enumerate_melds(pr, hand, left - n - 1, candidates[depth])
                if not promising(pr, hand, candidates[depth], counts[depth], state[depth, 0],
                                 state[depth, 1]):
                    counts[depth] = 0
            advanced = True
            break
        if advanced:
            continue
        if depth == 0:
            return False
        depth -= 1
        for i in range(meld_length(chosen[depth])):
            hand[taken[depth, i]] += 1


@njit(cache=True)
def completed(points, clean, card, left, left_exact):
    """Whether an opening is made: no more points, clean run or card needed, and the cards
    left that it asks for (``left_exact`` if it is > 0)."""
    return points <= 0 and clean == 0 and card < 0 and (left_exact <= 0 or left == left_exact)


@njit(cache=True)
def put_back(hand, chosen, taken, depth):
    """Return to ``hand`` the cards of the melds the search chose above level ``depth``."""
    for level in range(depth):
        for i in range(meld_length(chosen[level])):
            hand[taken[level, i]] += 1


@njit(cache=True)
def some_meld_holds(pr, hand, candidates, n, card):
    """Whether one of the candidates holds the natural ``card`` (always true for no card or
    a wild).  Every meld with that card that a search could reach holds it as one of these:
    a smaller hand's meld has the same window or suits with no fewer wilds."""
    if card < 0 or is_wild(pr, card):
        return True
    for i in range(n):
        if meld_holds(pr, hand, candidates[i], card):
            return True
    return False


@njit(cache=True)
def natural_cards(code):
    """The standard cards a meld code (a run or a group of different suits) lays as
    naturals, one bit per card id."""
    if meld_kind(code) == RUN:
        positions = (~meld_mask(code) & ((1 << meld_length(code)) - 1)) << meld_low(code)
        if meld_key(code) != ANY_SUIT:
            return positions_cards(meld_key(code), positions)
        cards = np.int64(0)
        for s in range(SUITS):                              # a mixed run: every suit
            cards |= positions_cards(s, positions)
        return cards
    return suits_cards(meld_low(code), meld_key(code))


@njit(cache=True)
def suits_cards(suits, rank_card):
    """The cards of a rank (``rank - 2``) in a set of suits (bits 0..3), as a card set."""
    cards = np.int64(0)
    for s in range(SUITS):
        cards |= np.int64((suits >> s) & 1) << (s * RANKS_PER_SUIT + rank_card)
    return cards


@njit(cache=True)
def value_beyond(code, cards):
    """The value (an Ace 11) of the naturals of a meld code (a run or a group of different
    suits) that are not in the bit set ``cards``, one each (a mixed run's position is
    beyond when some suit's card there is)."""
    if meld_kind(code) == GROUP or meld_key(code) != ANY_SUIT:
        return set_worth(natural_cards(code) & ~cards)
    total = 0
    low, mask = meld_low(code), meld_mask(code)
    for j in range(meld_length(code)):
        beyond = False
        for s in range(SUITS):
            beyond = beyond or not (cards >> card_at(s, low + j)) & 1
        if not (mask >> j) & 1 and beyond:
            total += meld_value_of(card_at(0, low + j), 0)
    return total


@njit(cache=True)
def promising(pr, hand, candidates, n, points, clean):
    """A quick necessary condition for :func:`can_complete` below a node: a clean run among
    the candidates if one is needed, and ``points`` within an upper bound of what disjoint
    melds can lay (an Ace counted 11): every copy of the cards some meld without wilds
    uses, plus, for each wild of the hand, the most that one meld with wilds adds beyond
    them.  (A meld of a smaller hand lays no natural that the meld of the same window or
    suits here lacks, and each of its wilds is one of the hand's.)"""
    if clean:
        found = False
        for i in range(n):
            if meld_is_clean(candidates[i]):
                found = True
                break
        if not found:
            return False
    if points <= 0:
        return True
    plain = 0                                   # cards of the melds without wilds
    for i in range(n):
        if meld_wilds(pr, candidates[i]) == 0:
            plain |= natural_cards(candidates[i])
    bound = set_value(hand, plain)
    if bound >= points:
        return True
    best = 0
    for i in range(n):
        if meld_wilds(pr, candidates[i]) > 0:
            best = max(best, value_beyond(candidates[i], plain))
    return bound + wild_count(pr, hand) * best >= points


# --------------------------------------------------------------------------------------
# Can a hand still lay a contract?
# --------------------------------------------------------------------------------------
@njit(cache=True)
def can_fill(pr, hand, cards, size, runs, run_length, groups, group_length, keep):
    """Whether ``hand`` (``size`` cards, the set ``cards``) can lay ``runs`` runs of at
    least ``run_length`` cards and ``groups`` groups of at least ``group_length``, keeping
    ``keep`` cards.

    A figure longer than its minimum holds a shorter one that the rules also accept (and
    laying less leaves more for the rest): a group one of the minimum size, a run one of
    the minimum size or, when a run's wilds may not outnumber its naturals, one card more
    (see :func:`holds_at_least`).  So the search (depth first, runs then groups, each level
    in code order) tries figures of those sizes only; the last figure is looked for
    directly (:func:`holds_at_least`) in what the others leave.  A hand of more than
    ``MAX_SEARCH_HAND`` cards, beyond the search's room, is answered "no"."""
    figures = runs + groups
    if figures == 0:
        return size >= keep
    if size > MAX_SEARCH_HAND or runs * run_length + groups * group_length > size - keep:
        return False                            # beyond the room, or too few cards
    last_kind = GROUP if groups else RUN
    last_length = group_length if groups else run_length
    if figures == 1:
        return holds_at_least(pr, hand, cards, last_kind, last_length, size - keep)
    levels = figures - 1                        # the figures searched, all but the last
    candidates = stack_room((SEARCH_LEVELS, MAX_CANDIDATES), np.int64)
    counts = stack_room(SEARCH_LEVELS, np.int64)
    cursor = stack_room(SEARCH_LEVELS, np.int64)
    taken = stack_room((SEARCH_LEVELS, MAX_RUN))
    left = stack_room(SEARCH_LEVELS, np.int64)
    work = stack_room(CARD_KINDS)
    copy_into(work, hand)
    left[0] = size
    depth = 0
    counts[0] = figure_candidates(pr, work, size - keep, 0, runs, run_length, group_length,
                                  candidates[0])
    cursor[0] = 0
    visited = 0
    while True:
        visited += 1
        if visited > SEARCH_BUDGET:
            return False
        advanced = False
        while cursor[depth] < counts[depth]:
            code = candidates[depth, cursor[depth]]
            cursor[depth] += 1
            same_kind = depth > 0 and (depth < runs) == (depth - 1 < runs)
            if same_kind and code < candidates[depth - 1, cursor[depth - 1] - 1]:
                continue
            n = remove_meld(pr, work, code, taken[depth])
            left[depth + 1] = left[depth] - n
            if depth + 1 == levels:
                if holds_at_least(pr, work, held_cards(work), last_kind, last_length,
                                  left[depth + 1] - keep):
                    return True
                for i in range(n):
                    work[taken[depth, i]] += 1
                continue
            depth += 1
            counts[depth] = figure_candidates(pr, work, left[depth] - keep, depth, runs,
                                              run_length, group_length, candidates[depth])
            cursor[depth] = 0
            advanced = True
            break
        if advanced:
            continue
        if depth == 0:
            return False
        depth -= 1
        code = candidates[depth, cursor[depth] - 1]
        for i in range(meld_length(code)):
            work[taken[depth, i]] += 1


@njit(cache=True)
def fewest_run_wilds(pr, cards, bucket, length):
    """The fewest wilds a run of exactly ``length`` cards needs beside the naturals of the
    set ``cards`` in ``bucket`` (a suit; with ``mixed_runs``, bucket 0: every suit), over
    its windows; ``NO_FIGURE`` if it has none (or no natural where one is required)."""
    if pr[P_MIXED_RUNS]:
        held = 0
        for s in range(SUITS):
            held |= natural_positions(pr, cards, s)
    else:
        held = natural_positions(pr, cards, bucket)
    if held == 0 and pr[P_MIN_NATURALS] > 0:
        return NO_FIGURE
    lo, hi = pr[P_RUN_MIN], pr[P_RUN_MAX]
    window = (1 << length) - 1
    fewest = NO_FIGURE
    for low in range(lo, min(hi - 1, hi - length + 2)):
        if low == ACE_LOW and low + length - 1 >= ACE_HIGH:
            continue                                        # no wrap round the Ace
        fewest = min(fewest, popcount(~(held >> low) & window))
    return fewest


@njit(cache=True)
def holds_at_least(pr, hand, cards, kind, length, room):
    """Whether ``hand`` (the set ``cards``) can lay a meld of ``kind`` of at least
    ``length`` and at most ``room`` cards.  Such a meld holds a shorter one the rules
    accept: dropping a wild, or an end card of a run, keeps the wild limits, except that a
    run whose naturals only just match its wilds loses a natural at each end; dropping the
    natural and then the wild beside it keeps the balance.  So a meld of ``length`` or,
    for a run under ``wilds_le_naturals``, of ``length`` + 1 cards is enough to look for."""
    if length > room:
        return False
    if holds_figure(pr, hand, cards, kind, length):
        return True
    return kind == RUN and pr[P_WILDS_LE_NATURALS] != 0 and length + 1 <= room \
        and holds_figure(pr, hand, cards, kind, length + 1)


@njit(cache=True)
def holds_figure(pr, hand, cards, kind, length):
    """Whether ``hand`` (the set ``cards``) can lay a meld of ``kind`` of exactly ``length``
    cards: one of :func:`enumerate_melds`, found without listing them."""
    if length < 3:
        return False
    if kind == RUN:
        mixed = pr[P_MIXED_RUNS] != 0
        for bucket in range(1 if mixed else SUITS):
            available = min(wilds_for(pr, hand, -1 if mixed else bucket), pr[P_MAX_WILDS])
            wilds = fewest_run_wilds(pr, cards, bucket, length)
            if wilds <= available and wild_count_ok(pr, wilds, length):
                return True                 # (fewer wilds never break the wild rules)
        return False
    if pr[P_GROUPS] == 0:
        return False
    available = wilds_for(pr, hand, -1)
    for rank_card in range(RANKS_PER_SUIT):
        if pr[P_FREE_GROUPS]:
            held = 0
            for s in range(SUITS):
                card = s * RANKS_PER_SUIT + rank_card
                if not is_wild(pr, card):
                    held += hand[card]
            most = MAX_RUN
        else:
            held = popcount(rank_suits(pr, cards, rank_card))
            most = MAX_GROUP
        for naturals in range(1, held + 1):
            wilds = length - naturals
            if 0 <= wilds <= available and length <= most and wild_count_ok(pr, wilds, length):
                return True
    return False


@njit(cache=True)
def fewest_wilds(pr, hand, cards, kind, length, count):
    """A lower bound on the wilds that ``count`` melds of ``kind`` and exactly ``length``
    cards need beside the naturals of ``hand`` (the set ``cards``), ``NO_FIGURE`` or more
    if no such meld has room for them: the quick refusal of a contract before its search.
    Runs: ``count`` times the fewest of one run.  Groups: the fewest over the ways of
    sharing the groups among the ranks, each rank's naturals shared by its groups."""
    if length < MELD_MIN or count * length > MAX_SEARCH_HAND:
        return NO_FIGURE                        # no meld, or beyond any hand searched
    if kind == RUN:
        fewest = NO_FIGURE
        for bucket in range(1 if pr[P_MIXED_RUNS] else SUITS):
            fewest = min(fewest, fewest_run_wilds(pr, cards, bucket, length))
        return count * fewest
    if pr[P_GROUPS] == 0 or (not pr[P_FREE_GROUPS] and length > MAX_GROUP):
        return NO_FIGURE
    most = stack_room(SEARCH_LEVELS, np.int64)            # fewest wilds for j groups
    most[0] = 0
    for j in range(1, count + 1):
        most[j] = NO_FIGURE * count
    for rank_card in range(RANKS_PER_SUIT):
        copies = 0
        for s in range(SUITS):
            card = s * RANKS_PER_SUIT + rank_card
            if not is_wild(pr, card):
                copies += hand[card]
        if copies == 0:
            continue
        per_group = length if pr[P_FREE_GROUPS] else popcount(rank_suits(pr, cards, rank_card))
        for j in range(count, 0, -1):
            for here in range(1, min(j, copies) + 1):     # groups of this rank
                wilds = here * length - min(copies, here * per_group)
                most[j] = min(most[j], most[j - here] + wilds)
    return most[count]


@njit(cache=True)
def holds_meld_with(pr, hand, cards, max_length, card):
    """Whether one of the melds :func:`enumerate_melds` lists for ``hand`` (the set
    ``cards``), of at most ``max_length`` cards, holds the natural ``card`` (runs of one
    suit, groups of different suits): found without listing them, among the windows of
    its suit around it and the sets of its rank's suits with it."""
    suit = card_suit(card)
    lo, hi = pr[P_RUN_MIN], pr[P_RUN_MAX]
    held = natural_positions(pr, cards, suit)
    available = min(wilds_for(pr, hand, suit), pr[P_MAX_WILDS])
    rank = card_rank(card)
    for position in (rank, ACE_LOW if rank == ACE else rank):
        for low in range(max(lo, position - max_length + 1), position + 1):
            for length in range(max(3, position - low + 1), min(hi - low + 1, max_length) + 1):
                if low == ACE_LOW and low + length - 1 == ACE_HIGH:
                    break                                   # no wrap round the Ace
                wilds = popcount(~held & (((1 << length) - 1) << low))
                if wilds > available:
                    break
                if wild_count_ok(pr, wilds, length):
                    return True
    if pr[P_GROUPS] == 0:
        return False
    available = wilds_for(pr, hand, -1)
    others = rank_suits(pr, cards, card % RANKS_PER_SUIT) & ~(1 << suit)
    subset = others
    while True:                                             # every subset of the others
        naturals = popcount(subset) + 1
        for wilds in range(0, min(available, MAX_GROUP - naturals) + 1):
            length = naturals + wilds
            if 3 <= length <= max_length and wild_count_ok(pr, wilds, length):
                return True
        if subset == 0:
            return False
        subset = (subset - 1) & others


@njit(cache=True)
def figure_candidates(pr, hand, room, depth, runs, run_length, group_length, out):
    """The melds of ``hand`` that fill figure ``depth`` of a contract at its minimum size,
    or one card more for a run under ``wilds_le_naturals`` (see :func:`holds_at_least`) (a
    run for the first ``runs`` figures, else a group), within ``room`` cards."""
    want_length = run_length if depth < runs else group_length
    if want_length > room:
        return 0
    longest = want_length
    if depth < runs and pr[P_WILDS_LE_NATURALS] != 0:
        longest = min(want_length + 1, room)
    return enumerate_figures(pr, hand, held_cards(hand), longest,
                             want_length if depth < runs else NO_FIGURE,
                             NO_FIGURE if depth < runs else want_length, out)


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------
@njit(cache=True)
def table_wilds(pr, melds, k):
    """How many wilds the table meld ``k`` holds."""
    row = k * MELD_WIDTH
    n = 0
    for i in range(melds[row + M_LEN]):
        card = melds[row + M_CARDS + i]
        if melds[row + M_KIND] == RUN:
            n += is_wild(pr, card) and not fits_position(melds[row + M_KEY],
                                                        melds[row + M_LOW] + i, card)
        else:
            n += is_wild(pr, card)
    return n


@njit(cache=True)
def put_meld(pr, melds, k, owner, code, places):
    """Write the meld code (its cards in ``places``) as table meld ``k``."""
    row = k * MELD_WIDTH
    melds[row + M_KIND] = meld_kind(code)
    melds[row + M_KEY] = meld_key(code)
    melds[row + M_LOW] = meld_low(code)
    melds[row + M_LEN] = meld_length(code)
    melds[row + M_OWNER] = owner
    for i in range(meld_length(code)):
        melds[row + M_CARDS + i] = places[i]


@njit(cache=True)
def layoff_fits(pr, melds, k, card, end):
    """Whether ``card`` may be added to table meld ``k`` (a run: at its low end 0 or high
    end 1; a group: ``end`` 0)."""
    row = k * MELD_WIDTH
    length = melds[row + M_LEN]
    wild = is_wild(pr, card)
    if melds[row + M_KIND] == RUN:
        suit, low = melds[row + M_KEY], melds[row + M_LOW]
        position = low - 1 if end == 0 else low + length
        if position < pr[P_RUN_MIN] or position > pr[P_RUN_MAX]:
            return False
        if (end == 0 and position == ACE_LOW and low + length - 1 == ACE_HIGH) or \
                (end == 1 and position == ACE_HIGH and low == ACE_LOW):
            return False
        if fits_position(suit, position, card) and not wild:
            return True                                     # a mixed run: any suit
        if wild and wild_fits(pr, card, suit):
            return wild_count_ok(pr, table_wilds(pr, melds, k) + 1, length + 1)
        return fits_position(suit, position, card)         # a 2 at its own position
    if end != 0 or length >= (MAX_RUN if pr[P_FREE_GROUPS] else MAX_GROUP):
        return False
    if wild:
        return wild_count_ok(pr, table_wilds(pr, melds, k) + 1, length + 1) \
            and wild_fits(pr, card, -1)
    rank_card, suits = melds[row + M_KEY], melds[row + M_LOW]
    if card % RANKS_PER_SUIT != rank_card:
        return False
    return pr[P_FREE_GROUPS] != 0 or not (suits >> card_suit(card)) & 1


@njit(cache=True)
def layoff_cards(pr, melds, k, end, cards, wilds):
    """The cards of the set ``cards`` that :func:`layoff_fits` accepts on table meld ``k``
    at ``end``, as a set (``wilds``: the set of the wild cards)."""
    row = k * MELD_WIDTH
    length = melds[row + M_LEN]
    if melds[row + M_KIND] == RUN:
        suit, low = melds[row + M_KEY], melds[row + M_LOW]
        position = low - 1 if end == 0 else low + length
        if position < pr[P_RUN_MIN] or position > pr[P_RUN_MAX]:
            return np.int64(0)
        if (end == 0 and position == ACE_LOW and low + length - 1 == ACE_HIGH) or \
                (end == 1 and position == ACE_HIGH and low == ACE_LOW):
            return np.int64(0)
        if suit == ANY_SUIT:                                # a mixed run: every suit's
            at_position = np.int64(0)
            for s in range(SUITS):
                at_position |= np.int64(1) << card_at(s, position)
        else:
            at_position = np.int64(1) << card_at(suit, position)
        fitting = wilds_fitting(pr, suit, wilds)
        fits = at_position & ~(wilds & fitting) & cards     # a 2 at its own position too
        if fitting & cards and wild_count_ok(pr, table_wilds(pr, melds, k) + 1, length + 1):
            fits |= fitting & cards
        return fits
    if end != 0 or length >= (MAX_RUN if pr[P_FREE_GROUPS] else MAX_GROUP):
        return np.int64(0)
    rank_card, suits = melds[row + M_KEY], melds[row + M_LOW]
    fits = np.int64(0)
    for s in range(SUITS):
        if pr[P_FREE_GROUPS] != 0 or not (suits >> s) & 1:
            fits |= np.int64(1) << (s * RANKS_PER_SUIT + rank_card)
    fits &= ~wilds & cards
    fitting = wilds_fitting(pr, -1, wilds)
    if fitting & cards and wild_count_ok(pr, table_wilds(pr, melds, k) + 1, length + 1):
        fits |= fitting & cards
    return fits


@njit(cache=True)
def lay_off(pr, melds, k, card, end):
    """Add ``card`` to table meld ``k`` (checked by :func:`layoff_fits`)."""
    row = k * MELD_WIDTH
    length = melds[row + M_LEN]
    if melds[row + M_KIND] == RUN:
        if end == 0:
            for i in range(length, 0, -1):
                melds[row + M_CARDS + i] = melds[row + M_CARDS + i - 1]
            melds[row + M_CARDS] = card
            melds[row + M_LOW] -= 1
        else:
            melds[row + M_CARDS + length] = card
        melds[row + M_LEN] = length + 1
        return
    if is_wild(pr, card):
        melds[row + M_CARDS + length] = card
    else:                                       # naturals first, wilds after them
        naturals = length - table_wilds(pr, melds, k)
        for i in range(length, naturals, -1):
            melds[row + M_CARDS + i] = melds[row + M_CARDS + i - 1]
        melds[row + M_CARDS + naturals] = card
        if pr[P_FREE_GROUPS]:
            melds[row + M_LOW] += 1
        else:
            melds[row + M_LOW] |= 1 << card_suit(card)
    melds[row + M_LEN] = length + 1


@njit(cache=True)
def wild_stands_for(pr, melds, k, place):
    """The card the wild at ``place`` of table meld ``k`` stands for, or -1 when no single
    card is determined (a group short of a full carré) or the place holds no wild."""
    row = k * MELD_WIDTH
    card = melds[row + M_CARDS + place]
    if not is_wild(pr, card):
        return -1
    if melds[row + M_KIND] == RUN:
        if melds[row + M_KEY] == ANY_SUIT:                  # a mixed run: any suit
            return -1
        target = card_at(melds[row + M_KEY], melds[row + M_LOW] + place)
        return -1 if target == card else target
    suits = melds[row + M_LOW]
    if pr[P_FREE_GROUPS] or melds[row + M_LEN] != MAX_GROUP \
            or popcount(suits) != MAX_GROUP - 1:
        return -1
    for s in range(SUITS):
        if not (suits >> s) & 1:
            return s * RANKS_PER_SUIT + melds[row + M_KEY]
    return -1


@njit(cache=True)
def swap_wild(pr, melds, k, place):
    """Put the card the wild at ``place`` stands for into table meld ``k``; return the
    wild taken back."""
    row = k * MELD_WIDTH
    wild = melds[row + M_CARDS + place]
    card = wild_stands_for(pr, melds, k, place)
    melds[row + M_CARDS + place] = card
    if melds[row + M_KIND] == GROUP:
        melds[row + M_LOW] |= 1 << card_suit(card)
    return wild


@njit(cache=True)
def move_fits(pr, melds, k, place, end):
    """Whether the wild at ``place`` of run ``k`` may move to its low (0) or high (1) end,
    standing for the next position beyond it, which must exist (pinacle's move)."""
    row = k * MELD_WIDTH
    if melds[row + M_KIND] != RUN or wild_stands_for(pr, melds, k, place) < 0:
        return False
    low, length = melds[row + M_LOW], melds[row + M_LEN]
    high = low + length - 1
    if end == 0:
        return low - 1 >= pr[P_RUN_MIN] and not (low - 1 == ACE_LOW and high == ACE_HIGH)
    return high + 1 <= pr[P_RUN_MAX] and not (low == ACE_LOW and high + 1 == ACE_HIGH)


@njit(cache=True)
def move_wild(pr, melds, k, place, end):
    """Put the card the wild at ``place`` of run ``k`` stands for in its place, and the
    wild at the run's ``end`` (checked by :func:`move_fits`)."""
    wild = swap_wild(pr, melds, k, place)
    lay_off(pr, melds, k, wild, end)


@njit(cache=True)
def hand_penalty(hand, values):
    """The penalty of the cards in ``hand`` (``values[card]`` each)."""
    total = 0
    for card in range(CARD_KINDS):
        total += hand[card] * values[card]
    return total

