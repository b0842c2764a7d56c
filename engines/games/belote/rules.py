"""Belote: the rules, once, as compiled functions over a flat state array, for the two games
that configure them, ``belote-a-trois`` and ``belote-comptoir``.

Read alongside ``docs/rules/belote-a-trois.md`` (which writes out standard French
belote), ``docs/rules/belote-comptoir.md`` and the French source ("La belote à trois",
"La belote de comptoir").  The sections follow the rulebook: the cards and their values, the
deal, the bidding (on the turned card, or in points), the contract, the tricks, belote-rebelote,
dix de der, the announcements, the score of a deal, the end of the game.  Each game fills the
parameter array (``encode`` in its package); the Python API (:mod:`engines.games.belote.game`) calls
these functions.  Seats, the deal, legal cards, the winner of a trick and the points of a trick
come from the shared trick core :mod:`engines.families.tricks.rules`, fed with belote's data.

Two modes:

* ``MODE_TROIS``: belote classique with a turned card, bidding in two rounds (``take`` the
  turned suit, then ``take ♠`` another suit), the taker completing his hand with the turned
  card + 2 and the others with 3; the taker plays alone against the two others, who are
  partners for the deal; each defender scores the defence's figure.
* ``MODE_COMPTOIR``: 1 to 5 cards each (the rest unused), bids in card points, the highest
  bidder names the contract (a trump suit, sans-atout or tout-atout), leads, and plays alone;
  1 game point to him if made, else 1 to every other player; visibility variants.

Mechanics: one flat int32 state (``STATE``); a game advances by decisions (``legal_actions`` /
``apply_action``) and one chance step per deal, the shuffle (``deal``), drawn from the game's
chance stream through :mod:`engines.core.chance`.  The whole pack is shuffled at that step and kept
in its dealt order (``DECK``), so the later parts of the deal (the completion of the hands
after the bidding, or the k cards the dealer chooses to give) take the next cards without
another chance step.  The first dealer is drawn at random unless set; the deal passes to the
next seat after every deal, redeals included.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.cards import ACE, JACK, KING, QUEEN, RANKS_PER_SUIT, STANDARD_CARDS
from engines.core.chance import shuffle, uniform_index_jit
from engines.core.compiled import rank_and_end
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import Tag
from engines.families.tricks import rules as tricks

# --------------------------------------------------------------------------------------
# Components: card ids of engines.core.cards (suit * 13 + rank - 2); the pack is the 32 cards
# 7..A (24 without the 7s and 8s), the cards out of play are marked in the parameters
# --------------------------------------------------------------------------------------
DECK_CARDS = STANDARD_CARDS
PACK_CARDS = 32
SUITS = 4
CARD_SUIT = (np.arange(DECK_CARDS) // RANKS_PER_SUIT).astype(np.int64)
CARD_RANK = (np.arange(DECK_CARDS) % RANKS_PER_SUIT + 2).astype(np.int64)
MAX_PLAYERS = PACK_CARDS            # la belote de comptoir: n * k <= 32
NO_CARD = -1
NO_SEAT = -1

# Order and points of each rank (7 .. A), by rank: index rank - 2
TRUMP_ORDER = {JACK: 7, 9: 6, ACE: 5, 10: 4, KING: 3, QUEEN: 2, 8: 1, 7: 0}
PLAIN_ORDER = {ACE: 7, 10: 6, KING: 5, QUEEN: 4, JACK: 3, 9: 2, 8: 1, 7: 0}
TRUMP_POINTS = {JACK: 20, 9: 14, ACE: 11, 10: 10, KING: 4, QUEEN: 3}
PLAIN_POINTS = {ACE: 11, 10: 10, KING: 4, QUEEN: 3, JACK: 2}
SA_POINTS = {ACE: 19, 10: 10, KING: 4, QUEEN: 3, JACK: 2}          # coinche sans-atout
TA_POINTS = {JACK: 14, 9: 9, ACE: 6, 10: 5, KING: 3, QUEEN: 1}     # coinche tout-atout
DIX_DE_DER = 10
BELOTE_REBELOTE = 20

# Announcements (belote à trois, optional): sequences in the order A K Q J 10 9 8 7 and carrés
TIERCE, QUARTE, QUINTE = 20, 50, 100

# Contracts: a trump suit 0..3, sans-atout or tout-atout
SANS_ATOUT = SUITS
TOUT_ATOUT = SUITS + 1
CONTRACTS = SUITS + 2
NO_CONTRACT = -1

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see each game's Params for their meaning)
# --------------------------------------------------------------------------------------
MODE_TROIS, MODE_COMPTOIR = 0, 1
FAIL_EACH_FULL, FAIL_SHARED = 0, 1
TIE_DEDANS, TIE_LITIGE = 0, 1
K_DEALER_CHOICE, K_RANDOM = 0, -1
VIS_NORMAL, VIS_BLIND, VIS_PARTIAL_BLIND, VIS_PARTIAL_OPEN = 0, 1, 2, 3
AUCTION_SINGLE, AUCTION_OPEN = 0, 1
RANDOM_DEALER = -1
MAX_K = 5
FIRST_HAND, FIRST_PACKET = 5, 3     # à trois: 5 cards each, dealt 3 then 2, before the bidding
FULL_HAND = 8
MAX_BID = 258

PARAMS = Layout(
    ("players", 1), ("mode", 1), ("first_dealer", 1), ("in_play", DECK_CARDS),
    ("trump_order", RANKS_PER_SUIT), ("plain_order", RANKS_PER_SUIT),
    ("trump_points", RANKS_PER_SUIT), ("plain_points", RANKS_PER_SUIT),
    ("sa_points", RANKS_PER_SUIT), ("ta_points", RANKS_PER_SUIT),
    ("annonces", 1), ("belote", 1), ("dix_de_der", 1), ("exemption", 1),
    ("undertrump", 1), ("fail_split", 1), ("tie_rule", 1), ("capot", 1),
    ("target", 1), ("round2_any", 1), ("max_deals", 1),
    ("k_rule", 1), ("allow_sa", 1), ("allow_ta", 1), ("visibility", 1), ("vis_j", 1),
    ("blind_play", 1), ("auction", 1), ("min_bid", 1), ("max_bid", 1),
)
(P_PLAYERS, P_MODE, P_FIRST_DEALER, P_IN_PLAY, P_TRUMP_ORDER, P_PLAIN_ORDER, P_TRUMP_POINTS,
 P_PLAIN_POINTS, P_SA_POINTS, P_TA_POINTS, P_ANNONCES, P_BELOTE, P_DIX_DE_DER, P_EXEMPTION,
 P_UNDERTRUMP, P_FAIL_SPLIT, P_TIE_RULE, P_CAPOT, P_TARGET, P_ROUND2_ANY, P_MAX_DEALS, P_K_RULE,
 P_ALLOW_SA, P_ALLOW_TA, P_VISIBILITY, P_VIS_J, P_BLIND_PLAY, P_AUCTION, P_MIN_BID,
 P_MAX_BID) = PARAMS.offsets()


def rank_table(values: dict[int, int]) -> np.ndarray:
    """A per-rank table (index rank - 2) from ``{rank: value}`` (0 for the others)."""
    table = np.zeros(RANKS_PER_SUIT, dtype=np.int32)
    for rank, value in values.items():
        table[rank - 2] = value
    return table


def new_params(players: int, mode: int, removed_ranks: tuple[int, ...],
               first_dealer: int | None, classic_sa_ta: bool = False) -> np.ndarray:
    """The parameter array with belote's cards and tables; the game fills in its rules."""
    p = PARAMS.new()
    p[P_PLAYERS] = players
    p[P_MODE] = mode
    p[P_FIRST_DEALER] = RANDOM_DEALER if first_dealer is None else first_dealer
    in_play = (CARD_RANK >= 7) & ~np.isin(CARD_RANK, removed_ranks)
    p[P_IN_PLAY:P_IN_PLAY + DECK_CARDS] = in_play
    p[P_TRUMP_ORDER:P_TRUMP_ORDER + RANKS_PER_SUIT] = rank_table(TRUMP_ORDER)
    p[P_PLAIN_ORDER:P_PLAIN_ORDER + RANKS_PER_SUIT] = rank_table(PLAIN_ORDER)
    p[P_TRUMP_POINTS:P_TRUMP_POINTS + RANKS_PER_SUIT] = rank_table(TRUMP_POINTS)
    p[P_PLAIN_POINTS:P_PLAIN_POINTS + RANKS_PER_SUIT] = rank_table(PLAIN_POINTS)
    sa, ta = (PLAIN_POINTS, TRUMP_POINTS) if classic_sa_ta else (SA_POINTS, TA_POINTS)
    p[P_SA_POINTS:P_SA_POINTS + RANKS_PER_SUIT] = rank_table(sa)
    p[P_TA_POINTS:P_TA_POINTS + RANKS_PER_SUIT] = rank_table(ta)
    p[P_DIX_DE_DER] = 1
    p[P_BELOTE] = 1
    return p


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("round", 1), ("rounds_played", 1), ("first_dealer", 1), ("dealer", 1),
    ("cards", 1), ("current", 1), ("first_leader", 1), ("leader", 1), ("trick", 1),
    ("played", 1), ("decisions", 1),
    ("deck", PACK_CARDS), ("pack", 1), ("dealt", 1),   # the shuffled pack, its size, cards dealt
    ("turned", 1),                      # à trois: the turned card (retourne)
    ("bid_round", 1),                   # à trois: 1 or 2
    ("spoken", 1),                      # players who spoke in this round of the bidding
    ("passes", 1),                      # consecutive passes
    ("high_bid", 1), ("taker", 1), ("contract", 1), ("trump", 1),
    ("belote_first", 1),                # seat that played the first of the trump K and Q
    ("belote_seat", 1),                 # seat that played both (belote-rebelote), or -1
    ("held", 1),                        # litige: the taker's points held for the next winner
    ("made", 1), ("capot", 1),          # the last scored deal: made (1/0), capot side (-1/0/1)
    ("taker_total", 1), ("defence_total", 1),
    ("location", DECK_CARDS),           # where each card is (LOC_* below)
    ("owner_blind", DECK_CARDS),        # 1: hidden from its owner (blind variants)
    ("face_up", DECK_CARDS),            # 1: visible to everyone (partial_open, the retourne)
    ("strength", DECK_CARDS), ("card_points", DECK_CARDS),   # under the contract
    ("hand_size", MAX_PLAYERS),
    ("bid", MAX_PLAYERS),               # à trois: 0 pass, 1 take, 2 take another suit;
    #                                     comptoir: highest bid, 0 pass only; -1 silent
    ("tricks", MAX_PLAYERS),            # tricks won this deal
    ("taken", MAX_PLAYERS),             # card points (and dix de der) won this deal
    ("annonce", MAX_PLAYERS),           # announcements' points this deal (own, before sides)
    ("annonce_key", MAX_PLAYERS),       # the strength of each seat's best announcement
    ("points", MAX_PLAYERS),            # the last scored deal's points
    ("score", MAX_PLAYERS),             # running total
    *tricks.trick_table(MAX_PLAYERS),
    # figures for results
    ("player_decisions", MAX_PLAYERS), ("takes", MAX_PLAYERS), ("contracts_made", MAX_PLAYERS),
    ("belotes", MAX_PLAYERS), ("capots", MAX_PLAYERS), ("tricks_total", MAX_PLAYERS),
    ("rank", MAX_PLAYERS), ("redeals", 1), ("aborted", 1),
)
STATE_SIZE = STATE.size
(PHASE, ROUND, ROUNDS_PLAYED, FIRST_DEALER, DEALER, CARDS, CURRENT, FIRST_LEADER, LEADER, TRICK,
 PLAYED, DECISIONS, DECK, PACK, DEALT, TURNED, BID_ROUND, SPOKEN, PASSES, HIGH_BID, TAKER, CONTRACT,
 TRUMP, BELOTE_FIRST, BELOTE_SEAT, HELD, MADE, CAPOT, TAKER_TOTAL, DEFENCE_TOTAL, LOCATION,
 OWNER_BLIND, FACE_UP, STRENGTH, CARD_POINTS, HAND_SIZE, BID, TRICKS, TAKEN, ANNONCE, ANNONCE_KEY,
 POINTS, SCORE, TRICK_SEAT, TRICK_CARD, TRICK_SUIT, TRICK_STRENGTH, TRICK_WINNER, PLAYER_DECISIONS,
 TAKES, CONTRACTS_MADE, BELOTES, CAPOTS, TRICKS_TOTAL, RANK, REDEALS, ABORTED) = STATE.offsets()
TRICK_FIELDS = tricks.trick_fields(STATE)
RULES = Tag(__name__)                # the family's steps, specialised for this game
FAMILY = tricks                      # legal_actions and apply_action: the family's

# Phases
DEAL, CHOOSE_K, BIDDING, CHOOSING, PLAYING, OVER = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def chance_pending(s):
    """Whether a deal is due (the game's only chance step)."""
    return s[PHASE] == DEAL


# Card locations
LOC_STOCK = 0                        # shuffled, not dealt (yet)
LOC_OUT = LOC_STOCK + 1              # not in this game's pack
LOC_TURNED = LOC_OUT + 1             # à trois: the retourne, face up until taken
LOC_HAND = LOC_TURNED + 1            # + seat
LOC_TRICK = LOC_HAND + MAX_PLAYERS   # in the trick in progress
LOC_WON = LOC_TRICK + 1              # + seat: in that seat's tricks this deal
LOC_UNKNOWN = LOC_WON + MAX_PLAYERS  # only in observations: hidden from the observer

# --------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------
PLAY = 0                             # + card id
PASS = PLAY + DECK_CARDS
TAKE = PASS + 1                      # à trois, round 1: the turned card's suit
TAKE_SUIT = TAKE + 1                 # + suit: à trois, round 2
CHOOSE_CONTRACT = TAKE_SUIT + SUITS  # + contract: comptoir, the declarer's choice
DEAL_K = CHOOSE_CONTRACT + CONTRACTS  # + k - 1: comptoir, the dealer's choice of k
PLAY_BLIND = DEAL_K + MAX_K        # comptoir blind_play: the engine picks the card
BID_ACTION = PLAY_BLIND + 1          # + points
N_ACTIONS = BID_ACTION + MAX_BID + 1
OTHER_DECISIONS = PASS               # from here on, a decision other than a card chosen
# apply_action(s, pr, action) draws nothing: the chance that follows a decision waits
# for advance (see engines.core.streams)
APPLY_DRAWS = False
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)
assert N_ACTIONS >= 2 * DECK_CARDS    # play_actions' scratch: a hand and its legal cards


# --------------------------------------------------------------------------------------
# Setup and the deal
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """A game before its first deal: every score 0, the first step is DEAL."""
    tricks.new_game(RULES, s, pr)
    reset_deal(s, pr)


@njit(cache=True)
def reset_deal(s, pr):
    """Clear the figures of one deal."""
    s[TURNED] = NO_CARD
    s[TAKER] = NO_SEAT
    s[CONTRACT] = NO_CONTRACT
    s[TRUMP] = tricks.NO_SUIT
    s[HIGH_BID] = 0
    s[BELOTE_FIRST] = NO_SEAT
    s[BELOTE_SEAT] = NO_SEAT
    s[SPOKEN] = 0
    s[PASSES] = 0
    s[BID_ROUND] = 1
    s[MADE] = 0
    s[CAPOT] = 0
    s[TAKER_TOTAL] = 0
    s[DEFENCE_TOTAL] = 0
    for card in range(DECK_CARDS):
        s[LOCATION + card] = LOC_STOCK if pr[P_IN_PLAY + card] else LOC_OUT
        s[OWNER_BLIND + card] = 0
        s[FACE_UP + card] = 0
        s[STRENGTH + card] = 0
        s[CARD_POINTS + card] = 0
    tricks.clear_tricks(s, TRICK_FIELDS)
    for p in range(MAX_PLAYERS):
        s[BID + p] = -1
        s[TAKEN + p] = 0
        s[ANNONCE + p] = 0
        s[ANNONCE_KEY + p] = 0
        s[TRICK_SUIT + p] = tricks.NO_SUIT
        s[TRICK_STRENGTH + p] = 0


@njit(cache=True)
def give(s, seat, count):
    """The next ``count`` cards of the shuffled pack to ``seat``."""
    for _ in range(count):
        card = s[DECK + s[DEALT]]
        s[LOCATION + card] = LOC_HAND + seat
        s[HAND_SIZE + seat] += 1
        s[DEALT] += 1


@njit(cache=True)
def deal(s, pr, rng):
    """The chance step of a deal: shuffle the pack; à trois, deal 5 cards each (3 then 2)
    and turn the next one; comptoir, let the dealer choose k, or deal the fixed or random k."""
    players = pr[P_PLAYERS]
    dealer = tricks.round_dealer(RULES, s, pr, rng)
    reset_deal(s, pr)
    n = 0
    for card in range(DECK_CARDS):
        if pr[P_IN_PLAY + card]:
            s[DECK + n] = card
            n += 1
    s[PACK] = n
    shuffle(rng, s[DECK:DECK + n])
    s[DEALT] = 0
    first = tricks.next_seat(dealer, players)
    if pr[P_MODE] == MODE_TROIS:
        s[CARDS] = FULL_HAND
        for packet in (FIRST_PACKET, FIRST_HAND - FIRST_PACKET):
            seat = first
            for _ in range(players):
                give(s, seat, packet)
                seat = tricks.next_seat(seat, players)
        s[TURNED] = s[DECK + s[DEALT]]
        s[LOCATION + s[TURNED]] = LOC_TURNED
        s[DEALT] += 1
        start_bidding(s, pr)
    elif pr[P_K_RULE] == K_DEALER_CHOICE:
        s[PHASE] = CHOOSE_K
        s[CURRENT] = dealer
    elif pr[P_K_RULE] == K_RANDOM:
        deal_k(s, pr, 1 + uniform_index_jit(rng, largest_k(pr)))
    else:
        deal_k(s, pr, pr[P_K_RULE])


@njit(cache=True)
def advance(s, pr, rng):
    """Deal until a decision is due or the game is over."""
    tricks.deal_until_decision(RULES, s, pr, rng)


@njit(cache=True)
def largest_k(pr):
    """The most cards each of n players may get: 5, or fewer so that n * k <= 32."""
    return min(MAX_K, PACK_CARDS // pr[P_PLAYERS])


@njit(cache=True)
def deal_k(s, pr, k):
    """Comptoir: deal k cards to each player one at a time from the dealer's left (the rest
    of the pack is not used), set the visibility of the dealt cards, open the bidding."""
    players = pr[P_PLAYERS]
    s[CARDS] = k
    j = min(pr[P_VIS_J], k)
    visibility = pr[P_VISIBILITY]
    for r in range(k):
        seat = tricks.next_seat(s[DEALER], players)
        for _ in range(players):
            card = s[DECK + s[DEALT]]
            give(s, seat, 1)
            if visibility == VIS_BLIND or (visibility == VIS_PARTIAL_BLIND and r < j):
                s[OWNER_BLIND + card] = 1
            elif visibility == VIS_PARTIAL_OPEN and r < j:
                s[FACE_UP + card] = 1
            seat = tricks.next_seat(seat, players)
    start_bidding(s, pr)


@njit(cache=True)
def choose_k_actions(pr, out):
    """``deal 1`` .. ``deal k``: every k with n * k <= 32, at most 5."""
    for k in range(largest_k(pr)):
        out[k] = DEAL_K + k
    return largest_k(pr)


# --------------------------------------------------------------------------------------
# The bidding
# --------------------------------------------------------------------------------------
@njit(cache=True)
def start_bidding(s, pr):
    s[PHASE] = BIDDING
    s[BID_ROUND] = 1
    s[SPOKEN] = 0
    s[PASSES] = 0
    s[CURRENT] = tricks.next_seat(s[DEALER], pr[P_PLAYERS])


@njit(cache=True)
def bid_actions(s, pr, out):
    """À trois: ``pass``, ``take`` (round 1) or ``take S`` for each suit other than the
    turned one (round 2; any suit under ``round2_any_suit``).  Comptoir: ``pass``, then
    ``bid v`` for every v above the highest bid so far within ``min_bid .. max_bid``."""
    out[0] = PASS
    n = 1
    if pr[P_MODE] == MODE_TROIS:
        if s[BID_ROUND] == 1:
            out[n] = TAKE
            return n + 1
        turned_suit = CARD_SUIT[s[TURNED]]
        for suit in range(SUITS):
            if suit != turned_suit or pr[P_ROUND2_ANY]:
                out[n] = TAKE_SUIT + suit
                n += 1
        return n
    for v in range(max(pr[P_MIN_BID], s[HIGH_BID] + 1), pr[P_MAX_BID] + 1):
        out[n] = BID_ACTION + v
        n += 1
    return n


@njit(cache=True)
def speak_trois(s, pr, player, action):
    """À trois: a take ends the bidding; after three passes the second round opens, after
    six the cards are redealt by the next dealer."""
    players = pr[P_PLAYERS]
    if action == PASS:
        s[BID + player] = 0
        s[SPOKEN] += 1
        if s[SPOKEN] < players:
            s[CURRENT] = tricks.next_seat(player, players)
        elif s[BID_ROUND] == 1:
            s[BID_ROUND] = 2
            s[SPOKEN] = 0
            s[CURRENT] = tricks.next_seat(s[DEALER], players)
        else:
            passed_out(s, pr)
        return
    s[BID + player] = s[BID_ROUND]
    suit = CARD_SUIT[s[TURNED]] if action == TAKE else action - TAKE_SUIT
    s[TAKER] = player
    s[TAKES + player] += 1
    set_contract(s, pr, suit)
    complete_deal(s, pr)


@njit(cache=True)
def speak_comptoir(s, pr, player, action):
    """Comptoir: single round (each speaks once, from the dealer's left to the dealer) or
    open auction (until every other player has passed in turn after the last bid); the
    highest bidder chooses the contract; if nobody bids, the next dealer redeals."""
    players = pr[P_PLAYERS]
    s[SPOKEN] += 1
    if action == PASS:
        if s[BID + player] < 0:
            s[BID + player] = 0
        s[PASSES] += 1
    else:
        v = action - BID_ACTION
        s[BID + player] = v
        s[HIGH_BID] = v
        s[TAKER] = player
        s[PASSES] = 0
    if pr[P_AUCTION] == AUCTION_SINGLE:
        over = s[SPOKEN] == players
    else:
        over = (s[TAKER] >= 0 and s[PASSES] == players - 1) or (
            s[TAKER] < 0 and s[PASSES] == players)
    if not over:
        s[CURRENT] = tricks.next_seat(player, players)
    elif s[TAKER] < 0:
        passed_out(s, pr)
    else:
        s[TAKES + s[TAKER]] += 1
        if not pr[P_BLIND_PLAY]:                # the owners look at their cards
            for card in range(DECK_CARDS):
                s[OWNER_BLIND + card] = 0
        s[PHASE] = CHOOSING
        s[CURRENT] = s[TAKER]


@njit(cache=True)
def contract_actions(pr, out):
    """The declarer's choice: ``trump ♥`` .. ``trump ♣``, then ``sans atout`` and ``tout
    atout`` when allowed."""
    n = 0
    for suit in range(SUITS):
        out[n] = CHOOSE_CONTRACT + suit
        n += 1
    if pr[P_ALLOW_SA]:
        out[n] = CHOOSE_CONTRACT + SANS_ATOUT
        n += 1
    if pr[P_ALLOW_TA]:
        out[n] = CHOOSE_CONTRACT + TOUT_ATOUT
        n += 1
    return n


@njit(cache=True)
def set_contract(s, pr, contract):
    """Fix the contract: each card's order and points under it (trump order and points for
    the trump suit, plain for the others; sans-atout and tout-atout tables in every suit)."""
    s[CONTRACT] = contract
    s[TRUMP] = contract if contract < SUITS else tricks.NO_SUIT
    for card in range(DECK_CARDS):
        r = CARD_RANK[card] - 2
        if contract == TOUT_ATOUT:
            s[STRENGTH + card] = pr[P_TRUMP_ORDER + r]
            s[CARD_POINTS + card] = pr[P_TA_POINTS + r]
        elif contract == SANS_ATOUT:
            s[STRENGTH + card] = pr[P_PLAIN_ORDER + r]
            s[CARD_POINTS + card] = pr[P_SA_POINTS + r]
        elif CARD_SUIT[card] == contract:
            s[STRENGTH + card] = pr[P_TRUMP_ORDER + r]
            s[CARD_POINTS + card] = pr[P_TRUMP_POINTS + r]
        else:
            s[STRENGTH + card] = pr[P_PLAIN_ORDER + r]
            s[CARD_POINTS + card] = pr[P_PLAIN_POINTS + r]


@njit(cache=True)
def complete_deal(s, pr):
    """À trois: the taker gets the turned card and 2 more, every other player 3 more, each
    in turn from the dealer's left; everyone holds 8.  Everyone knows the taker holds the
    turned card.  The announcements are made; the player left of the dealer leads."""
    players = pr[P_PLAYERS]
    turned = s[TURNED]
    s[LOCATION + turned] = LOC_HAND + s[TAKER]
    s[HAND_SIZE + s[TAKER]] += 1
    s[FACE_UP + turned] = 1
    seat = tricks.next_seat(s[DEALER], players)
    for _ in range(players):
        give(s, seat, FULL_HAND - s[HAND_SIZE + seat])
        seat = tricks.next_seat(seat, players)
    if pr[P_ANNONCES]:
        for p in range(players):
            announce(s, p)
    start_play(s, pr, tricks.next_seat(s[DEALER], players))


@njit(cache=True)
def choose_contract(s, pr, contract):
    """Comptoir: the declarer names the contract and leads the first trick."""
    set_contract(s, pr, contract)
    start_play(s, pr, s[TAKER])


@njit(cache=True)
def start_play(s, pr, leader):
    s[PHASE] = PLAYING
    s[FIRST_LEADER] = leader
    s[LEADER] = leader
    s[CURRENT] = leader


@njit(cache=True)
def passed_out(s, pr):
    """Everyone passed: no deal is played, the next dealer redeals."""
    s[REDEALS] += 1
    end_of_deal(s, pr)


# --------------------------------------------------------------------------------------
# Announcements (à trois, optional): sequences of 3+ in the order A K Q J 10 9 8 7 in one
# suit (tierce 20, quarte 50, quinte or more 100) and carrés (J 200, 9 150, A 10 K Q 100)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def sequence_points(length):
    if length >= 5:
        return QUINTE
    if length == 4:
        return QUARTE
    if length == 3:
        return TIERCE
    return 0


@njit(cache=True)
def carre_points(rank):
    if rank == JACK:
        return 200
    if rank == 9:
        return 150
    if rank == ACE or rank == 10 or rank == KING or rank == QUEEN:
        return 100
    return 0


@njit(cache=True)
def announce(s, seat):
    """Every announcement of ``seat``'s 8 cards: ``ANNONCE`` gets their total, and
    ``ANNONCE_KEY`` the strength of the best one: value first; among equal values a carré
    beats a sequence, a longer sequence a shorter one, then the higher top card, then a
    trump sequence (0: none)."""
    total = 0
    best = 0
    held = stack_room(DECK_CARDS, np.bool_)
    for card in range(DECK_CARDS):
        held[card] = s[LOCATION + card] == LOC_HAND + seat
    for suit in range(SUITS):
        run = 0
        for rank in range(ACE, 5, -1):          # A .. 7, then one step below to close a run
            if rank >= 7 and held[suit * RANKS_PER_SUIT + rank - 2]:
                run += 1
                continue
            value = sequence_points(run)
            if value:
                total += value
                top = rank + run
                best = max(best, value * 10000 + run * 100 + top * 2 + (suit == s[TRUMP]))
            run = 0
    for rank in range(7, ACE + 1):
        count = 0
        for suit in range(SUITS):
            count += held[suit * RANKS_PER_SUIT + rank - 2]
        value = carre_points(rank)
        if count == SUITS and value:
            total += value
            best = max(best, value * 10000 + 9000 + rank)
    s[ANNONCE + seat] = total
    s[ANNONCE_KEY + seat] = best


# --------------------------------------------------------------------------------------
# The tricks
# --------------------------------------------------------------------------------------
@njit(cache=True)
def exempt(s, pr, player):
    """The partner exemption: a non-taker void in a plain suit led need not trump while
    another non-taker holds the trick (à trois between the defenders by default; comptoir
    only under ``defenders_partners``)."""
    count = s[PLAYED]
    if not pr[P_EXEMPTION] or count == 0 or player == s[TAKER]:
        return False
    position = tricks.trick_winner(s[TRICK_SUIT:TRICK_SUIT + MAX_PLAYERS],
                                   s[TRICK_STRENGTH:TRICK_STRENGTH + MAX_PLAYERS], count,
                                   s[TRUMP])
    return s[TRICK_SEAT + position] != s[TAKER]


@njit(cache=True)
def legal_cards(s, pr, player, hand, n, out):
    """Write into ``out`` the cards of ``hand[:n]`` that may be played now; return their
    count.

    With trumps: a player holding the led suit follows it, and on a trump lead must beat
    the best trump if able; a player void in a plain suit led must trump, beating the best
    trump in the trick if able, else undertrumping (any card under ``must_undertrump=false``
    when he cannot beat it), unless a partner holds the trick (any card); with no trump,
    any card.  Sans-atout: follow suit if able.  Tout-atout: follow suit and beat the best
    card of the led suit if able; void, any card."""
    count = s[PLAYED]
    suits = s[TRICK_SUIT:TRICK_SUIT + MAX_PLAYERS]
    strengths = s[TRICK_STRENGTH:TRICK_STRENGTH + MAX_PLAYERS]
    strength = s[STRENGTH:STRENGTH + DECK_CARDS]
    contract = s[CONTRACT]
    led = tricks.led_suit(suits, count)
    if contract == SANS_ATOUT:
        return tricks.legal_in_trick(hand, n, CARD_SUIT, strength, suits, strengths, count,
                                     tricks.NO_SUIT, tricks.FOLLOW, out)
    if contract == TOUT_ATOUT:
        return tricks.legal_in_trick(hand, n, CARD_SUIT, strength, suits, strengths, count,
                                     led, tricks.MUST_OVERTRUMP, out)
    trump = s[TRUMP]
    rule = tricks.MUST_OVERTRUMP
    if led != trump and exempt(s, pr, player):
        rule = tricks.FOLLOW
    k = tricks.legal_in_trick(hand, n, CARD_SUIT, strength, suits, strengths, count, trump,
                              rule, out)
    if pr[P_UNDERTRUMP] or rule != tricks.MUST_OVERTRUMP or led == trump or \
            led == tricks.NO_SUIT or CARD_SUIT[out[0]] != trump:
        return k
    top = tricks.highest_trump(suits, strengths, count, trump)
    for i in range(k):
        if strength[out[i]] > top:
            return k
    for i in range(n):                      # unable to overtrump: free to discard
        out[i] = hand[i]
    return n


@njit(cache=True)
def hand_cards(s, player, out):
    """The cards of ``player``'s hand, in card id order, into ``out``; return the count."""
    n = 0
    for card in range(DECK_CARDS):
        if s[LOCATION + card] == LOC_HAND + player:
            out[n] = card
            n += 1
    return n


@njit(cache=True)
def holds_blind(s, player):
    """Whether ``player`` holds a card hidden from himself (comptoir ``blind_play``)."""
    for card in range(DECK_CARDS):
        if s[LOCATION + card] == LOC_HAND + player and s[OWNER_BLIND + card]:
            return True
    return False


@njit(cache=True)
def play_actions(s, pr, player, out):
    """``play`` each legal card of the hand, in card id order (suits ♥ ♦ ♠ ♣, 7 .. A); a
    player who cannot see all his cards (``blind_play``) has only ``play blind``.

    ``out`` (N_ACTIONS long) doubles as scratch: the hand in ``out[:n]``, its legal cards
    in ``out[DECK_CARDS:]``, then the actions in ``out[:k]``."""
    if holds_blind(s, player):
        out[0] = PLAY_BLIND
        return 1
    n = hand_cards(s, player, out)
    k = legal_cards(s, pr, player, out[:n], n, out[DECK_CARDS:])
    for i in range(k):
        out[i] = PLAY + out[DECK_CARDS + i]
    return k


@njit(cache=True)
def blind_card(s, pr, player):
    """``play blind``: the legal card dealt earliest to the player (the pack being shuffled,
    a random legal card from his point of view; the forced card when only one is legal)."""
    hand = stack_room(DECK_CARDS)
    legal = stack_room(DECK_CARDS)
    n = hand_cards(s, player, hand)
    k = legal_cards(s, pr, player, hand[:n], n, legal)
    for i in range(s[PACK]):
        card = s[DECK + i]
        for j in range(k):
            if legal[j] == card:
                return card
    return legal[0]


@njit(cache=True)
def play(s, pr, player, card):
    """Put ``card`` in the trick (belote-rebelote: the second of the trump K and Q played by
    the player who played the first); the next player follows, or the trick is complete."""
    s[OWNER_BLIND + card] = 0
    played = tricks.lay_card(s, TRICK_FIELDS, player, card, CARD_SUIT[card],
                             s[STRENGTH + card], LOC_TRICK)
    if CARD_SUIT[card] == s[TRUMP] and (CARD_RANK[card] == KING or CARD_RANK[card] == QUEEN):
        if s[BELOTE_FIRST] == NO_SEAT:
            s[BELOTE_FIRST] = player
        elif s[BELOTE_FIRST] == player and pr[P_BELOTE]:
            s[BELOTE_SEAT] = player
    if played == pr[P_PLAYERS]:
        end_of_trick(s, pr)
    else:
        s[CURRENT] = tricks.next_seat(player, pr[P_PLAYERS])


@njit(cache=True)
def end_of_trick(s, pr):
    """The highest trump, else the highest card of the led suit, wins the trick and its
    points (and the dix de der for the last one); its player leads the next trick."""
    players = pr[P_PLAYERS]
    winner = tricks.take_trick(s, TRICK_FIELDS, players, s[TRUMP], LOC_WON, True)
    s[TAKEN + winner] += tricks.trick_points(s[TRICK_CARD:TRICK_CARD + MAX_PLAYERS], players,
                                             s[CARD_POINTS:CARD_POINTS + DECK_CARDS])
    if s[TRICK] == s[CARDS]:
        if pr[P_DIX_DE_DER]:
            s[TAKEN + winner] += DIX_DE_DER
        score_deal(s, pr)
        end_of_deal(s, pr)
    else:
        s[LEADER] = winner
        s[CURRENT] = winner


# --------------------------------------------------------------------------------------
# The score of a deal
# --------------------------------------------------------------------------------------
@njit(cache=True)
def belote_bonus(s, pr, taker_side):
    """The belote-rebelote of the taker's side (or the defence's)."""
    seat = s[BELOTE_SEAT]
    if seat == NO_SEAT or (seat == s[TAKER]) != taker_side:
        return 0
    return BELOTE_REBELOTE


@njit(cache=True)
def annonce_bonus(s, pr, taker_side):
    """The announcements a side scores: all of its own if it holds the best one, else
    none (equal best: neither side)."""
    players = pr[P_PLAYERS]
    taker = s[TAKER]
    best_t, best_d, total = 0, 0, 0
    for p in range(players):
        key = s[ANNONCE_KEY + p]
        if p == taker:
            best_t = max(best_t, key)
        else:
            best_d = max(best_d, key)
        if (p == taker) == taker_side:
            total += s[ANNONCE + p]
    mine, theirs = (best_t, best_d) if taker_side else (best_d, best_t)
    return total if mine > theirs else 0


@njit(cache=True)
def credit_defence(s, pr, amount, split):
    """Each defender scores ``amount`` (half of it each when ``split``)."""
    for p in range(pr[P_PLAYERS]):
        if p != s[TAKER]:
            s[POINTS + p] += amount // 2 if split else amount


@njit(cache=True)
def score_trois(s, pr):
    """À trois (spec B): the taker scores his total P_t if it beats the defence's P_d, and
    each defender scores P_d; otherwise (dedans) each defender scores 162 (shared under
    ``fail_split=shared``) plus the defence's bonuses and the taker's announcements, and the
    taker only his belote.  A capot is worth ``capot_value`` instead of 162; a tie is dedans
    or, under ``tie_rule=litige``, the defence scores its points and the taker's are held
    for the winner of the next deal."""
    players = pr[P_PLAYERS]
    taker = s[TAKER]
    split = pr[P_FAIL_SPLIT] == FAIL_SHARED
    total = 0
    for card in range(DECK_CARDS):
        if pr[P_IN_PLAY + card]:
            total += s[CARD_POINTS + card]
    total += DIX_DE_DER
    bel_t, bel_d = belote_bonus(s, pr, True), belote_bonus(s, pr, False)
    ann_t, ann_d = annonce_bonus(s, pr, True), annonce_bonus(s, pr, False)
    cards_t = s[TAKEN + taker]
    cards_d = 0
    for p in range(players):
        if p != taker:
            cards_d += s[TAKEN + p]
    p_t = cards_t + bel_t + ann_t
    p_d = cards_d + bel_d + ann_d
    if s[TRICKS + taker] == s[CARDS]:
        s[CAPOT] = 1
        p_t = pr[P_CAPOT] + bel_t + ann_t
        p_d = bel_d
    elif s[TRICKS + taker] == 0:
        s[CAPOT] = -1
        p_d = pr[P_CAPOT] + bel_d + ann_d
    s[TAKER_TOTAL] = p_t
    s[DEFENCE_TOTAL] = p_d
    held = s[HELD]
    if p_t > p_d:
        s[MADE] = 1
        s[POINTS + taker] += p_t + held
        credit_defence(s, pr, p_d, False)
        s[HELD] = 0
    elif p_t < p_d or pr[P_TIE_RULE] == TIE_DEDANS:
        s[MADE] = 0
        s[POINTS + taker] += bel_t
        won = pr[P_CAPOT] if s[CAPOT] == -1 else total
        credit_defence(s, pr, won + bel_d + ann_d + ann_t, split)
        credit_defence(s, pr, held, split)
        s[HELD] = 0
    else:
        s[MADE] = 0
        s[POINTS + taker] += bel_t
        credit_defence(s, pr, p_d, False)
        s[HELD] = held + p_t - bel_t


@njit(cache=True)
def score_comptoir(s, pr):
    """Comptoir: the declarer's points (his card points, the dix de der, his own
    belote-rebelote) made the bid: +1 for him; otherwise +1 for every other player."""
    taker = s[TAKER]
    p_t = s[TAKEN + taker] + belote_bonus(s, pr, True)
    s[TAKER_TOTAL] = p_t
    for p in range(pr[P_PLAYERS]):
        if p != taker:
            s[DEFENCE_TOTAL] += s[TAKEN + p]
    if s[TRICKS + taker] == s[CARDS]:
        s[CAPOT] = 1
    elif s[TRICKS + taker] == 0:
        s[CAPOT] = -1
    s[MADE] = 1 if p_t >= s[HIGH_BID] else 0
    if s[MADE]:
        s[POINTS + taker] = 1
    else:
        for p in range(pr[P_PLAYERS]):
            if p != taker:
                s[POINTS + p] = 1


@njit(cache=True)
def score_deal(s, pr):
    """Score the deal played and keep the figures."""
    players = pr[P_PLAYERS]
    for p in range(players):
        s[POINTS + p] = 0
    if pr[P_MODE] == MODE_TROIS:
        score_trois(s, pr)
    else:
        score_comptoir(s, pr)
    taker = s[TAKER]
    if s[MADE]:
        s[CONTRACTS_MADE + taker] += 1
    if s[BELOTE_SEAT] != NO_SEAT:
        s[BELOTES + s[BELOTE_SEAT]] += 1
    for p in range(players):
        s[SCORE + p] += s[POINTS + p]
        s[TRICKS_TOTAL + p] += s[TRICKS + p]
        if s[TRICKS + p] == s[CARDS]:
            s[CAPOTS + p] += 1


# --------------------------------------------------------------------------------------
# The end of a deal and of the game
# --------------------------------------------------------------------------------------
@njit(cache=True)
def end_of_deal(s, pr):
    """After a deal (or a redeal): the game ends when one player alone has the highest
    total and it reaches ``target``, or after ``max_deals`` deals (aborted); otherwise the
    next dealer deals."""
    players = pr[P_PLAYERS]
    if s[PHASE] != PLAYING:
        for p in range(players):
            s[POINTS + p] = 0
    best, leaders = s[SCORE], 0
    for p in range(players):
        best = max(best, s[SCORE + p])
    for p in range(players):
        leaders += s[SCORE + p] == best
    won = leaders == 1 and best >= pr[P_TARGET]
    aborted = not won and s[ROUNDS_PLAYED] + 1 >= pr[P_MAX_DEALS]
    s[ABORTED] = aborted
    tricks.next_deal(RULES, s, pr, won or aborted)


@njit(cache=True)
def final_ranking(s, pr):
    """The highest total wins; equal totals share a rank."""
    rank_and_end(RULES, s, s[SCORE:SCORE + MAX_PLAYERS], pr[P_PLAYERS], False)


# --------------------------------------------------------------------------------------
# The game loop's entry points: decisions, their effects, chance steps
# --------------------------------------------------------------------------------------
@njit(cache=True)
def other_actions(s, pr, out):
    """Write the legal codes of the comptoir's choices (the contract, k) into ``out``;
    return their count."""
    phase = s[PHASE]
    if phase == CHOOSING:
        return contract_actions(pr, out)
    if phase == CHOOSE_K:
        return choose_k_actions(pr, out)
    return 0


@njit(cache=True)
def other_decision(s, pr, player, action):
    """Play ``player``'s legal decision ``action`` other than a card he chose: a card the
    engine picks (blind play), a bid, the contract or k."""
    if action == PLAY_BLIND:
        play(s, pr, player, blind_card(s, pr, player))
    elif s[PHASE] == BIDDING:
        if pr[P_MODE] == MODE_TROIS:
            speak_trois(s, pr, player, action)
        else:
            speak_comptoir(s, pr, player, action)
    elif s[PHASE] == CHOOSING:
        choose_contract(s, pr, action - CHOOSE_CONTRACT)
    else:
        deal_k(s, pr, action - DEAL_K + 1)


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hidden_from(s, player, card):
    """Whether ``player`` cannot see where ``card`` is: in the stock, in another hand (unless
    face up), or in his own hand face down (blind variants)."""
    location = s[LOCATION + card]
    if location == LOC_STOCK:
        return True
    if location == LOC_HAND + player:
        return s[OWNER_BLIND + card] == 1
    return LOC_HAND <= location < LOC_TRICK and s[FACE_UP + card] == 0


@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: hidden cards' locations, visibility flags
    and places in the shuffled pack are unknown."""
    copy_into(out, s)
    for card in range(DECK_CARDS):
        if hidden_from(s, player, card):
            out[LOCATION + card] = LOC_UNKNOWN
            out[OWNER_BLIND + card] = 0
    for i in range(PACK_CARDS):
        if i < s[PACK] and hidden_from(s, player, s[DECK + i]):
            out[DECK + i] = NO_CARD


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the cards
    hidden from them re-dealt at random to the places they cannot see (same hand sizes, the
    stock), each new card taking the place in the shuffled pack (and the visibility flags)
    of a hidden card that was there."""
    observe(s, pr, player, out)
    hidden = stack_room(DECK_CARDS)
    n = tricks.redeal_unseen(s, out, LOCATION, DECK_CARDS, LOC_UNKNOWN, LOC_HAND, LOC_STOCK,
                             rng, hidden, stack_room(MAX_PLAYERS))
    used = stack_room(DECK_CARDS, np.bool_)
    used[:] = False
    for i in range(s[PACK]):
        old = s[DECK + i]
        if not hidden_from(s, player, old):
            continue
        for j in range(n):
            new = hidden[j]
            if not used[new] and out[LOCATION + new] == s[LOCATION + old]:
                used[new] = True
                out[DECK + i] = new
                out[OWNER_BLIND + new] = s[OWNER_BLIND + old]
                out[FACE_UP + new] = s[FACE_UP + old]
                break
