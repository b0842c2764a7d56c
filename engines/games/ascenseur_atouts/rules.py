"""Ascenseur aux atouts: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/ascenseur-atouts.md`` and the French source text.  The
sections below follow the rulebook: components, the deal, the bids (with the hook), the
tricks, the score of a hand, the sequence of hands and tours, the end of the game.  The
Python API (:mod:`engines.games.ascenseur_atouts.game`) calls these functions; no rule exists
anywhere else.  Seats, legal cards and the winner of a trick come from the shared
:mod:`engines.families.tricks.rules`, fed with this game's data: every trump has the one suit
``TRUMP``, so any card may be played to any trick, and the strongest card wins.

Mechanics: the state is one flat int32 array (``STATE`` names its fields); a game advances by
decisions (``legal_actions`` / ``apply_action``) and one chance step, the deal of each hand
(``deal``), drawn from the game's chance stream through :mod:`engines.core.chance`.

Readings of the text that the spec leaves implicit (each documented where it is coded):

* A bid is 0 .. c (the text: "n'importe quel nombre : 0,1,2,..."; more than c tricks cannot
  be won).
* The blind hand's "take" / "not take" are the bids 1 / 0; its "there must be a loser"
  ("il faut forcément qu'il y ait un perdant") is the hook on the last announcer (C2).
* In the blind hand every player plays the one card they hold; a player still decides it
  (one legal action).  The player whose turn it is to play knows their card (they take it
  down to play it, and the legal action names it); playing it shows it to everyone.  Under
  ``blind_excuse=owner-chooses`` its owner declares it high or low as it is played.
* Error points are counted, not wrapped around the 14-card pile: a player who passes the As
  in the final hand has more error points than one who reaches it exactly, and the winner is
  the player with the fewest (the "plus petite carte" of the text).
* Every trick of every hand is a decision for each player, even with a single card left.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.chance import shuffled_deck
from engines.core.compiled import count_decision, rank_and_end
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import Tag
from engines.families.tricks import rules as tricks
from engines.games.ascenseur_atouts.params import MAX_PLAYERS, PLAY_CARDS, AscenseurParams

# --------------------------------------------------------------------------------------
# Components: the 21 trumps (ids 0..20 for 1..21) and the Excuse (id 21)
# --------------------------------------------------------------------------------------
TRUMPS = 21
EXCUSE = TRUMPS
TRUMP = 0                                    # the one suit every trump belongs to
# The suit a card follows by (the Excuse has none: it may always be played) ...
CARD_SUIT = np.array([TRUMP] * TRUMPS + [tricks.NO_SUIT], dtype=np.int64)
# ... and its strength in a trick: trump n is worth n; the Excuse is declared above the 21
# or below the 1 when it is played.
STRENGTH = np.arange(1, PLAY_CARDS + 1, dtype=np.int64)
EXCUSE_HIGH_STRENGTH = TRUMPS + 1
EXCUSE_LOW_STRENGTH = 0
MAX_BID = PLAY_CARDS // 2                    # the most cards a hand can have (2 players)
BLIND_CARDS = 1                              # the last hand of a tour is played blind
DECK_CARDS = PLAY_CARDS                      # the name engines.families.tricks.game reads

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see AscenseurParams for their meaning)
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("start_cards", 1), ("target_errors", 1), ("first_dealer", 1),
                ("hook", 1), ("blind_excuse", 1), ("ending", 1), ("ties", 1))
(P_PLAYERS, P_START_CARDS, P_TARGET_ERRORS, P_FIRST_DEALER, P_HOOK, P_BLIND_EXCUSE,
 P_ENDING, P_TIES) = PARAMS.offsets()

HOOK_ALL_HANDS, HOOK_SIGHTED_HANDS = 0, 1
BLIND_EXCUSE_HIGHEST, BLIND_EXCUSE_OWNER_CHOOSES = 0, 1
ENDING_HAND, ENDING_ROUND_OF_DEALERS = 0, 1
TIES_SHARED, TIES_LAST_HAND = 0, 1

_CODES = {
    "hook": {"all-hands": HOOK_ALL_HANDS, "sighted-hands": HOOK_SIGHTED_HANDS},
    "blind_excuse": {"highest": BLIND_EXCUSE_HIGHEST,
                     "owner-chooses": BLIND_EXCUSE_OWNER_CHOOSES},
    "ending": {"hand": ENDING_HAND, "round-of-dealers": ENDING_ROUND_OF_DEALERS},
    "ties": {"shared": TIES_SHARED, "last-hand": TIES_LAST_HAND},
}


def encode_params(params: AscenseurParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    codes = {key: codes[getattr(params, key)] for key, codes in _CODES.items()}
    return PARAMS.encode(players=params.players, start_cards=params.start_cards,
                         target_errors=params.target_errors, first_dealer=params.first_dealer,
                         **codes)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("hand", 1), ("tour", 1), ("dealer", 1), ("cards", 1), ("blind", 1),
    ("current", 1), ("leader", 1), ("trick", 1), ("played", 1), ("bids_made", 1),
    ("bid_total", 1), ("decisions", 1), ("hands_played", 1), ("excuse_player", 1),
    ("location", PLAY_CARDS),           # where each card is (LOC_* below)
    ("hand_size", MAX_PLAYERS),
    ("bid", MAX_PLAYERS),               # -1 = not yet announced this hand
    ("bid_position", MAX_PLAYERS),      # 0 for the first to bid (left of the dealer)
    ("tricks", MAX_PLAYERS),            # tricks won this hand
    ("hand_error", MAX_PLAYERS),        # |bid - tricks| of the last hand scored
    ("errors", MAX_PLAYERS),            # error points: cards moved under the score pile
    *tricks.trick_table(MAX_PLAYERS),
    # figures for results
    ("player_decisions", MAX_PLAYERS), ("exact_bids", MAX_PLAYERS),
    ("tricks_total", MAX_PLAYERS), ("excuses_played", MAX_PLAYERS), ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
(PHASE, HAND, TOUR, DEALER, CARDS, BLIND, CURRENT, LEADER, TRICK, PLAYED, BIDS_MADE, BID_TOTAL,
 DECISIONS, HANDS_PLAYED, EXCUSE_PLAYER, LOCATION, HAND_SIZE, BID, BID_POSITION, TRICKS, HAND_ERROR,
 ERRORS, TRICK_SEAT, TRICK_CARD, TRICK_SUIT, TRICK_STRENGTH, TRICK_WINNER, PLAYER_DECISIONS,
 EXACT_BIDS, TRICKS_TOTAL, EXCUSES_PLAYED, RANK) = STATE.offsets()
TRICK_FIELDS = tricks.trick_fields(STATE)
ROUND = HAND                         # the names engines.families.tricks.game reads
ROUNDS_PLAYED = HANDS_PLAYED
RULES = Tag(__name__)                # the family's steps, specialised for this game
FAMILY = tricks                       # legal_actions: the family's, for this game

# phases
DEAL, BIDDING, PLAYING, OVER = 0, 1, 2, 3


@njit(cache=True)
def chance_pending(s):
    """Whether a deal is due (the game's only chance step)."""
    return s[PHASE] == DEAL


# card locations
LOC_ASIDE = 0                        # set aside for this hand (hidden from everyone)
LOC_HAND = LOC_ASIDE + 1             # + player
LOC_TRICK = LOC_HAND + MAX_PLAYERS   # in the trick in progress
LOC_PLAYED = LOC_TRICK + 1           # played to an earlier trick of this hand
LOC_UNKNOWN = LOC_PLAYED + 1         # only in observations: hidden from the observer

# --------------------------------------------------------------------------------------
# Actions: play a trump, play the Excuse high or low, bid b, take / not take (blind hand)
# --------------------------------------------------------------------------------------
PLAY = 0                                # + trump id (0..20 for trumps 1..21)
EXCUSE_HIGH = PLAY + EXCUSE
EXCUSE_LOW = EXCUSE_HIGH + 1
BID_ACTION = EXCUSE_LOW + 1             # + b, b = 0 .. MAX_BID
NOT_TAKE = BID_ACTION + MAX_BID + 1     # the blind hand's bid 0
TAKE = NOT_TAKE + 1                     # the blind hand's bid 1
N_ACTIONS = TAKE + 1
# apply_action(s, pr, action) draws nothing: the chance that follows a decision waits
# for advance (see engines.core.streams)
APPLY_DRAWS = False
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


# --------------------------------------------------------------------------------------
# The sequence of hands: tours of start_cards, ..., 2, 1 cards, one dealer per tour
# --------------------------------------------------------------------------------------
@njit(cache=True)
def cards_in_hand(pr, hand):
    """Cards per player in hand ``hand`` (0-based over the game): one fewer each hand of a
    tour, from ``start_cards`` down to 1."""
    start = pr[P_START_CARDS]
    return start - hand % start


@njit(cache=True)
def hook_applies(s, pr):
    """Whether the player about to bid is the last (the dealer) and bound by the hook (C2)."""
    if s[BIDS_MADE] != pr[P_PLAYERS] - 1:
        return False
    return pr[P_HOOK] == HOOK_ALL_HANDS or s[BLIND] == 0


@njit(cache=True)
def hook_forbidden(s, pr):
    """The one bid the hook forbids the dealer (the bids may not add up to the cards per
    player), or -1 when the hook does not apply."""
    if not hook_applies(s, pr):
        return -1
    return tricks.hook_forbidden(s[BIDS_MADE], pr[P_PLAYERS], s[CARDS], s[BID_TOTAL])


# --------------------------------------------------------------------------------------
# Setup and the deal
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """A game before its first deal: every score pile shows its 2, the first step is DEAL."""
    tricks.new_game(RULES, s, pr)
    s[EXCUSE_PLAYER] = -1
    tricks.clear_bids(RULES, s)


@njit(cache=True)
def deal(s, pr, rng):
    """Shuffle the 22 cards and deal c to each player, one at a time from the dealer's left;
    the rest are set aside.  The dealer is the tour's (the deal passes left after each
    tour); the 1-card hand is blind."""
    players = pr[P_PLAYERS]
    hand = s[HAND]
    s[TOUR] = hand // pr[P_START_CARDS]
    s[DEALER] = tricks.dealer_of_tour(pr[P_FIRST_DEALER], s[TOUR], players)
    c = cards_in_hand(pr, hand)
    s[BLIND] = 1 if c == BLIND_CARDS else 0
    deck = stack_room(PLAY_CARDS)
    shuffled_deck(rng, deck)
    tricks.deal_round(RULES, s, pr, deck, c, LOC_ASIDE)
    s[EXCUSE_PLAYER] = -1
    tricks.open_bidding(RULES, s, pr)


@njit(cache=True)
def advance(s, pr, rng):
    """Deal until a decision is due or the game is over."""
    tricks.deal_until_decision(RULES, s, pr, rng)


# --------------------------------------------------------------------------------------
# Bids: from the dealer's left, the dealer last and bound by the hook
# --------------------------------------------------------------------------------------
@njit(cache=True)
def bid_actions(s, pr, out):
    """``bid b`` for b = 0 .. c ascending (``not take``, ``take`` in the blind hand: the bids
    0 and 1), without the one the hook forbids the dealer."""
    first = NOT_TAKE if s[BLIND] == 1 else BID_ACTION
    return tricks.list_bids(out, 0, first, 0, s[CARDS], hook_forbidden(s, pr))


@njit(cache=True)
def bid(s, pr, player, b):
    """Announce ``b`` tricks; after the dealer's bid the first trick starts, led from the
    dealer's left."""
    tricks.bid_made(RULES, s, pr, player, b)


# --------------------------------------------------------------------------------------
# Tricks: any card, the highest wins; the Excuse is declared highest or lowest
# --------------------------------------------------------------------------------------
@njit(cache=True)
def play_actions(s, pr, player, out):
    """``play Tn`` for each trump in hand (ascending), then ``play Excuse high`` and
    ``play Excuse low`` if the player holds it (only ``high`` in the blind hand under
    ``blind_excuse=highest``)."""
    k = tricks.legal_plays(RULES, s, player, CARD_SUIT, STRENGTH, TRUMP, tricks.FOLLOW, out)
    # the Excuse, the last card, is played high (its own code: EXCUSE_HIGH) or low
    if k > 0 and out[k - 1] == EXCUSE_HIGH and (
            s[BLIND] == 0 or pr[P_BLIND_EXCUSE] == BLIND_EXCUSE_OWNER_CHOOSES):
        out[k] = EXCUSE_LOW
        k += 1
    return k


@njit(cache=True)
def play(s, pr, player, card, strength):
    """Put ``card`` in the trick with its strength (the Excuse's as declared); the player
    to the left follows, or the highest card wins the trick and its player leads the next
    one.  After the last trick of the hand, the hand is scored."""
    if card == EXCUSE:
        s[EXCUSE_PLAYER] = player
        s[EXCUSES_PLAYED + player] += 1
    # the Excuse, once declared, ranks as a trump
    if tricks.play_card(RULES, s, pr, player, card, TRUMP, strength, TRUMP):
        end_of_hand(s, pr)


# --------------------------------------------------------------------------------------
# The score of a hand, the next hand, the end of the game
# --------------------------------------------------------------------------------------
@njit(cache=True)
def closes_round_of_dealers(s, pr):
    """Whether the hand just played closes a round of dealers: the last hand of a tour dealt
    by the last seat in dealing order, after which every seat has dealt as many tours."""
    return (s[HAND] + 1) % (pr[P_START_CARDS] * pr[P_PLAYERS]) == 0


@njit(cache=True)
def end_of_hand(s, pr):
    """Each player's error |bid - tricks| moves that many cards under their score pile.
    When a pile has reached the As (``target_errors``) the game ends, at the end of this
    hand or (``ending=round-of-dealers``, C6) once a round of dealers closes; otherwise the
    next hand is dealt."""
    players = pr[P_PLAYERS]
    finished = False
    for p in range(players):
        error = abs(s[BID + p] - s[TRICKS + p])
        s[HAND_ERROR + p] = error
        s[ERRORS + p] += error
        s[TRICKS_TOTAL + p] += s[TRICKS + p]
        if error == 0:
            s[EXACT_BIDS + p] += 1
        if s[ERRORS + p] >= pr[P_TARGET_ERRORS]:
            finished = True
    if pr[P_ENDING] == ENDING_ROUND_OF_DEALERS and not closes_round_of_dealers(s, pr):
        finished = False
    tricks.next_deal(RULES, s, pr, finished)


@njit(cache=True)
def ranking_key(s, pr, player):
    """Lower is better: error points, then (``ties=last-hand``) the final hand's error."""
    key = s[ERRORS + player] * (PLAY_CARDS + 1)
    if pr[P_TIES] == TIES_LAST_HAND:
        key += s[HAND_ERROR + player]
    return key


@njit(cache=True)
def final_ranking(s, pr):
    """The lowest score pile (fewest error points) wins; equal keys share a rank (C3)."""
    keys = stack_room(MAX_PLAYERS, np.int64)
    for p in range(pr[P_PLAYERS]):
        keys[p] = ranking_key(s, pr, p)
    rank_and_end(RULES, s, keys, pr[P_PLAYERS], True)


# --------------------------------------------------------------------------------------
# The game loop's entry points: decisions, their effects, chance steps
# --------------------------------------------------------------------------------------
@njit(cache=True)
def apply_action(s, pr, action):
    """Play a legal action for the current player (legality is the caller's check)."""
    player = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    if action < EXCUSE_HIGH:
        play(s, pr, player, action - PLAY, STRENGTH[action - PLAY])
    elif action == EXCUSE_HIGH:
        play(s, pr, player, EXCUSE, EXCUSE_HIGH_STRENGTH)
    elif action == EXCUSE_LOW:
        play(s, pr, player, EXCUSE, EXCUSE_LOW_STRENGTH)
    elif action < NOT_TAKE:
        bid(s, pr, player, action - BID_ACTION)
    else:
        bid(s, pr, player, action - NOT_TAKE)


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hidden_from(s, player, card):
    """Whether ``player`` cannot see where ``card`` is: a set-aside card, another player's
    hand, or, in the blind hand, their own card (on their forehead) until it is their turn
    to play it: they take it down to play it, and their legal actions name it."""
    location = s[LOCATION + card]
    if location == LOC_ASIDE:
        return True
    if LOC_HAND <= location < LOC_TRICK:
        own = location == LOC_HAND + player
        if s[BLIND] == 0:
            return not own
        return own and not (s[PHASE] == PLAYING and s[CURRENT] == player)
    return False


@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: hidden cards' locations are unknown."""
    copy_into(out, s)
    for card in range(PLAY_CARDS):
        if hidden_from(s, player, card):
            out[LOCATION + card] = LOC_UNKNOWN


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the cards
    hidden from them re-dealt at random among the hands they cannot see (same sizes) and the
    set-aside cards."""
    observe(s, pr, player, out)
    tricks.redeal_unseen(s, out, LOCATION, PLAY_CARDS, LOC_UNKNOWN, LOC_HAND, LOC_ASIDE, rng,
                         stack_room(PLAY_CARDS), stack_room(MAX_PLAYERS))
