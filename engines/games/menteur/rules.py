"""Le menteur: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/menteur.md`` and the French source text.  The sections
follow the rulebook: components and the deal, the lead ("pose au milieu de la table une carte
face retournée, tout en annonçant la couleur"), the follow ("poser une carte à la même
couleur ... il est possible (et permis) de mentir"), the challenge ("menteur!": the card is
shown; a liar takes the pile and leads again, else the accuser takes it), the end.  The
Python API (:mod:`engines.games.menteur.game`) calls these functions.  Turn order and the turn cap
come from the shedding core (:mod:`engines.families.shedding.rules`).

Readings of the text (each coded where stated):

* The dealer is the last seat; every card is dealt one at a time from seat 0, who leads.
* The challenge window (A3, A4): after each card, every other player still in play is asked
  in turn from the layer's left (``caller_priority=random``: in a random order drawn from the
  chance stream) whether he calls; the first call closes the window.  Only the card just
  laid can be challenged; one may not pass one's turn to lay (A5).
* A lie is a card whose suit is not the announced one; a Joker is always a lie, or is true
  for any suit with ``joker_rule=wild`` (A1).
* Lie shown: "il remporte toutes les cartes posées sur la table ... et relance à la couleur de
  son choix".  Truth shown: the accuser takes the pile and (A2) leads a new pile, or the
  player after the layer leads (``after_truth=next_after_layer``).
* A player whose last card is not shown to be a lie (nobody calls, or the call shows the
  truth) is out: the first out wins (A6: an unchallenged lie wins too).  With
  ``play_to_last`` the others play on and the last holding cards loses; the pile stays and
  the next player follows it.
* The position can come back exactly: a player caught lying on his lead takes back the one
  card he laid and leads again with the hand he had (and more generally a pile taken back
  into the hands can leave every hand as it was); caught again with the same card, nothing
  has changed, not even the card last shown.  So a game ends as a cycle at
  the first repetition of its full position (see :func:`position_hash`;
  :mod:`engines.core.repetition`), with the cycle's length recorded.  A game reaching
  ``max_turns`` decisions is capped.  Both are ranked by the fewest cards in hand.
* Result: the first out ranks 1, the others share rank 2 (``play_to_last``: the order of
  going out); the score is minus the cards left in hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core import repetition
from engines.core.cards import RANKS_PER_SUIT, STANDARD_CARDS
from engines.core.chance import shuffle
from engines.core.compiled import count_decision, fill_pack, two_actions
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import Tag
from engines.families.shedding import rules as shedding
from engines.games.menteur.params import MAX_PLAYERS, MenteurParams

# --------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------
CARDS = STANDARD_CARDS + 2              # card ids 0..51, Jokers 52 and 53
SUITS = 4
LOWEST_RANK_32 = 7                      # the 32-card pack: 7 to Ace
NO_SUIT = -1


@njit(cache=True)
def suit_of(card):
    return card // RANKS_PER_SUIT if card < STANDARD_CARDS else NO_SUIT


# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see MenteurParams for their meaning)
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("in_deck", CARDS), ("joker_wild", 1),
                ("taker_leads", 1), ("random_priority", 1), ("play_to_last", 1),
                ("max_turns", 1))
(P_PLAYERS, P_IN_DECK, P_JOKER_WILD, P_TAKER_LEADS, P_RANDOM_PRIORITY, P_PLAY_TO_LAST,
 P_MAX_TURNS) = PARAMS.offsets()


def encode_params(params: MenteurParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    in_deck = [params.deck == 54 if card >= STANDARD_CARDS
               else params.deck != 32 or card % RANKS_PER_SUIT + 2 >= LOWEST_RANK_32
               for card in range(CARDS)]
    return PARAMS.encode(players=params.players, in_deck=in_deck,
                         joker_wild=params.joker_rule == "wild",
                         taker_leads=params.after_truth == "taker_leads",
                         random_priority=params.caller_priority == "random",
                         play_to_last=params.play_to_last, max_turns=params.max_turns)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("current", 1), ("decisions", 1), ("turns", 1), ("suit", 1),
    ("layer", 1), ("window", 1), ("window_len", 1), ("window_order", MAX_PLAYERS),
    ("active", 1), ("finished", 1), ("ending", 1), ("unseen", 1),
    ("pile_len", 1), ("pile", CARDS), ("pile_owner", CARDS),
    ("hand", MAX_PLAYERS * CARDS), ("hand_size", MAX_PLAYERS), ("out", MAX_PLAYERS),
    *repetition.FIELDS,                 # the positions seen, a cycle's length
    ("revealed", 1),                    # the last card shown by a call (-1: none yet)
    # figures for results
    ("challenges", 1), ("unchallenged_lies", 1), ("won_on_lie", 1), ("largest_pile", 1),
    ("player_decisions", MAX_PLAYERS), ("lays", MAX_PLAYERS), ("lies", MAX_PLAYERS),
    ("calls", MAX_PLAYERS), ("correct_calls", MAX_PLAYERS), ("caught", MAX_PLAYERS),
    ("piles_taken", MAX_PLAYERS), ("cards_taken", MAX_PLAYERS),
    ("score", MAX_PLAYERS), ("rank", MAX_PLAYERS),
    ("pool", CARDS),                    # observations: the cards the seat cannot see
)
STATE_SIZE = STATE.size
(PHASE, CURRENT, DECISIONS, TURNS, SUIT, LAYER, WINDOW, WINDOW_LEN, WINDOW_ORDER, ACTIVE, FINISHED,
 ENDING, UNSEEN, PILE_LEN, PILE, PILE_OWNER, HAND, HAND_SIZE, OUT, POSITION_HASHES,
 POSITIONS_SEEN, BRENT_HASH, BRENT_STEPS, BRENT_POWER, CYCLE_LENGTH, REVEALED, CHALLENGES,
 UNCHALLENGED_LIES, WON_ON_LIE, LARGEST_PILE, PLAYER_DECISIONS, LAYS, LIES, CALLS, CORRECT_CALLS,
 CAUGHT, PILES_TAKEN, CARDS_TAKEN, SCORE, RANK, POOL) = STATE.offsets()
RULES = Tag(__name__)                # the family's and the core's steps, for this game
HIDDEN = -1                             # a face-down card the observer did not lay

# Phases.  SETUP is the deal; LEAD, FOLLOW and WINDOW wait for a decision.
SETUP, LEAD, FOLLOW, WINDOW_PHASE, OVER = 0, 1, 2, 3, 4

# Actions: lead(card, announced suit), follow(card), call "menteur!", no call.
LEAD_ACTION = 0                         # + 4 * card + suit
FOLLOW_ACTION = SUITS * CARDS           # + card
CALL_ACTION = FOLLOW_ACTION + CARDS
NO_CALL_ACTION = CALL_ACTION + 1
N_ACTIONS = NO_CALL_ACTION + 1
APPLY_DRAWS = True      # apply_action(s, pr, action, rng) draws the chance after a decision
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def is_lie(pr, card, suit):
    """A card not of the announced suit; a Joker always (A1: true with ``joker_rule=wild``)."""
    if card >= STANDARD_CARDS:
        return not pr[P_JOKER_WILD]
    return suit_of(card) != suit


# --------------------------------------------------------------------------------------
# Setup: "Les cartes sont distribuées entre les différents joueurs"
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """The state before the deal: the pack in order in the pile field."""
    s[:] = 0
    s[PILE_LEN] = fill_pack(s, PILE, pr[P_IN_DECK:P_IN_DECK + CARDS])
    s[ACTIVE] = pr[P_PLAYERS]
    s[SUIT] = NO_SUIT
    s[LAYER] = -1
    s[REVEALED] = -1
    s[PHASE] = SETUP
    repetition.forget(s, POSITION_HASHES)


@njit(cache=True)
def advance(s, pr, rng):
    """The deal, when it is due (phase ``SETUP``): shuffle and deal every card one at a time
    from seat 0, who leads."""
    if s[PHASE] != SETUP:
        return
    n = s[PILE_LEN]
    shuffle(rng, s[PILE:PILE + n])
    players = pr[P_PLAYERS]
    for i in range(n):
        p = i % players
        s[shedding.hand_at(HAND, CARDS, p) + s[PILE + i]] += 1
        s[HAND_SIZE + p] += 1
    s[PILE_LEN] = 0
    s[PILE:PILE + CARDS] = 0
    start_lead(s, 0)
    repetition.repeats(s, POSITION_HASHES, position_hash(s, pr))   # the first position


@njit(cache=True)
def start_lead(s, player):
    s[CURRENT] = player
    s[PHASE] = LEAD
    s[SUIT] = NO_SUIT
    s[TURNS] += 1


# --------------------------------------------------------------------------------------
# Laying a card face down
# --------------------------------------------------------------------------------------
@njit(cache=True)
def lay_actions(s, pr, player, out):
    """Leading: every card in hand with each announced suit ♥ ♦ ♠ ♣; following: every card
    in hand (the announcement is the pile's suit).  By card id."""
    h = shedding.hand_at(HAND, CARDS, player)
    n = 0
    for card in range(CARDS):
        if s[h + card] == 0:
            continue
        if s[PHASE] == LEAD:
            for suit in range(SUITS):
                out[n] = LEAD_ACTION + SUITS * card + suit
                n += 1
        else:
            out[n] = FOLLOW_ACTION + card
            n += 1
    return n


@njit(cache=True)
def lay(s, pr, player, card, rng):
    """The card goes face down on the pile; then the challenge window opens."""
    s[shedding.hand_at(HAND, CARDS, player) + card] -= 1
    s[HAND_SIZE + player] -= 1
    s[PILE + s[PILE_LEN]] = card
    s[PILE_OWNER + s[PILE_LEN]] = player
    s[PILE_LEN] += 1
    s[LAYER] = player
    s[LAYS + player] += 1
    s[LIES + player] += is_lie(pr, card, s[SUIT])
    open_window(s, pr, player, rng)


@njit(cache=True)
def open_window(s, pr, layer, rng):
    """Every other player in play, from the layer's left (A3: or in a random order), may say
    "menteur!" in turn."""
    n = 0
    p = layer
    for _ in range(s[ACTIVE] - 1):
        p = shedding.next_seat(s, OUT, pr[P_PLAYERS], p)
        s[WINDOW_ORDER + n] = p
        n += 1
    if pr[P_RANDOM_PRIORITY]:
        shuffle(rng, s[WINDOW_ORDER:WINDOW_ORDER + n])
    s[WINDOW_LEN] = n
    s[WINDOW] = 0
    s[PHASE] = WINDOW_PHASE
    s[CURRENT] = s[WINDOW_ORDER]


# --------------------------------------------------------------------------------------
# The challenge: "menteur!"
# --------------------------------------------------------------------------------------
@njit(cache=True)
def take_pile(s, player):
    """``player`` puts every card of the pile in his hand."""
    n = s[PILE_LEN]
    for i in range(n):
        s[shedding.hand_at(HAND, CARDS, player) + s[PILE + i]] += 1
    s[HAND_SIZE + player] += n
    s[PILES_TAKEN + player] += 1
    s[CARDS_TAKEN + player] += n
    s[LARGEST_PILE] = max(s[LARGEST_PILE], n)
    s[PILE_LEN] = 0


@njit(cache=True)
def no_call(s, pr):
    """The next player in the window is asked; nobody called: the layer, out of cards, is
    out, and the next player follows the pile."""
    s[WINDOW] += 1
    if s[WINDOW] < s[WINDOW_LEN]:
        s[CURRENT] = s[WINDOW_ORDER + s[WINDOW]]
        return
    layer = s[LAYER]
    last = s[PILE + s[PILE_LEN] - 1]
    lie = is_lie(pr, last, s[SUIT])
    s[UNCHALLENGED_LIES] += lie
    if s[HAND_SIZE + layer] == 0:
        if lie and s[FINISHED] == 0:
            s[WON_ON_LIE] = 1
        if shedding.go_out(s, OUT, FINISHED, ACTIVE, layer, pr[P_PLAY_TO_LAST]):
            finish(s, pr, shedding.FINISHED)
            return
    s[CURRENT] = shedding.next_seat(s, OUT, pr[P_PLAYERS], layer)
    s[PHASE] = FOLLOW
    s[TURNS] += 1


@njit(cache=True)
def call(s, pr, caller):
    """The card is shown.  A lie: the layer takes the pile and leads again.  The truth: the
    accuser takes the pile; he leads (A2: or the player after the layer)."""
    layer = s[LAYER]
    last = s[PILE + s[PILE_LEN] - 1]
    s[REVEALED] = last
    s[CHALLENGES] += 1
    s[CALLS + caller] += 1
    if is_lie(pr, last, s[SUIT]):
        s[CORRECT_CALLS + caller] += 1
        s[CAUGHT + layer] += 1
        take_pile(s, layer)
        start_lead(s, layer)
        return
    take_pile(s, caller)
    if s[HAND_SIZE + layer] == 0:
        if shedding.go_out(s, OUT, FINISHED, ACTIVE, layer, pr[P_PLAY_TO_LAST]):
            finish(s, pr, shedding.FINISHED)
            return
    if pr[P_TAKER_LEADS]:
        start_lead(s, caller)
    else:
        start_lead(s, shedding.next_seat(s, OUT, pr[P_PLAYERS], layer))


# --------------------------------------------------------------------------------------
# The end: "Le but du jeu est de se débarrasser de toutes ses cartes"
# --------------------------------------------------------------------------------------
@njit(cache=True)
def finish(s, pr, ending):
    """Ranks and scores (see :func:`engines.families.shedding.rules.rank_players`)."""
    shedding.rank_players(s, pr[P_PLAYERS], OUT, FINISHED, HAND_SIZE, SCORE, RANK, ending)
    shedding.end_game(RULES, s, ending)


# --------------------------------------------------------------------------------------
# The game loop's entry points
# --------------------------------------------------------------------------------------
@njit(cache=True)
def legal_actions(s, pr, out):
    """Write the current player's legal action codes into ``out``; return their count."""
    if s[PHASE] == WINDOW_PHASE:
        return two_actions(out, CALL_ACTION, NO_CALL_ACTION)
    if s[PHASE] == LEAD or s[PHASE] == FOLLOW:
        return lay_actions(s, pr, s[CURRENT], out)
    return 0


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """Play a legal action for the current player (legality is the caller's check); chance
    (a random calling order) draws from ``rng``.  The game ends as a cycle at the first
    repeated position, as capped at ``max_turns``."""
    player = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    if action == CALL_ACTION:
        call(s, pr, player)
    elif action == NO_CALL_ACTION:
        no_call(s, pr)
    elif action >= FOLLOW_ACTION:
        lay(s, pr, player, action - FOLLOW_ACTION, rng)
    else:
        s[SUIT] = (action - LEAD_ACTION) % SUITS
        lay(s, pr, player, (action - LEAD_ACTION) // SUITS, rng)
    if s[PHASE] == OVER:
        return
    if repetition.repeats(s, POSITION_HASHES, position_hash(s, pr)):
        finish(s, pr, shedding.CYCLE)
    elif shedding.capped(s, DECISIONS, pr[P_MAX_TURNS]):
        finish(s, pr, shedding.CAPPED)


@njit(cache=True)
def position_hash(s, pr):
    """The hash of the full position: whose turn in which phase, the announced suit, who is
    out, every hand, the pile in order with who laid each card, the last card shown by a call
    (every player saw it: a liar caught on his lead is back where he was, but the table now
    knows one of his cards); in the challenge window, the layer and the callers still to be
    asked.  Not the counters and figures."""
    h = repetition.START
    for field in (PHASE, CURRENT, SUIT, ACTIVE, FINISHED, REVEALED):
        h = repetition.mix(h, s[field])
    if s[PHASE] == WINDOW_PHASE:
        h = repetition.mix(h, s[LAYER])
        h = repetition.mix(h, s[WINDOW])
        h = repetition.mix_span(h, s, WINDOW_ORDER, s[WINDOW_LEN])
    h = repetition.mix_span(h, s, PILE, s[PILE_LEN])
    h = repetition.mix_span(h, s, PILE_OWNER, s[PILE_LEN])
    return shedding.hash_seats(h, s, OUT, HAND, CARDS, pr[P_PLAYERS])


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: his hand, the cards he laid in the pile,
    hand and pile sizes, every shown card and public figure.  The other hands are emptied
    (sizes kept), the pile cards others laid are ``HIDDEN``, and the cards he cannot see are
    listed, sorted, in ``pool`` (``unseen`` of them).  Cards he saw in a pile another player
    took are not tracked: the observation is coarser there than his memory could be."""
    copy_into(out, s)
    counts = stack_room(CARDS)
    counts[:] = 0
    for p in range(pr[P_PLAYERS]):
        if p != player:
            h = shedding.hand_at(HAND, CARDS, p)
            for card in range(CARDS):
                counts[card] += s[h + card]
                out[h + card] = 0
    for i in range(s[PILE_LEN]):
        if s[PILE_OWNER + i] != player:
            counts[s[PILE + i]] += 1
            out[PILE + i] = HIDDEN
    out[UNSEEN] = shedding.list_unseen(out, counts, POOL, CARDS)
    repetition.forget(out, POSITION_HASHES)


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the unseen
    cards shuffled into the hidden pile places and the other hands (sizes kept).  Starts from
    the observation, so for a given ``rng`` the result depends only on what ``player`` may
    know."""
    observe(s, pr, player, out)
    unseen = out[UNSEEN]
    shuffle(rng, out[POOL:POOL + unseen])
    for i in range(out[PILE_LEN]):
        if out[PILE + i] == HIDDEN:
            unseen -= 1
            out[PILE + i] = out[POOL + unseen]
    for p in range(pr[P_PLAYERS]):
        if p == player:
            continue
        for _ in range(out[HAND_SIZE + p]):
            unseen -= 1
            out[shedding.hand_at(HAND, CARDS, p) + out[POOL + unseen]] += 1
    out[POOL:POOL + CARDS] = 0
    out[UNSEEN] = 0
