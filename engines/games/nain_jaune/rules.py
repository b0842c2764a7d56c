"""Le nain jaune: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/nain-jaune.md`` and the French source text.  The
sections follow the rulebook: the board and its five pots, each deal (the antes, the deal and
the écart), the play in sequence (A 2 ... K whatever the suit, "sans" when one cannot follow,
the King that lets its player start again), the belles cartes that win their pot, the end of
a deal (payments, "doubler la mise", the grand opéra) and the end of the game.  The Python
API (:mod:`engines.games.nain_jaune.game`) calls these functions; turn order comes from the
shedding core (:mod:`engines.families.shedding.rules`).

Readings of the text (each coded where stated):

* The first dealer is seat ``players - 1`` (the spec draws him at random; a fixed seat keeps
  seat 0 the first to play of a game); the deal passes left and the dealer's left plays first.
* Every decision is a card to play (the suit of the needed rank, or any card on a free
  lead); a player without the needed rank passes automatically ("sans"), and with
  ``may_hold_back`` (A1) a player may say ``sans`` while holding it.
* When nobody can follow, the player who played the last card leads again (A5).
* End of a deal, in the spec's order: point payments to the winner, then "doubler la mise"
  for each belle carte left in a hand (A3), then the grand opéra sweep (A6).  A player who
  cannot pay in full pays all he has (A7).
* The game ends after a deal that leaves a player with no chips or unable to pay the next
  antes; the most chips wins (ties share); ``max_deals`` caps it (recorded as capped).
* No position can come back, so nothing detects repetitions (issue 26): within a deal every
  card played leaves its hand for good, and between two cards played there are fewer
  "sans" than players (each hands the turn on towards the last player, who then leads any
  card); a deal ends when a hand is empty.  A new deal is a fresh shuffle, never the same
  position again but by chance, and the deals played only grow up to ``max_deals``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.cards import CLUBS, DIAMONDS, HEARTS, RANKS_PER_SUIT, SPADES, STANDARD_CARDS
from engines.core.chance import shuffled_deck
from engines.core.compiled import count_decision, rank_seats
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import Tag
from engines.families.shedding import rules as shedding
from engines.games.nain_jaune.params import MAX_PLAYERS, POTS, NainJauneParams

CARDS = STANDARD_CARDS
KING_RANK = 13                                  # sequence ranks: A=1 2 ... 10 J=11 Q=12 K=13
FREE = 0                                        # "needed" when any card may be led
HAND_SIZES = {3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6}
# the belles cartes, in pot order: 10♦, J♣, Q♠, K♥, 7♦ (le nain jaune)
BELLES = np.array([DIAMONDS * 13 + 8, CLUBS * 13 + 9, SPADES * 13 + 10, HEARTS * 13 + 11,
                   DIAMONDS * 13 + 5], dtype=np.int32)
PROBABILITY_SCALE = 1 << 30


@njit(cache=True)
def sequence_rank(card):
    """A counts 1, then 2..10, J 11, Q 12, K 13."""
    r = card % RANKS_PER_SUIT + 2
    return 1 if r == 14 else r


@njit(cache=True)
def points(card):
    """Card points for the payments: A 1, 2-10 face value, J Q K 10."""
    return min(sequence_rank(card), 10)


@njit(cache=True)
def belle_index(card):
    for i in range(POTS):
        if BELLES[i] == card:
            return i
    return -1


PARAMS = Layout(("players", 1), ("hand_size", 1), ("start_chips", 1), ("antes", POTS),
                ("ante_once", 1), ("may_hold_back", 1), ("double_base", 1),
                ("grand_opera", 1), ("forget", 1), ("max_deals", 1))
(P_PLAYERS, P_HAND_SIZE, P_START_CHIPS, P_ANTES, P_ANTE_ONCE, P_MAY_HOLD_BACK, P_DOUBLE_BASE,
 P_GRAND_OPERA, P_FORGET, P_MAX_DEALS) = PARAMS.offsets()


def encode_params(params: NainJauneParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    return PARAMS.encode(players=params.players, hand_size=HAND_SIZES[params.players],
                         start_chips=params.start_chips, antes=params.antes,
                         ante_once=params.ante_once, may_hold_back=params.may_hold_back,
                         double_base=params.double_amount == "base", grand_opera=params.grand_opera,
                         forget=round(params.forget_prob * PROBABILITY_SCALE),
                         max_deals=params.max_deals)


STATE = Layout(
    ("phase", 1), ("current", 1), ("decisions", 1), ("turns", 1), ("dealer", 1),
    ("deal", 1), ("needed", 1), ("last_player", 1), ("ending", 1), ("unseen", 1),
    ("pots", POTS), ("chips", MAX_PLAYERS), ("hand", MAX_PLAYERS * CARDS),
    ("hand_size", MAX_PLAYERS), ("played_deal", MAX_PLAYERS), ("played", CARDS),
    ("ecart", CARDS), ("no_out", MAX_PLAYERS),
    # the last finished deal, per seat (kept until the next one ends)
    ("last_winner", 1), ("last_opera", 1), ("last_chips", MAX_PLAYERS),
    ("last_paid", MAX_PLAYERS), ("last_received", MAX_PLAYERS),
    ("last_pots_won", MAX_PLAYERS), ("last_doubled", MAX_PLAYERS),
    ("last_cards_left", MAX_PLAYERS), ("deal_pots_won", MAX_PLAYERS),
    # game figures
    ("grand_operas", 1), ("forgotten", 1), ("player_decisions", MAX_PLAYERS),
    ("deals_won", MAX_PLAYERS), ("chips_from_pots", MAX_PLAYERS),
    ("chips_from_payments", MAX_PLAYERS), ("chips_doubled", MAX_PLAYERS),
    ("score", MAX_PLAYERS), ("rank", MAX_PLAYERS), ("pool", CARDS),
)
STATE_SIZE = STATE.size
# NO_OUT: nobody leaves the table: all zeros
(PHASE, CURRENT, DECISIONS, TURNS, DEALER, DEAL, NEEDED, LAST_PLAYER, ENDING, UNSEEN, _, CHIPS,
 HAND, HAND_SIZE, PLAYED_DEAL, PLAYED, ECART, NO_OUT, LAST_WINNER, LAST_OPERA, LAST_CHIPS,
 LAST_PAID, LAST_RECEIVED, LAST_POTS_WON, LAST_DOUBLED, LAST_CARDS_LEFT, DEAL_POTS_WON,
 GRAND_OPERAS, FORGOTTEN, PLAYER_DECISIONS, DEALS_WON, CHIPS_FROM_POTS, CHIPS_FROM_PAYMENTS,
 CHIPS_DOUBLED, SCORE, RANK, POOL) = STATE.offsets()
RULES = Tag(__name__)                # the family's and the core's steps, for this game
POT = STATE.offset("pots")

SETUP, PLAY, OVER = 0, 1, 2
PLAY_ACTION = 0                                 # + card
SANS_ACTION = CARDS
N_ACTIONS = CARDS + 1
APPLY_DRAWS = True      # apply_action(s, pr, action, rng) draws the chance after a decision
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def pay(s, player, amount):
    """Take up to ``amount`` chips from ``player`` (all he has if he cannot pay in full)."""
    paid = min(amount, s[CHIPS + player])
    s[CHIPS + player] -= paid
    return paid


# --------------------------------------------------------------------------------------
# Each deal: antes, the deal, the écart
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    s[:] = 0
    for p in range(pr[P_PLAYERS]):
        s[CHIPS + p] = pr[P_START_CHIPS]
    s[DEALER] = pr[P_PLAYERS] - 1
    s[LAST_WINNER] = -1
    s[PHASE] = SETUP


@njit(cache=True)
def advance(s, pr, rng):
    """The deal, when it is due (phase ``SETUP``): everyone antes into the five pots (A2:
    once with ``ante_once``), the cards are shuffled and dealt one at a time from the
    dealer's left; the rest is the écart."""
    if s[PHASE] != SETUP:
        return
    players = pr[P_PLAYERS]
    if s[DEAL] == 0 or not pr[P_ANTE_ONCE]:
        for p in range(players):
            for i in range(POTS):
                s[POT + i] += pay(s, p, pr[P_ANTES + i])
    deck = stack_room(CARDS)
    shuffled_deck(rng, deck)
    s[HAND:HAND + MAX_PLAYERS * CARDS] = 0
    s[PLAYED:PLAYED + CARDS] = 0
    s[ECART:ECART + CARDS] = 0
    for p in range(MAX_PLAYERS):
        s[HAND_SIZE + p] = 0
        s[PLAYED_DEAL + p] = 0
        s[DEAL_POTS_WON + p] = 0
    first = (s[DEALER] + 1) % players
    n = pr[P_HAND_SIZE] * players
    for i in range(CARDS):
        if i < n:
            p = (first + i) % players
            s[shedding.hand_at(HAND, CARDS, p) + deck[i]] = 1
            s[HAND_SIZE + p] += 1
        else:
            s[ECART + deck[i]] = 1
    s[DEAL] += 1
    s[NEEDED] = FREE
    s[LAST_PLAYER] = first
    s[CURRENT] = first
    s[PHASE] = PLAY
    s[TURNS] += 1


# --------------------------------------------------------------------------------------
# Play in sequence
# --------------------------------------------------------------------------------------
@njit(cache=True)
def holds_needed(s, player):
    h = shedding.hand_at(HAND, CARDS, player)
    for card in range(CARDS):
        if s[h + card] and sequence_rank(card) == s[NEEDED]:
            return True
    return False


@njit(cache=True)
def legal_actions(s, pr, out):
    """A free lead: every card in hand; otherwise the cards of the needed rank (the suit is
    the choice), then ``sans`` with ``may_hold_back``.  By card id."""
    if s[PHASE] != PLAY:
        return 0
    h = shedding.hand_at(HAND, CARDS, s[CURRENT])
    n = 0
    for card in range(CARDS):
        if s[h + card] and (s[NEEDED] == FREE or sequence_rank(card) == s[NEEDED]):
            out[n] = PLAY_ACTION + card
            n += 1
    if s[NEEDED] != FREE and pr[P_MAY_HOLD_BACK]:
        out[n] = SANS_ACTION
        n += 1
    return n


@njit(cache=True)
def pass_on(s, pr, player):
    """"sans": the next player holding the needed rank plays it; if nobody does, the player
    of the last card leads any card (A5)."""
    p = player
    for _ in range(pr[P_PLAYERS]):
        p = shedding.next_seat(s, NO_OUT, pr[P_PLAYERS], p)
        if p == s[LAST_PLAYER]:
            break
        if holds_needed(s, p):
            s[CURRENT] = p
            s[TURNS] += 1
            return
    s[NEEDED] = FREE
    s[CURRENT] = s[LAST_PLAYER]
    s[TURNS] += 1


@njit(cache=True)
def play(s, pr, player, card, rng):
    """Play a card: a belle carte wins its pot at once; the last card ends the deal; after a
    King the same player leads again; otherwise he goes on while he holds the next rank."""
    s[shedding.hand_at(HAND, CARDS, player) + card] = 0
    s[HAND_SIZE + player] -= 1
    s[PLAYED + card] = 1
    s[PLAYED_DEAL + player] = 1
    s[LAST_PLAYER] = player
    pot = belle_index(card)
    if pot >= 0:
        forgot = False
        if pr[P_FORGET] > 0:
            forgot = rng.random() * PROBABILITY_SCALE < pr[P_FORGET]
        if forgot:                      # A4: "s'il oublie ... il double la mise"
            s[FORGOTTEN] += 1
            paid = pay(s, player, s[POT + pot])
            s[POT + pot] += paid
            s[CHIPS_DOUBLED + player] += paid
        else:
            won = s[POT + pot]
            s[POT + pot] = 0
            s[CHIPS + player] += won
            s[CHIPS_FROM_POTS + player] += won
            s[DEAL_POTS_WON + player] += won
    if s[HAND_SIZE + player] == 0:
        end_deal(s, pr, player, rng)
        return
    rank = sequence_rank(card)
    if rank == KING_RANK:
        s[NEEDED] = FREE
        return
    s[NEEDED] = rank + 1
    if not holds_needed(s, player):
        pass_on(s, pr, player)


# --------------------------------------------------------------------------------------
# End of a deal, end of the game
# --------------------------------------------------------------------------------------
@njit(cache=True)
def end_deal(s, pr, winner, rng):
    """Payments of the points left in hand, "doubler la mise" for belles cartes left in hand
    (A3), the grand opéra (A6); then the next deal, or the end of the game."""
    players = pr[P_PLAYERS]
    for p in range(players):
        s[LAST_PAID + p] = 0
        s[LAST_RECEIVED + p] = 0
        s[LAST_DOUBLED + p] = 0
        s[LAST_CARDS_LEFT + p] = s[HAND_SIZE + p]
    for p in range(players):
        if p == winner:
            continue
        owed = 0
        for card in range(CARDS):
            if s[shedding.hand_at(HAND, CARDS, p) + card]:
                owed += points(card)
        paid = pay(s, p, owed)
        s[CHIPS + winner] += paid
        s[LAST_PAID + p] = paid
        s[LAST_RECEIVED + winner] += paid
        s[CHIPS_FROM_PAYMENTS + winner] += paid
    for p in range(players):
        for i in range(POTS):
            if s[shedding.hand_at(HAND, CARDS, p) + BELLES[i]]:
                amount = pr[P_ANTES + i] * players if pr[P_DOUBLE_BASE] else s[POT + i]
                paid = pay(s, p, amount)
                s[POT + i] += paid
                s[LAST_DOUBLED + p] += paid
                s[CHIPS_DOUBLED + p] += paid
    opera = pr[P_GRAND_OPERA] != 0
    for p in range(players):
        if p != winner and s[PLAYED_DEAL + p]:
            opera = False
    if opera:
        for i in range(POTS):
            s[CHIPS + winner] += s[POT + i]
            s[CHIPS_FROM_POTS + winner] += s[POT + i]
            s[DEAL_POTS_WON + winner] += s[POT + i]
            s[POT + i] = 0
        s[GRAND_OPERAS] += 1
    s[DEALS_WON + winner] += 1
    s[LAST_WINNER] = winner
    s[LAST_OPERA] = opera
    for p in range(players):
        s[LAST_CHIPS + p] = s[CHIPS + p]
        s[LAST_POTS_WON + p] = s[DEAL_POTS_WON + p]
    ante = 0
    for i in range(POTS):
        ante += pr[P_ANTES + i]
    broke = False
    for p in range(players):
        if s[CHIPS + p] == 0 or (not pr[P_ANTE_ONCE] and s[CHIPS + p] < ante):
            broke = True
    if broke:
        finish(s, pr, shedding.FINISHED)
    elif s[DEAL] >= pr[P_MAX_DEALS]:
        finish(s, pr, shedding.CAPPED)
    else:
        s[DEALER] = (s[DEALER] + 1) % players
        s[PHASE] = SETUP
        advance(s, pr, rng)


@njit(cache=True)
def finish(s, pr, ending):
    """The most chips wins; equal chips share the rank."""
    players = pr[P_PLAYERS]
    copy_into(s[SCORE:SCORE + players], s[CHIPS:CHIPS + players])
    rank_seats(s[CHIPS:CHIPS + players], players, False, s[RANK:RANK + players])
    shedding.end_game(RULES, s, ending)


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """Play a legal action for the current player; chance (the next deal, a forgotten pot)
    draws from ``rng``."""
    player = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    if action == SANS_ACTION:
        pass_on(s, pr, player)
    else:
        play(s, pr, player, action - PLAY_ACTION, rng)


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: his hand, every played card, chips, pots
    and hand sizes.  The other hands and the écart are emptied and the cards he cannot see
    listed, sorted, in ``pool`` (``unseen`` of them).  "sans" announcements are not used to
    narrow the other hands (a coarser observation than a player's memory)."""
    copy_into(out, s)
    counts = stack_room(CARDS)
    copy_into(counts, s[ECART:ECART + CARDS])
    out[ECART:ECART + CARDS] = 0
    for p in range(pr[P_PLAYERS]):
        if p != player:
            h = shedding.hand_at(HAND, CARDS, p)
            for card in range(CARDS):
                counts[card] += s[h + card]
            out[h:h + CARDS] = 0
    out[UNSEEN] = shedding.list_unseen(out, counts, POOL, CARDS)


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """A full state consistent with ``player``'s observation: the unseen cards shuffled
    into the other hands (sizes kept) and the écart."""
    observe(s, pr, player, out)
    left = shedding.redeal_unseen(out, pr[P_PLAYERS], player, HAND, CARDS, HAND_SIZE, POOL,
                                  UNSEEN, rng)
    for i in range(left):
        out[ECART + out[POOL + i]] = 1
    out[POOL:POOL + CARDS] = 0
