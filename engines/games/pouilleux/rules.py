"""Le pouilleux: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/pouilleux.md`` and the French source.  Sections follow the
rulebook: components (the pack without the J♣, same-colour pairs), setup (the deal, the
initial pairing), a turn (``draw`` a card from the left neighbour, lay a pair), the end (the
first empty hand wins, the holder of the last card loses).

Mechanics: the state is one flat int32 array (``STATE`` names its fields); cards are the ids of
:mod:`engines.core.cards`.  The neighbour's hand is shuffled before each draw, so the position the
drawer names is a uniformly random card; the shuffles and the deal draw from the game's chance
stream through :mod:`engines.core.chance`.

Readings the spec leaves open (each documented where it is coded):

* The first drawer is the dealer's left (``dealer + 1``), or the next seat with cards.
* ``holder_arranges``: when the neighbour about to be drawn from holds the pouilleux, he first
  ``place``s it at a position of his hand (his other cards in random order); otherwise the
  hand is shuffled as usual.
* Ranking: by the draw after which a hand emptied (earlier is better, the same draw ranks
  equal; the initial pairing counts as draw 0); the holder of the last card is last.  A game
  stopped by ``max_turns`` ranks the seats still holding cards equal, after the others.
* Observations show the seat's own hand, every hand's size, the laid pairs and the last card
  drawn to the two seats concerned (to all if it paired); the history of which cards a seat
  gave away earlier is not part of an observation, and a determinization redeals the unseen
  cards uniformly (a redealt hand may hold a pair the rules would have laid).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.chance import shuffle, uniform_index_jit
from engines.core.compiled import count_decision, count_positive
from engines.core.layout import Layout, copy_into, sort_field, stack_room
from engines.games.pouilleux.params import MAX_PLAYERS, PouilleuxParams

# --------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------
CARDS = 52
RANKS = 13
JACK_OF_CLUBS = 3 * RANKS + 9          # engines.core.cards: suit * 13 + rank - 2
MAX_HAND = 52
NO_CARD = -1


@njit(cache=True)
def partner(card):
    """The card of the same rank and colour: ♥ <-> ♦, ♠ <-> ♣."""
    suit = card // RANKS
    return (suit ^ 1) * RANKS + card % RANKS


# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("deck_size", 1), ("deck", CARDS), ("mysterieux", 1),
                ("arranges", 1), ("max_turns", 1))
(P_PLAYERS, P_DECK_SIZE, P_DECK, P_MYSTERIEUX, P_ARRANGES, P_MAX_TURNS) = PARAMS.offsets()


def encode_params(params: PouilleuxParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    deck = [c for c in range(CARDS) if params.deck == 52 or c % RANKS + 2 >= 7]
    return PARAMS.encode(players=params.players, deck_size=len(deck), deck=deck,
                         mysterieux=params.mysterieux, arranges=params.holder_arranges,
                         max_turns=params.max_turns)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("turn", 1), ("dealer", 1), ("current", 1), ("neighbour", 1),
    ("decisions", 1), ("removed", 1), ("pouilleux", 1),
    ("hand", MAX_PLAYERS * MAX_HAND), ("hand_size", MAX_PLAYERS),
    ("laid", CARDS),                        # 1: the card is laid in a pair
    # the last draw: the card, whether it paired, who drew it, from whom
    ("last_drawn", 1), ("last_paired", 1), ("last_drawer", 1), ("last_from", 1),
    ("loser", 1), ("stopped", 1),
    # figures for results
    ("emptied_at", MAX_PLAYERS), ("initial_cards", MAX_PLAYERS),
    ("initial_pairs", MAX_PLAYERS), ("pairs", MAX_PLAYERS), ("held_pouilleux", MAX_PLAYERS),
    ("player_decisions", MAX_PLAYERS), ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
# TURN: draws made
# NEIGHBOUR: the seat drawn from this turn
# STOPPED: ended by max_turns
# HELD_POUILLEUX: 1 if the seat was dealt the pouilleux
(PHASE, TURN, DEALER, CURRENT, NEIGHBOUR, DECISIONS, REMOVED, POUILLEUX, HAND, HAND_SIZE, LAID,
 LAST_DRAWN, LAST_PAIRED, LAST_DRAWER, LAST_FROM, LOSER, STOPPED, EMPTIED_AT, INITIAL_CARDS,
 INITIAL_PAIRS, PAIRS, HELD_POUILLEUX, PLAYER_DECISIONS, RANK) = STATE.offsets()

# Phases: SETUP is the deal; PLACE and DRAW wait for a decision.
SETUP, PLACE, DRAW, OVER = 0, 1, 2, 3
# Actions: DRAW(k) = k, PLACE(k) = MAX_HAND + k.
DRAW_ACTION = 0
PLACE_ACTION = MAX_HAND
N_ACTIONS = 2 * MAX_HAND
APPLY_DRAWS = True      # apply_action(s, pr, action, rng) draws the chance after a decision
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


# --------------------------------------------------------------------------------------
# Hands
# --------------------------------------------------------------------------------------
@njit(cache=True)
def find(s, p, card):
    """The position of ``card`` in ``p``'s hand, or -1."""
    for i in range(s[HAND_SIZE + p]):
        if s[HAND + p * MAX_HAND + i] == card:
            return i
    return -1


@njit(cache=True)
def take(s, p, i):
    """Remove and return the card at position ``i`` of ``p``'s hand (the last card fills the
    gap)."""
    base = HAND + p * MAX_HAND
    card = s[base + i]
    n = s[HAND_SIZE + p] - 1
    s[base + i] = s[base + n]
    s[HAND_SIZE + p] = n
    return card


@njit(cache=True)
def receive(s, p, card):
    """``card`` goes into ``p``'s hand, or, if it pairs, the pair is laid; return whether it
    paired."""
    i = find(s, p, partner(card))
    if i >= 0:
        take(s, p, i)
        s[LAID + card] = 1
        s[LAID + partner(card)] = 1
        s[PAIRS + p] += 1
        return True
    s[HAND + p * MAX_HAND + s[HAND_SIZE + p]] = card
    s[HAND_SIZE + p] += 1
    return False


# --------------------------------------------------------------------------------------
# Setup: the removal, the deal, the initial pairing
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    s[:] = 0
    for p in range(MAX_PLAYERS):
        s[EMPTIED_AT + p] = -1
    s[LOSER] = -1
    s[LAST_DRAWN] = NO_CARD
    s[PHASE] = SETUP


@njit(cache=True)
def advance(s, pr, rng):
    """The deal, when it is due (phase ``SETUP``): remove the J♣ (or, mystérieux, a random
    card), deal one at a time from the dealer's left, lay every pair, and start the first
    turn at the dealer's left."""
    if s[PHASE] != SETUP:
        return
    players = pr[P_PLAYERS]
    size = pr[P_DECK_SIZE]
    deck = stack_room(CARDS)[:size]
    copy_into(deck, pr[P_DECK:P_DECK + size])
    s[DEALER] = uniform_index_jit(rng, players)
    if pr[P_MYSTERIEUX]:
        s[REMOVED] = deck[uniform_index_jit(rng, size)]
    else:
        s[REMOVED] = JACK_OF_CLUBS
    s[POUILLEUX] = partner(s[REMOVED])
    shuffle(rng, deck)
    dealt = 0
    for i in range(size):
        if deck[i] == s[REMOVED]:
            continue
        p = (s[DEALER] + 1 + dealt) % players
        s[INITIAL_CARDS + p] += 1
        s[HELD_POUILLEUX + p] += deck[i] == s[POUILLEUX]
        receive(s, p, deck[i])
        dealt += 1
    for p in range(players):
        s[INITIAL_PAIRS + p] = s[PAIRS + p]
        if s[HAND_SIZE + p] == 0:
            s[EMPTIED_AT + p] = 0
    start_turn(s, pr, rng, s[DEALER] + 1)


@njit(cache=True)
def next_with_cards(s, pr, seat):
    """The first seat from ``seat`` on (going left) that holds cards."""
    players = pr[P_PLAYERS]
    for i in range(players):
        p = (seat + i) % players
        if s[HAND_SIZE + p] > 0:
            return p
    return -1


@njit(cache=True)
def holders(s, pr):
    """Players still holding cards."""
    return count_positive(s[HAND_SIZE:HAND_SIZE + pr[P_PLAYERS]])


# --------------------------------------------------------------------------------------
# A turn: the neighbour's hand is shuffled (or the pouilleux placed), the drawer draws
# --------------------------------------------------------------------------------------
@njit(cache=True)
def start_turn(s, pr, rng, seat):
    """``seat`` (or the next with cards) draws from his left neighbour, the next seat with
    cards; the game is over when one player alone holds cards (then only the pouilleux is
    left: every other card has its partner)."""
    if holders(s, pr) <= 1 or s[TURN] >= pr[P_MAX_TURNS]:
        finish(s, pr)
        return
    drawer = next_with_cards(s, pr, seat)
    neighbour = next_with_cards(s, pr, drawer + 1)
    s[CURRENT] = drawer
    s[NEIGHBOUR] = neighbour
    base = HAND + neighbour * MAX_HAND
    shuffle(rng, s[base:base + s[HAND_SIZE + neighbour]])
    if pr[P_ARRANGES] and find(s, neighbour, s[POUILLEUX]) >= 0 \
            and s[HAND_SIZE + neighbour] > 1:
        s[PHASE] = PLACE
        s[CURRENT] = neighbour
    else:
        s[PHASE] = DRAW


@njit(cache=True)
def legal_actions(s, pr, out):
    """``draw k`` for each position k of the neighbour's hand; ``place k`` for each position
    of the holder's own hand."""
    n = s[HAND_SIZE + s[NEIGHBOUR]]
    first = PLACE_ACTION if s[PHASE] == PLACE else DRAW_ACTION
    for k in range(n):
        out[k] = first + k
    return n


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """``place k``: the holder moves the pouilleux to position k, then the drawer draws.
    ``draw k``: the drawer takes the card at position k and lays it with its pair if he can;
    the neighbour draws next."""
    count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    neighbour = s[NEIGHBOUR]
    if s[PHASE] == PLACE:
        base = HAND + neighbour * MAX_HAND
        i = find(s, neighbour, s[POUILLEUX])
        k = action - PLACE_ACTION
        s[base + i], s[base + k] = s[base + k], s[base + i]
        s[PHASE] = DRAW
        s[CURRENT] = drawer_of(s, pr, neighbour)
        return
    drawer = s[CURRENT]
    card = take(s, neighbour, action - DRAW_ACTION)
    s[LAST_DRAWN] = card
    s[LAST_DRAWER] = drawer
    s[LAST_FROM] = neighbour
    s[LAST_PAIRED] = receive(s, drawer, card)
    s[TURN] += 1
    for p in (drawer, neighbour):
        if s[HAND_SIZE + p] == 0 and s[EMPTIED_AT + p] < 0:
            s[EMPTIED_AT + p] = s[TURN]
    start_turn(s, pr, rng, neighbour)


@njit(cache=True)
def drawer_of(s, pr, neighbour):
    """The seat that draws from ``neighbour``: the nearest seat with cards on his right."""
    players = pr[P_PLAYERS]
    for i in range(1, players):
        p = (neighbour - i) % players
        if s[HAND_SIZE + p] > 0:
            return p
    return -1


# --------------------------------------------------------------------------------------
# The end
# --------------------------------------------------------------------------------------
@njit(cache=True)
def finish(s, pr):
    """The holder of the last card loses; the others rank by when their hand emptied."""
    s[PHASE] = OVER
    s[CURRENT] = -1
    players = pr[P_PLAYERS]
    s[STOPPED] = holders(s, pr) > 1
    if not s[STOPPED]:
        s[LOSER] = next_with_cards(s, pr, 0)
    for p in range(players):
        better = 0
        for q in range(players):
            eq, ep = s[EMPTIED_AT + q], s[EMPTIED_AT + p]
            better += eq >= 0 and (ep < 0 or eq < ep)
        s[RANK + p] = 1 + better


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """``s`` as ``player`` sees it: the other hands' cards are -1 (their sizes stay); in the
    mystérieux the removed card and the pouilleux are -1."""
    copy_into(out, s)
    for p in range(pr[P_PLAYERS]):
        if p != player:
            for i in range(s[HAND_SIZE + p]):
                out[HAND + p * MAX_HAND + i] = NO_CARD
    if pr[P_MYSTERIEUX] and s[PHASE] != OVER:
        out[REMOVED] = NO_CARD
        out[POUILLEUX] = NO_CARD
    if player != s[LAST_DRAWER] and player != s[LAST_FROM] and not s[LAST_PAIRED]:
        out[LAST_DRAWN] = NO_CARD               # a card that paired was laid face up


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """``s`` with the cards ``player`` cannot see (the other hands, and in the mystérieux the
    removed card) dealt again into the same places."""
    copy_into(out, s)
    pool = stack_room(CARDS)
    n = 0
    players = pr[P_PLAYERS]
    for p in range(players):
        if p != player:
            for i in range(s[HAND_SIZE + p]):
                pool[n] = s[HAND + p * MAX_HAND + i]
                n += 1
    mysterieux = pr[P_MYSTERIEUX] and s[PHASE] != OVER
    if mysterieux:
        pool[n] = s[REMOVED]
        n += 1
    sort_field(pool[:n])            # the deal must not depend on where the cards are
    shuffle(rng, pool[:n])
    n = 0
    for p in range(players):
        if p != player:
            for i in range(s[HAND_SIZE + p]):
                out[HAND + p * MAX_HAND + i] = pool[n]
                n += 1
    if mysterieux:
        out[REMOVED] = pool[n]
        out[POUILLEUX] = partner(pool[n])
