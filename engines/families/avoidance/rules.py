"""Point-avoidance trick games (the Hearts family: chasse-coeur, pétasse): the rules, once,
as compiled functions over a flat state array.

A game of this family is data: which cards are in play, their strength and their points,
how the first trick is led and restricted, how a "sweep" (la générale, tous les plis) is
scored, and when the game ends.  :mod:`engines.games.chasse_coeur` and
:mod:`engines.games.petasse` fill
in that data from their parameters (``encode``); the rules below read it and never name a
game.  Seats, the deal, legal cards and the winner of a trick come from the shared trick
core :mod:`engines.families.tricks.rules` (no trumps: the highest card of the led suit wins).

A hand: the deal (every card in play, one at a time from the dealer's left; cards that do
not divide evenly form a face-down kitty when the game keeps one), an optional passing of
cards to the left, the tricks, the score.  Hands follow one another, the deal passing left,
until a total reaches the end threshold (or a fixed number of hands is played); the lowest
total wins, equal totals share.

Mechanics: the state is one flat int32 array (``STATE`` names its fields); a game advances by
decisions (``legal_actions`` / ``apply_action``) and one chance step per hand, the deal,
drawn from the game's chance stream through :mod:`engines.core.chance`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.cards import CLUBS, HEARTS, RANKS_PER_SUIT
from engines.core.chance import shuffle
from engines.core.compiled import rank_and_end
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import Tag
from engines.families.tricks import rules as tricks

DECK_CARDS = 52                      # ids of engines.core.cards; a game may use only some
MAX_PLAYERS = 10
CARD_SUIT = (np.arange(DECK_CARDS) // RANKS_PER_SUIT).astype(np.int64)
IS_HEART = CARD_SUIT == HEARTS                  # for each card, whether it is a heart
TWO_OF_CLUBS = CLUBS * RANKS_PER_SUIT

# --------------------------------------------------------------------------------------
# The game's data, as a flat array (filled by each game's ``encode``)
# --------------------------------------------------------------------------------------
PARAMS = Layout(
    ("players", 1), ("first_dealer", 1),
    ("in_play", DECK_CARDS),         # 1: dealt; 0: out of the game (public)
    ("strength", DECK_CARDS),        # higher wins within the led suit
    ("points", DECK_CARDS),          # the card's points when taken
    ("point_card", DECK_CARDS),      # 1: counts for the sweep "all the points"
    ("kitty", 1),                    # cards left over after an even deal form a kitty
    ("first_lead", 1), ("first_trick", 1), ("hearts_broken", 1), ("pass_cards", 1),
    ("sweep", 1), ("sweep_value", 1), ("end_threshold", 1), ("num_hands", 1),
)
(P_PLAYERS, P_FIRST_DEALER, P_IN_PLAY, P_STRENGTH, P_POINTS, P_POINT_CARD, P_KITTY, P_FIRST_LEAD,
 P_FIRST_TRICK, P_HEARTS_BROKEN, P_PASS_CARDS, P_SWEEP, P_SWEEP_VALUE, P_END_THRESHOLD,
 P_NUM_HANDS) = PARAMS.offsets()

RANDOM_DEALER = -1
# first_lead: who leads the first trick of a hand
LEAD_LEFT_OF_DEALER, LEAD_LOWEST_CLUB, LEAD_TWO_OF_CLUBS = 0, 1, 2
# first_trick: what "no points in the first trick" means
FIRST_TRICK_FREE, FIRST_TRICK_NO_POINT_CARDS, FIRST_TRICK_POINTS_VOID = 0, 1, 2
# sweep: what a player must take to turn the points round
SWEEP_ALL_POINT_CARDS, SWEEP_ALL_TRICKS = 0, 1

# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("hand", 1), ("first_dealer", 1), ("dealer", 1), ("cards", 1),
    ("current", 1), ("first_leader", 1), ("trick", 1), ("played", 1), ("passes_made", 1),
    ("decisions", 1), ("hands_played", 1), ("hearts_played", 1), ("sweeper", 1),
    ("location", DECK_CARDS),           # where each card is (LOC_* below)
    ("passed_by", DECK_CARDS),          # seat that passed the card this hand (-1: none)
    ("hand_size", MAX_PLAYERS),
    ("tricks", MAX_PLAYERS),            # tricks won this hand
    ("taken", MAX_PLAYERS),             # points taken in tricks this hand
    ("point_cards", MAX_PLAYERS),       # point cards taken this hand
    ("points", MAX_PLAYERS),            # the hand's score (after a sweep)
    ("score", MAX_PLAYERS),             # running total
    *tricks.trick_table(MAX_PLAYERS),
    # figures for results
    ("player_decisions", MAX_PLAYERS), ("sweeps", MAX_PLAYERS), ("clean_hands", MAX_PLAYERS),
    ("tricks_total", MAX_PLAYERS), ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
(PHASE, HAND, FIRST_DEALER, DEALER, CARDS, CURRENT, FIRST_LEADER, TRICK, PLAYED, PASSES_MADE,
 DECISIONS, HANDS_PLAYED, HEARTS_PLAYED, SWEEPER, LOCATION, PASSED_BY, HAND_SIZE, TRICKS, TAKEN,
 POINT_CARDS, POINTS, SCORE, TRICK_SEAT, TRICK_CARD, TRICK_SUIT, TRICK_STRENGTH, TRICK_WINNER,
 PLAYER_DECISIONS, SWEEPS, CLEAN_HANDS, TRICKS_TOTAL, RANK) = STATE.offsets()
TRICK_FIELDS = tricks.trick_fields(STATE)
ROUND = HAND                         # the names engines.families.tricks.game reads
ROUNDS_PLAYED = HANDS_PLAYED
RULES = Tag(__name__)                # the trick family's steps, specialised for this one
FAMILY = tricks                       # legal_actions and apply_action: the family's, for this one

# phases
DEAL, PASSING, PLAYING, OVER = 0, 1, 2, 3


@njit(cache=True)
def chance_pending(s):
    """Whether a deal is due (the game's only chance step)."""
    return s[PHASE] == DEAL


# card locations
LOC_OUT = 0                          # not in this game (public)
LOC_KITTY = LOC_OUT + 1              # the face-down kitty, until the first trick is won
LOC_HAND = LOC_KITTY + 1             # + player
LOC_TRICK = LOC_HAND + MAX_PLAYERS   # in the trick in progress
LOC_WON = LOC_TRICK + 1              # + player: in that player's tricks (public)
LOC_UNKNOWN = LOC_WON + MAX_PLAYERS  # only in observations: hidden from the observer

# actions: play a card, pass a card
PLAY = 0                             # + card id
PASS = PLAY + DECK_CARDS             # + card id
N_ACTIONS = PASS + DECK_CARDS
# apply_action(s, pr, action) draws nothing: the chance that follows a decision waits
# for advance (see engines.core.streams)
APPLY_DRAWS = False
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


# --------------------------------------------------------------------------------------
# Setup and the deal
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """A game before its first deal: every total 0, the first step is DEAL."""
    tricks.new_game(RULES, s, pr)
    s[SWEEPER] = -1
    for card in range(DECK_CARDS):
        s[PASSED_BY + card] = -1


@njit(cache=True)
def holder(s, card):
    """The seat holding ``card`` (-1: nobody)."""
    location = s[LOCATION + card]
    if LOC_HAND <= location < LOC_TRICK:
        return location - LOC_HAND
    return -1


@njit(cache=True)
def first_leader(s, pr):
    """Who leads the first trick: left of the dealer, or the holder of the lowest club in
    play (of the 2♣ under ``LEAD_TWO_OF_CLUBS``)."""
    if pr[P_FIRST_LEAD] == LEAD_LEFT_OF_DEALER:
        return tricks.next_seat(s[DEALER], pr[P_PLAYERS])
    for card in range(CLUBS * RANKS_PER_SUIT, (CLUBS + 1) * RANKS_PER_SUIT):
        if holder(s, card) >= 0:
            return holder(s, card)
    return tricks.next_seat(s[DEALER], pr[P_PLAYERS])


@njit(cache=True)
def deal(s, pr, rng):
    """Shuffle the cards in play and deal them one at a time from the dealer's left, as
    many to each player; the rest (with a kitty) stay face down.  The first dealer is drawn
    at random unless set; the deal passes left."""
    players = pr[P_PLAYERS]
    dealer = tricks.round_dealer(RULES, s, pr, rng)
    deck = stack_room(DECK_CARDS)
    n = 0
    for card in range(DECK_CARDS):
        s[PASSED_BY + card] = -1
        if pr[P_IN_PLAY + card]:
            deck[n] = card
            n += 1
    shuffle(rng, deck[:n])
    for p in range(MAX_PLAYERS):
        s[TAKEN + p] = 0
        s[POINT_CARDS + p] = 0
    tricks.deal_round(RULES, s, pr, deck[:n], n // players, LOC_KITTY)
    s[PASSES_MADE] = 0
    s[HEARTS_PLAYED] = 0
    s[SWEEPER] = -1
    if pr[P_PASS_CARDS] > 0:
        s[PHASE] = PASSING
        s[CURRENT] = tricks.next_seat(dealer, players)
    else:
        start_play(s, pr)


@njit(cache=True)
def advance(s, pr, rng):
    """Deal until a decision is due or the game is over."""
    tricks.deal_until_decision(RULES, s, pr, rng)


@njit(cache=True)
def start_play(s, pr):
    s[FIRST_LEADER] = first_leader(s, pr)
    s[CURRENT] = s[FIRST_LEADER]
    s[PHASE] = PLAYING


# --------------------------------------------------------------------------------------
# Passing (variant): each player, from the dealer's left, picks cards for the left
# neighbour; they change hands once everybody has picked
# --------------------------------------------------------------------------------------
@njit(cache=True)
def pass_actions(s, pr, out):
    """``pass`` each card of the current player's hand not already picked, in card id
    order."""
    player = s[CURRENT]
    n = 0
    for card in range(DECK_CARDS):
        if s[LOCATION + card] == LOC_HAND + player and s[PASSED_BY + card] < 0:
            out[n] = PASS + card
            n += 1
    return n


@njit(cache=True)
def pass_card(s, pr, player, card):
    players = pr[P_PLAYERS]
    s[PASSED_BY + card] = player
    s[PASSES_MADE] += 1
    if s[PASSES_MADE] % pr[P_PASS_CARDS] == 0:
        s[CURRENT] = tricks.next_seat(player, players)
    if s[PASSES_MADE] == pr[P_PASS_CARDS] * players:
        for c in range(DECK_CARDS):
            if s[PASSED_BY + c] >= 0:
                s[LOCATION + c] = LOC_HAND + tricks.next_seat(s[PASSED_BY + c], players)
        start_play(s, pr)


# --------------------------------------------------------------------------------------
# Tricks: follow suit if able; the highest card of the led suit wins
# --------------------------------------------------------------------------------------
@njit(cache=True)
def keep_unless_only(out, k, drop):
    """Drop from ``out[:k]`` the cards flagged in ``drop`` unless that would leave none;
    return the new count."""
    kept = 0
    for i in range(k):
        if not drop[out[i]]:
            out[kept] = out[i]
            kept += 1
    return kept if kept > 0 else k


@njit(cache=True)
def play_actions(s, pr, player, out):
    """``play`` each legal card of the hand in card id order: follow the led suit if able;
    the first lead is the 2♣ under ``LEAD_TWO_OF_CLUBS``; no point card in the first trick
    unless only point cards are legal (``FIRST_TRICK_NO_POINT_CARDS``); no heart lead before
    a heart is played unless only hearts are left (``hearts_broken``).

    ``out`` (N_ACTIONS long) doubles as scratch: the hand in ``out[:n]``, its legal cards in
    ``out[DECK_CARDS:]``, then the actions in ``out[:k]``."""
    n = 0
    for card in range(DECK_CARDS):
        if s[LOCATION + card] == LOC_HAND + player:
            out[n] = card
            n += 1
    cards = out[DECK_CARDS:]
    led = tricks.led_suit(s[TRICK_SUIT:TRICK_SUIT + MAX_PLAYERS], s[PLAYED])
    k = tricks.legal_cards(out[:n], n, CARD_SUIT, led, tricks.NO_SUIT, False, cards)
    first = s[TRICK] == 0
    if first and s[PLAYED] == 0 and pr[P_FIRST_LEAD] == LEAD_TWO_OF_CLUBS and \
            s[LOCATION + TWO_OF_CLUBS] == LOC_HAND + player:
        out[0] = PLAY + TWO_OF_CLUBS
        return 1
    if first and pr[P_FIRST_TRICK] == FIRST_TRICK_NO_POINT_CARDS:
        k = keep_unless_only(cards, k, pr[P_POINT_CARD:P_POINT_CARD + DECK_CARDS])
    if s[PLAYED] == 0 and pr[P_HEARTS_BROKEN] and s[HEARTS_PLAYED] == 0:
        k = keep_unless_only(cards, k, IS_HEART)
    for i in range(k):
        out[i] = PLAY + cards[i]
    return k


@njit(cache=True)
def play(s, pr, player, card):
    """Put ``card`` in the trick; the player to the left follows, or the trick is
    complete."""
    played = tricks.lay_card(s, TRICK_FIELDS, player, card, CARD_SUIT[card],
                             pr[P_STRENGTH + card], LOC_TRICK)
    if CARD_SUIT[card] == HEARTS:
        s[HEARTS_PLAYED] = 1
    if played == pr[P_PLAYERS]:
        end_of_trick(s, pr)
    else:
        s[CURRENT] = tricks.next_seat(player, pr[P_PLAYERS])


@njit(cache=True)
def take(s, pr, winner, card, counts):
    """``winner`` takes ``card`` into their tricks (its points only if ``counts``)."""
    s[LOCATION + card] = LOC_WON + winner
    if counts:
        s[TAKEN + winner] += pr[P_POINTS + card]
    s[POINT_CARDS + winner] += pr[P_POINT_CARD + card]


@njit(cache=True)
def end_of_trick(s, pr):
    """The highest card of the led suit wins the trick and its points (the first trick
    scores nothing under ``FIRST_TRICK_POINTS_VOID``; its winner also takes the kitty);
    the winner leads next.  After the last trick the hand is scored."""
    players = pr[P_PLAYERS]
    position = tricks.trick_winner(s[TRICK_SUIT:TRICK_SUIT + MAX_PLAYERS],
                                   s[TRICK_STRENGTH:TRICK_STRENGTH + MAX_PLAYERS], players,
                                   tricks.NO_SUIT)
    winner = s[TRICK_SEAT + position]
    counts = not (s[TRICK] == 0 and pr[P_FIRST_TRICK] == FIRST_TRICK_POINTS_VOID)
    for i in range(players):
        take(s, pr, winner, s[TRICK_CARD + i], counts)
    if s[TRICK] == 0:
        for card in range(DECK_CARDS):
            if s[LOCATION + card] == LOC_KITTY:
                take(s, pr, winner, card, counts)
    s[TRICKS + winner] += 1
    s[TRICK_WINNER] = winner
    s[TRICK] += 1
    s[PLAYED] = 0
    if s[TRICK] == s[CARDS]:
        end_of_hand(s, pr)
    else:
        s[CURRENT] = winner


# --------------------------------------------------------------------------------------
# The score of a hand, the next hand, the end of the game
# --------------------------------------------------------------------------------------
@njit(cache=True)
def sweeper(s, pr):
    """The player who took every point card in the game (or every trick, under
    ``SWEEP_ALL_TRICKS``), or -1."""
    players = pr[P_PLAYERS]
    total_point_cards = 0
    for card in range(DECK_CARDS):
        if s[LOCATION + card] != LOC_OUT:
            total_point_cards += pr[P_POINT_CARD + card]
    for p in range(players):
        if pr[P_SWEEP] == SWEEP_ALL_TRICKS:
            if s[TRICKS + p] == s[CARDS]:
                return p
        elif total_point_cards > 0 and s[POINT_CARDS + p] == total_point_cards:
            return p
    return -1


@njit(cache=True)
def end_of_hand(s, pr):
    """Everyone scores the points they took, except after a sweep: the sweeper scores 0 and
    every other player ``sweep_value``.  The game ends when a total reaches the threshold
    (or after ``num_hands`` hands); otherwise the next hand is dealt."""
    players = pr[P_PLAYERS]
    swept = sweeper(s, pr)
    s[SWEEPER] = swept
    finished = False
    for p in range(players):
        if swept < 0:
            points = s[TAKEN + p]
        else:
            points = 0 if p == swept else pr[P_SWEEP_VALUE]
        s[POINTS + p] = points
        s[SCORE + p] += points
        s[TRICKS_TOTAL + p] += s[TRICKS + p]
        if p == swept:
            s[SWEEPS + p] += 1
        if s[POINT_CARDS + p] == 0:
            s[CLEAN_HANDS + p] += 1
        if pr[P_NUM_HANDS] == 0 and s[SCORE + p] >= pr[P_END_THRESHOLD]:
            finished = True
    if pr[P_NUM_HANDS] > 0 and s[HAND] == pr[P_NUM_HANDS] - 1:
        finished = True
    tricks.next_deal(RULES, s, pr, finished)


@njit(cache=True)
def final_ranking(s, pr):
    """The lowest total wins; equal totals share a rank."""
    rank_and_end(RULES, s, s[SCORE:SCORE + MAX_PLAYERS], pr[P_PLAYERS], True)


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hidden_from(s, player, card):
    """Whether ``player`` cannot see where ``card`` is: in the kitty, or in another hand
    (unless ``player`` passed it there, or picked it to pass)."""
    location = s[LOCATION + card]
    if location == LOC_KITTY:
        return True
    if LOC_HAND <= location < LOC_TRICK and location != LOC_HAND + player:
        return s[PASSED_BY + card] != player
    return False


@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: hidden cards' locations (and who picked
    them for passing) are unknown."""
    copy_into(out, s)
    for card in range(DECK_CARDS):
        if hidden_from(s, player, card):
            out[LOCATION + card] = LOC_UNKNOWN
            out[PASSED_BY + card] = -1


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the cards
    hidden from them re-dealt at random among the hands they cannot see (same sizes) and the
    kitty, and the other players' picks for passing (made but unseen) chosen afresh: a
    seat's first new cards are its picks."""
    observe(s, pr, player, out)
    hidden, held = stack_room(DECK_CARDS), stack_room(MAX_PLAYERS)
    n = tricks.redeal_unseen(s, out, LOCATION, DECK_CARDS, LOC_UNKNOWN, LOC_HAND, LOC_KITTY, rng,
                             hidden, held)
    if s[PHASE] != PASSING:
        return
    picks = stack_room(MAX_PLAYERS)
    picks[:] = 0
    for i in range(n):
        if s[PASSED_BY + hidden[i]] >= 0:
            picks[s[PASSED_BY + hidden[i]]] += 1
    i = 0
    for p in range(MAX_PLAYERS):
        for j in range(held[p]):
            if j < picks[p]:
                out[PASSED_BY + hidden[i]] = p
            i += 1
