"""La petite école (le gros cochon): the rules, once, as compiled functions over a flat
state array.

Read alongside ``shared/rules/petite-ecole.md`` (spec) and the French source (Jeepy's
text).  The sections follow the rulebook: components, the deal, a turn (draw, lay, discard),
the stages, the end of a hand (count and progression), the end of the match.  Melds, the
table and the search for a stage come from the rummy core (:mod:`engines.rummy`); the stock
and its reshuffle from the shedding core.

Readings of the text (each coded where stated):

* Ten stages ("échelons") in order; every player starts at stage 1.  A stage's figures are
  minimum sizes (A2): "triple" is a group of 3 or more, "quadruple" of 4 or more, "série de
  4" a run of 4 or more.  Groups are free (any suits, repeats allowed, any size); runs are
  of one suit (A1), from 3 to the Ace ("du 3 à l'As": the Ace is high only).
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
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines import rummy, shedding
from engines.chance import shuffle, uniform_index_jit
from engines.layout import Layout
from engines.petite_ecole.params import MAX_HANDS, MAX_PLAYERS, PetiteEcoleParams
from engines.rummy import CARD_KINDS, MAX_CANDIDATES, MAX_RUN, MELD_WIDTH, P_PLAYERS

# --------------------------------------------------------------------------------------
# Components: two (three) decks of 52, no jokers, 13 cards each, 2s wild
# --------------------------------------------------------------------------------------
MAX_DECKS = 3
MAX_CARDS = MAX_DECKS * 52
MAX_MELDS = MAX_CARDS // 3
HAND_SIZE = 13
ACE_PENALTY, TEN_PENALTY, LOW_PENALTY, TWO_PENALTY = 15, 10, 5, 20
# The stages: (runs, their minimum length, groups, their minimum size).
STAGES = np.array([(0, 0, 2, 3), (1, 4, 1, 3), (0, 0, 2, 4), (2, 4, 0, 0), (0, 0, 3, 3),
                   (1, 4, 2, 3), (1, 5, 1, 4), (2, 5, 0, 0), (1, 5, 2, 3), (1, 7, 1, 4)],
                  dtype=np.int64)
LAST_STAGE = len(STAGES)
WILD_LIMITS = {"one_natural": (MAX_RUN, 1, 0), "naturals_ge_wilds": (MAX_RUN, 1, 1),
               "max_one_wild": (1, 1, 0)}       # max wilds, min naturals, wilds <= naturals
FIRST_NATURAL_POSITION = 3                      # runs "du 3 à l'As"

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see PetiteEcoleParams); the core's first
# --------------------------------------------------------------------------------------
PARAMS = Layout(*rummy.CORE_PARAMS, ("decks", 1), ("keep", 1), ("rediscard", 1),
                ("overall", 1), ("max_hands", 1), ("max_turns", 1))
P_DECKS = PARAMS.offset("decks")
P_KEEP = PARAMS.offset("keep")
P_REDISCARD = PARAMS.offset("rediscard")
P_OVERALL = PARAMS.offset("overall")
P_MAX_HANDS = PARAMS.offset("max_hands")
P_MAX_TURNS = PARAMS.offset("max_turns")


def encode_params(params: PetiteEcoleParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    p = PARAMS.new()
    p[P_PLAYERS] = params.players
    p[rummy.P_WILD_POLICY] = rummy.TWOS
    max_wilds, min_naturals, ratio = WILD_LIMITS[params.wild_limit]
    p[rummy.P_MAX_WILDS] = max_wilds
    p[rummy.P_MIN_NATURALS] = min_naturals
    p[rummy.P_WILDS_LE_NATURALS] = ratio
    p[rummy.P_GROUPS] = 1
    p[rummy.P_FREE_GROUPS] = 1
    p[rummy.P_RUN_MIN] = FIRST_NATURAL_POSITION
    p[rummy.P_RUN_MAX] = rummy.ACE_HIGH
    p[P_DECKS] = params.decks
    p[P_KEEP] = 1 if params.must_discard_to_go_out else 0
    p[P_REDISCARD] = params.may_rediscard_taken
    p[P_OVERALL] = params.winner_rule == "lowest_points_overall"
    p[P_MAX_HANDS] = params.max_hands
    p[P_MAX_TURNS] = params.max_turns
    return p


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
# A round row (one per hand): hand, dealer, winner (-1: void or capped), turns, reshuffles,
# écart cards taken, ending; then per seat the hand's score, the stage played (1..10) and
# whether it was passed.
ROUND_FIELDS = ("hand", "dealer", "winner", "turns", "reshuffles", "takes", "ending")
ROUND_WIDTH = len(ROUND_FIELDS) + 3 * MAX_PLAYERS
ROUND_HAND, ROUND_WINNER, ROUND_ENDING = (ROUND_FIELDS.index(f) for f in ("hand", "winner",
                                                                        "ending"))
ROUND_SCORE = len(ROUND_FIELDS)
ROUND_STAGE = ROUND_SCORE + MAX_PLAYERS
ROUND_PASSED = ROUND_STAGE + MAX_PLAYERS
FINISHED, VOID, CAPPED = 0, 1, 2
HAND_ENDINGS = ("finished", "void", "capped")

STATE = Layout(
    ("phase", 1), ("current", 1), ("dealer", 1), ("hand_no", 1), ("decisions", 1),
    ("turn", 1), ("taken", 1), ("runs_left", 1), ("groups_left", 1), ("ending", 1),
    ("unseen", 1),
    ("stock_len", 1), ("stock", MAX_CARDS), ("discard_len", 1), ("discard", MAX_CARDS),
    ("hand", MAX_PLAYERS * CARD_KINDS), ("hand_size", MAX_PLAYERS),
    ("stage", MAX_PLAYERS), ("laid_stage", MAX_PLAYERS),
    ("melds_len", 1), ("melds", MAX_MELDS * MELD_WIDTH),
    ("total", MAX_PLAYERS), ("rank", MAX_PLAYERS),
    # figures for results
    ("player_decisions", MAX_PLAYERS), ("wins", MAX_PLAYERS), ("stages_passed", MAX_PLAYERS),
    ("takes", MAX_PLAYERS), ("layoffs", MAX_PLAYERS), ("melds_laid", MAX_PLAYERS),
    ("hand_reshuffles", 1), ("hand_takes", 1), ("turns", 1), ("reshuffles", 1),
    ("void_hands", 1), ("rounds_len", 1), ("rounds", MAX_HANDS * ROUND_WIDTH),
)
STATE_SIZE = STATE.size
PHASE = STATE.offset("phase")
CURRENT = STATE.offset("current")
DEALER = STATE.offset("dealer")
HAND_NO = STATE.offset("hand_no")
DECISIONS = STATE.offset("decisions")
TURN = STATE.offset("turn")
TAKEN = STATE.offset("taken")
RUNS_LEFT = STATE.offset("runs_left")
GROUPS_LEFT = STATE.offset("groups_left")
ENDING = STATE.offset("ending")
UNSEEN = STATE.offset("unseen")
STOCK_LEN = STATE.offset("stock_len")
STOCK = STATE.offset("stock")
DISCARD_LEN = STATE.offset("discard_len")
DISCARD = STATE.offset("discard")
HAND = STATE.offset("hand")
HAND_SIZE_AT = STATE.offset("hand_size")
STAGE = STATE.offset("stage")
LAID_STAGE = STATE.offset("laid_stage")
MELDS_LEN = STATE.offset("melds_len")
MELDS = STATE.offset("melds")
TOTAL = STATE.offset("total")
RANK = STATE.offset("rank")
PLAYER_DECISIONS = STATE.offset("player_decisions")
WINS = STATE.offset("wins")
STAGES_PASSED = STATE.offset("stages_passed")
TAKES = STATE.offset("takes")
LAYOFFS = STATE.offset("layoffs")
MELDS_LAID = STATE.offset("melds_laid")
HAND_RESHUFFLES = STATE.offset("hand_reshuffles")
HAND_TAKES = STATE.offset("hand_takes")
TURNS = STATE.offset("turns")
RESHUFFLES = STATE.offset("reshuffles")
VOID_HANDS = STATE.offset("void_hands")
ROUNDS_LEN = STATE.offset("rounds_len")
ROUNDS = STATE.offset("rounds")

SETUP, DRAW, PLAY, OVER = 0, 1, 2, 3
# A player's stage in this hand: not laid, being laid this turn, laid.
NOT_LAID, LAYING, LAID = 0, 1, 2

# Actions, coded as in rami (see engines.rummy_game for their texts); no joker swap.
DRAW_STOCK = 0
TAKE_DISCARD = 1
DISCARD_ACTION = 2                                  # + card
LAYOFF_ACTION = 64                                  # + (meld * 53 + card) * 2 + end
SWAP_ACTION = 8192                                  # (none in this game)
LAY_ACTION = 16384                                  # + meld code
MAX_LEGAL = MAX_CANDIDATES + MAX_MELDS * 2 * CARD_KINDS + CARD_KINDS + 2


@njit(cache=True, inline="always")
def hand_at(player):
    return HAND + player * CARD_KINDS


@njit(cache=True)
def penalty_values():
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


# --------------------------------------------------------------------------------------
# Setup: "le brasseur distribue 13 cartes par joueur et retourne la carte suivante"
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """The state before the first deal."""
    s[:] = 0
    s[DEALER] = -1
    s[PHASE] = SETUP


@njit(cache=True)
def deal(s, pr, rng):
    """Gather and shuffle the decks, deal 13 cards to each player from the dealer's left,
    turn the next card up as the écart; the dealer's left plays first."""
    players = pr[P_PLAYERS]
    if s[DEALER] < 0:
        s[DEALER] = uniform_index_jit(rng, players)
    n = 0
    for _ in range(pr[P_DECKS]):
        for card in range(rummy.JOKER):
            s[STOCK + n] = card
            n += 1
    s[STOCK_LEN] = n
    s[HAND:HAND + MAX_PLAYERS * CARD_KINDS] = 0
    s[MELDS_LEN] = 0
    for p in range(MAX_PLAYERS):
        s[HAND_SIZE_AT + p] = 0
        s[LAID_STAGE + p] = NOT_LAID
    shuffle(rng, s[STOCK:STOCK + n])
    for _ in range(HAND_SIZE):
        for i in range(1, players + 1):
            p = (s[DEALER] + i) % players
            s[STOCK_LEN] -= 1
            s[hand_at(p) + s[STOCK + s[STOCK_LEN]]] += 1
            s[HAND_SIZE_AT + p] += 1
    s[STOCK_LEN] -= 1
    s[DISCARD] = s[STOCK + s[STOCK_LEN]]
    s[DISCARD_LEN] = 1
    s[TURN] = -1
    s[HAND_RESHUFFLES] = 0
    s[HAND_TAKES] = 0
    start_turn(s, (s[DEALER] + 1) % players)


@njit(cache=True)
def start_turn(s, player):
    s[CURRENT] = player
    s[PHASE] = DRAW
    s[TURN] += 1
    s[TURNS] += 1
    s[TAKEN] = -1


# --------------------------------------------------------------------------------------
# The stage: its figures, laid one by one in one turn
# --------------------------------------------------------------------------------------
@njit(cache=True)
def stage_left(s, player):
    """(runs, run length, groups, group size) still to lay for the player's stage."""
    stage = STAGES[s[STAGE + player]]
    if s[LAID_STAGE + player] == LAYING:
        return np.int64(s[RUNS_LEFT]), stage[1], np.int64(s[GROUPS_LEFT]), stage[3]
    return stage[0], stage[1], stage[2], stage[3]


@njit(cache=True)
def stage_meld_ok(s, pr, player, hand, size, code):
    """Whether the meld code fills a figure of the stage with the rest still layable."""
    runs, run_length, groups, group_length = stage_left(s, player)
    length = rummy.meld_length(code)
    if rummy.meld_kind(code) == rummy.RUN:
        if runs == 0 or length < run_length:
            return False
        runs -= 1
    else:
        if groups == 0 or length < group_length:
            return False
        groups -= 1
    rest = hand.copy()
    places = np.empty(MAX_RUN, dtype=np.int32)
    rummy.remove_meld(pr, rest, code, places)
    return rummy.can_fill(pr, rest, size - length, runs, run_length, groups, group_length,
                          pr[P_KEEP])


# --------------------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------------------
@njit(cache=True)
def play_actions(s, pr, player, out):
    """Lay-downs in order: melds (the core's enumeration order: runs, then groups), lay-offs
    (by table meld, card, end), then discards (by card).  Before his stage is laid, only
    melds that keep the stage layable; while it is being laid, no discard."""
    h = hand_at(player)
    hand = s[h:h + CARD_KINDS].copy()
    size = s[HAND_SIZE_AT + player]
    keep = pr[P_KEEP]
    melds = np.empty(MAX_CANDIDATES, dtype=np.int64)
    count = rummy.enumerate_melds(pr, hand, size - keep, melds)
    laid = s[LAID_STAGE + player]
    n = 0
    for i in range(count):
        if laid == LAID or stage_meld_ok(s, pr, player, hand, size, melds[i]):
            out[n] = LAY_ACTION + melds[i]
            n += 1
    if laid == LAID and size - 1 >= keep:
        table = s[MELDS:MELDS + MAX_MELDS * MELD_WIDTH]
        for k in range(s[MELDS_LEN]):
            for card in range(CARD_KINDS):
                if hand[card] == 0:
                    continue
                for end in range(2):
                    if rummy.layoff_fits(pr, table, k, card, end):
                        out[n] = LAYOFF_ACTION + (k * CARD_KINDS + card) * 2 + end
                        n += 1
    if laid != LAYING or n == 0:
        first = n
        for card in range(CARD_KINDS):
            if hand[card] > 0 and (card != s[TAKEN] or pr[P_REDISCARD] != 0
                                   or hand[card] > 1):
                out[n] = DISCARD_ACTION + card
                n += 1
        if n == first and size > 0:                     # only the card taken is left
            out[n] = DISCARD_ACTION + s[TAKEN]
            n += 1
    return n


@njit(cache=True)
def legal_actions(s, pr, out):
    """Write the current player's legal action codes into ``out``; return their count."""
    if s[PHASE] == DRAW:
        out[0] = DRAW_STOCK
        if s[DISCARD_LEN] > 0:
            out[1] = TAKE_DISCARD
            return 2
        return 1
    if s[PHASE] == PLAY:
        return play_actions(s, pr, s[CURRENT], out)
    return 0


# --------------------------------------------------------------------------------------
# Playing an action
# --------------------------------------------------------------------------------------
@njit(cache=True)
def draw_stock(s, pr, player, rng):
    """The top card of the talon, rebuilt from the écart when empty (A9); nothing to draw
    at all ends the hand void."""
    drawn = np.empty(1, dtype=np.int32)
    got, reshuffles = shedding.draw(s, STOCK, STOCK_LEN, DISCARD, DISCARD_LEN,
                                    hand_at(player), 1, rng, drawn)
    s[RESHUFFLES] += reshuffles
    s[HAND_RESHUFFLES] += reshuffles
    if got == 0:
        end_hand(s, pr, -1, VOID)
        return
    s[HAND_SIZE_AT + player] += 1
    s[PHASE] = PLAY


@njit(cache=True)
def take_discard(s, player):
    s[DISCARD_LEN] -= 1
    card = s[DISCARD + s[DISCARD_LEN]]
    s[hand_at(player) + card] += 1
    s[HAND_SIZE_AT + player] += 1
    s[TAKEN] = card
    s[TAKES + player] += 1
    s[HAND_TAKES] += 1
    s[PHASE] = PLAY


@njit(cache=True)
def lay_meld(s, pr, player, code):
    """Lay a figure; before the stage is laid, a figure of it."""
    if s[LAID_STAGE + player] != LAID:
        runs, _, groups, _ = stage_left(s, player)
        if rummy.meld_kind(code) == rummy.RUN:
            runs -= 1
        else:
            groups -= 1
        s[RUNS_LEFT] = runs
        s[GROUPS_LEFT] = groups
        s[LAID_STAGE + player] = LAID if runs == 0 and groups == 0 else LAYING
    h = hand_at(player)
    places = np.empty(MAX_RUN, dtype=np.int32)
    n = rummy.remove_meld(pr, s[h:h + CARD_KINDS], code, places)
    table = s[MELDS:MELDS + MAX_MELDS * MELD_WIDTH]
    rummy.put_meld(pr, table, s[MELDS_LEN], player, code, places)
    s[MELDS_LEN] += 1
    s[HAND_SIZE_AT + player] -= n
    s[MELDS_LAID + player] += 1
    after_lay(s, pr, player)


@njit(cache=True)
def after_lay(s, pr, player):
    """With ``must_discard_to_go_out=false``, a lay-down that empties the hand ends it."""
    if s[HAND_SIZE_AT + player] == 0:
        end_hand(s, pr, player, FINISHED)


@njit(cache=True)
def lay_off_card(s, pr, player, k, card, end):
    table = s[MELDS:MELDS + MAX_MELDS * MELD_WIDTH]
    rummy.lay_off(pr, table, k, card, end)
    s[hand_at(player) + card] -= 1
    s[HAND_SIZE_AT + player] -= 1
    s[LAYOFFS + player] += 1
    after_lay(s, pr, player)


@njit(cache=True)
def discard(s, pr, player, card):
    s[hand_at(player) + card] -= 1
    s[HAND_SIZE_AT + player] -= 1
    s[DISCARD + s[DISCARD_LEN]] = card
    s[DISCARD_LEN] += 1
    if s[HAND_SIZE_AT + player] == 0:
        end_hand(s, pr, player, FINISHED)
        return
    if s[TURN] + 1 >= pr[P_MAX_TURNS]:
        end_hand(s, pr, -1, CAPPED)
        return
    start_turn(s, (player + 1) % pr[P_PLAYERS])


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """Play a legal action for the current player (legality is the caller's check); chance
    steps draw from ``rng``."""
    player = s[CURRENT]
    s[DECISIONS] += 1
    s[PLAYER_DECISIONS + player] += 1
    if action == DRAW_STOCK:
        draw_stock(s, pr, player, rng)
    elif action == TAKE_DISCARD:
        take_discard(s, player)
    elif action < LAYOFF_ACTION:
        discard(s, pr, player, action - DISCARD_ACTION)
    elif action < SWAP_ACTION:
        k, rest = divmod(action - LAYOFF_ACTION, CARD_KINDS * 2)
        lay_off_card(s, pr, player, k, rest // 2, rest % 2)
    else:
        lay_meld(s, pr, player, action - LAY_ACTION)
    if s[PHASE] == SETUP:
        deal(s, pr, rng)


@njit(cache=True)
def advance(s, pr, rng):
    """Resolve the pending chance step (the deal), if any."""
    if s[PHASE] == SETUP:
        deal(s, pr, rng)


# --------------------------------------------------------------------------------------
# "Fin du tour": the count, the progression; the end of the match
# --------------------------------------------------------------------------------------
@njit(cache=True)
def end_hand(s, pr, winner, ending):
    """Count and progress (none for a void or capped hand), record the hand, then deal the
    next or end the match."""
    players = pr[P_PLAYERS]
    row = ROUNDS + s[ROUNDS_LEN] * ROUND_WIDTH
    values = penalty_values()
    done = False
    for p in range(players):
        score = 0
        passed = ending == FINISHED and s[LAID_STAGE + p] == LAID
        if ending == FINISHED and p != winner:
            h = hand_at(p)
            score = rummy.hand_penalty(s[h:h + CARD_KINDS], values)
        s[TOTAL + p] += score
        s[row + ROUND_SCORE + p] = score
        s[row + ROUND_STAGE + p] = s[STAGE + p] + 1
        s[row + ROUND_PASSED + p] = passed
        if passed:
            s[STAGE + p] += 1
            s[STAGES_PASSED + p] += 1
            done = done or s[STAGE + p] == LAST_STAGE
    if ending == FINISHED:
        s[WINS + winner] += 1
    s[VOID_HANDS] += ending == VOID
    s[row + 0] = s[HAND_NO]
    s[row + 1] = s[DEALER]
    s[row + 2] = winner
    s[row + 3] = s[TURN] + 1
    s[row + 4] = s[HAND_RESHUFFLES]
    s[row + 5] = s[HAND_TAKES]
    s[row + 6] = ending
    s[ROUNDS_LEN] += 1
    s[HAND_NO] += 1
    if done or ending == CAPPED or s[HAND_NO] >= pr[P_MAX_HANDS]:
        finish(s, pr, done)
        return
    s[DEALER] = (s[DEALER] + 1) % players
    s[PHASE] = SETUP


@njit(cache=True)
def ranks_before(s, pr, q, p, done):
    """Whether seat ``q`` ranks before seat ``p``: once stage 10 is passed, those who
    passed it first (A10; not with ``lowest_points_overall``), then the lower total; in a
    capped match the higher stage, then the lower total."""
    if done:
        first_q, first_p = s[STAGE + q] == LAST_STAGE, s[STAGE + p] == LAST_STAGE
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
        s[RANK + p] = better + 1
    s[ENDING] = shedding.FINISHED if done else shedding.CAPPED
    s[PHASE] = OVER
    s[CURRENT] = -1


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: his own hand, the écart, the table,
    hand sizes, stages and totals; the talon and the other hands become the list of unseen
    cards (:func:`engines.rummy.hide_cards`)."""
    out[:] = s
    rummy.hide_cards(s, pr[P_PLAYERS], player, HAND, STOCK, STOCK_LEN, MAX_CARDS, UNSEEN, out)


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation."""
    observe(s, pr, player, out)
    rummy.deal_unseen(out, pr[P_PLAYERS], player, HAND, HAND_SIZE_AT, STOCK, STOCK_LEN, UNSEEN,
                      rng)
