"""La petite école (le gros cochon): the rules, once, as compiled functions over a flat
state array.

Read alongside ``docs/rules/petite-ecole.md`` and the French source (Jeepy's
text).  The sections follow the rulebook: components, the deal, a turn (draw, lay, discard),
the stages, the end of a hand (count and progression), the end of the match.  Melds, the
table and the search for a stage come from the rummy core (:mod:`engines.families.rummy.rules`);
the stock and its reshuffle from the shedding core.

Readings of the text (each coded where stated):

* Ten stages ("échelons") in order (parameter ``stage_table``, whose last stage plays the
  part of stage 10 below); every player starts at stage 1.  A stage's figures are
  minimum sizes (A2): "triple" is a group of 3 or more, "quadruple" of 4 or more, "série de
  4" a run of 4 or more; two groups of one stage may share a rank (A5).  Groups are
  free (any suits, repeats allowed, any size); runs are of one suit (A1; with
  ``run_same_suit=false``, of any suits, the natural laid at each rank being the lowest
  card id held of it), from 3 to the Ace ("du 3 à l'As": the Ace is high only).
* The 2 is wild ("carte frimée"), never natural (A4); a figure holds at least one natural
  card (A3; variants ``naturals_ge_wilds``, ``max_one_wild``).  Wilds on the table stay
  there (A11).
* A turn is several decisions: draw (``draw stock`` / ``take discard``: the écart's top
  card, always allowed), then lay-downs, then ``discard``.  The stage's figures are laid
  one by one in one turn ("dès que le joueur a en main les cartes de son échelon, il peut
  les poser"): a figure is offered only if the rest of the stage can still be laid from
  what is left, and the player cannot discard until it is.  After his stage, this turn or
  later, he lays other figures of 3 or more and lays off on any figure (A6).
* The card taken from the écart is not discarded the same turn (A8, unless
  ``may_rediscard_taken``); another copy of it (multi-deck) may be, and should it be the
  only card left, it may be.
* Going out: the last card is discarded (A7; with ``must_discard_to_go_out=false`` a
  lay-down may empty the hand, which ends it).
* End of a hand: the others count their cards (A 15, K Q J 10 10, 3 to 9 5, 2 20); every
  player who laid his stage moves up, the others "redoublent".  The deal passes left.
* The match ends after a hand in which a player passed stage 10 (A10): the lowest total
  among those who passed it wins (variant: the lowest total of all).  The others rank
  after them by total.  A hand where a draw finds nothing to draw (the écart reshuffled
  away) ends void: no count, no progression.  A hand reaching ``max_turns`` turns, or a
  match reaching ``max_hands`` hands, ends the match as capped, ranked by stage reached
  then total.
* A hand's position can come back exactly: the écart becomes the talon again, and a player
  may draw a card and discard it (or take the écart's card and, with
  ``may_rediscard_taken``, throw it back), so the same cards can go round while the table
  stays as it is (what is laid never leaves it).  A hand back at a position it has been at
  (:func:`position_hash`; :mod:`engines.core.repetition`) ends the match as a cycle at the
  first repetition, with the cycle's length recorded, ranked as a capped match.  Each hand
  forgets the positions of the last (a new deal, the stages and totals moved on).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core import repetition
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
    TOTAL,
    hand_at,
)
from engines.games.petite_ecole.params import HAND_SIZE, MAX_HANDS, MAX_STAGES, PetiteEcoleParams

# --------------------------------------------------------------------------------------
# Components: two (three) decks of 52, no jokers, 13 cards each, 2s wild
# --------------------------------------------------------------------------------------
ACE_PENALTY, TEN_PENALTY, LOW_PENALTY, TWO_PENALTY = 15, 10, 5, 20
# A stage is a row (runs, their minimum length, groups, their minimum size) of the
# parameter ``stage_table`` (default: the text's ten, ``params.TEXT_STAGES``).
STAGE_FIELDS = 4
WILD_LIMITS = {"one_natural": (MAX_RUN, 1, 0), "naturals_ge_wilds": (MAX_RUN, 1, 1),
               "max_one_wild": (1, 1, 0)}       # max wilds, min naturals, wilds <= naturals
FIRST_NATURAL_POSITION = 3                      # runs "du 3 à l'As"

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see PetiteEcoleParams); the core's first
# --------------------------------------------------------------------------------------
PARAMS = Layout(*rummy.CORE_PARAMS, ("decks", 1), ("keep", 1), ("rediscard", 1),
                ("overall", 1), ("max_hands", 1), ("max_turns", 1), ("stage_count", 1),
                ("stages", MAX_STAGES * STAGE_FIELDS))
(*_, P_DECKS, P_KEEP, P_REDISCARD, P_OVERALL, P_MAX_HANDS, P_MAX_TURNS, P_STAGE_COUNT,
 P_STAGES) = PARAMS.offsets()


def encode_params(params: PetiteEcoleParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    max_wilds, min_naturals, ratio = WILD_LIMITS[params.wild_limit]
    stages = params.stages
    return PARAMS.encode(players=params.players, wild_policy=rummy.TWOS, max_wilds=max_wilds,
                         min_naturals=min_naturals, groups=1, run_min=FIRST_NATURAL_POSITION,
                         run_max=rummy.ACE_HIGH, free_groups=1, wilds_le_naturals=ratio,
                         mixed_runs=not params.run_same_suit, decks=params.decks,
                         keep=1 if params.must_discard_to_go_out else 0,
                         rediscard=params.may_rediscard_taken,
                         overall=params.winner_rule == "lowest_points_overall",
                         max_hands=params.max_hands, max_turns=params.max_turns,
                         stage_count=len(stages), stages=np.array(stages).ravel())


# --------------------------------------------------------------------------------------
# State: the rummy prefix (engines.families.rummy.turns), then petite école's own fields
# --------------------------------------------------------------------------------------
# A round row (one per hand): the common fields (hand, dealer, winner (-1: void or capped),
# turns, reshuffles, écart cards taken, ending), then per seat the hand's score, the stage
# played (1..10) and whether it was passed.
ROUND_FIELDS = T.ROUND_CORE
ROUND_ROW = Layout(*ROUND_FIELDS, ("score", MAX_PLAYERS), ("stage", MAX_PLAYERS),
                   ("passed", MAX_PLAYERS))
ROUND_WIDTH = ROUND_ROW.size
ROUND_SCORE, ROUND_STAGE, ROUND_PASSED = ROUND_ROW.offsets("score", "stage", "passed")
FINISHED, VOID, CAPPED, CYCLE = T.FINISHED, T.VOID, T.CAPPED, T.CYCLE

STATE = Layout(
    *T.CORE_STATE,
    ("runs_left", 1), ("groups_left", 1),
    ("stage", MAX_PLAYERS), ("laid_stage", MAX_PLAYERS), ("stages_passed", MAX_PLAYERS),
    ("rounds", MAX_HANDS * ROUND_WIDTH),
)
STATE_SIZE = STATE.size
# the compiled contract's names, the turn core's (engines.families.rummy.turns); apply_action
# draws the chance that follows a decision (see engines.core.streams)
OVER, N_ACTIONS = T.OVER, T.N_ACTIONS
APPLY_DRAWS = True
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)
CURRENT = T.CURRENT
(*_, RUNS_LEFT, GROUPS_LEFT, STAGE, LAID_STAGE, STAGES_PASSED, ROUNDS) = STATE.offsets()
RULES = Tag(__name__)                # the family's steps, specialised for this game
FAMILY = T                  # legal_actions, apply_action: the family's (rummy.turns)
# (so are the draw, the talon rebuilt from the écart when empty, A9, and the discard)

# A player's stage in this hand: not laid, being laid this turn, laid.
NOT_LAID, LAYING, LAID = 0, 1, 2


def penalty_values() -> np.ndarray:
    """"As 15 points - Figures 10 points - 10 10 points - 3 à 9 5 points - 2 20 points"."""
    values = np.zeros(CARD_KINDS, dtype=np.int32)
    for card in range(rummy.JOKER):
        rank = rummy.card_rank(card)
        if rank == 14:
            values[card] = ACE_PENALTY
        elif rank >= 10:
            values[card] = TEN_PENALTY
        elif rank == 2:
            values[card] = TWO_PENALTY
        else:
            values[card] = LOW_PENALTY
    return values


# Each card's count in hand, a constant of the compiled rules (numba freezes the array).
PENALTY_VALUES = penalty_values()


# --------------------------------------------------------------------------------------
# Setup: "le brasseur distribue 13 cartes par joueur et retourne la carte suivante"
# --------------------------------------------------------------------------------------
new_game = T.new_game


@njit(cache=True)
def advance(s, pr, rng):
    """The deal, when it is due (phase ``SETUP``): gather and shuffle the decks, deal 13 cards
    to each player from the dealer's left, turn the next card up as the écart; the dealer's
    left plays first."""
    if s[PHASE] != SETUP:
        return
    T.deal(s, pr, rng, pr[P_DECKS], 0, HAND_SIZE, True)
    for p in range(MAX_PLAYERS):
        s[LAID_STAGE + p] = NOT_LAID
    T.start_turn(s, (s[T.DEALER] + 1) % pr[P_PLAYERS])
    T.first_position(s, position_hash(s, pr))


@njit(cache=True)
def position_hash(s, pr):
    """The hash of the hand's full position: the family's (turn, cards, table), the stage
    figures left to lay this turn and where each player stands with his stage."""
    h = repetition.mix(T.position_hash(s, pr), s[RUNS_LEFT])
    h = repetition.mix(h, s[GROUPS_LEFT])
    return repetition.mix_span(h, s, LAID_STAGE, pr[P_PLAYERS])


# --------------------------------------------------------------------------------------
# The stage: its figures, laid one by one in one turn
# --------------------------------------------------------------------------------------
@njit(cache=True)
def stage_figures(pr, stage):
    """(runs, run length, groups, group size) of stage ``stage`` (0 is the first)."""
    row = P_STAGES + stage * STAGE_FIELDS
    return (np.int64(pr[row]), np.int64(pr[row + 1]), np.int64(pr[row + 2]),
            np.int64(pr[row + 3]))


@njit(cache=True)
def stage_left(s, pr, player):
    """(runs, run length, groups, group size) still to lay for the player's stage."""
    runs, run_length, groups, group_size = stage_figures(pr, s[STAGE + player])
    if s[LAID_STAGE + player] == LAYING:
        return np.int64(s[RUNS_LEFT]), run_length, np.int64(s[GROUPS_LEFT]), group_size
    return runs, run_length, groups, group_size


@njit(cache=True)
def stage_melds(s, pr, player, hand, size, out):
    """Write into ``out`` the melds (the core's enumeration order) that fill a figure of
    the stage with the rest still layable; return how many.  The rest is laid from what
    the meld leaves, so a figure the whole hand cannot lay refuses every meld that leaves
    it to lay: a kind none of whose melds can pass is not listed at all."""
    runs, run_length, groups, group_length = stage_left(s, pr, player)
    cards = rummy.held_cards(hand)
    wilds = 0
    if runs > 0:
        wilds += rummy.fewest_wilds(pr, hand, cards, rummy.RUN, run_length, runs)
    if groups > 0:
        wilds += rummy.fewest_wilds(pr, hand, cards, rummy.GROUP, group_length, groups)
    if wilds > rummy.wild_count(pr, hand):
        return 0                                # the stage needs more wilds than held
    run_held = runs > 0 and rummy.holds_at_least(pr, hand, cards, rummy.RUN, run_length,
                                                 size)
    group_held = groups > 0 and rummy.holds_at_least(pr, hand, cards, rummy.GROUP,
                                                     group_length, size)
    runs_pass = runs > 0 and (runs == 1 or run_held) and (groups == 0 or group_held)
    groups_pass = groups > 0 and (groups == 1 or group_held) and (runs == 0 or run_held)
    count = rummy.enumerate_figures(pr, hand, cards, size - pr[P_KEEP],
                                    run_length if runs_pass else rummy.NO_FIGURE,
                                    group_length if groups_pass else rummy.NO_FIGURE, out)
    if count == 0:
        return 0
    places = stack_room(MAX_RUN)
    n = 0
    for i in range(count):
        code = out[i]
        length = rummy.meld_length(code)
        runs_after, groups_after = runs, groups
        if rummy.meld_kind(code) == rummy.RUN:
            runs_after -= 1
        else:
            groups_after -= 1
        rummy.remove_meld(pr, hand, code, places)
        rest = cards
        for j in range(length):
            if hand[places[j]] == 0:
                rest &= ~(np.int64(1) << places[j])
        ok = rummy.can_fill(pr, hand, rest, size - length, runs_after, run_length,
                            groups_after, group_length, pr[P_KEEP])
        for j in range(length):
            hand[places[j]] += 1
        if ok:
            out[n] = code
            n += 1
    return n


# --------------------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------------------
@njit(cache=True)
def play_actions(s, pr, player, out):
    """Lay-downs in order: melds (the core's enumeration order: runs, then groups), lay-offs
    (by table meld, card, end), then discards (by card).  Before his stage is laid, only
    melds that keep the stage layable; while it is being laid, no discard."""
    h = hand_at(player)
    hand = s[h:h + CARD_KINDS]
    size = s[HAND_SIZE_AT + player]
    keep = pr[P_KEEP]
    laid = s[LAID_STAGE + player]
    if laid != LAID:
        n = stage_melds(s, pr, player, hand, size, out)
    else:
        n = rummy.enumerate_melds(pr, hand, size - keep, out)
    for i in range(n):
        out[i] += LAY_ACTION
    if laid == LAID and size - 1 >= keep:
        n = T.layoff_actions(s, pr, hand, -1, T.ALL_SEATS, out, n)
    if laid != LAYING or n == 0:
        barred = -1 if pr[P_REDISCARD] else s[T.TAKEN]
        n = T.discard_actions(s, player, barred, out, n)
    return n


# --------------------------------------------------------------------------------------
# Playing an action
# --------------------------------------------------------------------------------------
@njit(cache=True)
def lay_meld(s, pr, player, code):
    """Lay a figure; before the stage is laid, a figure of it."""
    if s[LAID_STAGE + player] != LAID:
        runs, _, groups, _ = stage_left(s, pr, player)
        if rummy.meld_kind(code) == rummy.RUN:
            runs -= 1
        else:
            groups -= 1
        s[RUNS_LEFT] = runs
        s[GROUPS_LEFT] = groups
        s[LAID_STAGE + player] = LAID if runs == 0 and groups == 0 else LAYING
    T.lay_meld(s, pr, player, code, stack_room(MAX_RUN))
    after_lay(s, pr, player)


@njit(cache=True)
def after_lay(s, pr, player):
    """With ``must_discard_to_go_out=false``, a lay-down that empties the hand ends it."""
    if s[HAND_SIZE_AT + player] == 0:
        end_hand(s, pr, player, FINISHED)


@njit(cache=True)
def lay_off_card(s, pr, player, k, card, end):
    T.lay_off(s, pr, player, k, card, end)
    after_lay(s, pr, player)


# --------------------------------------------------------------------------------------
# "Fin du tour": the count, the progression; the end of the match
# --------------------------------------------------------------------------------------
@njit(cache=True)
def end_hand(s, pr, winner, ending):
    """Count and progress (none for a void or capped hand), record the hand, then deal the
    next or end the match."""
    players = pr[P_PLAYERS]
    row = ROUNDS + s[T.ROUNDS_LEN] * ROUND_WIDTH
    done = False
    for p in range(players):
        score = 0
        passed = ending == FINISHED and s[LAID_STAGE + p] == LAID
        if ending == FINISHED and p != winner:
            h = hand_at(p)
            score = rummy.hand_penalty(s[h:h + CARD_KINDS], PENALTY_VALUES)
        s[TOTAL + p] += score
        s[row + ROUND_SCORE + p] = score
        s[row + ROUND_STAGE + p] = s[STAGE + p] + 1
        s[row + ROUND_PASSED + p] = passed
        if passed:
            s[STAGE + p] += 1
            s[STAGES_PASSED + p] += 1
            done = done or s[STAGE + p] == pr[P_STAGE_COUNT]
    T.record_hand(s, row, winner, ending)
    if done or T.stops_match(ending) or s[T.HAND_NO] >= pr[P_MAX_HANDS]:
        finish(s, pr, done)
        return
    s[T.DEALER] = (s[T.DEALER] + 1) % players
    s[PHASE] = SETUP


@njit(cache=True)
def ranks_before(s, pr, q, p, done):
    """Whether seat ``q`` ranks before seat ``p``: once stage 10 is passed, those who
    passed it first (A10; not with ``lowest_points_overall``), then the lower total; in a
    capped match the higher stage, then the lower total."""
    if done:
        last = pr[P_STAGE_COUNT]
        first_q, first_p = s[STAGE + q] == last, s[STAGE + p] == last
        if not pr[P_OVERALL] and first_q != first_p:
            return first_q
    elif s[STAGE + q] != s[STAGE + p]:
        return s[STAGE + q] > s[STAGE + p]
    return s[TOTAL + q] < s[TOTAL + p]


@njit(cache=True)
def finish(s, pr, done):
    """"Le premier à passer le 10ème échelon (ou celui qui a le moins de points) a gagné":
    rank every seat (:func:`ranks_before`; equal keys share a rank)."""
    players = pr[P_PLAYERS]
    for p in range(players):
        better = 0
        for q in range(players):
            better += ranks_before(s, pr, q, p, done)
        s[T.RANK + p] = better + 1
    T.end_match(s, not done)


# --------------------------------------------------------------------------------------
# Hidden information: the rummy views (engines.families.rummy.turns)
# --------------------------------------------------------------------------------------
observe = T.observe
determinize = T.determinize
