"""French tarot (FFT rules) and its house variants: the rules, once, as compiled functions
over a flat state array.

Read alongside ``docs/rules/tarot.md`` (the FFT rules), ``docs/rules/tarot-lorrain.md`` and
``docs/rules/tarot-tare.md``.  The sections follow the rulebook: components, the deal (and
the Petit sec), the bids, the King called at five, the dog and the écart, the chelem
announcement, the tricks (with the poignée shown before a player's first card), the score of
a deal, the end of the game.  Every game of the family is data (``PARAMS``, filled by each
game's ``encode``): plain FFT tarot, le tarot lorrain (hands passed after each trick, the
oudlers kept by whoever played them) and le tarot taré (no bidding, every player for
himself, the fewest card points wins).  Seats, legal cards (follow, trump, overtrump: the
core's ``MUST_OVERTRUMP``) and the winner of a trick come from :mod:`engines.families.tricks.rules`.

Card points are counted in half points (a 0.5 card is 1), and so are the scores, so every
figure is an integer.  Cards won sit in the pile of the seat that won them (``LOC_WON +
seat``); the camps (taker and partner against the defence, or every seat alone in the taré)
are only added up at the end of the deal, so the piles never tell who the called partner is.

Readings the specs leave to the engine (each coded where it applies): the Petit sec is a
forced decision of its holder (the spec's ``DECLARE_PETIT_SEC``) and, like an all-pass, an
annulled deal that counts towards ``num_deals``; the écart may not take the called card
either; a poignée shows the player's lowest trumps (the Excuse only when they fall short);
who knows where each card is (``known``) covers the shown dog, shown trumps and, under the
Lorrain passing, every hand a seat has held.

Mechanics: the state is one flat int32 array (``STATE`` names its fields); a game advances by
decisions (``legal_actions`` / ``apply_action``) and one chance step per deal (``deal``),
drawn from the game's chance stream through :mod:`engines.core.chance`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.cards import TAROT_CARDS, TAROT_EXCUSE, TAROT_FIRST_TRUMP, TAROT_SUIT_CARDS
from engines.core.chance import shuffle, shuffled_deck
from engines.core.compiled import rank_and_end, two_actions
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import Tag
from engines.families.tricks import rules as tricks

# --------------------------------------------------------------------------------------
# Components: ids of engines.core.cards (0..55 the suits, 56..76 trumps 1..21, 77 the Excuse)
# --------------------------------------------------------------------------------------
DECK_CARDS = TAROT_CARDS
MAX_PLAYERS = 5
SUITS = 4
TRUMP = SUITS                                # the trumps' suit in the trick core
EXCUSE = TAROT_EXCUSE
PETIT = TAROT_FIRST_TRUMP                    # trump 1
TWENTY_ONE = TAROT_FIRST_TRUMP + 20
KING_RANK, QUEEN_RANK, KNIGHT_RANK, JACK_RANK = 14, 13, 12, 11


def _card_data() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The suit each card follows by, its strength in a trick and its points (half
    points): oudlers and Kings 4.5, Queens 3.5, Knights 2.5, Jacks 1.5, any other 0.5."""
    suit = np.empty(DECK_CARDS, dtype=np.int64)
    strength = np.empty(DECK_CARDS, dtype=np.int64)
    points = np.ones(DECK_CARDS, dtype=np.int64)
    face_points = {KING_RANK: 9, QUEEN_RANK: 7, KNIGHT_RANK: 5, JACK_RANK: 3}
    for card in range(TAROT_FIRST_TRUMP):
        suit[card], index = divmod(card, TAROT_SUIT_CARDS)
        strength[card] = index + 1
        points[card] = face_points.get(index + 1, 1)
    for number in range(1, 22):
        card = TAROT_FIRST_TRUMP + number - 1
        suit[card] = TRUMP
        strength[card] = number
    suit[EXCUSE] = tricks.NO_SUIT
    strength[EXCUSE] = 0
    for oudler in (PETIT, TWENTY_ONE, EXCUSE):
        points[oudler] = 9
    return suit, strength, points


CARD_SUIT, CARD_STRENGTH, CARD_POINTS = _card_data()


@njit(cache=True)
def is_oudler(card):
    return card == PETIT or card == TWENTY_ONE or card == EXCUSE


@njit(cache=True)
def rank_of(card):
    """1..14 for a suit card (R = 14), 0 for trumps and the Excuse."""
    return card % TAROT_SUIT_CARDS + 1 if card < TAROT_FIRST_TRUMP else 0


# Contracts (ascending) and their multipliers; the thresholds by number of oudlers.
NO_CONTRACT, PRISE, GARDE, GARDE_SANS, GARDE_CONTRE = 0, 1, 2, 3, 4
MULTIPLIER = np.array([0, 1, 2, 4, 6], dtype=np.int64)
THRESHOLD = np.array([56, 51, 41, 36], dtype=np.int64)      # by oudlers 0..3
CONTRACT_BASE = 25
PETIT_AU_BOUT = 10
POIGNEE_BONUS = np.array([0, 20, 30, 40], dtype=np.int64)    # simple, double, triple
# Trumps to show for a simple, double, triple poignée, by number of players (A5).
POIGNEE_TRUMPS = np.array([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
                           [0, 13, 15, 18], [0, 10, 13, 15], [0, 8, 10, 13]], dtype=np.int64)
CHELEM_ANNOUNCED_MADE, CHELEM_ANNOUNCED_FAILED, CHELEM_MADE = 400, -200, 200
CHELEM_DEFENCE = -200
# Cards each and the dog, by number of players (A2).
HAND_CARDS = np.array([0, 0, 0, 24, 18, 15], dtype=np.int64)
DOG_CARDS = np.array([0, 0, 0, 6, 6, 3], dtype=np.int64)
ATTACK, DEFENCE = 0, 1

# --------------------------------------------------------------------------------------
# The game's data, as a flat array (filled by each game's ``encode``)
# --------------------------------------------------------------------------------------
PARAMS = Layout(
    ("players", 1), ("first_dealer", 1), ("bidding", 1), ("pass_hands", 1),
    ("pass_offset", 1), ("bouts_owner", 1), ("excuse_exchange", 1), ("excuse_with_trick", 1),
    ("petit_au_bout_to", 1), ("petit_au_bout_penalty", 1), ("use_poignee", 1),
    ("use_chelem", 1), ("petit_sec_annul", 1), ("num_deals", 1), ("loss_threshold", 1),
    ("dog_to", 1),
)
# P_BIDDING: 0: the taré, every seat for himself
# P_LOSS_THRESHOLD: card points; 0: none
(P_PLAYERS, P_FIRST_DEALER, P_BIDDING, P_PASS_HANDS, P_PASS_OFFSET, P_BOUTS_OWNER,
 P_EXCUSE_EXCHANGE, P_EXCUSE_WITH_TRICK, P_PETIT_AU_BOUT_TO, P_PETIT_AU_BOUT_PENALTY, P_USE_POIGNEE,
 P_USE_CHELEM, P_PETIT_SEC_ANNUL, P_NUM_DEALS, P_LOSS_THRESHOLD, P_DOG_TO) = PARAMS.offsets()

RANDOM_DEALER = -1
# bouts_owner: who keeps an oudler played to a trick
BOUTS_STANDARD, BOUTS_PLAYER_CAMP, BOUTS_DEALT_HOLDER = 0, 1, 2
# petit_au_bout_to: whose camp the petit au bout counts for
PB_TRICK_WINNER_CAMP, PB_PLAYER_CAMP = 0, 1
# dog_to (taré): who scores the dog's points
DOG_NONE, DOG_LAST_TRICK_WINNER, DOG_FIRST_TRICK_WINNER = 0, 1, 2

# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("deal", 1), ("first_dealer", 1), ("dealer", 1), ("cards", 1),
    ("current", 1), ("first_leader", 1), ("trick", 1), ("played", 1), ("decisions", 1),
    ("deals_played", 1), ("bids_made", 1), ("contract", 1), ("taker", 1), ("partner", 1),
    ("called_card", 1), ("chelem_declared", 1), ("discards", 1), ("passes", 1),
    ("excuse_owner", 1), ("excuse_trick_winner", 1), ("petit_trick", 1),
    ("petit_winner", 1), ("petit_player", 1), ("excuse_won_last", 1), ("annulled", 1),
    ("taker_points", 1), ("taker_oudlers", 1), ("made", 1), ("stake", 1),
    ("petit_au_bout", 1), ("chelem", 1), ("trick_winner", 1),
    ("location", DECK_CARDS),           # where each card is (LOC_* below)
    ("known", DECK_CARDS),              # bit p: seat p knows where the card is
    ("hand_size", MAX_PLAYERS),
    ("bid", MAX_PLAYERS),               # -1: not spoken; 0: pass; else the contract bid
    ("poignee", MAX_PLAYERS),           # level shown this deal (0: none)
    ("has_played", MAX_PLAYERS),        # 1 once the seat has played a card this deal
    ("tricks", MAX_PLAYERS),            # tricks won this deal
    ("taken", MAX_PLAYERS),             # half points in the seat's won pile this deal
    ("points", MAX_PLAYERS),            # the deal's score (half points)
    ("score", MAX_PLAYERS),             # running total (half points)
    ("trick_seat", MAX_PLAYERS), ("trick_card", MAX_PLAYERS),
    ("trick_suit", MAX_PLAYERS), ("trick_strength", MAX_PLAYERS),
    # figures for results
    ("player_decisions", MAX_PLAYERS), ("takes", MAX_PLAYERS), ("made_total", MAX_PLAYERS),
    ("tricks_total", MAX_PLAYERS), ("poignees", MAX_PLAYERS), ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
(PHASE, _, FIRST_DEALER, DEALER, CARDS, CURRENT, FIRST_LEADER, TRICK, PLAYED, DECISIONS,
 DEALS_PLAYED, BIDS_MADE, CONTRACT, TAKER, PARTNER, CALLED_CARD, CHELEM_DECLARED, DISCARDS, PASSES,
 EXCUSE_OWNER, EXCUSE_TRICK_WINNER, PETIT_TRICK, PETIT_WINNER, PETIT_PLAYER, EXCUSE_WON_LAST,
 ANNULLED, TAKER_POINTS, TAKER_OUDLERS, MADE, STAKE, _, CHELEM, TRICK_WINNER, LOCATION, KNOWN,
 HAND_SIZE, BID, POIGNEE, HAS_PLAYED, TRICKS, TAKEN, POINTS, SCORE, TRICK_SEAT, TRICK_CARD,
 TRICK_SUIT, TRICK_STRENGTH, PLAYER_DECISIONS, TAKES, MADE_TOTAL, TRICKS_TOTAL, POIGNEES,
 RANK) = STATE.offsets()
TRICK_FIELDS = tricks.trick_fields(STATE)
RULES = Tag(__name__)                # the family's steps, specialised for this game
FAMILY = tricks                      # legal_actions and apply_action: the family's
DEAL_INDEX = STATE.offset("deal")
ROUND = DEAL_INDEX                   # the names engines.families.tricks.game reads
ROUNDS_PLAYED = DEALS_PLAYED
PETIT_AU_BOUT_SIGN = STATE.offset("petit_au_bout")

# phases
DEAL, PETIT_SEC, BIDDING, CALLING, ECART, CHELEM_CHOICE, PLAYING, OVER = range(8)


@njit(cache=True)
def chance_pending(s):
    """Whether a deal is due (the game's only chance step)."""
    return s[PHASE] == DEAL

# why a deal was not played
PLAYED_OUT, ALL_PASSED, PETIT_SEC_ANNULLED = 0, 1, 2
NOBODY = -1
PARTNER_UNKNOWN = -2                 # only in observations: the called card is still hidden

# card locations
LOC_DOG = 0                          # the dog (chien), face down
LOC_ECART = LOC_DOG + 1              # the taker's discards
LOC_HAND = LOC_ECART + 1             # + player
LOC_TRICK = LOC_HAND + MAX_PLAYERS   # in the trick in progress
LOC_WON = LOC_TRICK + 1              # + player: in that seat's won pile (public)
LOC_UNKNOWN = LOC_WON + MAX_PLAYERS  # only in observations: hidden from the observer
EVERYONE = (1 << MAX_PLAYERS) - 1    # the ``known`` bits of a card shown to all
SHOWN_IN_DOG = 1 << MAX_PLAYERS      # ``known`` flag: the card was in the dog shown to all

# --------------------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------------------
PLAY = 0                             # + card id
DISCARD = PLAY + DECK_CARDS          # + card id: put a card in the écart
PASS_BID = DISCARD + DECK_CARDS
BID_ACTION = PASS_BID                # + contract (1..4); + 0 is the pass
CALL = BID_ACTION + GARDE_CONTRE + 1  # + suit card id: the called King (Queen, ...)
DECLARE_CHELEM = CALL + TAROT_FIRST_TRUMP
NO_CHELEM = DECLARE_CHELEM + 1
SHOW_POIGNEE = NO_CHELEM + 1         # + level - 1 (simple, double, triple)
DECLARE_PETIT_SEC = SHOW_POIGNEE + 3
N_ACTIONS = DECLARE_PETIT_SEC + 1
OTHER_DECISIONS = DISCARD             # from here on, a decision other than a card played
# apply_action(s, pr, action) draws nothing: the chance that follows a decision waits
# for advance (see engines.core.streams)
APPLY_DRAWS = False
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


# --------------------------------------------------------------------------------------
# Seats and camps
# --------------------------------------------------------------------------------------
@njit(cache=True)
def holder(s, card):
    """The seat holding ``card`` (-1: nobody)."""
    location = s[LOCATION + card]
    if LOC_HAND <= location < LOC_TRICK:
        return location - LOC_HAND
    return NOBODY


@njit(cache=True)
def camp(s, pr, seat):
    """A seat's camp: ``ATTACK`` (the taker and his partner) or ``DEFENCE``; in the taré
    every seat is its own camp (the seat)."""
    if pr[P_BIDDING] == 0:
        return seat
    if seat == s[TAKER] or seat == s[PARTNER]:
        return ATTACK
    return DEFENCE


@njit(cache=True)
def dealt_seat(s, pr, seat):
    """The seat that was dealt the hand ``seat`` holds now (hands move under the Lorrain
    passing; otherwise the seat itself)."""
    players = pr[P_PLAYERS]
    return (seat - s[PASSES] * pr[P_PASS_OFFSET]) % players


# --------------------------------------------------------------------------------------
# Setup and the deal
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """A game before its first deal: every total 0, the first step is DEAL."""
    tricks.new_game(RULES, s, pr)
    clear_deal(s)


@njit(cache=True)
def clear_deal(s):
    """The deal's own figures back to their empty values."""
    for name in (TAKER, PARTNER, CALLED_CARD, EXCUSE_OWNER, EXCUSE_TRICK_WINNER, PETIT_TRICK,
                 PETIT_WINNER, PETIT_PLAYER, FIRST_LEADER):
        s[name] = NOBODY
    for name in (BIDS_MADE, CONTRACT, CHELEM_DECLARED, DISCARDS, PASSES,
                 EXCUSE_WON_LAST, ANNULLED, TAKER_POINTS, TAKER_OUDLERS, MADE, STAKE,
                 PETIT_AU_BOUT_SIGN, CHELEM):
        s[name] = 0
    tricks.clear_tricks(s, TRICK_FIELDS)
    for p in range(MAX_PLAYERS):
        s[BID + p] = -1
        s[POIGNEE + p] = 0
        s[HAS_PLAYED + p] = 0
        s[TAKEN + p] = 0
        s[POINTS + p] = 0


@njit(cache=True)
def deal(s, pr, rng):
    """Shuffle the 78 cards and deal each player his share from the dealer's left; the
    rest is the dog (dealt uniformly at random, A2).  The first dealer is drawn at random
    unless set; the deal passes left.  Then the Petit sec is declared (A2), the bidding
    opens, or (taré) play starts."""
    players = pr[P_PLAYERS]
    dealer = tricks.round_dealer(RULES, s, pr, rng)
    clear_deal(s)
    deck = stack_room(DECK_CARDS)
    shuffled_deck(rng, deck)
    for card in range(DECK_CARDS):
        s[LOCATION + card] = LOC_DOG
    s[CARDS] = HAND_CARDS[players]
    tricks.deal_hands(deck, s[DEALER], players, s[CARDS], s[LOCATION:LOCATION + DECK_CARDS],
                      LOC_HAND, s[HAND_SIZE:HAND_SIZE + MAX_PLAYERS])
    for card in range(DECK_CARDS):
        seat = holder(s, card)
        s[KNOWN + card] = 1 << seat if seat >= 0 else 0
    if pr[P_BIDDING] == 0:
        start_play(s, pr)
        return
    s[PHASE] = BIDDING
    s[CURRENT] = tricks.next_seat(dealer, players)
    if pr[P_PETIT_SEC_ANNUL] and petit_sec_holder(s, pr) >= 0:
        s[PHASE] = PETIT_SEC
        s[CURRENT] = petit_sec_holder(s, pr)


@njit(cache=True)
def advance(s, pr, rng):
    """Deal until a decision is due or the game is over."""
    tricks.deal_until_decision(RULES, s, pr, rng)


@njit(cache=True)
def petit_sec_holder(s, pr):
    """The seat that holds the Petit sec (-1: none)."""
    seat = holder(s, PETIT)
    return seat if seat >= 0 and petit_sec(s, seat) else NOBODY


@njit(cache=True)
def petit_sec(s, seat):
    """Whether ``seat`` holds the Petit as its only trump, without the Excuse."""
    if holder(s, PETIT) != seat or holder(s, EXCUSE) == seat:
        return False
    for card in range(PETIT + 1, EXCUSE):
        if holder(s, card) == seat:
            return False
    return True


# --------------------------------------------------------------------------------------
# The bids: one round from the dealer's left, each bid above the last (A3)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def highest_bid(s, pr):
    best = NO_CONTRACT
    for p in range(pr[P_PLAYERS]):
        best = max(best, s[BID + p])
    return best


@njit(cache=True)
def bid_actions(s, pr, out):
    """``pass``, then every contract above the highest bid so far, ascending."""
    out[0] = PASS_BID
    return tricks.list_bids(out, 1, BID_ACTION, highest_bid(s, pr) + 1, GARDE_CONTRE, -1)


@njit(cache=True)
def bid(s, pr, player, contract):
    players = pr[P_PLAYERS]
    s[BID + player] = contract
    s[BIDS_MADE] += 1
    if s[BIDS_MADE] < players:
        s[CURRENT] = tricks.next_seat(player, players)
        return
    best = highest_bid(s, pr)
    if best == NO_CONTRACT:
        s[ANNULLED] = ALL_PASSED
        end_of_deal(s, pr)
        return
    for p in range(players):
        if s[BID + p] == best:
            s[TAKER] = p
    s[CONTRACT] = best
    s[CURRENT] = s[TAKER]
    if players == 5:
        s[PHASE] = CALLING
    else:
        take_the_dog(s, pr)


# --------------------------------------------------------------------------------------
# Five players: the taker calls a King (a Queen if he holds the four Kings, ...)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def callable_rank(s, player):
    """The highest rank of which ``player`` does not hold all four cards."""
    rank = KING_RANK
    while rank > 1:
        held = 0
        for suit in range(SUITS):
            held += holder(s, suit * TAROT_SUIT_CARDS + rank - 1) == player
        if held < SUITS:
            return rank
        rank -= 1
    return rank


@njit(cache=True)
def call_actions(s, pr, out):
    """``call`` each card of the callable rank, suits ♥ ♦ ♠ ♣ (his own ones included: he
    then plays alone)."""
    rank = callable_rank(s, s[CURRENT])
    for suit in range(SUITS):
        out[suit] = CALL + suit * TAROT_SUIT_CARDS + rank - 1
    return SUITS


@njit(cache=True)
def partner_of(s, pr):
    """The partner: the seat dealt the called card (-1: the taker holds it or it is in
    the dog, and he plays alone)."""
    card = s[CALLED_CARD]
    if card < 0:
        return NOBODY
    location = s[LOCATION + card]
    if LOC_HAND <= location < LOC_TRICK:
        seat = dealt_seat(s, pr, location - LOC_HAND)
    elif location == LOC_TRICK or LOC_WON <= location < LOC_UNKNOWN:
        return s[PARTNER]
    else:
        return NOBODY
    return NOBODY if seat == s[TAKER] else seat


@njit(cache=True)
def call(s, pr, card):
    s[CALLED_CARD] = card
    s[PARTNER] = partner_of(s, pr)
    take_the_dog(s, pr)


# --------------------------------------------------------------------------------------
# The dog and the écart (A4)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def take_the_dog(s, pr):
    """Prise and garde: the dog is shown and goes to the taker, who then discards as many
    cards.  Garde sans and garde contre: nobody sees it."""
    taker = s[TAKER]
    if s[CONTRACT] <= GARDE:
        for card in range(DECK_CARDS):
            if s[LOCATION + card] == LOC_DOG:
                s[LOCATION + card] = LOC_HAND + taker
                s[KNOWN + card] = EVERYONE | SHOWN_IN_DOG
                s[HAND_SIZE + taker] += 1
        s[PHASE] = ECART
        s[CURRENT] = taker
    else:
        after_the_dog(s, pr)


@njit(cache=True)
def may_discard(s, card):
    """Whether ``card`` may go to the écart: not a King, an oudler or the called card."""
    return not (is_oudler(card) or card == s[CALLED_CARD] or rank_of(card) == KING_RANK)


@njit(cache=True)
def ecart_actions(s, pr, out):
    """``discard`` any card of the taker's hand but a King, an oudler or the called card;
    trumps only when nothing else is left to discard."""
    taker = s[CURRENT]
    n = 0
    for trumps in range(2):
        for card in range(DECK_CARDS):
            if holder(s, card) != taker or not may_discard(s, card):
                continue
            if (CARD_SUIT[card] == TRUMP) != (trumps == 1):
                continue
            out[n] = DISCARD + card
            n += 1
        if n > 0:
            return n
    return n


@njit(cache=True)
def discard(s, pr, player, card):
    """Put ``card`` in the écart (known to the taker; a trump is shown to everyone).  The
    others then know only that each card of the shown dog is in his hand or his écart."""
    s[LOCATION + card] = LOC_ECART
    if CARD_SUIT[card] == TRUMP:                # "any trump discarded is shown" (A4)
        s[KNOWN + card] |= EVERYONE
    for other in range(DECK_CARDS):             # which dog cards stay in hand is his secret
        if s[KNOWN + other] & SHOWN_IN_DOG and CARD_SUIT[other] != TRUMP:
            s[KNOWN + other] = (1 << player) | SHOWN_IN_DOG
    s[HAND_SIZE + player] -= 1
    s[DISCARDS] += 1
    if s[DISCARDS] == DOG_CARDS[pr[P_PLAYERS]]:
        after_the_dog(s, pr)


@njit(cache=True)
def after_the_dog(s, pr):
    if pr[P_USE_CHELEM]:
        s[PHASE] = CHELEM_CHOICE
        s[CURRENT] = s[TAKER]
    else:
        start_play(s, pr)


@njit(cache=True)
def choose_chelem(s, pr, declared):
    """The taker announces a chelem (he then leads the first trick) or not (A5)."""
    s[CHELEM_DECLARED] = declared
    start_play(s, pr)


@njit(cache=True)
def start_play(s, pr):
    """The first trick is led by the dealer's left, or by the chelem's declarer."""
    leader = tricks.next_seat(s[DEALER], pr[P_PLAYERS])
    if s[CHELEM_DECLARED]:
        leader = s[TAKER]
    s[FIRST_LEADER] = leader
    s[CURRENT] = leader
    s[PHASE] = PLAYING


# --------------------------------------------------------------------------------------
# The poignée, shown before the player's first card (A5)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def poignee_count(s, player):
    """Trumps the player could show: his trumps, plus the Excuse standing in for one."""
    count = 0
    for card in range(PETIT, EXCUSE + 1):
        count += holder(s, card) == player
    return count


@njit(cache=True)
def poignee_actions(s, pr, player, out, n):
    """``show poignée`` of each level the player's trumps allow, at his first card only."""
    if not pr[P_USE_POIGNEE] or s[HAS_PLAYED + player] or s[POIGNEE + player]:
        return n
    count = poignee_count(s, player)
    for level in range(1, 4):
        if count >= POIGNEE_TRUMPS[pr[P_PLAYERS], level]:
            out[n] = SHOW_POIGNEE + level - 1
            n += 1
    return n


@njit(cache=True)
def show_poignee(s, pr, player, level):
    """Show the required number of trumps, the lowest first; the Excuse only when the
    trumps alone fall short (showing it tells that no trump is left unshown)."""
    needed = POIGNEE_TRUMPS[pr[P_PLAYERS], level]
    s[POIGNEE + player] = level
    s[POIGNEES + player] += 1
    for card in range(PETIT, EXCUSE + 1):
        if needed > 0 and holder(s, card) == player:
            s[KNOWN + card] = EVERYONE
            needed -= 1


# --------------------------------------------------------------------------------------
# The tricks (A6)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def play_actions(s, pr, player, out):
    """``play`` each card the obligations allow (follow, trump, overtrump; the Excuse at
    any time), in card id order; then, before his first card, ``show poignée``."""
    k = tricks.legal_plays(RULES, s, player, CARD_SUIT, CARD_STRENGTH, TRUMP,
                           tricks.MUST_OVERTRUMP, out)
    return poignee_actions(s, pr, player, out, k)


@njit(cache=True)
def play(s, pr, player, card):
    played = tricks.lay_card(s, TRICK_FIELDS, player, card, CARD_SUIT[card],
                             CARD_STRENGTH[card], LOC_TRICK)
    s[KNOWN + card] = EVERYONE
    s[HAS_PLAYED + player] = 1
    if played == pr[P_PLAYERS]:
        end_of_trick(s, pr)
    else:
        s[CURRENT] = tricks.next_seat(player, pr[P_PLAYERS])


@njit(cache=True)
def won_every_trick(s, pr, seat):
    """Whether ``seat``'s camp has won every trick of the deal so far."""
    won = 0
    for p in range(pr[P_PLAYERS]):
        if camp(s, pr, p) == camp(s, pr, seat):
            won += s[TRICKS + p]
    return won == s[TRICK]


@njit(cache=True)
def winning_position(s, pr, last):
    """The highest trump, else the highest card of the suit led; the Excuse never wins,
    except when led to the last trick by a camp that has won every trick so far (the
    chelem rule, with a taker only)."""
    players = pr[P_PLAYERS]
    if (last and pr[P_BIDDING] and s[TRICK_CARD] == EXCUSE
            and won_every_trick(s, pr, s[TRICK_SEAT])):
        return 0
    return tricks.trick_winner(s[TRICK_SUIT:TRICK_SUIT + MAX_PLAYERS],
                               s[TRICK_STRENGTH:TRICK_STRENGTH + MAX_PLAYERS], players, TRUMP)


@njit(cache=True)
def keeper(s, pr, seat, winner, card, last):
    """The seat whose pile takes ``card`` played by ``seat`` to a trick won by ``winner``.

    The Excuse returns to its player (his camp then owes the winner's one 0.5 card), but
    in the last trick goes to the winner; under the taré rule it always goes to the winner.
    The Lorrain rule keeps every oudler with the camp of the seat that played it (or that
    was dealt it), the Excuse even in the last trick."""
    oudler = is_oudler(card)
    if card == EXCUSE and pr[P_EXCUSE_WITH_TRICK]:
        return winner
    if oudler and pr[P_BOUTS_OWNER] == BOUTS_PLAYER_CAMP:
        return seat
    if oudler and pr[P_BOUTS_OWNER] == BOUTS_DEALT_HOLDER:
        return dealt_seat(s, pr, seat)
    if card == EXCUSE and not last:
        return seat
    return winner


@njit(cache=True)
def end_of_trick(s, pr):
    """The winner's pile takes the trick (the oudlers as :func:`keeper` says); the winner
    leads the next trick, after the hands are passed (Lorrain)."""
    players = pr[P_PLAYERS]
    last = s[TRICK] == s[CARDS] - 1
    position = winning_position(s, pr, last)
    winner = s[TRICK_SEAT + position]
    if last and s[TRICK_CARD + position] == EXCUSE:
        s[EXCUSE_WON_LAST] = 1
    for i in range(players):
        card = s[TRICK_CARD + i]
        seat = s[TRICK_SEAT + i]
        pile = keeper(s, pr, seat, winner, card, last)
        s[LOCATION + card] = LOC_WON + pile
        s[TAKEN + pile] += CARD_POINTS[card]
        if card == EXCUSE and pile != winner:
            s[EXCUSE_OWNER] = pile
            s[EXCUSE_TRICK_WINNER] = winner
        if card == PETIT:
            s[PETIT_TRICK] = s[TRICK]
            s[PETIT_WINNER] = winner
            s[PETIT_PLAYER] = seat
    dog_to = pr[P_DOG_TO]
    if (dog_to == DOG_FIRST_TRICK_WINNER and s[TRICK] == 0) or (
            dog_to == DOG_LAST_TRICK_WINNER and last):
        for card in range(DECK_CARDS):
            if s[LOCATION + card] == LOC_DOG:
                s[LOCATION + card] = LOC_WON + winner
                s[KNOWN + card] = EVERYONE
                s[TAKEN + winner] += CARD_POINTS[card]
    s[TRICKS + winner] += 1
    s[TRICK_WINNER] = winner
    s[TRICK] += 1
    s[PLAYED] = 0
    if last:
        end_of_deal(s, pr)
        return
    if pr[P_PASS_HANDS]:
        pass_hands(s, pr)
    s[CURRENT] = winner


@njit(cache=True)
def pass_hands(s, pr):
    """Lorrain (B1): every player passes his whole hand to the seat ``pass_offset`` away;
    the receiver now knows each of its cards."""
    players = pr[P_PLAYERS]
    for card in range(DECK_CARDS):
        seat = holder(s, card)
        if seat >= 0:
            receiver = (seat + pr[P_PASS_OFFSET]) % players
            s[LOCATION + card] = LOC_HAND + receiver
            s[KNOWN + card] |= 1 << receiver
    sizes = stack_room(MAX_PLAYERS)
    copy_into(sizes, s[HAND_SIZE:HAND_SIZE + MAX_PLAYERS])
    for p in range(players):
        s[HAND_SIZE + (p + pr[P_PASS_OFFSET]) % players] = sizes[p]
    s[PASSES] += 1


# --------------------------------------------------------------------------------------
# The score of a deal (A7)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def camp_points(s, pr, side):
    """Half points of a camp's piles, the écart and dog as the contract says, and the
    Excuse's exchange card."""
    total = 0
    for p in range(pr[P_PLAYERS]):
        if camp(s, pr, p) == side:
            total += s[TAKEN + p]
    for card in range(DECK_CARDS):
        if s[LOCATION + card] == LOC_ECART or s[LOCATION + card] == LOC_DOG:
            total += CARD_POINTS[card] * (dog_camp(s) == side)
    return total + exchange(s, pr, side)


@njit(cache=True)
def dog_camp(s):
    """Who counts the écart or dog: the taker, but the defence under a garde contre."""
    return DEFENCE if s[CONTRACT] == GARDE_CONTRE else ATTACK


@njit(cache=True)
def exchange(s, pr, side):
    """+1 (a 0.5 card) for the camp that won the Excuse's trick, -1 for the camp that kept
    the Excuse, when they differ and the exchange applies."""
    owner, winner = s[EXCUSE_OWNER], s[EXCUSE_TRICK_WINNER]
    if owner < 0 or not pr[P_EXCUSE_EXCHANGE]:
        return 0
    owner_camp, winner_camp = camp(s, pr, owner), camp(s, pr, winner)
    if owner_camp == winner_camp:
        return 0
    return (side == winner_camp) - (side == owner_camp)


@njit(cache=True)
def camp_oudlers(s, pr, side):
    count = 0
    for card in (PETIT, TWENTY_ONE, EXCUSE):
        location = s[LOCATION + card]
        if LOC_WON <= location < LOC_UNKNOWN:
            count += camp(s, pr, location - LOC_WON) == side
        else:
            count += dog_camp(s) == side
    return count


@njit(cache=True)
def petit_au_bout(s, pr):
    """+1 / -1 when the Petit is in the last trick (the next-to-last when the Excuse won
    the last under a chelem) and counts for the attack / the defence; else 0."""
    last = s[CARDS] - 1 - s[EXCUSE_WON_LAST]
    if s[PETIT_TRICK] != last:
        return 0
    seat = s[PETIT_PLAYER] if pr[P_PETIT_AU_BOUT_TO] == PB_PLAYER_CAMP else s[PETIT_WINNER]
    return 1 if camp(s, pr, seat) == ATTACK else -1


@njit(cache=True)
def chelem_bonus(s, pr):
    """Announced and made +400, announced and failed -200, made unannounced +200, every
    trick to the defence -200 (A7.6)."""
    attack_tricks = 0
    for p in range(pr[P_PLAYERS]):
        attack_tricks += s[TRICKS + p] * (camp(s, pr, p) == ATTACK)
    if s[CHELEM_DECLARED]:
        return CHELEM_ANNOUNCED_MADE if attack_tricks == s[CARDS] else CHELEM_ANNOUNCED_FAILED
    if attack_tricks == s[CARDS]:
        return CHELEM_MADE
    if attack_tricks == 0:
        return CHELEM_DEFENCE
    return 0


@njit(cache=True)
def score_contract(s, pr):
    """The stake D each defender pays (A7): s·(25 + |P - T|)·m + PB·m + s·poignées +
    chelem; the taker gets it from every defender (a partner at five takes one share)."""
    players = pr[P_PLAYERS]
    points = camp_points(s, pr, ATTACK)
    oudlers = camp_oudlers(s, pr, ATTACK)
    target = 2 * THRESHOLD[oudlers]
    made = points >= target
    sign = 1 if made else -1
    base = CONTRACT_BASE + (abs(points - target) + 1) // 2
    m = MULTIPLIER[s[CONTRACT]]
    poignees = 0
    for p in range(players):
        poignees += POIGNEE_BONUS[s[POIGNEE + p]]
    pb = petit_au_bout(s, pr)
    chelem = chelem_bonus(s, pr) if pr[P_USE_CHELEM] else 0
    stake = sign * base * m + pb * PETIT_AU_BOUT * m + sign * poignees + chelem
    s[TAKER_POINTS] = points
    s[TAKER_OUDLERS] = oudlers
    s[MADE] = made
    s[STAKE] = stake
    s[PETIT_AU_BOUT_SIGN] = pb
    s[CHELEM] = chelem
    taker, partner = s[TAKER], s[PARTNER]
    defenders = 0
    for p in range(players):
        if camp(s, pr, p) == DEFENCE:
            s[POINTS + p] = -2 * stake
            defenders += 1
    if partner >= 0:
        s[POINTS + partner] = 2 * stake
        defenders -= 1
    s[POINTS + taker] = 2 * stake * defenders
    s[TAKES + taker] += 1
    s[MADE_TOTAL + taker] += made


@njit(cache=True)
def score_individual(s, pr):
    """The taré: each seat scores the card points it took (the Excuse's exchange between
    seats under the standard Excuse rule; +10 for taking the Petit in the last trick under
    ``petit_au_bout_penalty``)."""
    for p in range(pr[P_PLAYERS]):
        s[POINTS + p] = s[TAKEN + p] + exchange(s, pr, p)
    if pr[P_PETIT_AU_BOUT_PENALTY] and s[PETIT_TRICK] == s[CARDS] - 1:
        s[POINTS + s[PETIT_WINNER]] += 2 * PETIT_AU_BOUT


@njit(cache=True)
def end_of_deal(s, pr):
    """Score the deal (nothing after an all-pass or a Petit sec), then deal again or end
    the game after ``num_deals`` deals (or, taré, once a total reaches the threshold)."""
    if s[ANNULLED] == PLAYED_OUT:
        if pr[P_BIDDING]:
            score_contract(s, pr)
        else:
            score_individual(s, pr)
    finished = s[DEAL_INDEX] == pr[P_NUM_DEALS] - 1
    for p in range(pr[P_PLAYERS]):
        s[SCORE + p] += s[POINTS + p]
        s[TRICKS_TOTAL + p] += s[TRICKS + p]
        threshold = pr[P_LOSS_THRESHOLD]
        if threshold > 0 and s[SCORE + p] >= 2 * threshold:
            finished = True
    tricks.next_deal(RULES, s, pr, finished)


@njit(cache=True)
def final_ranking(s, pr):
    """The highest total wins (taré: the lowest); equal totals share a rank."""
    rank_and_end(RULES, s, s[SCORE:SCORE + MAX_PLAYERS], pr[P_PLAYERS], pr[P_BIDDING] == 0)


@njit(cache=True)
def annul_petit_sec(s, pr):
    """The Petit sec is shown and the deal annulled; the next dealer deals (A2)."""
    s[KNOWN + PETIT] = EVERYONE
    s[ANNULLED] = PETIT_SEC_ANNULLED
    end_of_deal(s, pr)


# --------------------------------------------------------------------------------------
# The game loop's entry points: decisions, their effects, chance steps
# --------------------------------------------------------------------------------------
@njit(cache=True)
def other_actions(s, pr, out):
    """Write the legal codes of the decisions besides the bids and the cards into ``out``;
    return their count."""
    phase = s[PHASE]
    if phase == ECART:
        return ecart_actions(s, pr, out)
    if phase == CALLING:
        return call_actions(s, pr, out)
    if phase == CHELEM_CHOICE:
        return two_actions(out, NO_CHELEM, DECLARE_CHELEM)
    if phase == PETIT_SEC:
        out[0] = DECLARE_PETIT_SEC
        return 1
    return 0


@njit(cache=True)
def other_decision(s, pr, player, action):
    """Play ``player``'s legal decision ``action`` other than a card played."""
    if action < PASS_BID:
        discard(s, pr, player, action - DISCARD)
    elif action < CALL:
        bid(s, pr, player, action - BID_ACTION)
    elif action < DECLARE_CHELEM:
        call(s, pr, action - CALL)
    elif action < SHOW_POIGNEE:
        choose_chelem(s, pr, action == DECLARE_CHELEM)
    elif action < DECLARE_PETIT_SEC:
        show_poignee(s, pr, player, action - SHOW_POIGNEE + 1)
    else:
        annul_petit_sec(s, pr)


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hidden_from(s, player, card):
    """Whether ``player`` cannot know where ``card`` is: in the dog, the écart or a hand,
    and never seen there by him (his own cards, the shown dog, shown trumps, the hands he
    held under the Lorrain passing)."""
    location = s[LOCATION + card]
    if location >= LOC_TRICK:
        return False
    return (s[KNOWN + card] >> player) & 1 == 0


@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: hidden cards' locations (and who else
    knows them) are unknown, and so is the partner while the called card is hidden."""
    copy_into(out, s)
    for card in range(DECK_CARDS):
        if hidden_from(s, player, card):
            out[LOCATION + card] = LOC_UNKNOWN
            out[KNOWN + card] = s[KNOWN + card] & SHOWN_IN_DOG
    called = s[CALLED_CARD]
    if called >= 0 and player != s[PARTNER] and hidden_from(s, player, called):
        out[PARTNER] = PARTNER_UNKNOWN


@njit(cache=True)
def knowers(s, pr, location):
    """The ``known`` bits of a hidden card re-dealt to ``location``: the seats that held
    that hand (its holder, and under the Lorrain passing the seats it came through), the
    taker for the écart, nobody for the dog."""
    if location == LOC_ECART:
        return 1 << s[TAKER]
    if location == LOC_DOG:
        return 0
    players = pr[P_PLAYERS]
    seat = location - LOC_HAND
    bits = 0
    for j in range(min(s[PASSES], players - 1) + 1):
        bits |= 1 << ((seat - j * pr[P_PASS_OFFSET]) % players)
    return bits


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the cards
    hidden from them re-dealt at random among the places they cannot see (hands, and the
    dog or the écart, same sizes), and the partner read from the new place of the called
    card.  Hidden cards of the shown dog go back among the taker's hidden cards and his
    écart, and the écart takes no King, oudler or called card.

    The hidden cards are gathered in id order before they are shuffled, so for a given
    ``rng`` the result depends only on what ``player`` may know."""
    copy_into(out, s)
    taker_hand = NOBODY                 # where the taker's hand is now (it moves, Lorrain)
    if s[TAKER] >= 0:
        taker_hand = LOC_HAND + (s[TAKER] + s[PASSES] * pr[P_PASS_OFFSET]) % pr[P_PLAYERS]
    dog_seen = stack_room(DECK_CARDS)
    others = stack_room(DECK_CARDS)
    slots = stack_room(DECK_CARDS)          # the hidden places, in order
    a = b = 0
    taker_slots = 0
    for card in range(DECK_CARDS):
        if hidden_from(s, player, card):
            if s[KNOWN + card] & SHOWN_IN_DOG:
                dog_seen[a] = card
                a += 1
            else:
                others[b] = card
                b += 1
            location = s[LOCATION + card]
            taker_slots += location == LOC_ECART or location == taker_hand
    n = 0
    for location in range(LOC_TRICK):                     # the écart and the taker's hand first
        if location == LOC_ECART or location == taker_hand:
            n = fill_slots(s, player, location, slots, n)
    for location in range(LOC_TRICK):
        if not (location == LOC_ECART or location == taker_hand):
            n = fill_slots(s, player, location, slots, n)
    shuffle(rng, others[:b])
    pool = stack_room(DECK_CARDS)
    for i in range(a):
        pool[i] = dog_seen[i]
    for i in range(a, taker_slots):
        pool[i] = others[i - a]
    shuffle(rng, pool[:taker_slots])
    for i in range(taker_slots):                          # the écart's slots come first
        if slots[i] == LOC_ECART and not may_discard(s, pool[i]):
            for j in range(i + 1, taker_slots):
                if may_discard(s, pool[j]):
                    pool[i], pool[j] = pool[j], pool[i]
                    break
    for i in range(taker_slots, n):                       # (n - a == b: every hidden card)
        pool[i] = others[i - a]
    for i in range(n):
        out[LOCATION + pool[i]] = slots[i]
        out[KNOWN + pool[i]] = knowers(s, pr, slots[i]) | (s[KNOWN + pool[i]] & SHOWN_IN_DOG)
    if s[CALLED_CARD] >= 0 and hidden_from(s, player, s[CALLED_CARD]):
        out[PARTNER] = partner_of(out, pr)


@njit(cache=True)
def fill_slots(s, player, location, slots, n):
    """Append to ``slots[n:]`` one entry per card hidden from ``player`` at ``location``."""
    for card in range(DECK_CARDS):
        if s[LOCATION + card] == location and hidden_from(s, player, card):
            slots[n] = location
            n += 1
    return n
