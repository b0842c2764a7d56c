"""Rikiki: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/rikiki.md`` and the French source ("Le rikiki").  The
sections below follow the rulebook: components, the schedule of rounds, the deal and the
turned trump card, the bids, the tricks, the score of a round, the end of the game.  The
Python API (:mod:`engines.games.rikiki.game`) and the batch kernel (:mod:`sim.kernels.rikiki`) call
these functions; no rule exists anywhere else.  Seats, the deal, legal cards, the winner of a
trick and the hook come from the shared trick core :mod:`engines.families.tricks.rules`, fed
with this game's data (52 cards, A high, the turned card's suit as trump).

Mechanics: the state is one flat int32 array (``STATE`` names its fields); a game advances by
decisions (``legal_actions`` / ``apply_action``) and one chance step per round, the deal
(``deal``), drawn from the game's chance stream through :mod:`engines.core.chance`.  When no
``first_dealer`` is set, the first deal also draws the first dealer.

Readings of the text (each coded where it applies):

* "on distribue une carte au premier tour, deux au deuxième etc... jusqu'au maximum en
  fonction du nombre de joueurs. Puis on redescend jusqu'à 1 carte": 1..M..1, M once (A2),
  M = floor(51/n) so a card is left to turn (A1).
* "On retourne la carte du pot pour connaître l'atout": the top card of the stock after the
  deal is turned face up and its suit is trump; with no card left there is no trump.
* "chacun peut parier un pli": no restriction on the total of the bids (the hook is a
  variant, A5); bids 0..k (A3).
* "il perd dix points plus cinq points par pli d'écart": a missed bid costs
  10 + 5 |tricks - bid|, over or under (A8).
* Follow suit if able, otherwise any card (A4); the first dealer is drawn at random, the deal
  passes left and the player left of the dealer bids and leads first (A6); equal best totals
  share the win (A7).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.cards import RANKS_PER_SUIT
from engines.core.chance import shuffled_deck
from engines.core.compiled import rank_and_end
from engines.core.layout import Layout, stack_room
from engines.core.specialise import Tag
from engines.families.tricks import rules as tricks
from engines.games.rikiki.params import DECK_CARDS, MAX_BID, MAX_PLAYERS, MAX_ROUNDS, RikikiParams

# --------------------------------------------------------------------------------------
# Components: 52 cards, id = suit * 13 + (rank - 2) (engines.core.cards), A high in every suit
# --------------------------------------------------------------------------------------
CARD_SUIT = (np.arange(DECK_CARDS) // RANKS_PER_SUIT).astype(np.int64)
STRENGTH = (np.arange(DECK_CARDS) % RANKS_PER_SUIT).astype(np.int64)   # 2 -> 0 .. A -> 12
NO_CARD = -1

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see RikikiParams for their meaning)
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("rounds", 1), ("schedule", MAX_ROUNDS), ("overbid", 1),
                ("hook", 1), ("legality", 1), ("first_dealer", 1), ("made_base", 1),
                ("per_trick", 1), ("fail_base", 1), ("per_diff", 1))
(P_PLAYERS, P_ROUNDS, P_SCHEDULE, P_OVERBID, P_HOOK, P_LEGALITY, P_FIRST_DEALER, P_MADE_BASE,
 P_PER_TRICK, P_FAIL_BASE, P_PER_DIFF) = PARAMS.offsets()
RANDOM_DEALER = -1


def legality(params: RikikiParams) -> int:
    """The trick core's legality rule for ``must_trump`` / ``must_overtrump`` (A4)."""
    if params.must_trump:
        return tricks.MUST_OVERTRUMP if params.must_overtrump else tricks.MUST_TRUMP
    return tricks.MAY_TRUMP_BUT_OVER if params.must_overtrump else tricks.FOLLOW


def encode_params(params: RikikiParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    schedule = params.schedule()
    return PARAMS.encode(players=params.players, rounds=len(schedule), schedule=schedule,
                         overbid=params.allow_overbid, hook=params.hook_rule,
                         legality=legality(params),
                         first_dealer=(RANDOM_DEALER if params.first_dealer is None
                                       else params.first_dealer),
                         made_base=params.made_base, per_trick=params.per_trick,
                         fail_base=params.fail_base, per_diff=params.per_diff)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("round", 1), ("first_dealer", 1), ("dealer", 1), ("cards", 1),
    ("current", 1), ("first_leader", 1), ("leader", 1), ("trick", 1), ("played", 1),
    ("bids_made", 1), ("bid_total", 1), ("decisions", 1), ("rounds_played", 1),
    ("trump_card", 1), ("trump", 1),
    ("location", DECK_CARDS),           # where each card is (LOC_* below)
    ("hand_size", MAX_PLAYERS),
    ("bid", MAX_PLAYERS),               # -1 = not yet announced this round
    ("bid_position", MAX_PLAYERS),      # 0 for the first to bid (left of the dealer)
    ("tricks", MAX_PLAYERS),            # tricks won this round
    ("points", MAX_PLAYERS),            # the last scored round's points
    ("score", MAX_PLAYERS),             # running total
    *tricks.trick_table(MAX_PLAYERS),
    # figures for results
    ("player_decisions", MAX_PLAYERS), ("made_bids", MAX_PLAYERS),
    ("tricks_total", MAX_PLAYERS), ("bids_total", MAX_PLAYERS), ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
(PHASE, ROUND, FIRST_DEALER, DEALER, CARDS, CURRENT, FIRST_LEADER, LEADER, TRICK, PLAYED, BIDS_MADE,
 BID_TOTAL, DECISIONS, ROUNDS_PLAYED, TRUMP_CARD, TRUMP, LOCATION, HAND_SIZE, BID, BID_POSITION,
 TRICKS, POINTS, SCORE, TRICK_SEAT, TRICK_CARD, TRICK_SUIT, TRICK_STRENGTH, TRICK_WINNER,
 PLAYER_DECISIONS, MADE_BIDS, TRICKS_TOTAL, BIDS_TOTAL, RANK) = STATE.offsets()

TRICK_FIELDS = tricks.trick_fields(STATE)
RULES = Tag(__name__)                # the family's steps, specialised for this game
FAMILY = tricks      # legal_actions, apply_action, observe, determinize: the family's

# phases
DEAL, BIDDING, PLAYING, OVER = 0, 1, 2, 3


@njit(cache=True)
def chance_pending(s):
    """Whether a deal is due (the game's only chance step)."""
    return s[PHASE] == DEAL


# card locations
LOC_STOCK = 0                        # the rest of the pack, face down (hidden from everyone)
LOC_TURNED = LOC_STOCK + 1           # the turned trump card, face up
LOC_HAND = LOC_TURNED + 1            # + player
LOC_TRICK = LOC_HAND + MAX_PLAYERS   # in the trick in progress
LOC_PLAYED = LOC_TRICK + 1           # played to an earlier trick of this round
LOC_UNKNOWN = LOC_PLAYED + 1         # only in observations: hidden from the observer
FACE_DOWN = LOC_STOCK                # hidden from every seat (the family's observe)

# --------------------------------------------------------------------------------------
# Actions: play a card, bid b
# --------------------------------------------------------------------------------------
PLAY = 0                             # + card id
BID_ACTION = PLAY + DECK_CARDS       # + b, b = 0 .. MAX_BID
N_ACTIONS = BID_ACTION + MAX_BID + 1
# apply_action(s, pr, action) draws nothing: the chance that follows a decision waits
# for advance (see engines.core.streams)
APPLY_DRAWS = False
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)
assert N_ACTIONS >= DECK_CARDS + MAX_BID    # play_actions' scratch: a hand and its legal cards


# --------------------------------------------------------------------------------------
# Setup and the deal
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """A game before its first deal: every score 0, the first step is DEAL."""
    tricks.new_game(RULES, s, pr)
    s[TRUMP_CARD] = NO_CARD
    s[TRUMP] = tricks.NO_SUIT
    tricks.clear_bids(RULES, s)


@njit(cache=True)
def deal(s, pr, rng):
    """Shuffle the 52 cards and deal the round's k to each player, one at a time from the
    dealer's left; turn the top card of the stock: its suit is trump (none if no card is
    left).  The first dealer is drawn at random unless set; the deal passes left."""
    dealer = tricks.round_dealer(RULES, s, pr, rng)
    deck = stack_room(DECK_CARDS)
    shuffled_deck(rng, deck)
    dealt = tricks.deal_round(RULES, s, pr, deck, pr[P_SCHEDULE + s[ROUND]], LOC_STOCK)
    if dealt < DECK_CARDS:
        s[TRUMP_CARD] = deck[dealt]
        s[TRUMP] = CARD_SUIT[deck[dealt]]
        s[LOCATION + deck[dealt]] = LOC_TURNED
    else:
        s[TRUMP_CARD] = NO_CARD
        s[TRUMP] = tricks.NO_SUIT
    s[FIRST_LEADER] = tricks.next_seat(dealer, pr[P_PLAYERS])
    tricks.open_bidding(RULES, s, pr)


@njit(cache=True)
def advance(s, pr, rng):
    """Deal until a decision is due or the game is over."""
    tricks.deal_until_decision(RULES, s, pr, rng)


# --------------------------------------------------------------------------------------
# Bids: one each from the dealer's left, the dealer last
# --------------------------------------------------------------------------------------
@njit(cache=True)
def highest_bid(s, pr):
    """k, or MAX_BID under ``allow_overbid`` (A3)."""
    return MAX_BID if pr[P_OVERBID] else s[CARDS]


@njit(cache=True)
def bid_actions(s, pr, out):
    """``bid b`` for b = 0 .. k ascending, without the one the hook forbids the dealer when
    ``hook_rule`` is set (A5)."""
    forbidden = -1
    if pr[P_HOOK]:
        forbidden = tricks.hook_forbidden(s[BIDS_MADE], pr[P_PLAYERS], s[CARDS], s[BID_TOTAL])
    return tricks.list_bids(out, 0, BID_ACTION, 0, highest_bid(s, pr), forbidden)


@njit(cache=True)
def bid(s, pr, player, b):
    """Announce ``b`` tricks; after the dealer's bid the first trick is led from the
    dealer's left."""
    s[BIDS_TOTAL + player] += b
    tricks.bid_made(RULES, s, pr, player, b)


# --------------------------------------------------------------------------------------
# Tricks: follow suit if able; the highest trump, else the highest of the led suit, wins
# --------------------------------------------------------------------------------------
@njit(cache=True)
def play_actions(s, pr, player, out):
    """``play`` each legal card of the hand, in card id order (suits ♥ ♦ ♠ ♣, 2 .. A)."""
    return tricks.legal_plays(RULES, s, player, CARD_SUIT, STRENGTH, s[TRUMP], pr[P_LEGALITY],
                              out)


@njit(cache=True)
def play(s, pr, player, card):
    """Put ``card`` in the trick; the player to the left follows, or the highest trump,
    else the highest card of the led suit, wins the trick and its player leads the next.
    After the last trick the round is scored."""
    if tricks.play_card(RULES, s, pr, player, card, CARD_SUIT[card], STRENGTH[card], s[TRUMP]):
        end_of_round(s, pr)


# --------------------------------------------------------------------------------------
# The score of a round, the next round, the end of the game
# --------------------------------------------------------------------------------------
@njit(cache=True)
def round_points(pr, bid_, taken):
    """A made bid scores made_base + per_trick x tricks; a missed one loses
    fail_base + per_diff x |tricks - bid| (A8)."""
    if taken == bid_:
        return pr[P_MADE_BASE] + pr[P_PER_TRICK] * taken
    return -(pr[P_FAIL_BASE] + pr[P_PER_DIFF] * abs(taken - bid_))


@njit(cache=True)
def end_of_round(s, pr):
    """Score every player; after the schedule's last round the game ends, otherwise the next
    round is dealt."""
    players = pr[P_PLAYERS]
    for p in range(players):
        points = round_points(pr, s[BID + p], s[TRICKS + p])
        s[POINTS + p] = points
        s[SCORE + p] += points
        s[TRICKS_TOTAL + p] += s[TRICKS + p]
        if s[BID + p] == s[TRICKS + p]:
            s[MADE_BIDS + p] += 1
    tricks.next_deal(RULES, s, pr, s[ROUND] == pr[P_ROUNDS] - 1)


@njit(cache=True)
def final_ranking(s, pr):
    """The highest total wins; equal totals share a rank (A7)."""
    rank_and_end(RULES, s, s[SCORE:SCORE + MAX_PLAYERS], pr[P_PLAYERS], False)
