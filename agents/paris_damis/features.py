"""What the Paris d'amis strategy bots read in a position, as compiled functions.

A strategy decides from the seat's view of the flat state array: the masked observation on
the Python path (``observation.array``), the full state in the batch kernel.  Every function
here reads only what the seat to play may know, so both views give the same answers:

* public fields: ``phase``, ``round``, ``trump``, ``current``, ``bet``, ``bets_placed``,
  ``markers_used``, ``hand_size``, the columns (``column_total``, ``column_first``, and
  ``column_last`` / ``column_jokers`` through
  :func:`engines.games.paris_damis.rules.column_winner`), the points piles up to their face-up
  card (``pile``, ``pile_top``) and the points won per suit (``suit_score``);
* the seat's own hand: its ``hand_mask`` words, and the legal action codes that list it.

Column values, points values, discard counts and who wins a tied column come from the rules
(:mod:`engines.games.paris_damis.rules`); nothing here restates a rule.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.random_agent import action_index
from engines.core.cards import RANKS_PER_SUIT, lowest_member
from engines.games.paris_damis import rules as R

# Rows of the column table (:func:`column_table`), one entry per column.
GAP = 0          # column value the seat must add to lead strictly (<= 0: it does)
LEAD = 1         # its lead over the best rival total (0 when it has no card there)
# (a rival without a card in a column counts as a total of 0 there)
WORTH = 2        # what winning the column is worth to it (0: no points card to win)
SCORE = 3        # the seat's points so far in the column's suit
FIGURES = 4

SUIT_RANKS = (1 << RANKS_PER_SUIT) - 1   # the bits of one suit's ranks in a hand bit set
# The mean column value of a suit's cards (2..10, J/Q/K 11, A 12: 99 / 13).
MEAN_CARD_VALUE = float(R.COLUMN_VALUE[-RANKS_PER_SUIT:].mean())


# --------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def is_placement(code):
    return code < R.BET_ACTION


@njit(cache=True, inline="always")
def placed_card(code):
    return (code - R.PLACE) // R.COLUMNS


@njit(cache=True, inline="always")
def placed_column(code):
    return (code - R.PLACE) % R.COLUMNS


@njit(cache=True, inline="always")
def bet_index(pr, n, k):
    """Index among a turn's ``n`` legal actions of the bet on k, clamped to the allowed bets
    (listed last, 1 .. max)."""
    top = pr[R.P_MAX_BET]
    return n - top + min(max(k, 1), top) - 1


@njit(cache=True, inline="always")
def fits_many(card, trump):
    """A card of the trump or a joker: more than one column takes it."""
    return R.is_joker(card) or R.suit_of(card) == trump


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def rivals_to_play(s, pr, me):
    """Rivals who have not bet this round, so may still place cards."""
    count = 0
    for p in range(pr[R.P_PLAYERS]):
        if p != me and s[R.BET + p] == 0:
            count += 1
    return count


@njit(cache=True, inline="always")
def at_stake(s, column):
    """Points value of the column's face-up points card (0: its pile is exhausted)."""
    card = R.face_up_card(s, column)
    return 0 if card < 0 else R.points_value(card)


@njit(cache=True, inline="always")
def suit_score(s, player, suit):
    """Points the player has won in a suit so far (the rules keep them in the state)."""
    return s[R.SUIT_SCORE + player * R.SUITS + suit]


@njit(cache=True, inline="always")
def lacking(s, pr, player, column):
    """Column value the player must add to the column to lead every other total there (a
    player without a card there has a total of 0)."""
    best = 0
    for p in range(pr[R.P_PLAYERS]):
        if p != player:
            best = max(best, s[R.COLUMN_TOTAL + p * R.COLUMNS + column])
    return best + 1 - s[R.COLUMN_TOTAL + player * R.COLUMNS + column]


@njit(cache=True)
def new_table():
    """A work array for :func:`column_table` (a decision fills it; the batch kernel keeps
    one per thread and an agent one of its own, so no decision allocates memory)."""
    return np.zeros((FIGURES, R.COLUMNS))


@njit(cache=True, inline="always")
def column_table(s, pr, me, balance, table):
    """Fill ``table`` with the seat's figures for each column, one row each (``GAP``,
    ``LEAD``, ``WORTH``, ``SCORE``).

    ``WORTH`` is the face-up points card's value, times ``1 + balance * weaker / 3`` under
    lowest-suit scoring, where ``weaker`` counts the seat's suits that score more than this
    one (the ranking reads the lowest suit first)."""
    for column in range(R.COLUMNS):
        own = me * R.COLUMNS + column
        gap = lacking(s, pr, me, column)
        table[GAP, column] = gap
        table[LEAD, column] = 1 - gap if s[R.COLUMN_FIRST + own] >= 0 else 0
        table[SCORE, column] = suit_score(s, me, column)
    if pr[R.P_SCORING] == R.SCORING_TOTAL:
        balance = 0.0
    for column in range(R.COLUMNS):
        weaker = 0
        for suit in range(R.SUITS):
            weaker += table[SCORE, suit] > table[SCORE, column]
        table[WORTH, column] = at_stake(s, column) * (1.0 + balance * weaker / 3.0)


@njit(cache=True, inline="always")
def undefended(s, pr, me):
    """Bit set of the columns where a rival's total is at least the seat's and every rival
    with the best total there has bet: their leader can no longer defend them."""
    columns = 0
    for column in range(R.COLUMNS):
        best = -1
        defended = False
        for p in range(pr[R.P_PLAYERS]):
            cell = p * R.COLUMNS + column
            if p == me or s[R.COLUMN_FIRST + cell] < 0:
                continue
            total = s[R.COLUMN_TOTAL + cell]
            to_play = s[R.BET + p] == 0
            if total > best:
                best, defended = total, to_play
            elif total == best:
                defended |= to_play
        if best >= s[R.COLUMN_TOTAL + me * R.COLUMNS + column] and not defended:
            columns |= 1 << column
    return columns


@njit(cache=True, inline="always")
def top_total(s, pr, column):
    """The player with the highest total in the column (-1: empty column), and whether
    another player has that total too."""
    best, who, tied = -1, -1, False
    for p in range(pr[R.P_PLAYERS]):
        cell = p * R.COLUMNS + column
        if s[R.COLUMN_FIRST + cell] < 0:
            continue
        total = s[R.COLUMN_TOTAL + cell]
        if total > best:
            best, who, tied = total, p, False
        elif total == best:
            tied = True
    return who, tied


@njit(cache=True, inline="always")
def holder(s, pr, column):
    """Who would win the column if the round ended now (-1: nobody; ties go to the rules'
    :func:`~engines.games.paris_damis.rules.column_winner`)."""
    who, tied = top_total(s, pr, column)
    return R.column_winner(s, pr, column) if tied else who


@njit(cache=True, inline="always")
def card_reach(pr, trump, column):
    """Column value one unseen play card adds to the column on average: the mean column
    value of the play cards the column takes
    (:func:`~engines.games.paris_damis.rules.accepting_columns`), over the whole play
    deck."""
    jokers = pr[R.P_JOKERS]
    bit = 1 << column
    total = 0.0
    for suit in range(R.SUITS):
        if R.accepting_columns(pr, trump, suit * RANKS_PER_SUIT) & bit:
            total += RANKS_PER_SUIT * MEAN_CARD_VALUE
    if jokers > 0 and R.accepting_columns(pr, trump, R.FIRST_JOKER) & bit:
        total += jokers * R.joker_column_value(pr)
    return total / (R.FIRST_JOKER + jokers)


@njit(cache=True, inline="always")
def placeable(s, pr, player):
    """Cards the player can still place this round: its hand, at most its markers left."""
    return min(s[R.HAND_SIZE + player], pr[R.P_MARKERS] - s[R.MARKERS_USED + player])


@njit(cache=True, inline="always")
def likely_last(s, pr, me):
    """The rival still to play expected to play last, alone once the others have bet: the
    one whose turn comes last after the seat's (-1 when every rival has bet)."""
    last = -1
    seat = me
    for _ in range(pr[R.P_PLAYERS] - 1):
        seat = R.next_seat(pr, seat)
        if s[R.BET + seat] == 0:
            last = seat
    return last


@njit(cache=True)
def swept(s, pr, sweeper, reach):
    """Bit set of the columns the sweeper is expected to take when it plays alone with
    ``reach`` cards' worth to place (its cards to place, scaled): the columns with a points
    card it does not hold, the cheapest first (:func:`lacking`), each one it lacks at most
    ``reach`` times :func:`card_reach` in, while what they lack adds up to at most ``reach``
    times :data:`MEAN_CARD_VALUE` (a card goes to one column)."""
    if sweeper < 0 or reach <= 0.0:
        return 0
    candidates = 0
    for column in range(R.COLUMNS):
        if R.face_up_card(s, column) >= 0 and holder(s, pr, column) != sweeper:
            candidates |= 1 << column
    budget = reach * MEAN_CARD_VALUE
    taken = 0
    while candidates:
        cheapest, need = -1, 1 << 30
        for column in range(R.COLUMNS):
            if candidates & (1 << column):
                short = lacking(s, pr, sweeper, column)
                if short < need:
                    cheapest, need = column, short
        candidates &= ~(1 << cheapest)
        if need <= budget and need <= reach * card_reach(pr, s[R.TRUMP], cheapest):
            taken |= 1 << cheapest
            budget -= need
    return taken


@njit(cache=True)
def holders_mask(s, pr, sweeper, taken):
    """Who would win each column with a points card if the round ended now, the columns of
    bit set ``taken`` going to ``sweeper``: a bit set of players, and the number of such
    columns nobody would win."""
    seen = 0
    unheld = 0
    for column in range(R.COLUMNS):
        if R.face_up_card(s, column) < 0:
            continue
        who = sweeper if taken & (1 << column) else holder(s, pr, column)
        if who < 0:
            unheld += 1
        else:
            seen |= 1 << who
    return seen, unheld


@njit(cache=True, inline="always")
def bit_count(bits):
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True)
def projected_k(s, pr):
    """k if the round ended now: distinct players holding a column with a points card."""
    seen, _ = holders_mask(s, pr, -1, 0)
    return bit_count(seen)


@njit(cache=True)
def expected_k(s, pr, me, sweep):
    """The seat's estimate of k when it bets with rivals still to play.  The rival likely to
    play last (:func:`likely_last`) plays alone at the end and takes the columns it can
    reach (:func:`swept`, its cards to place scaled by ``sweep``).  The other columns stay
    with their holders, and each column nobody holds yet goes to a rival still to play who
    holds none (while there are such rivals).  With ``sweep`` 0 the last player is expected
    to take nothing."""
    last = likely_last(s, pr, me)
    reach = sweep * placeable(s, pr, last) if last >= 0 else 0.0
    seen, unheld = holders_mask(s, pr, last, swept(s, pr, last, reach))
    newcomers = 0
    for p in range(pr[R.P_PLAYERS]):
        if p != me and s[R.BET + p] == 0 and not seen & (1 << p):
            newcomers += 1
    return bit_count(seen) + min(unheld, newcomers)


# --------------------------------------------------------------------------------------
# Cards in hand
# --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def hand_bits(s, me):
    """The seat's hand as one bit set: bit ``card`` for each card it holds."""
    return R.hand_word(s, me, 0) | (R.hand_word(s, me, 1) << R.WORD_BITS)


@njit(cache=True, inline="always")
def lowest_card(s, pr, me):
    """The seat's card of lowest column value (-1: empty hand): ranks upward, suits in the
    order ♥ ♦ ♠ ♣, a joker before the first rank worth more than it."""
    hand = hand_bits(s, me)
    jokers = hand >> R.FIRST_JOKER
    joker = -1 if jokers == 0 else R.FIRST_JOKER + lowest_member(jokers & -jokers)
    ranks = 0                                   # bit r: some suit holds rank r + 2
    for suit in range(R.SUITS):
        ranks |= (hand >> (suit * RANKS_PER_SUIT)) & SUIT_RANKS
    if ranks == 0:
        return joker
    bit = ranks & -ranks
    offset = lowest_member(bit)
    if joker >= 0 and R.joker_column_value(pr) < R.COLUMN_VALUE[offset + 2]:
        return joker
    for suit in range(R.SUITS):
        if (hand >> (suit * RANKS_PER_SUIT)) & bit:
            return suit * RANKS_PER_SUIT + offset
    return -1


@njit(cache=True, inline="always")
def richest_column(s, pr, card):
    """The column taking the card with the most points at stake (the first on a tie)."""
    accepts = R.accepting_columns(pr, s[R.TRUMP], card)
    best, best_points = -1, -1
    for column in range(R.COLUMNS):
        if accepts & (1 << column):
            points = at_stake(s, column)
            if points > best_points:
                best, best_points = column, points
    return best


@njit(cache=True, inline="always")
def shed_lowest(s, pr, actions, n, most):
    """Index of the placement of the seat's lowest card (:func:`lowest_card`) in its
    :func:`richest_column`, if that card's column value is at most ``most``; -1 otherwise
    (or when no placement is legal)."""
    card = lowest_card(s, pr, s[R.CURRENT])
    if card < 0 or R.column_value(pr, card) > most:
        return -1
    return action_index(actions, n, R.PLACE + card * R.COLUMNS + richest_column(s, pr, card))


@njit(cache=True, inline="always")
def kept(pr, h):
    """Cards a hand of h keeps through the end-of-round discard (A5)."""
    return h - R.discard_count(pr, h)


@njit(cache=True, inline="always")
def placing_costs_a_card(s, pr, me):
    """Whether one more placement leaves the seat one card fewer after the discard: not in
    the last round (nothing is kept), nor from a hand the discard would cut to the same size
    anyway (an even hand under half-down: the text's advice to end with an odd hand)."""
    if s[R.ROUND] + 1 >= pr[R.P_ROUNDS]:
        return False
    h = s[R.HAND_SIZE + me]
    return kept(pr, h - 1) < kept(pr, h)


@njit(cache=True, inline="always")
def next_trump(s):
    """The trump of the next round (discards and hand changes come before it moves)."""
    return (s[R.TRUMP] + 1) % R.SUITS


@njit(cache=True, inline="always")
def keep_value(pr, card, trump, trump_bonus):
    """How much a card is worth keeping for the next round, whose trump is ``trump``: its
    column value, plus ``trump_bonus`` for a trump or a joker (they fit every column)."""
    value = float(R.column_value(pr, card))
    if fits_many(card, trump):
        value += trump_bonus
    return value


@njit(cache=True, inline="always")
def discard_choice(s, pr, actions, n, trump_bonus):
    """Index of the discard of the card least worth keeping (:func:`keep_value`); the lowest
    card id on a tie."""
    trump = next_trump(s)
    best = 0
    lowest = 1e18
    for i in range(n):
        value = keep_value(pr, actions[i] - R.DISCARD_ACTION, trump, trump_bonus)
        if value < lowest:
            lowest = value
            best = i
    return best


@njit(cache=True, inline="always")
def hand_strength(s, pr, me, trump_bonus):
    """Mean :func:`keep_value` of the seat's hand (0 for an empty hand)."""
    trump = next_trump(s)
    total = 0.0
    count = 0
    for half in range(R.HAND_WORDS):
        bits = R.hand_word(s, me, half)
        while bits != 0:
            bit = bits & -bits
            bits ^= bit
            card = half * R.WORD_BITS + lowest_member(bit)
            total += keep_value(pr, card, trump, trump_bonus)
            count += 1
    return total / count if count else 0.0


@njit(cache=True, inline="always")
def hand_change_choice(s, pr, me, exchange_below, trump_bonus):
    """Index of KEEP (0) or EXCHANGE (1) among the hand change's two actions: exchange when
    the hand's :func:`hand_strength` is below ``exchange_below``."""
    return 1 if hand_strength(s, pr, me, trump_bonus) < exchange_below else 0


# --------------------------------------------------------------------------------------
# The last to play
# --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def holds(s, pr, me, column, gap):
    """Whether the seat would win the column now, given its ``GAP`` (the rules decide a
    tie)."""
    if gap == 1:
        return R.column_winner(s, pr, column) == me
    return gap <= 0 and s[R.COLUMN_FIRST + me * R.COLUMNS + column] >= 0


@njit(cache=True, inline="always")
def take_column(s, pr, actions, n, column, needed):
    """One pass over the placements into a column that needs ``needed`` more value: the
    total the hand can add there (a trump counted in every column it fits), and the index of
    the placement that best advances taking it: the cheapest card covering it alone, else
    the strongest card (on equal values a card that fits only this column before a
    trump)."""
    trump = s[R.TRUMP]
    reach = 0
    cover, cover_key = -1, 1 << 30
    strongest, strongest_key = -1, -1
    for i in range(n):
        code = actions[i]
        if not is_placement(code):
            break                               # the bets come last
        if placed_column(code) != column:
            continue
        card = placed_card(code)
        value = R.column_value(pr, card)
        reach += value
        flexible = 1 if fits_many(card, trump) else 0
        if value >= needed and value * 2 + flexible < cover_key:
            cover, cover_key = i, value * 2 + flexible
        if value * 2 + 1 - flexible > strongest_key:
            strongest, strongest_key = i, value * 2 + 1 - flexible
    return reach, cover if cover >= 0 else strongest


@njit(cache=True, inline="always")
def finishing_move(s, pr, me, actions, n, table, spend):
    """For the last seat to play (every rival has bet: columns change only by its own
    placements, and the round ends when it bets): index of the next placement towards the
    column of highest ``WORTH`` that it does not hold, needs at most ``spend`` column value
    per point of worth, and can still be taken with the cards its hand offers it; -1 when
    no column is worth taking."""
    wanted = 0
    for column in range(R.COLUMNS):
        worth = table[WORTH, column]
        gap = table[GAP, column]
        if worth > 0 and gap <= spend * worth and not holds(s, pr, me, column, gap):
            wanted |= 1 << column
    while wanted:
        target, best = -1, 0.0
        for column in range(R.COLUMNS):
            if wanted & (1 << column) and table[WORTH, column] > best:
                target, best = column, table[WORTH, column]
        needed = table[GAP, target]
        reach, i = take_column(s, pr, actions, n, target, needed)
        if reach >= needed:
            return i
        wanted &= ~(1 << target)
    return -1


@njit(cache=True, inline="always")
def last_to_play(s, pr, me, actions, n, table, spend):
    """The move of the last seat to play: the :func:`finishing_move`, or, with every column
    worth taking taken, the bet on the exact k."""
    i = finishing_move(s, pr, me, actions, n, table, spend)
    return i if i >= 0 else bet_index(pr, n, projected_k(s, pr))
