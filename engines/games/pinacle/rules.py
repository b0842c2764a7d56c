"""Le pinacle: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/pinacle.md`` and the French source.  Melds, the table
and the pinacle's move come from the rummy core (:mod:`engines.families.rummy.rules`), the turn
steps from :mod:`engines.families.rummy.turns`.

Readings of the text (each coded where stated):

* One deck; 36 cards dealt in all (18, 12 or 9 each), "la dernière carte est retournée":
  the 37th card starts the discard pile; the 15 others are the talon.
* Only runs ("étaler des suites ... de même couleur"), 3 cards or more; the Ace low or high,
  no wrap (A3).  The four 2s, "pinacles", stand for any card of their own suit only, and a
  2 may stand as itself (A-2-3).
* A turn: draw (the talon or the card just discarded, always allowed: A6), then lay runs,
  lay off on any run (A2; ``own_team_only``: one's own team's), move a pinacle, then
  discard.  The move ("si un joueur possède le valet et que la suite 10-pinacle-dame est
  étalée, il a la possibilité de placer son valet dans la suite et de poser le pinacle à la
  place du roi ou du 9"): the natural card takes the pinacle's place, the pinacle goes to
  either end of the run, standing for the next card beyond it, which must exist (A5).
* Going out (A4): a lay-down may empty the hand, or the last card is discarded; with
  ``must_discard_to_go_out`` no lay-down may empty it.
* Count (in half points: pinacle 2, Ace 1.5, K to 7 1, 6 to 3 0.5): the player who went out
  scores 10 plus the cards he laid (A1; ``flat``: 10 alone), or 30 if he laid all his cards
  in one turn having laid none before (A10); every other player the cards he laid minus
  the cards in his hand.  Each card is credited to the player who laid it (the pinacle
  moved stays its layer's).  With four players (A7), partners (seats 0 and 2, 1 and 3)
  add their scores, lay off on each other's runs, and either going out ends the hand.
* The match (A8): hands until a player (team) reaches ``target_score`` alone at the top at
  the end of a hand; the highest total wins.  The deal passes left.  An empty talon is
  rebuilt from the discard pile but its top card (A9); a hand with nothing to draw at all
  ends void (nobody scores); ``max_turns`` and ``max_hands`` cap a match.
* A hand's position can come back exactly: the discard pile becomes the talon again, and a
  player may take the card just discarded and discard it again, so the same cards can go
  round while the table stays as it is (what is laid never leaves it; a pinacle moved adds
  the card that took its place).  A hand back at a position it has been at
  (:func:`position_hash`; :mod:`engines.core.repetition`) ends the match as a cycle at the
  first repetition, with the cycle's length recorded (the hand scores nothing, ranked by
  the totals so far, as a capped match).  Each hand forgets the positions of the last.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core import repetition
from engines.core.compiled import rank_seats
from engines.core.layout import Layout, stack_room
from engines.core.specialise import Tag
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.families.rummy.rules import CARD_KINDS, MAX_RUN, P_PLAYERS
from engines.families.rummy.turns import (
    HAND_SIZE_AT,
    LAY_ACTION,
    MAX_PLAYERS,
    PHASE,
    SETUP,
    SWAP_ACTION,
    TOTAL,
    hand_at,
)
from engines.games.pinacle.params import MAX_HANDS, PinacleParams

TEAM_PLAYERS = 4                        # four players play in two teams
HALF_POINTS = 2                         # scores are kept in half points
PINACLE_VALUE, ACE_VALUE, HIGH_VALUE, LOW_VALUE = 4, 3, 2, 1   # 2, 1.5, 1, 0.5 points
FIRST_HIGH_RANK = 7

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see PinacleParams); the core's first
# --------------------------------------------------------------------------------------
PARAMS = Layout(*rummy.CORE_PARAMS, ("hand_size", 1), ("winner_bonus", 1),
                ("one_go_bonus", 1), ("flat", 1), ("team_scope", 1), ("keep", 1),
                ("target", 1), ("max_hands", 1), ("max_turns", 1))
(*_, P_HAND_SIZE, P_WINNER_BONUS, P_ONE_GO_BONUS, P_FLAT, P_TEAM_SCOPE, P_KEEP, P_TARGET,
 P_MAX_HANDS, P_MAX_TURNS) = PARAMS.offsets()


def encode_params(params: PinacleParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    return PARAMS.encode(players=params.players, wild_policy=rummy.SUIT_TWOS, max_wilds=1,
                         min_naturals=2, groups=0, run_min=rummy.ACE_LOW, run_max=rummy.ACE_HIGH,
                         free_groups=0, wilds_le_naturals=0, mixed_runs=0,
                         hand_size=params.cards_dealt_total // params.players,
                         winner_bonus=params.winner_bonus * HALF_POINTS,
                         one_go_bonus=params.one_go_bonus * HALF_POINTS,
                         flat=params.winner_scoring == "flat",
                         team_scope=params.layoff_scope == "own_team_only",
                         keep=1 if params.must_discard_to_go_out else 0,
                         target=params.target_score * HALF_POINTS, max_hands=params.max_hands,
                         max_turns=params.max_turns)


# --------------------------------------------------------------------------------------
# State: the rummy prefix (engines.families.rummy.turns), then pinacle's own fields
# --------------------------------------------------------------------------------------
# A round row (one per hand): the common fields, whether the winner went out in one go,
# the pinacle moves, then each seat's score for the hand (half points).
ROUND_FIELDS = T.ROUND_CORE + ("one_go", "moves")
ROUND_ROW = Layout(*ROUND_FIELDS, ("score", MAX_PLAYERS))
ROUND_WIDTH = ROUND_ROW.size
ROUND_ONE_GO, ROUND_MOVES, ROUND_SCORE = ROUND_ROW.offsets("one_go", "moves", "score")
FINISHED, VOID, CAPPED, CYCLE = T.FINISHED, T.VOID, T.CAPPED, T.CYCLE

STATE = Layout(
    *T.CORE_STATE,
    ("laid_at_start", 1), ("laid", MAX_PLAYERS), ("laid_value", MAX_PLAYERS),
    ("team_total", MAX_PLAYERS), ("one_goes", MAX_PLAYERS), ("moves", MAX_PLAYERS),
    ("hand_moves", 1), ("rounds", MAX_HANDS * ROUND_WIDTH),
)
STATE_SIZE = STATE.size
# the compiled contract's names, the turn core's (engines.families.rummy.turns); apply_action
# draws the chance that follows a decision (see engines.core.streams)
OVER, N_ACTIONS = T.OVER, T.N_ACTIONS
APPLY_DRAWS = True
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)
CURRENT = T.CURRENT
(*_, LAID_AT_START, LAID, LAID_VALUE, TEAM_TOTAL, ONE_GOES, MOVES, HAND_MOVES,
 ROUNDS) = STATE.offsets()
RULES = Tag(__name__)                # the family's steps, specialised for this game
FAMILY = T                  # legal_actions, apply_action: the family's (rummy.turns)


@njit(cache=True)
def card_value(card):
    """Half points: pinacle 4, Ace 3, K to 7 2, 6 to 3 1."""
    rank = rummy.card_rank(card)
    if rank == 2:
        return PINACLE_VALUE
    if rank == 14:
        return ACE_VALUE
    return HIGH_VALUE if rank >= FIRST_HIGH_RANK else LOW_VALUE


@njit(cache=True)
def teammates(pr, player):
    """The seats of ``player``'s team as a bit mask (himself alone below four players)."""
    if pr[P_PLAYERS] == TEAM_PLAYERS:
        return (1 << player) | (1 << ((player + 2) % TEAM_PLAYERS))
    return 1 << player


# --------------------------------------------------------------------------------------
# Setup
# --------------------------------------------------------------------------------------
new_game = T.new_game


@njit(cache=True)
def advance(s, pr, rng):
    """The deal, when it is due (phase ``SETUP``): shuffle, deal 36 cards in all from the
    dealer's left, turn the 37th up as the discard pile; the dealer's left plays first."""
    if s[PHASE] != SETUP:
        return
    T.deal(s, pr, rng, 1, 0, pr[P_HAND_SIZE], True)
    for p in range(MAX_PLAYERS):
        s[LAID + p] = 0
        s[LAID_VALUE + p] = 0
    s[HAND_MOVES] = 0
    start_turn(s, (s[T.DEALER] + 1) % pr[P_PLAYERS])
    T.first_position(s, position_hash(s, pr))


@njit(cache=True)
def position_hash(s, pr):
    """The hash of the hand's full position: the family's (turn, cards, table), the cards
    each player has laid this hand and had laid at the start of this turn (the one-go
    bonus)."""
    h = repetition.mix(T.position_hash(s, pr), s[LAID_AT_START])
    return repetition.mix_span(h, s, LAID, pr[P_PLAYERS])


@njit(cache=True)
def start_turn(s, player):
    T.start_turn(s, player)
    s[LAID_AT_START] = s[LAID + player]


# --------------------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------------------
@njit(cache=True)
def play_actions(s, pr, player, out):
    """Runs (the core's enumeration order), lay-offs (by table meld, card, end), pinacle
    moves (by table meld, place, end), then discards (by card)."""
    h = hand_at(player)
    hand = s[h:h + CARD_KINDS]
    size = s[HAND_SIZE_AT + player]
    keep = pr[P_KEEP]
    n = rummy.enumerate_melds(pr, hand, size - keep, out)
    for i in range(n):
        out[i] += LAY_ACTION
    if size - 1 >= keep:
        owners = teammates(pr, player) if pr[P_TEAM_SCOPE] else T.ALL_SEATS
        n = T.layoff_actions(s, pr, hand, -1, owners, out, n)
        table = T.table(s)
        for k in range(s[T.MELDS_LEN]):
            row = k * rummy.MELD_WIDTH
            if not (owners >> table[row + rummy.M_OWNER]) & 1:
                continue
            for place in range(table[row + rummy.M_LEN]):
                if not rummy.is_wild(pr, table[row + rummy.M_CARDS + place]):
                    continue
                target = rummy.wild_stands_for(pr, table, k, place)
                if target < 0 or hand[target] == 0:
                    continue
                for end in range(2):
                    if rummy.move_fits(pr, table, k, place, end):
                        out[n] = SWAP_ACTION + (k * 16 + place) * 2 + end
                        n += 1
    return T.discard_actions(s, player, -1, out, n)


# --------------------------------------------------------------------------------------
# Playing an action
# --------------------------------------------------------------------------------------
@njit(cache=True)
def credit(s, pr, player, card):
    """A card laid, credited to its layer."""
    s[LAID + player] += 1
    s[LAID_VALUE + player] += card_value(card)


@njit(cache=True)
def after_lay(s, pr, player):
    if s[HAND_SIZE_AT + player] == 0:
        end_hand(s, pr, player, FINISHED)


@njit(cache=True)
def lay_meld(s, pr, player, code):
    """Lay a run (pinacle's only meld)."""
    places = stack_room(MAX_RUN)
    n = T.lay_meld(s, pr, player, code, places)
    for i in range(n):
        credit(s, pr, player, places[i])
    after_lay(s, pr, player)


@njit(cache=True)
def lay_off_card(s, pr, player, k, card, end):
    T.lay_off(s, pr, player, k, card, end)
    credit(s, pr, player, card)
    after_lay(s, pr, player)


@njit(cache=True)
def move_wild(s, pr, player, k, place, end):
    """The natural card takes the pinacle's place; the pinacle goes to an end."""
    target = rummy.wild_stands_for(pr, T.table(s), k, place)
    rummy.move_wild(pr, T.table(s), k, place, end)
    s[hand_at(player) + target] -= 1
    s[HAND_SIZE_AT + player] -= 1
    s[MOVES + player] += 1
    s[HAND_MOVES] += 1
    credit(s, pr, player, target)
    after_lay(s, pr, player)


# --------------------------------------------------------------------------------------
# The count and the match
# --------------------------------------------------------------------------------------
@njit(cache=True)
def end_hand(s, pr, winner, ending):
    """Score the hand (none if void or capped), record it, then deal the next or end the
    match."""
    players = pr[P_PLAYERS]
    row = ROUNDS + s[T.ROUNDS_LEN] * ROUND_WIDTH
    one_go = ending == FINISHED and s[LAID_AT_START] == 0
    for p in range(players):
        score = 0
        if ending == FINISHED and p == winner:
            score = pr[P_ONE_GO_BONUS] if one_go else pr[P_WINNER_BONUS]
            if not pr[P_FLAT]:
                score += s[LAID_VALUE + p]
        elif ending == FINISHED:
            held = 0
            h = hand_at(p)
            for card in range(CARD_KINDS):
                held += s[h + card] * card_value(card)
            score = s[LAID_VALUE + p] - held
        s[TOTAL + p] += score
        s[row + ROUND_SCORE + p] = score
    if one_go:
        s[ONE_GOES + winner] += 1
    s[row + ROUND_ONE_GO] = one_go
    s[row + ROUND_MOVES] = s[HAND_MOVES]
    for p in range(players):
        s[TEAM_TOTAL + p] = 0
        for q in range(players):
            if (teammates(pr, p) >> q) & 1:
                s[TEAM_TOTAL + p] += s[TOTAL + q]
    T.record_hand(s, row, winner, ending)
    if T.stops_match(ending) or s[T.HAND_NO] >= pr[P_MAX_HANDS] or match_won(s, pr):
        finish(s, pr, T.stops_match(ending) or not match_won(s, pr))
        return
    s[T.DEALER] = (s[T.DEALER] + 1) % players
    s[PHASE] = SETUP


@njit(cache=True)
def match_won(s, pr):
    """A player (team) at or above the target, alone at the top."""
    leader = 0
    for p in range(pr[P_PLAYERS]):
        if s[TEAM_TOTAL + p] > s[TEAM_TOTAL + leader]:
            leader = p
    best = s[TEAM_TOTAL + leader]
    for q in range(pr[P_PLAYERS]):
        if s[TEAM_TOTAL + q] == best and not (teammates(pr, leader) >> q) & 1:
            return False
    return best >= pr[P_TARGET]


@njit(cache=True)
def finish(s, pr, capped):
    """The highest total (team total with four players) wins; equal totals share."""
    players = pr[P_PLAYERS]
    rank_seats(s[TEAM_TOTAL:TEAM_TOTAL + players], players, False, s[T.RANK:T.RANK + players])
    T.end_match(s, capped)


# --------------------------------------------------------------------------------------
# Hidden information: the rummy views (engines.families.rummy.turns)
# --------------------------------------------------------------------------------------
observe = T.observe
determinize = T.determinize
