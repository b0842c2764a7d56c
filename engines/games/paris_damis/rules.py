"""Paris d'amis: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/paris-damis.md`` and the French source text.  The
sections below follow the rulebook: components, setup, a round (``place``, ``bet``), the end
of a round (columns, bets, ``discard``, recycle, new cards, ``hand_change``, next round), and
the end of the game.  The Python API (:mod:`engines.games.paris_damis.game`) and the batch kernel
(:mod:`sim.kernels.paris_damis`) both call these functions; no rule exists anywhere else.

Mechanics: the state is one flat int32 array (``STATE`` names its fields); a game advances by
decisions (``legal_actions`` / ``apply_action``) and chance steps (``resolve_chance``: the setup
shuffle, the recycle, a hand exchange), which draw from the game's chance stream through
:mod:`engines.core.chance`.  Hands are kept twice, as card locations and as bit masks, and every
move of a card goes through :func:`move`, which keeps the two in step.  The handlers of each
decision (``place``, ``bet``, ``discard``, ``hand_change``) and the listings of a turn's and a
discard's actions are compiled into ``apply_action`` and ``legal_actions`` (numba's
``inline="always"``): a call passing the state and parameter arrays, seven words each, cost
about a tenth of a random game.

Readings of the text that the spec leaves implicit (each documented where it is coded):

* Treasures are public.  The source keeps won cards "face cachée", but every player saw them
  when they were won, so a player with a good memory knows them (the spec's reading).
* Discards are private: the text never shows them, so others only learn how many.
* Sequential decisions for choices the table makes at once: discards and hand changes are
  taken in turn order from the next round's starter, one card per decision; nobody sees
  another's discards, so the order reveals nothing.
* A player with no card to discard, or with an empty hand at the hand change, has no
  decision to make and is skipped.
* New cards are always dealt one at a time, round-robin from the next round's starter, to
  players still owed cards: with a full deck this is the ordinary deal, with a short deck it
  is the spec's shortage rule.
* ``column_tie = nobody`` leaves the points card unclaimed, exactly like an empty column, so
  ``empty_column`` (A3) decides what happens to it.
* A joker is placeable in any column under both joker rules (A7).  With ``tiebreak``, when
  several tied players hold a tiebreak joker in the column, the ``column_tie`` rule decides
  among them.
* Under ``column_tie = last-placed`` (A4) the tied player whose latest card in the column was
  placed last wins (the one who equalised).
* The hand change (A6) takes place before the points cards of the next round are turned face
  up, as the source orders it ("On retourne ensuite la première carte points").
* With ``rounds`` above 8 a points pile can run out; its column then has nothing to win.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.cards import FIRST_JOKER, RANKS_PER_SUIT, lowest_member
from engines.core.chance import shuffle
from engines.core.compiled import count_decision, end_game, new_state, two_actions
from engines.core.layout import Layout, copy_into, sort_field, stack_room
from engines.core.specialise import Tag
from engines.games.paris_damis.params import MAX_JOKERS, MAX_PLAYERS, ParisDamisParams

# --------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------
SUITS = 4                       # piles and columns, in the order ♥ ♦ ♠ ♣
COLUMNS = SUITS
PLAY_CARDS = FIRST_JOKER + MAX_JOKERS   # play-card ids: 0..51 standard, 52.. jokers
POINTS_RANKS = 8                # points cards per suit: 7 8 9 10 J Q K A
FIRST_POINTS_RANK = 7
POINTS_CARD_IDS = 52            # points cards use the standard ids (a 32-card subset)

# Hands are also kept as bit masks, 31 cards to a word (the sign bit of the state's int32
# stays clear), so listing a hand costs its size, not the deck's.
HAND_WORDS = 2
WORD_BITS = 31
# A set of cards as one int64, bit ``card`` for each card (see hand_cards): each suit's cards.
SUIT_CARDS = np.array([((1 << RANKS_PER_SUIT) - 1) << (suit * RANKS_PER_SUIT)
                       for suit in range(SUITS)], dtype=np.int64)
STANDARD_CARD_SET = (1 << FIRST_JOKER) - 1     # the 52 standard cards (no joker)

# Per-card lookup tables (cheaper than dividing on every turn): suit (4 for jokers), rank,
# and where the card sits in a hand mask.
CARD_SUIT = np.arange(PLAY_CARDS, dtype=np.int64) // RANKS_PER_SUIT
CARD_RANK = np.arange(PLAY_CARDS, dtype=np.int64) % RANKS_PER_SUIT + 2
CARD_WORD = np.arange(PLAY_CARDS, dtype=np.int64) // WORD_BITS
CARD_BIT = np.left_shift(1, np.arange(PLAY_CARDS, dtype=np.int64) % WORD_BITS)

# The trump moves one pile to the right each round: ♥, ♦, ♠, ♣, ♥, ...
FIRST_TRUMP = 0

# Column value of a play card by rank (index = rank): 2..10 face value, J/Q/K 11, A 12.
COLUMN_VALUE = np.array([0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11, 12], dtype=np.int32)
# Points value of a points card by rank: 7..10 = 1, J/Q/K = 2, A = 3 (13 per suit).
POINTS_VALUE = np.array([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3], dtype=np.int32)
POINTS_PER_SUIT = int(POINTS_VALUE.sum())  # 13

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see ParisDamisParams for their meaning)
# --------------------------------------------------------------------------------------
PARAMS = Layout(
    ("players", 1), ("rounds", 1), ("initial_hand", 1), ("markers", 1),
    ("reward", 4), ("reward_by", 1), ("wrong_bet_cards", 1), ("max_bet", 1),
    ("empty_column", 1), ("column_tie", 1), ("discard", 1), ("mulligan", 1),
    ("mulligan_penalty", 1), ("jokers", 1), ("joker_rule", 1), ("joker_value", 1),
    ("first_player", 1), ("scoring", 1),
)
(P_PLAYERS, P_ROUNDS, P_INITIAL_HAND, P_MARKERS, P_REWARD, P_REWARD_BY, P_WRONG_BET_CARDS,
 P_MAX_BET, P_EMPTY_COLUMN, P_COLUMN_TIE, P_DISCARD, P_MULLIGAN, P_MULLIGAN_PENALTY, P_JOKERS,
 P_JOKER_RULE, P_JOKER_VALUE, P_FIRST_PLAYER, P_SCORING) = PARAMS.offsets()

REWARD_FLAT, REWARD_BY_VALUE, REWARD_BY_ORDER = 0, 1, 2
EMPTY_STAYS, EMPTY_DISCARD = 0, 1
TIE_FIRST_PLACED, TIE_LAST_PLACED, TIE_NOBODY = 0, 1, 2
DISCARD_HALF_DOWN, DISCARD_HALF_UP, DISCARD_NONE, DISCARD_ALL = 0, 1, 2, 3
JOKER_WILD, JOKER_TIEBREAK = 0, 1
SCORING_LOWEST_SUIT, SCORING_TOTAL = 0, 1

_CODES = {
    "empty_column": {"stays": EMPTY_STAYS, "discard": EMPTY_DISCARD},
    "column_tie": {"first-placed": TIE_FIRST_PLACED, "last-placed": TIE_LAST_PLACED,
                   "nobody": TIE_NOBODY},
    "discard": {"half-down": DISCARD_HALF_DOWN, "half-up": DISCARD_HALF_UP,
                "none": DISCARD_NONE, "all": DISCARD_ALL},
    "joker_rule": {"wild": JOKER_WILD, "tiebreak": JOKER_TIEBREAK},
    "scoring": {"lowest-suit": SCORING_LOWEST_SUIT, "total": SCORING_TOTAL},
}


def encode_params(params: ParisDamisParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    table = params.correct_bet_cards
    if len(table) == 1:
        reward_by = REWARD_FLAT
    else:
        reward_by = REWARD_BY_VALUE if params.correct_bet_by == "value" else REWARD_BY_ORDER
    codes = {key: codes[getattr(params, key)] for key, codes in _CODES.items()}
    return PARAMS.encode(players=params.players, rounds=params.rounds,
                         initial_hand=params.initial_hand, markers=params.markers,
                         reward=table if len(table) == 4 else table * 4, reward_by=reward_by,
                         wrong_bet_cards=params.wrong_bet_cards,
                         max_bet=params.players if params.bet_options == "players" else 4,
                         mulligan=params.mulligan, mulligan_penalty=params.mulligan_penalty,
                         jokers=params.jokers, joker_value=params.joker_value,
                         first_player=params.first_player, **codes)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("round", 1), ("trump", 1), ("starter", 1), ("current", 1),
    ("bets_placed", 1), ("last_bettor", 1), ("placements", 1), ("deck_size", 1),
    ("decisions", 1), ("hand_change_turn", 1),
    ("location", PLAY_CARDS),           # where each play card is (LOC_* below)
    ("hand_mask", MAX_PLAYERS * HAND_WORDS),  # each hand as bits, kept in step by move()
    ("deck", PLAY_CARDS),               # draw pile, top = deck[deck_size - 1]
    ("hand_size", MAX_PLAYERS), ("markers_used", MAX_PLAYERS),
    ("bet", MAX_PLAYERS),               # 0 = not yet bet this round, else k
    ("bet_order", MAX_PLAYERS),         # 1 for the first bettor of the round, ...
    ("owed", MAX_PLAYERS),              # new cards owed after this round's bets
    ("to_discard", MAX_PLAYERS), ("discarded", MAX_PLAYERS),
    # columns, indexed player * COLUMNS + column
    ("column_total", MAX_PLAYERS * COLUMNS),
    ("column_first", MAX_PLAYERS * COLUMNS),   # placement index of the first card, -1 none
    ("column_last", MAX_PLAYERS * COLUMNS),    # placement index of the latest card
    ("column_jokers", MAX_PLAYERS * COLUMNS),  # tiebreak jokers held there
    # this round's placements in order
    ("placement_card", PLAY_CARDS), ("placement_player", PLAY_CARDS),
    ("placement_column", PLAY_CARDS),
    # points piles: pile[suit * 8 + i], the face-up card at pile_top[suit] (8 = exhausted)
    ("pile", SUITS * POINTS_RANKS), ("pile_top", SUITS),
    ("points_owner", POINTS_CARD_IDS),  # OWNER_* or the seat that won it
    # the last settled round
    ("column_winner", COLUMNS), ("round_k", 1), ("bet_correct", MAX_PLAYERS),
    ("rounds_settled", 1),
    ("hand_start", MAX_PLAYERS),        # hand size when the current round began
    ("exchanged", MAX_PLAYERS),         # 1 if the player exchanged before the current round
    ("cards_short", MAX_PLAYERS),       # new cards owed before the current round that the
                                        # deck could not give (the shortage rule)
    # figures for results
    ("player_decisions", MAX_PLAYERS), ("cards_placed", MAX_PLAYERS),
    ("correct_bets", MAX_PLAYERS), ("exchanges", MAX_PLAYERS),
    ("suit_score", MAX_PLAYERS * SUITS),  # points won per suit (player * SUITS + suit), kept
                                          # up to date as points cards are won: public
    ("rank", MAX_PLAYERS), ("final_tiebreak", 1),
)
STATE_SIZE = STATE.size
(PHASE, ROUND, TRUMP, STARTER, CURRENT, BETS_PLACED, LAST_BETTOR, PLACEMENTS, DECK_SIZE, DECISIONS,
 HAND_CHANGE_TURN, LOCATION, HAND_MASK, DECK, HAND_SIZE, MARKERS_USED, BET, BET_ORDER, OWED,
 TO_DISCARD, DISCARDED, COLUMN_TOTAL, COLUMN_FIRST, COLUMN_LAST, COLUMN_JOKERS, PLACEMENT_CARD,
 PLACEMENT_PLAYER, PLACEMENT_COLUMN, PILE, PILE_TOP, POINTS_OWNER, COLUMN_WINNER, ROUND_K,
 BET_CORRECT, ROUNDS_SETTLED, HAND_START, EXCHANGED, CARDS_SHORT, PLAYER_DECISIONS, CARDS_PLACED,
 CORRECT_BETS, EXCHANGES, SUIT_SCORE, RANK, FINAL_TIEBREAK) = STATE.offsets()
ROUNDS_PLAYED = ROUNDS_SETTLED          # rounds counted as the core counts them
RULES = Tag(__name__)                   # the core's steps, specialised for this game

# Phases.  SETUP, RECYCLE and EXCHANGE are chance steps (resolve_chance); the others wait
# for the current player's decision, except OVER.
SETUP, TURN, DISCARD, RECYCLE, HAND_CHANGE, EXCHANGE, OVER = 0, 1, 2, 3, 4, 5, 6

# Play-card locations.
LOC_OUT = -1                             # a joker the parameters leave out of the deck
LOC_DECK = 0
LOC_HAND = LOC_DECK + 1                  # + player
LOC_COLUMN = LOC_HAND + MAX_PLAYERS      # + column
LOC_DISCARD = LOC_COLUMN + COLUMNS       # + player: this round's discards, awaiting the recycle
LOC_UNKNOWN = LOC_DISCARD + MAX_PLAYERS  # only in observations: hidden from the observer

# Points-card owners.
OWNER_NONE = -1       # still in its pile (face down or face up)
OWNER_DISCARDED = -2  # removed from the game (A3 empty_column=discard)

# Final tie-break outcome.
FINAL_CLEAR, FINAL_BY_BET, FINAL_SHARED = 0, 1, 2

# Actions: place(card, column), bet(k), discard(card), keep, exchange.
PLACE = 0                                   # + card * COLUMNS + column
BET_ACTION = PLACE + PLAY_CARDS * COLUMNS   # + k - 1
DISCARD_ACTION = BET_ACTION + 4             # + card
KEEP = DISCARD_ACTION + PLAY_CARDS
EXCHANGE_ACTION = KEEP + 1
N_ACTIONS = EXCHANGE_ACTION + 1
APPLY_DRAWS = False     # apply_action(s, pr, action) draws nothing: chance waits for advance
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def is_joker(card):
    return card >= FIRST_JOKER


@njit(cache=True)
def suit_of(card):
    return CARD_SUIT[card]


@njit(cache=True)
def rank_of(card):
    return CARD_RANK[card]


# --- Jokers (A7): a rule is a placement test, a column value and a tie privilege. ---------
# Adding a joker rule means a new JOKER_* code here and in _CODES, and a branch in each of
# these three functions.
@njit(cache=True)
def joker_accepts(pr, column):
    return True


@njit(cache=True)
def joker_column_value(pr):
    if pr[P_JOKER_RULE] == JOKER_WILD:
        return pr[P_JOKER_VALUE]
    return 0


@njit(cache=True)
def joker_wins_ties(pr):
    return pr[P_JOKER_RULE] == JOKER_TIEBREAK


@njit(cache=True)
def column_value(pr, card):
    """Column value of a play card: 2..10 face, J/Q/K 11, A 12; jokers by their rule."""
    if is_joker(card):
        return joker_column_value(pr)
    return COLUMN_VALUE[rank_of(card)]


@njit(cache=True)
def points_value(card):
    """Points value of a points card: 7..10 = 1, J/Q/K = 2, A = 3."""
    return POINTS_VALUE[rank_of(card)]


@njit(cache=True)
def accepting_columns(pr, trump, card):
    """Bit mask of the columns that take a card: its suit's column and, for a card of the
    trump, every column (the trump column takes only trumps); jokers by their rule."""
    if is_joker(card):
        mask = 0
        for column in range(COLUMNS):
            if joker_accepts(pr, column):
                mask |= 1 << column
        return mask
    suit = suit_of(card)
    if suit == trump:
        return (1 << COLUMNS) - 1
    return 1 << suit


@njit(cache=True)
def face_up_card(s, suit):
    """The points card contested in this suit's column, or -1 if the pile is exhausted."""
    top = s[PILE_TOP + suit]
    if top >= POINTS_RANKS:
        return -1
    return s[PILE + suit * POINTS_RANKS + top]


@njit(cache=True)
def next_seat(pr, seat):
    """The seat to the left (no division: this runs on every turn)."""
    seat += 1
    return seat if seat < pr[P_PLAYERS] else 0


@njit(cache=True)
def seat_left(pr, seat, steps):
    """The seat ``steps`` places to the left (``0 <= steps < players``; no division: this
    runs on every hand change)."""
    seat += steps
    return seat if seat < pr[P_PLAYERS] else seat - pr[P_PLAYERS]


@njit(cache=True)
def seats_between(pr, seat, until):
    """How many seats come after ``seat`` and before ``until`` in turn order (no division:
    this runs on every discard)."""
    count = until - seat - 1
    return count if count >= 0 else count + pr[P_PLAYERS]


@njit(cache=True)
def is_hand(location):
    return LOC_HAND <= location < LOC_HAND + MAX_PLAYERS


@njit(cache=True)
def is_discard(location):
    return LOC_DISCARD <= location < LOC_DISCARD + MAX_PLAYERS


@njit(cache=True)
def move(s, card, location):
    """Every change of a play card's location goes through here (it keeps the hand masks
    in step; hand sizes are the callers')."""
    old = s[LOCATION + card]
    bit = CARD_BIT[card]
    if is_hand(old):
        word = HAND_MASK + (old - LOC_HAND) * HAND_WORDS + CARD_WORD[card]
        s[word] = s[word] & ~bit
    if is_hand(location):
        word = HAND_MASK + (location - LOC_HAND) * HAND_WORDS + CARD_WORD[card]
        s[word] = s[word] | bit
    s[LOCATION + card] = location


@njit(cache=True)
def hand_word(s, player, half):
    """Bits of the cards ``WORD_BITS * half + i`` in the player's hand."""
    return int(s[HAND_MASK + player * HAND_WORDS + half])


@njit(cache=True)
def hand_cards(s, player):
    """The player's hand as one set: bit ``card`` for each card held."""
    return hand_word(s, player, 0) | (hand_word(s, player, 1) << WORD_BITS)


@njit(cache=True, inline="always")
def put(out, i, code):
    """``out[i] = code`` for an ``i`` known not to be negative: an unsigned index spares the
    test numba makes for a negative one (on every action a listing writes)."""
    out[np.uint64(i)] = code


@njit(cache=True)
def rebuild_hands(s, pr):
    """Recompute hand masks and sizes from the locations, and the suit scores from the points
    cards' owners (for positions edited by hand)."""
    for i in range(MAX_PLAYERS * HAND_WORDS):
        s[HAND_MASK + i] = 0
    for p in range(MAX_PLAYERS):
        s[HAND_SIZE + p] = 0
    for card in range(PLAY_CARDS):
        location = s[LOCATION + card]
        if is_hand(location):
            s[LOCATION + card] = LOC_DECK
            move(s, card, location)
            s[HAND_SIZE + location - LOC_HAND] += 1
    suit_scores(s, pr)


@njit(cache=True)
def suit_scores(s, pr):
    """Recompute each player's score per suit from their treasure (play keeps them up to date
    as cards are won, see :func:`award_columns`)."""
    for i in range(MAX_PLAYERS * SUITS):
        s[SUIT_SCORE + i] = 0
    for card in range(POINTS_CARD_IDS):
        owner = s[POINTS_OWNER + card]
        if owner >= 0:
            s[SUIT_SCORE + owner * SUITS + suit_of(card)] += points_value(card)


@njit(cache=True)
def draw(s, player):
    """The top card of the play deck goes to the player's hand."""
    size = s[DECK_SIZE] - 1
    card = s[DECK + size]
    s[DECK_SIZE] = size
    move(s, card, LOC_HAND + player)
    s[HAND_SIZE + player] += 1


@njit(cache=True)
def to_deck(s, card):
    s[DECK + s[DECK_SIZE]] = card
    s[DECK_SIZE] += 1
    move(s, card, LOC_DECK)


# --------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """A game before its setup shuffle: everything zero, the first step is SETUP."""
    new_state(RULES, s, SETUP)
    s[LAST_BETTOR] = -1
    for card in range(PLAY_CARDS):
        s[LOCATION + card] = LOC_OUT
    for card in range(POINTS_CARD_IDS):
        s[POINTS_OWNER + card] = OWNER_NONE
    for i in range(MAX_PLAYERS * COLUMNS):
        s[COLUMN_FIRST + i] = -1
        s[COLUMN_LAST + i] = -1
    for c in range(COLUMNS):
        s[COLUMN_WINNER + c] = -1


@njit(cache=True)
def setup(s, pr, rng):
    """Shuffle each points pile (♥ ♦ ♠ ♣) and turn its top card face up; trump ♥; shuffle
    the play deck and deal ``initial_hand`` cards each, one at a time from the first player."""
    for suit in range(SUITS):
        base = PILE + suit * POINTS_RANKS
        for i in range(POINTS_RANKS):
            s[base + i] = suit * RANKS_PER_SUIT + FIRST_POINTS_RANK - 2 + i
        shuffle(rng, s[base:base + POINTS_RANKS])
        s[PILE_TOP + suit] = 0
    s[TRUMP] = FIRST_TRUMP
    s[DECK_SIZE] = 0
    for card in range(FIRST_JOKER + pr[P_JOKERS]):
        to_deck(s, card)
    shuffle(rng, s[DECK:DECK + s[DECK_SIZE]])
    first = pr[P_FIRST_PLAYER]
    for _ in range(pr[P_INITIAL_HAND]):
        seat = first
        for _ in range(pr[P_PLAYERS]):
            draw(s, seat)
            seat = next_seat(pr, seat)
    for p in range(pr[P_PLAYERS]):
        s[HAND_START + p] = s[HAND_SIZE + p]
    s[ROUND] = 0
    s[STARTER] = first
    s[CURRENT] = first
    s[PHASE] = TURN


# --------------------------------------------------------------------------------------
# A round: on a turn, place one card or bet
# --------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def turn_actions(s, pr, player, out):
    """``place(card, column)`` for each card in hand (ascending) and each column accepting
    it, while markers remain; then ``bet(k)`` for k = 1..max bet."""
    n = 0
    if s[MARKERS_USED + player] < pr[P_MARKERS]:
        hand = hand_cards(s, player)
        n = standard_placements(s[TRUMP], hand & STANDARD_CARD_SET, out, n)
        n = joker_placements(pr, s[TRUMP], hand >> FIRST_JOKER, out, n)
    for k in range(1, pr[P_MAX_BET] + 1):
        put(out, n, BET_ACTION + k - 1)
        n += 1
    return n


@njit(cache=True)
def standard_placements(trump, cards, out, n):
    """``place(card, column)`` for each standard card of the set ``cards``, ascending, after
    the ``n`` actions in ``out``: a card of the trump in every column, another in its suit's
    (as :func:`accepting_columns` says); returns the new count."""
    trumps = SUIT_CARDS[trump]
    while cards != 0:
        card = lowest_member(cards)
        cards &= cards - 1
        code = PLACE + card * COLUMNS
        anywhere = (trumps >> card) & 1
        put(out, n, code + suit_of(card) * (1 - anywhere))   # its suit's column, or the first
        for column in range(1, COLUMNS):                     # the others: written always,
            put(out, n + column, code + column)              # kept for a card of the trump
        n += 1 + (COLUMNS - 1) * anywhere
    return n


@njit(cache=True)
def joker_placements(pr, trump, jokers, out, n):
    """``place(joker, column)`` for each joker of the set ``jokers`` (bit i: joker i) and
    each column accepting it, after the ``n`` actions in ``out``; returns the new count."""
    while jokers != 0:
        card = FIRST_JOKER + lowest_member(jokers)
        jokers &= jokers - 1
        mask = accepting_columns(pr, trump, card)
        for column in range(COLUMNS):       # written always, kept if accepted
            out[n] = PLACE + card * COLUMNS + column
            n += (mask >> column) & 1
    return n


@njit(cache=True, inline="always")
def place(s, pr, player, card, column):
    """Put a card from hand in a column, with one of the player's markers."""
    i = s[PLACEMENTS]
    s[PLACEMENT_CARD + i] = card
    s[PLACEMENT_PLAYER + i] = player
    s[PLACEMENT_COLUMN + i] = column
    s[PLACEMENTS] = i + 1
    move(s, card, LOC_COLUMN + column)
    s[HAND_SIZE + player] -= 1
    s[MARKERS_USED + player] += 1
    s[CARDS_PLACED + player] += 1
    cell = player * COLUMNS + column
    s[COLUMN_TOTAL + cell] += column_value(pr, card)
    if s[COLUMN_FIRST + cell] < 0:
        s[COLUMN_FIRST + cell] = i
    s[COLUMN_LAST + cell] = i
    if is_joker(card) and joker_wins_ties(pr):
        s[COLUMN_JOKERS + cell] += 1
    pass_turn(s, pr, player)


@njit(cache=True, inline="always")
def bet(s, pr, player, k):
    """Put the bet token on pile k (♥ = 1 ... ♣ = 4): the player places no more cards."""
    s[BET + player] = k
    s[BETS_PLACED] += 1
    s[BET_ORDER + player] = s[BETS_PLACED]
    s[LAST_BETTOR] = player
    if s[BETS_PLACED] == pr[P_PLAYERS]:
        end_of_round(s, pr)
    else:
        pass_turn(s, pr, player)


@njit(cache=True)
def pass_turn(s, pr, player):
    """The turn goes left to the next player who has not bet; when everyone else has bet,
    the last player keeps it (and may place several cards in a row)."""
    seat = next_seat(pr, player)
    while s[BET + seat] != 0:
        seat = next_seat(pr, seat)
    s[CURRENT] = seat


# --------------------------------------------------------------------------------------
# End of a round
# --------------------------------------------------------------------------------------
@njit(cache=True)
def column_winner(s, pr, column):
    """The highest total wins.  A tie goes to the one tied player holding a tiebreak joker
    there (A7); otherwise (or among several such players) ``column_tie`` decides (A4).
    Returns -1 when nobody wins: an empty column, or a tie under ``nobody``."""
    tied = best_totals(s, pr, column)
    if tied & (tied - 1) == 0:                  # nobody placed there, or one player leads
        return lowest_member(tied) if tied else -1
    holders = 0                                 # tied players holding a tiebreak joker
    for p in range(pr[P_PLAYERS]):
        if tied >> p & 1 and s[COLUMN_JOKERS + p * COLUMNS + column] > 0:
            holders |= 1 << p
    if holders:
        tied = holders
        if tied & (tied - 1) == 0:
            return lowest_member(tied)
    return tie_winner(s, pr, column, tied)


@njit(cache=True)
def best_totals(s, pr, column):
    """The players with the highest total in the column, as bits (bit p: player p)."""
    best = -1
    tied = 0
    for p in range(pr[P_PLAYERS]):
        cell = p * COLUMNS + column
        if s[COLUMN_FIRST + cell] >= 0:
            total = s[COLUMN_TOTAL + cell]
            if total > best:
                best = total
                tied = 0
            if total == best:
                tied |= 1 << p
    return tied


@njit(cache=True)
def tie_winner(s, pr, column, tied):
    """Among several tied players (bits), the one ``column_tie`` names (A4), or -1."""
    rule = pr[P_COLUMN_TIE]
    if rule == TIE_NOBODY:
        return -1
    winner = -1
    for p in range(pr[P_PLAYERS]):
        if not tied & (1 << p):
            continue
        cell = p * COLUMNS + column
        if winner < 0:
            winner = p
        elif rule == TIE_FIRST_PLACED:
            if s[COLUMN_FIRST + cell] < s[COLUMN_FIRST + winner * COLUMNS + column]:
                winner = p
        elif s[COLUMN_LAST + cell] > s[COLUMN_LAST + winner * COLUMNS + column]:
            winner = p
    return winner


@njit(cache=True)
def award_columns(s, pr):
    """Each column's winner takes that suit's face-up points card into their treasure, and
    its points into their score in that suit."""
    for column in range(COLUMNS):
        winner = column_winner(s, pr, column)
        s[COLUMN_WINNER + column] = winner
        card = face_up_card(s, column)
        if card < 0:
            continue
        if winner >= 0:
            s[POINTS_OWNER + card] = winner
            s[SUIT_SCORE + winner * SUITS + column] += points_value(card)
        elif pr[P_EMPTY_COLUMN] == EMPTY_DISCARD:
            s[POINTS_OWNER + card] = OWNER_DISCARDED


@njit(cache=True)
def players_sharing(s, pr):
    """k: the number of distinct players who won at least one points card this round."""
    sharing = 0                                 # bit p: player p won a points card
    for column in range(COLUMNS):
        winner = s[COLUMN_WINNER + column]
        if winner >= 0 and face_up_card(s, column) >= 0:
            sharing |= 1 << winner
    k = 0
    for p in range(pr[P_PLAYERS]):
        k += sharing >> p & 1
    return k


@njit(cache=True)
def reward(s, pr, player, correct_rank):
    """New cards for a correct bet (A1): flat, by bet value, or by correct-betting order."""
    by = pr[P_REWARD_BY]
    if by == REWARD_BY_VALUE:
        return pr[P_REWARD + s[BET + player] - 1]
    if by == REWARD_BY_ORDER:
        return pr[P_REWARD + correct_rank]
    return pr[P_REWARD]


@njit(cache=True)
def settle_bets(s, pr):
    """A bet is correct when it equals k; correct bettors are owed ``correct_bet_cards``,
    the others ``wrong_bet_cards``."""
    k = players_sharing(s, pr)
    s[ROUND_K] = k
    s[ROUNDS_SETTLED] += 1
    players = pr[P_PLAYERS]
    for p in range(players):
        s[BET_CORRECT + p] = 0
        s[OWED + p] = pr[P_WRONG_BET_CARDS]
    bettors = stack_room(MAX_PLAYERS)            # the seats in betting order
    for p in range(players):
        bettors[s[BET_ORDER + p] - 1] = p
    correct_rank = 0
    for order in range(players):
        p = bettors[order]
        if s[BET + p] == k:
            s[BET_CORRECT + p] = 1
            s[CORRECT_BETS + p] += 1
            s[OWED + p] = reward(s, pr, p, correct_rank)
            correct_rank += 1


@njit(cache=True)
def end_of_round(s, pr):
    """Columns, then bets; after the last round the game ends, else the discard starts."""
    award_columns(s, pr)
    settle_bets(s, pr)
    if s[ROUND] + 1 >= pr[P_ROUNDS]:
        final_ranking(s, pr)
        return
    players = pr[P_PLAYERS]
    for p in range(players):
        s[TO_DISCARD + p] = discard_count(pr, s[HAND_SIZE + p])
        s[DISCARDED + p] = 0
    next_discarder(s, pr, s[LAST_BETTOR], players)


@njit(cache=True)
def discard_count(pr, h):
    """Cards to discard from a hand of h (A5): floor(h/2) by default."""
    rule = pr[P_DISCARD]
    if rule == DISCARD_HALF_DOWN:
        return h // 2
    if rule == DISCARD_HALF_UP:
        return (h + 1) // 2
    if rule == DISCARD_ALL:
        return h
    return 0


@njit(cache=True)
def next_discarder(s, pr, seat, remaining):
    """The first player from ``seat`` (in turn order, ``remaining`` seats) still owing a
    discard takes the DISCARD decision; when nobody does, the recycle follows."""
    for _ in range(remaining):
        if s[TO_DISCARD + seat] > 0:
            s[CURRENT] = seat
            s[PHASE] = DISCARD
            return
        seat = next_seat(pr, seat)
    s[CURRENT] = -1
    s[PHASE] = RECYCLE


@njit(cache=True, inline="always")
def discard_actions(s, player, out):
    """``discard(card)`` for each card in hand, ascending."""
    n = 0
    cards = hand_cards(s, player)
    while cards != 0:
        put(out, n, DISCARD_ACTION + lowest_member(cards))
        cards &= cards - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def discard(s, pr, player, card):
    """Discard one card of the player's choice; the player goes on until done."""
    move(s, card, LOC_DISCARD + player)
    s[HAND_SIZE + player] -= 1
    s[TO_DISCARD + player] -= 1
    s[DISCARDED + player] += 1
    if s[TO_DISCARD + player] > 0:
        return
    next_discarder(s, pr, next_seat(pr, player), seats_between(pr, player, s[LAST_BETTOR]))


@njit(cache=True)
def recycle(s, pr, rng):
    """Markers return; placed and discarded cards are shuffled into the play deck; then the
    new cards are dealt."""
    players = pr[P_PLAYERS]
    for p in range(players):
        s[MARKERS_USED + p] = 0
    for i in range(s[PLACEMENTS]):
        to_deck(s, s[PLACEMENT_CARD + i])
    discards = discarded_cards(s, pr)
    while discards != 0:                # ascending
        to_deck(s, lowest_member(discards))
        discards &= discards - 1
    for p in range(players):
        s[DISCARDED + p] = 0
    shuffle(rng, s[DECK:DECK + s[DECK_SIZE]])
    deal_new_cards(s, pr)
    start_hand_change(s, pr)


@njit(cache=True)
def discarded_cards(s, pr):
    """This round's discards as one set, once the placed cards are back in the deck: the
    cards in play that are neither in a hand nor in the deck."""
    cards = (np.int64(1) << (FIRST_JOKER + pr[P_JOKERS])) - 1
    for p in range(pr[P_PLAYERS]):
        cards &= ~hand_cards(s, p)
    for i in range(s[DECK_SIZE]):
        cards &= ~(np.int64(1) << s[DECK + i])
    return cards


@njit(cache=True)
def deal_new_cards(s, pr):
    """One card at a time, round-robin from the next round's starter, to players still owed
    cards, until everyone is served or the deck is empty (losses shared)."""
    players = pr[P_PLAYERS]
    seat = s[LAST_BETTOR]
    owed_total = 0
    for p in range(players):
        owed_total += s[OWED + p]
    while owed_total > 0 and s[DECK_SIZE] > 0:
        if s[OWED + seat] > 0:
            draw(s, seat)
            s[OWED + seat] -= 1
            owed_total -= 1
        seat = next_seat(pr, seat)
    for p in range(players):
        s[CARDS_SHORT + p] = s[OWED + p]
        s[OWED + p] = 0


@njit(cache=True)
def start_hand_change(s, pr):
    """Before the next round (A6), each player in turn from the next starter may keep or
    exchange their hand; without the rule the next round starts at once."""
    for p in range(pr[P_PLAYERS]):
        s[EXCHANGED + p] = 0
    if pr[P_MULLIGAN] == 0:
        start_next_round(s, pr)
        return
    s[HAND_CHANGE_TURN] = 0
    next_hand_changer(s, pr)


@njit(cache=True)
def next_hand_changer(s, pr):
    """Give the decision to the next player (in turn order) holding cards."""
    players = pr[P_PLAYERS]
    while s[HAND_CHANGE_TURN] < players:
        seat = seat_left(pr, s[LAST_BETTOR], s[HAND_CHANGE_TURN])
        if s[HAND_SIZE + seat] > 0:
            s[CURRENT] = seat
            s[PHASE] = HAND_CHANGE
            return
        s[HAND_CHANGE_TURN] += 1
    start_next_round(s, pr)


@njit(cache=True, inline="always")
def hand_change(s, pr, player, exchange):
    """Keep the hand, or exchange it (resolved by the EXCHANGE chance step)."""
    if exchange:
        s[EXCHANGES + player] += 1
        s[EXCHANGED + player] = 1
        s[PHASE] = EXCHANGE
        return
    s[HAND_CHANGE_TURN] += 1
    next_hand_changer(s, pr)


@njit(cache=True)
def exchange_hand(s, pr, rng):
    """Count the hand (h), shuffle it into the play deck, draw h - ``mulligan_penalty``
    (fewer if the deck runs out)."""
    player = s[CURRENT]
    h = s[HAND_SIZE + player]
    cards = hand_cards(s, player)
    while cards != 0:
        to_deck(s, lowest_member(cards))
        cards &= cards - 1
    s[HAND_SIZE + player] = 0
    shuffle(rng, s[DECK:DECK + s[DECK_SIZE]])
    for _ in range(h - pr[P_MULLIGAN_PENALTY]):
        if s[DECK_SIZE] == 0:
            break
        draw(s, player)
    s[HAND_CHANGE_TURN] += 1
    next_hand_changer(s, pr)


@njit(cache=True)
def start_next_round(s, pr):
    """Turn up the next points card of every pile whose card left it; the trump moves one
    pile to the right; the last bettor starts."""
    for suit in range(SUITS):
        card = face_up_card(s, suit)
        if card >= 0 and s[POINTS_OWNER + card] != OWNER_NONE:
            s[PILE_TOP + suit] += 1
    s[TRUMP] = (s[TRUMP] + 1) % SUITS
    s[ROUND] += 1
    s[STARTER] = s[LAST_BETTOR]
    s[CURRENT] = s[LAST_BETTOR]
    s[BETS_PLACED] = 0
    s[PLACEMENTS] = 0
    for p in range(pr[P_PLAYERS]):
        s[BET + p] = 0
        s[BET_ORDER + p] = 0
        s[DISCARDED + p] = 0
        s[HAND_START + p] = s[HAND_SIZE + p]
    for i in range(MAX_PLAYERS * COLUMNS):
        s[COLUMN_TOTAL + i] = 0
        s[COLUMN_FIRST + i] = -1
        s[COLUMN_LAST + i] = -1
        s[COLUMN_JOKERS + i] = 0
    s[PHASE] = TURN


# --------------------------------------------------------------------------------------
# End of the game
# --------------------------------------------------------------------------------------
@njit(cache=True)
def ranking_key(s, pr, player):
    """A number that orders players as the scoring rule does (higher ranks higher).

    ``lowest-suit`` (A9): the four suit scores sorted ascending, read as digits with the
    lowest suit most significant, so comparing keys compares the lowest suits first, then
    the second lowest, ...; ``total``: the plain sum."""
    base = SUIT_SCORE + player * SUITS
    if pr[P_SCORING] == SCORING_TOTAL:
        return s[base] + s[base + 1] + s[base + 2] + s[base + 3]
    a, b, c, d = s[base], s[base + 1], s[base + 2], s[base + 3]
    # sort four values ascending with a fixed network of compare-exchanges
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    digit = POINTS_PER_SUIT + 1                  # above any suit score
    return ((a * digit + b) * digit + c) * digit + d


@njit(cache=True)
def final_ranking(s, pr):
    """Rank by elimination; a strict tie for first goes to the tied player who bet correctly
    earliest in the last round, and if none of them did, they all win (a shared win)."""
    players = pr[P_PLAYERS]
    keys = stack_room(MAX_PLAYERS, np.int64)
    for p in range(players):
        keys[p] = ranking_key(s, pr, p)
    top = 0
    for a in range(players):
        above = 0
        for b in range(players):
            if keys[b] > keys[a]:
                above += 1
        s[RANK + a] = above + 1
        if above == 0:
            top += 1
    s[FINAL_TIEBREAK] = FINAL_CLEAR
    if top > 1:
        winner = -1
        for p in range(players):
            if s[RANK + p] == 1 and s[BET_CORRECT + p] == 1:
                if winner < 0 or s[BET_ORDER + p] < s[BET_ORDER + winner]:
                    winner = p
        if winner >= 0:
            s[FINAL_TIEBREAK] = FINAL_BY_BET
            for p in range(players):
                if s[RANK + p] == 1 and p != winner:
                    s[RANK + p] = 2
        else:
            s[FINAL_TIEBREAK] = FINAL_SHARED
    end_game(RULES, s)


# --------------------------------------------------------------------------------------
# The game loop's entry points: decisions, their effects, chance steps
# --------------------------------------------------------------------------------------
@njit(cache=True)
def legal_actions(s, pr, out):
    """Write the current player's legal action codes into ``out``; return their count."""
    phase = s[PHASE]
    player = s[CURRENT]
    if phase == TURN:
        return turn_actions(s, pr, player, out)
    if phase == DISCARD:
        return discard_actions(s, player, out)
    if phase == HAND_CHANGE:
        return two_actions(out, KEEP, EXCHANGE_ACTION)
    return 0


@njit(cache=True)
def apply_action(s, pr, action):
    """Play a legal action for the current player (legality is the caller's check)."""
    player = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    if action < BET_ACTION:
        code = action - PLACE
        place(s, pr, player, code // COLUMNS, code % COLUMNS)
    elif action < DISCARD_ACTION:
        bet(s, pr, player, action - BET_ACTION + 1)
    elif action < KEEP:
        discard(s, pr, player, action - DISCARD_ACTION)
    else:
        hand_change(s, pr, player, action == EXCHANGE_ACTION)


@njit(cache=True)
def chance_pending(s):
    phase = s[PHASE]
    return phase == SETUP or phase == RECYCLE or phase == EXCHANGE


@njit(cache=True)
def resolve_chance(s, pr, rng):
    """Carry out the pending chance step with the game's chance stream."""
    phase = s[PHASE]
    if phase == SETUP:
        setup(s, pr, rng)
    elif phase == RECYCLE:
        recycle(s, pr, rng)
    elif phase == EXCHANGE:
        exchange_hand(s, pr, rng)


@njit(cache=True)
def advance(s, pr, rng):
    """Resolve chance steps until a decision is due or the game is over."""
    while chance_pending(s):
        resolve_chance(s, pr, rng)


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: other hands, other discards, the deck's
    order and the face-down points cards are hidden."""
    copy_into(out, s)
    own_hand = LOC_HAND + player
    own_discard = LOC_DISCARD + player
    for card in range(PLAY_CARDS):
        location = s[LOCATION + card]
        hidden = (location == LOC_DECK or (is_hand(location) and location != own_hand)
                  or (is_discard(location) and location != own_discard))
        if hidden:
            out[LOCATION + card] = LOC_UNKNOWN
    for p in range(MAX_PLAYERS):
        if p != player:
            for half in range(HAND_WORDS):
                out[HAND_MASK + p * HAND_WORDS + half] = 0
    for i in range(PLAY_CARDS):
        out[DECK + i] = -1
    for suit in range(SUITS):
        for i in range(s[PILE_TOP + suit] + 1, POINTS_RANKS):
            out[PILE + suit * POINTS_RANKS + i] = -1


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the hidden
    play cards re-dealt at random to the other hands, the others' discards and the deck (same
    sizes), and each pile's face-down points cards reshuffled.

    The hidden cards are gathered in a fixed order (by id) before they are shuffled, so for a
    given ``rng`` the result depends only on what ``player`` may know."""
    copy_into(out, s)
    hidden = stack_room(PLAY_CARDS)
    n = 0
    own_hand = LOC_HAND + player
    own_discard = LOC_DISCARD + player
    for card in range(PLAY_CARDS):
        location = s[LOCATION + card]
        if location == LOC_DECK or (location != own_hand and is_hand(location)) or (
                location != own_discard and is_discard(location)):
            hidden[n] = card
            n += 1
    shuffle(rng, hidden[:n])
    i = 0
    for p in range(pr[P_PLAYERS]):
        if p == player:
            continue
        for _ in range(s[HAND_SIZE + p]):
            move(out, hidden[i], LOC_HAND + p)
            i += 1
        for _ in range(s[DISCARDED + p]):
            move(out, hidden[i], LOC_DISCARD + p)
            i += 1
    for d in range(s[DECK_SIZE]):
        out[DECK + d] = hidden[i]
        move(out, hidden[i], LOC_DECK)
        i += 1
    for d in range(s[DECK_SIZE], PLAY_CARDS):
        out[DECK + d] = -1                      # past the top: cards since drawn
    for suit in range(SUITS):
        start = PILE + suit * POINTS_RANKS + s[PILE_TOP + suit] + 1
        end = PILE + (suit + 1) * POINTS_RANKS
        if start < end:
            sort_field(out[start:end])
            shuffle(rng, out[start:end])
