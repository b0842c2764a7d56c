"""Betzanbloo: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/betzanbloo.md`` and the French source text.  The
sections follow the rulebook: components, setup, a turn (the threshold is turned up, every
player ``play``s a personal card, the resolution with its ``capture``), the end of the game.
The Python API (:mod:`engines.games.betzanbloo.game`) calls these functions; no rule exists
anywhere else.

Mechanics: the state is one flat int32 array (``STATE`` names its fields).  Hands are bit
masks over card values (bit v for the card v).  The only chance step is the setup shuffle of
the threshold pile, drawn from the game's chance stream through :mod:`engines.core.chance`.

Readings of the text that the spec leaves implicit (each documented where it is coded):

* Simultaneous play in a sequential API: on each turn the seats choose in order 0, 1, ...,
  n-1; a choice stays hidden (the chooser's hand still shows the card) until every seat has
  chosen, so the order reveals nothing.  The resolution follows the last choice.
* Hands are public: everybody starts with the same cards and every played card is revealed,
  so an observation shows every hand (with this turn's hidden choices put back in it), every
  saved, captured and discarded card.  Only the order of the threshold cards not yet turned
  up is unknown (an observation lists them in ascending order).
* The capture (B2) is a decision of the lone player even when the other camp holds a single
  value ("capture une carte Perso dans l'autre camp": the card of their choice).  Actions
  name a value; when several players of the other camp played that value, the card taken is
  the one of the lowest seat (whose copy is taken changes nobody's score: the others are
  discarded all the same).
* B1: the text gives "10 cartes Perso allant de 1 à 10 par joueur" but "Chaque joueur prend
  ses 12 cartes"; 10 cards is the default (it matches "Les 4 cartes qui restent en main"
  after 6 turns), ``perso_max = 12`` the other reading (6 cards then stay in hand).  Cards
  left in hand never count, whatever their number.
* ``drop_extremes`` removes the cards 1 and ``perso_max`` ("On enlève les cartes Perso 1 et
  10": the two extreme cards of the standard set).
* B4 (a gap): with ``perso_max = 12`` under ``scoring = diamonds``, the text's table
  ("1 10 : 1 diamant / 2 9 : 2 diamants / ... / 5 6 : 5 diamants") gives no diamonds to 11
  and 12; they carry ``diamonds_11_12`` diamonds each (default 0, the literal reading).
* Ranking: the highest score wins; equal highest scores share the win; ranks are 1 + the
  number of players with a strictly higher score.
* The talk phase ("les joueurs peuvent discuter") is not simulated: the text lists its
  removal as a variant ("La phase des palabres est supprimée").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.chance import shuffle, uniform_index_jit
from engines.core.compiled import count_decision, rank_and_end
from engines.core.layout import Layout, copy_into, sort_field, stack_room
from engines.core.specialise import Tag
from engines.games.betzanbloo.params import HIGHEST_PERSO, MAX_PLAYERS, BetzanblooParams

# --------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------
THRESHOLDS = np.arange(3, 9, dtype=np.int32)    # the six "Seuil" cards 3..8
TURNS = THRESHOLDS.size                         # one turn per threshold card
VALUES = HIGHEST_PERSO + 1                      # tables indexed by card value 0..12
DIAMONDS = np.array([0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1], dtype=np.int32)  # cards 0..10

# Camps and resolution cases.
BELOW, ABOVE = 0, 1
ALL_SAME, LONE, SPLIT = 0, 1, 2
NO_CASE = -1

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see BetzanblooParams for their meaning)
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("lowest", 1), ("highest", 1), ("worth", VALUES),
                ("points", VALUES), ("diamonds", VALUES))
# P_LOWEST: the lowest personal card
# P_HIGHEST: the highest personal card
# P_WORTH: what a card scores under the scoring rule
(P_PLAYERS, P_LOWEST, P_HIGHEST, P_WORTH, P_POINTS, P_DIAMONDS) = PARAMS.offsets()


def encode_params(params: BetzanblooParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    points = np.arange(VALUES, dtype=np.int32)
    diamonds = np.full(VALUES, params.diamonds_11_12, dtype=np.int32)
    diamonds[:DIAMONDS.size] = DIAMONDS
    return PARAMS.encode(players=params.players, lowest=2 if params.drop_extremes else 1,
                         highest=params.perso_max - 1 if params.drop_extremes else params.perso_max,
                         worth=points if params.scoring == "points" else diamonds, points=points,
                         diamonds=diamonds)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("turn", 1), ("threshold", 1), ("current", 1), ("decisions", 1),
    ("pile", TURNS),                    # threshold cards in the order they are turned up
    ("hand", MAX_PLAYERS),              # bit v: the card v is in hand
    ("played", MAX_PLAYERS),            # this turn's card (0: not chosen yet)
    ("saved", MAX_PLAYERS),             # own cards saved
    ("lost", MAX_PLAYERS),              # own cards discarded
    ("taken", MAX_PLAYERS),             # own cards captured by a lone player
    ("captured", MAX_PLAYERS * VALUES),  # cards captured, counted by value
    # every turn so far (public once resolved)
    ("history_card", TURNS * MAX_PLAYERS), ("history_case", TURNS),
    ("history_lone", TURNS), ("history_capture", TURNS), ("history_victim", TURNS),
    # figures for results
    ("player_decisions", MAX_PLAYERS), ("times_lone", MAX_PLAYERS),
    ("score", MAX_PLAYERS), ("points", MAX_PLAYERS), ("diamonds", MAX_PLAYERS),
    ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
(PHASE, TURN, THRESHOLD, CURRENT, DECISIONS, PILE, HAND, PLAYED, SAVED, LOST, TAKEN, CAPTURED,
 HISTORY_CARD, HISTORY_CASE, HISTORY_LONE, HISTORY_CAPTURE, HISTORY_VICTIM, PLAYER_DECISIONS,
 TIMES_LONE, SCORE, POINTS, _, RANK) = STATE.offsets()
DIAMONDS_SCORED = STATE.offset("diamonds")
RULES = Tag(__name__)                   # the core's steps, specialised for this game

# Phases.  SETUP is the chance step; PLAY and CAPTURE wait for a decision.
SETUP, PLAY, CAPTURE, OVER = 0, 1, 2, 3

# Actions: play(v), capture(v).
PLAY_ACTION = 0                         # + v - 1
CAPTURE_ACTION = HIGHEST_PERSO          # + v - 1
N_ACTIONS = 2 * HIGHEST_PERSO
# apply_action(s, pr, action) draws nothing: the chance that follows a decision waits
# for advance (see engines.core.streams)
APPLY_DRAWS = False
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def bit(value):
    return np.int32(1) << value


@njit(cache=True)
def camp(card, threshold):
    """ABOVE for a card over the threshold, BELOW under it."""
    return ABOVE if card > threshold else BELOW


# --------------------------------------------------------------------------------------
# Setup: every player takes their personal cards; the threshold cards are shuffled
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """The state before the setup shuffle."""
    s[:] = 0
    full = 0
    for v in range(pr[P_LOWEST], pr[P_HIGHEST] + 1):
        full |= bit(v)
    for p in range(pr[P_PLAYERS]):
        s[HAND + p] = full
    for t in range(TURNS):
        s[PILE + t] = THRESHOLDS[t]
        s[HISTORY_CASE + t] = NO_CASE
        s[HISTORY_LONE + t] = -1
        s[HISTORY_VICTIM + t] = -1
    s[PHASE] = SETUP


@njit(cache=True)
def advance(s, pr, rng):
    """The setup, when it is due (``chance_pending``, the game's only chance step): shuffle
    the threshold pile face down, then start the first turn."""
    if chance_pending(s):
        shuffle(rng, s[PILE:PILE + TURNS])
        start_turn(s, pr)


# --------------------------------------------------------------------------------------
# A turn: turn up the threshold, everyone plays a card, resolution
# --------------------------------------------------------------------------------------
@njit(cache=True)
def start_turn(s, pr):
    """Turn up the next threshold card; seat 0 chooses first."""
    s[THRESHOLD] = s[PILE + s[TURN]]
    s[CURRENT] = 0
    s[PHASE] = PLAY


@njit(cache=True)
def play_actions(s, pr, player, out):
    """``play(v)`` for every card v in hand but the threshold's value, ascending."""
    n = 0
    hand = s[HAND + player]
    for v in range(1, HIGHEST_PERSO + 1):
        if hand & bit(v) and v != s[THRESHOLD]:
            out[n] = PLAY_ACTION + v - 1
            n += 1
    return n


@njit(cache=True)
def play(s, pr, player, card):
    """Lay a card face down; once every seat has chosen, reveal and resolve."""
    s[HAND + player] &= ~bit(card)
    s[PLAYED + player] = card
    s[HISTORY_CARD + s[TURN] * MAX_PLAYERS + player] = card
    if player + 1 < pr[P_PLAYERS]:
        s[CURRENT] = player + 1
    else:
        resolve(s, pr)


@njit(cache=True)
def resolve(s, pr):
    """The three cases: all in one camp (all save), one player alone (saves and captures),
    otherwise every played card is discarded."""
    players = pr[P_PLAYERS]
    above = 0
    for p in range(players):
        above += camp(s[PLAYED + p], s[THRESHOLD])
    below = players - above
    turn = s[TURN]
    if above == 0 or below == 0:
        s[HISTORY_CASE + turn] = ALL_SAME
        for p in range(players):
            s[SAVED + p] |= bit(s[PLAYED + p])
        end_turn(s, pr)
    elif above == 1 or below == 1:
        lone_camp = ABOVE if above == 1 else BELOW
        lone = 0
        for p in range(players):
            if camp(s[PLAYED + p], s[THRESHOLD]) == lone_camp:
                lone = p
        s[HISTORY_CASE + turn] = LONE
        s[HISTORY_LONE + turn] = lone
        s[TIMES_LONE + lone] += 1
        s[CURRENT] = lone
        s[PHASE] = CAPTURE
    else:
        s[HISTORY_CASE + turn] = SPLIT
        for p in range(players):
            s[LOST + p] |= bit(s[PLAYED + p])
        end_turn(s, pr)


@njit(cache=True)
def capture_actions(s, pr, player, out):
    """``capture(v)`` for every value played in the other camp, ascending."""
    own = camp(s[PLAYED + player], s[THRESHOLD])
    seen = 0
    for p in range(pr[P_PLAYERS]):
        card = s[PLAYED + p]
        if camp(card, s[THRESHOLD]) != own:
            seen |= bit(card)
    n = 0
    for v in range(1, HIGHEST_PERSO + 1):
        if seen & bit(v):
            out[n] = CAPTURE_ACTION + v - 1
            n += 1
    return n


@njit(cache=True)
def capture(s, pr, player, card):
    """The lone player saves their card and takes a card of the other camp (the lowest
    seat's copy of that value); every other card of that camp is discarded."""
    own = camp(s[PLAYED + player], s[THRESHOLD])
    s[SAVED + player] |= bit(s[PLAYED + player])
    victim = -1
    for p in range(pr[P_PLAYERS]):
        played = s[PLAYED + p]
        if camp(played, s[THRESHOLD]) == own:
            continue
        if victim < 0 and played == card:
            victim = p
            s[TAKEN + p] |= bit(played)
        else:
            s[LOST + p] |= bit(played)
    s[CAPTURED + player * VALUES + card] += 1
    s[HISTORY_CAPTURE + s[TURN]] = card
    s[HISTORY_VICTIM + s[TURN]] = victim
    end_turn(s, pr)


@njit(cache=True)
def end_turn(s, pr):
    """The played cards have gone where the resolution sent them; next threshold, or the
    end of the game once the six have been played."""
    for p in range(MAX_PLAYERS):
        s[PLAYED + p] = 0
    s[TURN] += 1
    if s[TURN] == TURNS:
        final_scoring(s, pr)
    else:
        start_turn(s, pr)


# --------------------------------------------------------------------------------------
# End of the game: cards left in hand do not count
# --------------------------------------------------------------------------------------
@njit(cache=True)
def tally(s, pr, player, table):
    """Sum of ``table[v]`` over the player's saved and captured cards."""
    total = 0
    saved = s[SAVED + player]
    for v in range(1, HIGHEST_PERSO + 1):
        if saved & bit(v):
            total += pr[table + v]
        total += s[CAPTURED + player * VALUES + v] * pr[table + v]
    return total


@njit(cache=True)
def final_scoring(s, pr):
    """Scores (points or diamonds), points and diamonds for the record, and ranks: the
    highest score wins, equal highest share the win."""
    players = pr[P_PLAYERS]
    for p in range(players):
        s[SCORE + p] = tally(s, pr, p, P_WORTH)
        s[POINTS + p] = tally(s, pr, p, P_POINTS)
        s[DIAMONDS_SCORED + p] = tally(s, pr, p, P_DIAMONDS)
    rank_and_end(RULES, s, s[SCORE:SCORE + players], players, False)


# --------------------------------------------------------------------------------------
# The game loop's entry points: decisions, their effects, the chance step
# --------------------------------------------------------------------------------------
@njit(cache=True)
def legal_actions(s, pr, out):
    """Write the current player's legal action codes into ``out``; return their count (0
    for a player with no legal card, which the caller reports as an error: B3)."""
    phase = s[PHASE]
    if phase == PLAY:
        return play_actions(s, pr, s[CURRENT], out)
    if phase == CAPTURE:
        return capture_actions(s, pr, s[CURRENT], out)
    return 0


@njit(cache=True)
def apply_action(s, pr, action):
    """Play a legal action for the current player (legality is the caller's check)."""
    player = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    if action < CAPTURE_ACTION:
        play(s, pr, player, action - PLAY_ACTION + 1)
    else:
        capture(s, pr, player, action - CAPTURE_ACTION + 1)


@njit(cache=True)
def chance_pending(s):
    """Whether the setup shuffle is due (the game's only chance step)."""
    return s[PHASE] == SETUP


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: the cards others chose this turn go back
    into their hands (hidden until all have chosen), and the threshold cards not yet turned
    up are listed in ascending order."""
    copy_into(out, s)
    if s[PHASE] == PLAY:
        turn = s[TURN]
        for p in range(pr[P_PLAYERS]):
            card = s[PLAYED + p]
            if p != player and card > 0:
                out[HAND + p] |= bit(card)
                out[PLAYED + p] = 0
                out[HISTORY_CARD + turn * MAX_PLAYERS + p] = 0
    if s[PHASE] != SETUP:
        start = PILE + s[TURN] + 1
        sort_field(out[start:PILE + TURNS])


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: every
    hidden choice of this turn drawn uniformly among that player's legal cards, and the
    threshold cards not yet turned up reshuffled.  Starts from the observation, so for a
    given ``rng`` the result depends only on what ``player`` may know."""
    observe(s, pr, player, out)
    if s[PHASE] == PLAY:
        legal = stack_room(N_ACTIONS)
        turn = s[TURN]
        for p in range(pr[P_PLAYERS]):
            if p != player and s[PLAYED + p] > 0:
                n = play_actions(out, pr, p, legal)
                card = legal[uniform_index_jit(rng, n)] - PLAY_ACTION + 1
                out[HAND + p] &= ~bit(card)
                out[PLAYED + p] = card
                out[HISTORY_CARD + turn * MAX_PLAYERS + p] = card
    if s[PHASE] != SETUP:
        shuffle(rng, out[PILE + s[TURN] + 1:PILE + TURNS])
