"""The war core shared by La bataille and La super-bataille: the rules, once, as compiled
functions over a flat state array.

Read alongside ``docs/rules/bataille.md`` and ``docs/rules/super-bataille.md``.  Both games
play the same trick ("Chaque joueur pose sur la table la carte qui se situe sur le dessus de
son paquet et c'est le joueur qui a posé la carte la plus forte qui remporte le pli"), the same
bataille between the tied players ("chaque joueur pose sur sa carte la carte suivante de son
paquet, face cachée, puis encore la carte suivante, face visible"), and put the won cards under
the winner's pile.  The super-bataille adds a *payment*: every losing player adds ``n - 1``
cards from his pile, ``n`` being his card's number (``P_PAYMENT`` is all zero in the bataille).

Sections follow the rulebook: components, setup (the deal), one trick (lay the cards, the
bataille, the payment, the pickup), the end of the game (elimination, cycle, cap).

Mechanics: piles are circular queues (``PILE_CAPACITY`` slots per seat, top at ``head``); the
cards each player lays in the current trick are kept, in the order laid, in ``table``.  The
deal and the ``random`` pickup order draw from the game's chance stream through
:mod:`engines.core.chance`.

Cycles: with a deterministic pickup order the next trick depends only on the ordered piles,
so a repeated pile state means the game never ends.  The piles after the deal and after every
trick are the position that :mod:`engines.core.repetition` records, as every game that can
cycle does: the game ends as ``cycle`` at the first repetition (within about two cycle lengths
for a cycle of more than ``repetition.HISTORY`` tricks), with the cycle's length recorded.

Readings of the text that the specs leave implicit (each documented where it is coded):

* Running out in a bataille (bataille A4): a tied player with one card lays it face up with no
  face-down card; with none he loses the bataille.  With ``shortage = lose_immediately`` a
  player who cannot lay both cards lays nothing more and loses the bataille (he keeps the card
  he still holds).  If no tied player can lay a new face-up card, the table goes to the player
  with the most cards left (ties: the first such seat from the dealer's left); if nobody has a
  card left, the game ends drawn (``exhausted``) with the table unclaimed.
* Super-bataille payment (super A2, A5): the players who lose the first comparison pay for
  their card at once; with ``battle_losers_pay`` the losers of each bataille step pay for their
  last face-up card; a player short of cards pays all he has.  A Joker is never a loser.
* Ranking: the player holding every card wins; the others rank by elimination (later is
  better, eliminated on the same trick: equal).  A game stopped by a cycle, the cap or the
  first elimination ranks the players by the cards they hold (equal piles: equal ranks).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core import repetition
from engines.core.chance import shuffle, uniform_index_jit
from engines.core.compiled import rank_seats
from engines.core.layout import Layout, copy_into, sort_field, stack_room

# --------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------
MAX_PLAYERS = 8
MAX_CARDS = 54
CARD_IDS = 54                       # engines.core.cards ids: suit * 13 + rank - 2, Jokers 52, 53
PILE_CAPACITY = 64                  # a power of two above MAX_CARDS: circular pile slots
PILE_MASK = PILE_CAPACITY - 1
JOKER_STRENGTH = 13
STRENGTHS = JOKER_STRENGTH + 1      # 2 .. A are strengths 0 .. 12, the Jokers 13
STRENGTH = np.array([c % 13 for c in range(52)] + [JOKER_STRENGTH] * 2, dtype=np.int32)
ACE_STRENGTH = 12

# Pickup orders (how the won cards go under the winner's pile).
WINNER_FIRST, SEAT_ORDER, LOSER_FIRST, RANDOM_ORDER = 0, 1, 2, 3
PICKUP_NAMES = ("winner_first", "seat_order", "loser_first", "random")
# Running out during a bataille.
LAST_CARD_UP, LOSE_IMMEDIATELY = 0, 1
SHORTAGE_NAMES = ("last_card_up", "lose_immediately")
# How a game ends.
NOT_OVER, ALL_CARDS, FIRST_ELIMINATION, CYCLE, MAX_TRICKS, EXHAUSTED = 0, 1, 2, 3, 4, 5
END_NAMES = ("not_over", "all_cards", "first_elimination", "cycle", "max_tricks",
             "exhausted")

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("deck_size", 1), ("deck", MAX_CARDS), ("pickup", 1),
                ("shortage", 1), ("stop_first", 1), ("max_tricks", 1), ("losers_pay", 1),
                ("payment", STRENGTHS))
# P_DECK: the card ids of the pack
# P_STOP_FIRST: stop at the first elimination
# P_LOSERS_PAY: bataille losers pay for their last card
# P_PAYMENT: n(card) by strength; 0: no payment
(P_PLAYERS, P_DECK_SIZE, P_DECK, P_PICKUP, P_SHORTAGE, P_STOP_FIRST, P_MAX_TRICKS, P_LOSERS_PAY,
 P_PAYMENT) = PARAMS.offsets()


def encode_params(players: int, deck: np.ndarray, pickup: str, shortage: str,
                  stop_at_first_elimination: bool, max_tricks: int,
                  payment: np.ndarray | None = None, losers_pay: bool = False) -> np.ndarray:
    """The flat parameter array compiled code reads; ``payment[strength]`` is the number of
    cards a loser's contribution must reach (None: the plain bataille, no payment)."""
    return PARAMS.encode(players=players, deck_size=deck.size, deck=deck,
                         pickup=PICKUP_NAMES.index(pickup),
                         shortage=SHORTAGE_NAMES.index(shortage),
                         stop_first=stop_at_first_elimination, max_tricks=max_tricks,
                         losers_pay=losers_pay, payment=() if payment is None else payment)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("trick", 1), ("dealer", 1), ("current", 1), ("end", 1),
    ("count", MAX_PLAYERS), ("head", MAX_PLAYERS), ("pile", MAX_PLAYERS * PILE_CAPACITY),
    # the current (or last) trick: cards laid by each player in order, and its outcome
    ("laid", MAX_PLAYERS), ("table", MAX_PLAYERS * MAX_CARDS), ("up", MAX_PLAYERS),
    ("trick_winner", 1),
    ("trick_depth", 1), ("unclaimed", 1),
    *repetition.FIELDS,                 # the pile states seen, a cycle's length
    # figures for results
    ("batailles", 1), ("double_batailles", 1), ("max_depth", 1), ("cards_paid", 1),
    ("initial_count", MAX_PLAYERS), ("initial_aces", MAX_PLAYERS),
    ("initial_jokers", MAX_PLAYERS), ("tricks_won", MAX_PLAYERS),
    ("batailles_won", MAX_PLAYERS), ("eliminated_at", MAX_PLAYERS), ("steps", MAX_PLAYERS),
    ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
# TRICK: tricks played
# UP: each contender's face-up card (-1: none)
# TRICK_DEPTH: batailles in the last trick
# UNCLAIMED: table cards left when every player ran out
# STEPS: STEP actions each seat took
(PHASE, TRICK, DEALER, CURRENT, END, COUNT, HEAD, PILE, LAID, TABLE, UP, TRICK_WINNER, TRICK_DEPTH,
 UNCLAIMED, POSITION_HASHES, POSITIONS_SEEN, BRENT_HASH, BRENT_STEPS, BRENT_POWER, CYCLE_LENGTH,
 BATAILLES, DOUBLE_BATAILLES,
 MAX_DEPTH, CARDS_PAID, INITIAL_COUNT, INITIAL_ACES, INITIAL_JOKERS, TRICKS_WON, BATAILLES_WON,
 ELIMINATED_AT, STEPS, RANK) = STATE.offsets()

# Phases: SETUP is the deal (a chance step); PLAY waits for the STEP that plays one trick.
SETUP, PLAY, OVER = 0, 1, 2
STEP = 0                                    # the only action: play the next trick
N_ACTIONS = 1
APPLY_DRAWS = True      # apply_action(s, pr, action, rng) draws the chance after a decision
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


# --------------------------------------------------------------------------------------
# Piles
# --------------------------------------------------------------------------------------
@njit(cache=True)
def top_card(s, p):
    """Take the top card of ``p``'s pile."""
    card = s[PILE + p * PILE_CAPACITY + s[HEAD + p]]
    s[HEAD + p] = (s[HEAD + p] + 1) & PILE_MASK
    s[COUNT + p] -= 1
    return card


@njit(cache=True)
def put_under(s, p, card):
    """Put ``card`` under ``p``'s pile."""
    s[PILE + p * PILE_CAPACITY + ((s[HEAD + p] + s[COUNT + p]) & PILE_MASK)] = card
    s[COUNT + p] += 1


@njit(cache=True)
def pile_cards(s, p, out):
    """``p``'s pile from the top into ``out``; return its size."""
    n = s[COUNT + p]
    for i in range(n):
        out[i] = s[PILE + p * PILE_CAPACITY + ((s[HEAD + p] + i) & PILE_MASK)]
    return n


# --------------------------------------------------------------------------------------
# Setup: the dealer deals every card one at a time from his left
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """The state before the deal."""
    s[:] = 0
    s[PHASE] = SETUP
    s[TRICK_WINNER] = -1
    for p in range(MAX_PLAYERS):
        s[ELIMINATED_AT + p] = -1


@njit(cache=True)
def setup(s, pr, rng):
    """Draw the dealer, shuffle, deal one card at a time from ``dealer + 1``."""
    players = pr[P_PLAYERS]
    size = pr[P_DECK_SIZE]
    deck = stack_room(MAX_CARDS)[:size]
    copy_into(deck, pr[P_DECK:P_DECK + size])
    s[DEALER] = uniform_index_jit(rng, players)
    shuffle(rng, deck)
    for i in range(size):
        p = (s[DEALER] + 1 + i) % players
        put_under(s, p, deck[i])
        s[INITIAL_ACES + p] += STRENGTH[deck[i]] == ACE_STRENGTH
        s[INITIAL_JOKERS + p] += STRENGTH[deck[i]] == JOKER_STRENGTH
    for p in range(players):
        s[INITIAL_COUNT + p] = s[COUNT + p]
    start_record(s, pr)
    s[CURRENT] = first_in_game(s, pr)
    s[PHASE] = PLAY


@njit(cache=True)
def advance(s, pr, rng):
    """Resolve the pending chance step (the deal)."""
    if s[PHASE] == SETUP:
        setup(s, pr, rng)


@njit(cache=True)
def first_in_game(s, pr):
    """The lowest seat still holding cards (the seat that takes the STEP)."""
    for p in range(pr[P_PLAYERS]):
        if s[COUNT + p] > 0:
            return p
    return -1


# --------------------------------------------------------------------------------------
# One trick
# --------------------------------------------------------------------------------------
@njit(cache=True)
def lay(s, p):
    """``p`` lays his top card on the table; return it."""
    card = top_card(s, p)
    s[TABLE + p * MAX_CARDS + s[LAID + p]] = card
    s[LAID + p] += 1
    return card


@njit(cache=True)
def pay(s, pr, p, card):
    """Super-bataille: the loser ``p`` adds ``n(card) - 1`` cards, or all he has."""
    extra = pr[P_PAYMENT + STRENGTH[card]] - 1
    for _ in range(min(extra, s[COUNT + p])):
        lay(s, p)
        s[CARDS_PAID] += 1


@njit(cache=True)
def play_trick(s, pr, rng):
    """Every player with cards turns his top card; the highest wins the trick, ties do a
    bataille among themselves, and the winner puts the table under his pile."""
    players = pr[P_PLAYERS]
    up = s[UP:UP + MAX_PLAYERS]
    for p in range(players):
        s[LAID + p] = 0
        up[p] = lay(s, p) if s[COUNT + p] > 0 else -1
    depth = 0
    winner = -1
    while True:
        best = -1
        for p in range(players):
            if up[p] >= 0 and STRENGTH[up[p]] > best:
                best = STRENGTH[up[p]]
        if best < 0:                                  # every tied player ran out
            winner = most_cards(s, pr)
            break
        tied = 0
        for p in range(players):
            if up[p] >= 0:
                if STRENGTH[up[p]] == best:
                    tied += 1
                    winner = p
                elif depth == 0 or pr[P_LOSERS_PAY]:
                    pay(s, pr, p, up[p])
        if tied == 1:
            break
        depth += 1                                    # bataille among the tied players
        for p in range(players):
            if up[p] < 0 or STRENGTH[up[p]] != best:
                up[p] = -1
            elif s[COUNT + p] >= 2:
                lay(s, p)                             # face down
                up[p] = lay(s, p)                     # face up
            elif s[COUNT + p] == 1 and pr[P_SHORTAGE] == LAST_CARD_UP:
                up[p] = lay(s, p)                     # the last card, face up
            else:
                up[p] = -1                            # cannot lay: loses the bataille
    s[TRICK_DEPTH] = depth
    if depth > 0:
        s[BATAILLES] += 1
        s[DOUBLE_BATAILLES] += depth > 1
        s[MAX_DEPTH] = max(s[MAX_DEPTH], depth)
    s[TRICK_WINNER] = winner
    if winner < 0:
        for p in range(players):
            s[UNCLAIMED] += s[LAID + p]
        return
    s[TRICKS_WON + winner] += 1
    s[BATAILLES_WON + winner] += depth > 0
    pick_up(s, pr, winner, rng)


@njit(cache=True)
def most_cards(s, pr):
    """The player with the most cards left, the first from the dealer's left on a tie;
    -1 if nobody has a card (bataille A4)."""
    players = pr[P_PLAYERS]
    best, who = 0, -1
    for i in range(players):
        p = (s[DEALER] + 1 + i) % players
        if s[COUNT + p] > best:
            best, who = s[COUNT + p], p
    return who


@njit(cache=True)
def pick_up(s, pr, winner, rng):
    """The winner puts every card on the table under his pile, in the pickup order."""
    players = pr[P_PLAYERS]
    order = pr[P_PICKUP]
    if order == RANDOM_ORDER:
        pot = stack_room(MAX_CARDS)
        n = 0
        for p in range(players):
            for k in range(s[LAID + p]):
                pot[n] = s[TABLE + p * MAX_CARDS + k]
                n += 1
        shuffle(rng, pot[:n])
        for i in range(n):
            put_under(s, winner, pot[i])
        return
    if order == WINNER_FIRST:
        take_laid(s, winner, winner)
    start = 0 if order == SEAT_ORDER else winner + 1
    for i in range(players):
        p = (start + i) % players
        if p != winner or order == SEAT_ORDER:
            take_laid(s, winner, p)
    if order == LOSER_FIRST:
        take_laid(s, winner, winner)


@njit(cache=True)
def take_laid(s, winner, p):
    """The cards ``p`` laid this trick go under the winner's pile, in the order laid."""
    for k in range(s[LAID + p]):
        put_under(s, winner, s[TABLE + p * MAX_CARDS + k])


# --------------------------------------------------------------------------------------
# After the trick: eliminations, the end of the game, cycles
# --------------------------------------------------------------------------------------
@njit(cache=True)
def apply_action(s, pr, action, rng):
    """STEP: play one trick, then check for the end of the game."""
    s[STEPS + s[CURRENT]] += 1
    play_trick(s, pr, rng)
    s[TRICK] += 1
    players = pr[P_PLAYERS]
    left = 0
    eliminated = False
    for p in range(players):
        if s[COUNT + p] > 0:
            left += 1
        elif s[ELIMINATED_AT + p] < 0:
            s[ELIMINATED_AT + p] = s[TRICK]
            eliminated = True
    if s[TRICK_WINNER] < 0:
        finish(s, pr, EXHAUSTED)
    elif left == 1:
        finish(s, pr, ALL_CARDS)
    elif eliminated and pr[P_STOP_FIRST]:
        finish(s, pr, FIRST_ELIMINATION)
    elif pr[P_PICKUP] != RANDOM_ORDER and repeats(s, pr):
        finish(s, pr, CYCLE)
    elif s[TRICK] >= pr[P_MAX_TRICKS]:
        finish(s, pr, MAX_TRICKS)
    else:
        s[CURRENT] = first_in_game(s, pr)


@njit(cache=True)
def piles_hash(s, pr):
    """The hash of the position: every pile, in order from its top."""
    h = repetition.START
    for p in range(pr[P_PLAYERS]):
        h = repetition.mix(h, s[COUNT + p])
        base = PILE + p * PILE_CAPACITY
        for i in range(s[COUNT + p]):
            h = repetition.mix(h, s[base + ((s[HEAD + p] + i) & PILE_MASK)])
    return h


@njit(cache=True)
def start_record(s, pr):
    """The dealt piles, the first position of the record of positions seen."""
    repetition.forget(s, POSITION_HASHES)
    repetition.repeats(s, POSITION_HASHES, piles_hash(s, pr))


@njit(cache=True)
def repeats(s, pr):
    """Whether the piles repeat a former state (then the game cycles, and the cycle's length
    is recorded)."""
    return repetition.repeats(s, POSITION_HASHES, piles_hash(s, pr))


@njit(cache=True)
def finish(s, pr, end):
    """End the game and rank the players (see the module docstring)."""
    s[END] = end
    s[PHASE] = OVER
    s[CURRENT] = -1
    players = pr[P_PLAYERS]
    if end != ALL_CARDS:
        rank_seats(s[COUNT:COUNT + players], players, False, s[RANK:RANK + players])
        return
    for p in range(players):
        better = 0
        for q in range(players):
            eq, ep = s[ELIMINATED_AT + q], s[ELIMINATED_AT + p]
            better += (eq < 0 and ep >= 0) or (ep >= 0 and eq > ep)
        s[RANK + p] = 1 + better


@njit(cache=True)
def play_out(s, pr, rng):
    """Play tricks until the game is over."""
    while s[PHASE] != OVER:
        apply_action(s, pr, STEP, rng)


# --------------------------------------------------------------------------------------
# Hidden information: the pile orders
# --------------------------------------------------------------------------------------
@njit(cache=True)
def legal_actions(s, pr, out):
    """The one action of every turn, ``STEP``, into ``out``; the count (none once over)."""
    if s[PHASE] == OVER:
        return 0
    out[0] = STEP
    return 1


@njit(cache=True)
def observe(s, pr, player, out):
    """What a seat may know: ``s`` with the piles' cards hidden (-1, and where each pile
    starts in its ring), their sizes and the table shown (pile contents and orders are
    unknown to everybody, ``player`` included)."""
    copy_into(out, s)
    out[HEAD:HEAD + MAX_PLAYERS] = 0
    out[PILE:PILE + MAX_PLAYERS * PILE_CAPACITY] = -1
    repetition.forget(out, POSITION_HASHES)


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """``s`` with every card in the piles dealt again at random into piles of the same sizes
    (pile contents and orders are unknown to everybody, ``player`` included; the table is
    public)."""
    copy_into(out, s)
    players = pr[P_PLAYERS]
    cards = stack_room(MAX_CARDS)
    n = 0
    for p in range(players):
        n += pile_cards(s, p, cards[n:])
    sort_field(cards[:n])           # the deal must not depend on the true order
    shuffle(rng, cards[:n])
    n = 0
    for p in range(players):
        out[HEAD + p] = 0
        for i in range(s[COUNT + p]):
            out[PILE + p * PILE_CAPACITY + i] = cards[n]
            n += 1
