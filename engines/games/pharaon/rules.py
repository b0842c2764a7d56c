"""Le pharaon: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/pharaon.md`` and the French source ("le banquier tire deux
cartes qu'il pose, la première à sa droite, la seconde à sa gauche.  La carte la plus forte
désigne le côté gagnant ... S'il tire deux cartes de même valeur, le banquier ramasse toutes les
mises").  Sections follow the rulebook: components, setup, one coup (the bets, the draw, the
resolution), the end of the session.

Mechanics: the state is one flat int32 array (``STATE`` names its fields); the shoe is the
52 card ids of :mod:`engines.core.cards` in drawing order.  The shuffles draw from the game's chance
stream through :mod:`engines.core.chance`.

Readings the spec leaves open (each documented where it is coded):

* Betting order: the punters bet in seat order from the banker's left (``banker + 1``, ...).
  A punter with fewer chips than ``min_bet`` makes no decision.  With ``allow_both_sides``
  a punter who staked on the right is asked once more, for the left only (a punter who
  wants both sides stakes the right first).
* Payment with a finite bank (A6): the losing stakes are collected first, then the winners are
  paid in seat order from the banker's left while the bank has chips; a winner the bank cannot
  pay in full gets his stake back and what is left.
* P1 (a gap): with ``rotate_bank`` every seat starts with ``punter_bankroll`` and banks from
  his own chips: an unlimited bank (``bank_bankroll = none``) may go below zero, a finite one
  (any ``bank_bankroll``) is limited to the banker's chips.  The bank passes every 26 coups
  (one deck) in both deck modes.
* Ranking: by net gain (final minus starting chips), equal gains ranking equal.  The spec says
  "by final chips"; an unlimited bank starts from zero chips, so only the gain compares the
  banker with the punters (with equal starting chips the two orders are the same).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.chance import shuffle
from engines.core.compiled import count_decision, rank_seats
from engines.core.layout import Layout, copy_into, sort_field, stack_room
from engines.games.pharaon.params import MAX_BET, MAX_PUNTERS, PharaonParams

# --------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------
MAX_SEATS = MAX_PUNTERS + 1
DECK = 52
RANKS = 13
COUPS_PER_DECK = DECK // 2
RIGHT, LEFT = 0, 1
SIDE_NAMES = ("right", "left")
UNLIMITED = -1

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code
# --------------------------------------------------------------------------------------
PARAMS = Layout(("seats", 1), ("ace_low", 1), ("run_through", 1), ("min_bet", 1),
                ("max_bet", 1), ("punter_bankroll", 1), ("bank_bankroll", 1),
                ("both_sides", 1), ("num_coups", 1), ("rotate_bank", 1))
# P_BANK_BANKROLL: UNLIMITED or the banker's chips
(P_SEATS, P_ACE_LOW, P_RUN_THROUGH, P_MIN_BET, P_MAX_BET, P_PUNTER_BANKROLL, P_BANK_BANKROLL,
 P_BOTH_SIDES, P_NUM_COUPS, P_ROTATE_BANK) = PARAMS.offsets()


def encode_params(params: PharaonParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    return PARAMS.encode(seats=params.players, ace_low=params.ace_low,
                         run_through=params.deck_mode == "run_through", min_bet=params.min_bet,
                         max_bet=params.max_bet, punter_bankroll=params.punter_bankroll,
                         bank_bankroll=(UNLIMITED if params.bank_bankroll is None
                                        else params.bank_bankroll),
                         both_sides=params.allow_both_sides, num_coups=params.num_coups,
                         rotate_bank=params.rotate_bank)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("coup", 1), ("banker", 1), ("current", 1), ("decisions", 1),
    ("shoe", DECK), ("drawn", 1),           # the shoe in drawing order, cards drawn from it
    ("seen", RANKS),                        # ranks turned since the last shuffle
    ("chips", MAX_SEATS), ("start_chips", MAX_SEATS), ("stake", MAX_SEATS * 2),
    ("right_card", 1), ("left_card", 1),    # the last coup's cards (-1: none yet)
    # figures for results
    ("pairs", 1), ("staked_total", 1), ("banker_net_total", 1), ("min_chips", MAX_SEATS),
    ("staked", MAX_SEATS), ("bets", MAX_SEATS), ("coups_banked", MAX_SEATS),
    ("player_decisions", MAX_SEATS), ("rank", MAX_SEATS),
    # the last coup, for its round row
    ("coup_staked", 1), ("coup_banker_net", 1), ("coup_pair_chances", 1),
    ("coup_cards_left", 1), ("coup_banker", 1),
)
STATE_SIZE = STATE.size
# COUP: coups played
# STAKE: seat * 2 + side
# COUP_PAIR_CHANCES: pairs among the ordered draws
# COUP_CARDS_LEFT: cards in the shoe before the draw
(PHASE, COUP, BANKER, CURRENT, DECISIONS, SHOE, DRAWN, SEEN, CHIPS, START_CHIPS, STAKE, RIGHT_CARD,
 LEFT_CARD, PAIRS, STAKED_TOTAL, BANKER_NET_TOTAL, MIN_CHIPS, STAKED, BETS, COUPS_BANKED,
 PLAYER_DECISIONS, RANK, COUP_STAKED, COUP_BANKER_NET, COUP_PAIR_CHANCES, COUP_CARDS_LEFT,
 COUP_BANKER) = STATE.offsets()

# Phases: SETUP is the first shuffle; BET waits for a punter's decision.
SETUP, BET, OVER = 0, 1, 2

# Actions: NO_BET, then BET(side, amount) = 1 + side * MAX_BET + amount - 1.
NO_BET = 0
N_ACTIONS = 1 + 2 * MAX_BET
APPLY_DRAWS = True      # apply_action(s, pr, action, rng) draws the chance after a decision
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def bet_action(side, amount):
    return 1 + side * MAX_BET + amount - 1


@njit(cache=True)
def rank(pr, card):
    """Rank order 0..12: 2 low .. A high, or A low .. K high with ``ace_low``."""
    r = card % RANKS                    # 0: the 2 .. 12: the Ace
    if pr[P_ACE_LOW]:
        return 0 if r == RANKS - 1 else r + 1
    return r


# --------------------------------------------------------------------------------------
# Setup: chips, the banker shuffles
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """The state before the first shuffle."""
    s[:] = 0
    s[RIGHT_CARD] = -1
    s[LEFT_CARD] = -1
    for p in range(pr[P_SEATS]):
        s[CHIPS + p] = pr[P_PUNTER_BANKROLL]
    if not pr[P_ROTATE_BANK]:
        s[CHIPS] = 0 if pr[P_BANK_BANKROLL] == UNLIMITED else pr[P_BANK_BANKROLL]
    for p in range(pr[P_SEATS]):
        s[START_CHIPS + p] = s[CHIPS + p]
        s[MIN_CHIPS + p] = s[CHIPS + p]
    s[PHASE] = SETUP


@njit(cache=True)
def advance(s, pr, rng):
    """The first shuffle, when it is due (phase ``SETUP``): the banker shuffles, and the first
    punter bets."""
    if s[PHASE] == SETUP:
        new_shoe(s, rng)
        start_coup(s, pr)


@njit(cache=True)
def new_shoe(s, rng):
    """Shuffle the 52 cards into the shoe."""
    for c in range(DECK):
        s[SHOE + c] = c
    shuffle(rng, s[SHOE:SHOE + DECK])
    s[DRAWN] = 0
    s[SEEN:SEEN + RANKS] = 0


# --------------------------------------------------------------------------------------
# One coup: the bets
# --------------------------------------------------------------------------------------
@njit(cache=True)
def can_bet(s, pr, p):
    return s[CHIPS + p] - s[STAKE + 2 * p] - s[STAKE + 2 * p + 1] >= pr[P_MIN_BET]


@njit(cache=True)
def next_punter(s, pr, after):
    """The next punter after seat ``after`` (in seat order from the banker's left) who can
    bet; -1 when every punter has had his turn."""
    seats = pr[P_SEATS]
    b = s[BANKER]
    k = (after - b) % seats
    for i in range(k + 1, seats):
        p = (b + i) % seats
        if can_bet(s, pr, p):
            return p
    return -1


@njit(cache=True)
def start_coup(s, pr):
    """Clear the stakes; the first punter who can bet decides, or the session ends when
    nobody can."""
    s[STAKE:STAKE + 2 * MAX_SEATS] = 0
    s[CURRENT] = next_punter(s, pr, s[BANKER])
    s[PHASE] = BET
    if s[CURRENT] < 0:
        finish(s, pr)


@njit(cache=True)
def legal_actions(s, pr, out):
    """NO_BET, then BET(right, a) and BET(left, a) for a = min_bet .. the most he may stake;
    the second decision of a punter with ``allow_both_sides`` offers the other side only."""
    p = s[CURRENT]
    free = s[CHIPS + p] - s[STAKE + 2 * p] - s[STAKE + 2 * p + 1]
    top = min(pr[P_MAX_BET], free)
    out[0] = NO_BET
    n = 1
    for side in range(2):
        if s[STAKE + 2 * p + side] > 0:
            continue
        for a in range(pr[P_MIN_BET], top + 1):
            out[n] = bet_action(side, a)
            n += 1
    return n


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """The current punter's decision; after the last punter, the draw and the resolution."""
    p = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    ask_again = False
    if action != NO_BET:
        side = (action - 1) // MAX_BET
        s[STAKE + 2 * p + side] = (action - 1) % MAX_BET + 1
        ask_again = (pr[P_BOTH_SIDES] and side == RIGHT and can_bet(s, pr, p))
    if not ask_again:
        s[CURRENT] = next_punter(s, pr, p)
    if s[CURRENT] < 0:
        draw_and_resolve(s, pr, rng)


# --------------------------------------------------------------------------------------
# One coup: the draw, the resolution
# --------------------------------------------------------------------------------------
@njit(cache=True)
def pair_chances(s):
    """Ordered draws of two cards from the shoe that make a pair: sum of c(c - 1) over the
    ranks' counts c left (the exact P(pair) is this over N(N - 1))."""
    total = 0
    for r in range(RANKS):
        c = 4 - s[SEEN + r]
        total += c * (c - 1)
    return total


@njit(cache=True)
def draw_and_resolve(s, pr, rng):
    """Turn the right card then the left card; the higher side wins even money, a pair gives
    the banker every stake; then the next coup."""
    if not pr[P_RUN_THROUGH] or s[DRAWN] == DECK:
        new_shoe(s, rng)
    s[COUP_CARDS_LEFT] = DECK - s[DRAWN]
    s[COUP_PAIR_CHANCES] = pair_chances(s)
    right = s[SHOE + s[DRAWN]]
    left = s[SHOE + s[DRAWN] + 1]
    s[DRAWN] += 2
    s[SEEN + right % RANKS] += 1
    s[SEEN + left % RANKS] += 1
    s[RIGHT_CARD] = right
    s[LEFT_CARD] = left
    b = s[BANKER]
    seats = pr[P_SEATS]
    staked = 0
    banker_before = s[CHIPS + b]
    pair = right % RANKS == left % RANKS
    winning = RIGHT if rank(pr, right) > rank(pr, left) else LEFT
    # losing stakes first
    for i in range(1, seats):
        p = (b + i) % seats
        for side in range(2):
            stake = s[STAKE + 2 * p + side]
            if stake > 0:
                staked += stake
                s[STAKED + p] += stake
                s[BETS + p] += 1
                if pair or side != winning:
                    s[CHIPS + p] -= stake
                    s[CHIPS + b] += stake
    # then the winners, in seat order while the bank can pay
    if not pair:
        limited = pr[P_BANK_BANKROLL] != UNLIMITED
        for i in range(1, seats):
            p = (b + i) % seats
            stake = s[STAKE + 2 * p + winning]
            pay = min(stake, max(s[CHIPS + b], 0)) if limited else stake
            s[CHIPS + p] += pay
            s[CHIPS + b] -= pay
    s[PAIRS] += pair
    s[COUP_STAKED] = staked
    s[COUP_BANKER_NET] = s[CHIPS + b] - banker_before
    s[STAKED_TOTAL] += staked
    s[BANKER_NET_TOTAL] += s[COUP_BANKER_NET]
    s[COUPS_BANKED + b] += 1
    s[COUP_BANKER] = b
    for p in range(seats):
        s[MIN_CHIPS + p] = min(s[MIN_CHIPS + p], s[CHIPS + p])
    s[COUP] += 1
    if s[COUP] >= pr[P_NUM_COUPS]:
        finish(s, pr)
        return
    if pr[P_ROTATE_BANK] and s[COUP] % COUPS_PER_DECK == 0:
        s[BANKER] = (b + 1) % seats
    start_coup(s, pr)


# --------------------------------------------------------------------------------------
# The end of the session
# --------------------------------------------------------------------------------------
@njit(cache=True)
def finish(s, pr):
    """Rank the seats by net gain."""
    s[PHASE] = OVER
    s[CURRENT] = -1
    n = pr[P_SEATS]
    gains = stack_room(MAX_SEATS)
    for p in range(n):
        gains[p] = s[CHIPS + p] - s[START_CHIPS + p]
    rank_seats(gains, n, False, s[RANK:RANK + n])


# --------------------------------------------------------------------------------------
# Hidden information: the order of the shoe
# --------------------------------------------------------------------------------------
@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """``s`` with the cards not yet drawn reshuffled (the same for every ``player``)."""
    copy_into(out, s)
    rest = out[SHOE + s[DRAWN]:SHOE + DECK]
    sort_field(rest)                # the deal must not depend on the true order
    shuffle(rng, rest)


@njit(cache=True)
def observe(s, pr, player, out):
    """What every ``player`` sees: ``s`` with the undrawn shoe hidden (-1)."""
    copy_into(out, s)
    out[SHOE + s[DRAWN]:SHOE + DECK] = -1
