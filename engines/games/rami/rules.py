"""Le rami: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/rami.md`` and the French source.  The sections follow
the rulebook: components, the deal, a turn (draw, lay, discard), the first lay-down and the
rami sec, laying off and taking a joker back, the end of a hand and its count, the match.
Melds, the table and the search for an opening come from the rummy core
(:mod:`engines.families.rummy.rules`); the stock and its reshuffle from the shedding core.

Readings of the text (each coded where stated):

* Melds: runs of 3 or more cards of one suit (the Ace low or high, no wrap); brelans and
  carrés of one rank "de couleurs différentes", so at most 4 cards even with two decks
  (A12); a joker stands for any card, at most ``max_jokers_per_meld`` of them (A3).
* A turn is several decisions: draw (``draw stock`` / ``take discard``), then any number
  of lay-downs (one meld, one lay-off or one joker swap per decision), then ``discard``.
* The first lay-down ("pour poser une première fois") is laid meld by meld in one turn: a
  meld is offered only if the melds of that turn can still reach 51 points with a clean run
  (:func:`engines.families.rummy.rules.can_complete`), and the player cannot discard until they
  do, so a started lay-down always completes.  The joker counts 0 ("le joker ne compte aucun
  point"); an Ace counts 11 in a group (A5) and at the top of a run, 1 at the bottom.
* "À partir du deuxième tour" (A2): nobody takes the discard during the first round of
  turns.  "À condition de poser aussitôt la carte" (A8): the discard is offered only if the
  player can lay it this turn (a player who has not opened: in an opening that includes
  it), and until it is laid his only choices are the lay-downs that lay it.
* A joker comes back only from a run (and, with ``swap_from_full_carre``, from a carré of
  three naturals), by putting the card it stands for; it must then be laid the same turn
  (A6, unless ``joker_to_hand``), and until it is the player's only choices lay it.
* "Pour gagner, un joueur doit poser son avant-dernière carte et jeter sa dernière": no
  lay-down may leave the hand empty.
* Rami sec: a player who goes out in the turn of his first lay-down, when no meld was on
  the table at the start of that turn, has laid his 13 cards at once.
* Count: the winner 0 (-50 for a rami sec); the others the penalty of their cards (Ace 11,
  K Q J 10, the joker 50, the rest face value), or 100 if they laid no card this hand ("il
  n'a posé aucune carte").  The match lasts ``num_hands`` hands (A11), the deal passing
  left; the lowest total wins, equal totals share.
* The talon runs out (A7): the discard pile but its top card is shuffled into a new talon;
  if there is nothing to shuffle (or with ``stock_out=hand_void``) the hand ends void and
  nobody scores.  A hand reaching ``max_turns`` turns ends the match as capped.
* A hand's position can come back exactly: the discard pile becomes the talon again, and a
  player may draw a card and discard it, so the same cards can go round the hands, the
  talon and the pile while the table stays as it is (what is laid never leaves it but a
  joker taken back, which leaves its card in its place).  A hand back at a position it
  has been at (:func:`position_hash`; :mod:`engines.core.repetition`) ends the match as a
  cycle at the first repetition, with the cycle's length recorded: the hand scores nothing
  and the match is ranked by the totals so far, as a capped one.  Each hand forgets the
  positions of the last (a new deal from a shuffled pack, the totals moved on).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core import repetition
from engines.core.layout import Layout, copy_into, stack_room
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T
from engines.families.rummy.rules import (
    CARD_KINDS,
    JOKER,
    MAX_CANDIDATES,
    MAX_RUN,
    P_PLAYERS,
    SEARCH_LEVELS,
    card_rank,
)
from engines.families.rummy.turns import (
    CURRENT,
    DISCARD,
    DISCARD_LEN,
    DRAW,
    DRAW_STOCK,
    HAND_SIZE_AT,
    LAY_ACTION,
    MAX_PLAYERS,
    MELDS_LEN,
    PHASE,
    PLAY,
    SETUP,
    SWAP_ACTION,
    TABLE_SIZE,
    TAKE_DISCARD,
    TOTAL,
    TURN,
    hand_at,
    table,
)
from engines.games.rami.params import MAX_HANDS, RamiParams

# --------------------------------------------------------------------------------------
# Components: "deux jeux de 52 cartes + 4 jokers", 13 cards each
# --------------------------------------------------------------------------------------
DECKS = 2
JOKERS = 4
HAND_SIZE = 13
FACE_PENALTY, ACE_PENALTY = 10, 11
MAX_JOKERS = {"1": 1, "2": 2, "unlimited": MAX_RUN}
MIN_NATURALS = 2                        # a joker completes a meld, it is never most of one

# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see RamiParams); the core's come first
# --------------------------------------------------------------------------------------
PARAMS = Layout(*rummy.CORE_PARAMS, ("opening_min", 1), ("clean_run", 1), ("sec_only", 1),
                ("sec_bonus", 1), ("never_laid", 1), ("joker_penalty", 1),
                ("layoff_opening", 1), ("joker_to_hand", 1), ("swap_full_carre", 1),
                ("stock_void", 1), ("sec_loser_cards", 1), ("num_hands", 1),
                ("max_turns", 1))
(*_, P_OPENING_MIN, P_CLEAN_RUN, P_SEC_ONLY, P_SEC_BONUS, P_NEVER_LAID, P_JOKER_PENALTY,
 P_LAYOFF_OPENING, P_JOKER_TO_HAND, P_SWAP_FULL_CARRE, P_STOCK_VOID, P_SEC_LOSER_CARDS, P_NUM_HANDS,
 P_MAX_TURNS) = PARAMS.offsets()


def encode_params(params: RamiParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    return PARAMS.encode(players=params.players, wild_policy=rummy.JOKERS,
                         max_wilds=MAX_JOKERS[params.max_jokers_per_meld],
                         min_naturals=MIN_NATURALS, groups=1, run_min=rummy.ACE_LOW,
                         run_max=rummy.ACE_HIGH, free_groups=0, wilds_le_naturals=0, mixed_runs=0,
                         opening_min=params.opening_min, clean_run=params.opening_needs_clean_run,
                         sec_only=params.rami_sec_only, sec_bonus=params.rami_sec_bonus,
                         never_laid=params.never_laid_penalty, joker_penalty=params.joker_penalty,
                         layoff_opening=params.layoff_on_opening_turn,
                         joker_to_hand=params.joker_to_hand,
                         swap_full_carre=params.swap_from_full_carre,
                         stock_void=params.stock_out == "hand_void",
                         sec_loser_cards=params.sec_loser_scoring == "card_values",
                         num_hands=params.hands, max_turns=params.max_turns)


# --------------------------------------------------------------------------------------
# State: the rummy prefix (engines.families.rummy.turns), then rami's own fields
# --------------------------------------------------------------------------------------
# A round row (one per hand): the common fields (hand, dealer, winner (-1: void or capped),
# turns, reshuffles, discards taken, ending), then whether it was a rami sec, the turn of
# the first lay-down (-1: none), the joker swaps, then each seat's score for the hand.
ROUND_FIELDS = T.ROUND_CORE + ("rami_sec", "first_opening", "swaps")
ROUND_ROW = Layout(*ROUND_FIELDS, ("score", MAX_PLAYERS))
ROUND_WIDTH = ROUND_ROW.size
ROUND_SEC, ROUND_FIRST_OPEN, ROUND_SWAPS, ROUND_SCORE = ROUND_ROW.offsets(
    "rami_sec", "first_opening", "swaps", "score")
FINISHED, VOID, CAPPED, CYCLE = T.FINISHED, T.VOID, T.CAPPED, T.CYCLE

STATE = Layout(
    *T.CORE_STATE,
    ("must_card", 1), ("must_wild", 1), ("prov_points", 1), ("prov_clean", 1),
    ("prov_cards", 1), ("table_before", 1),
    ("opened", MAX_PLAYERS), ("laid", MAX_PLAYERS),
    # figures for results
    ("openings", MAX_PLAYERS), ("secs", MAX_PLAYERS), ("never_laid_hands", MAX_PLAYERS),
    ("swaps", MAX_PLAYERS), ("hand_first_open", 1), ("hand_swaps", 1),
    ("rounds", MAX_HANDS * ROUND_WIDTH),
)
STATE_SIZE = STATE.size
# the compiled contract's names, the turn core's (engines.families.rummy.turns); apply_action
# draws the chance that follows a decision (see engines.core.streams)
OVER, N_ACTIONS = T.OVER, T.N_ACTIONS
APPLY_DRAWS = True
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)
(*_, MUST_CARD, MUST_WILD, PROV_POINTS, PROV_CLEAN, PROV_CARDS, TABLE_BEFORE, OPENED, LAID,
 OPENINGS, SECS, NEVER_LAID_HANDS, SWAPS, HAND_FIRST_OPEN, HAND_SWAPS, ROUNDS) = STATE.offsets()

# Whether a player has opened: not yet, on an earlier turn, in this turn.
NOT_OPENED, OPENED_BEFORE, OPENING_NOW = 0, 1, 2


@njit(cache=True)
def penalty_values(pr, values):
    """Write into ``values`` the end-of-hand value of each card: Ace 11, K Q J 10, others
    face value, joker 50."""
    for card in range(JOKER):
        rank = card_rank(card)
        values[card] = ACE_PENALTY if rank == 14 else min(rank, FACE_PENALTY)
    values[JOKER] = pr[P_JOKER_PENALTY]


# --------------------------------------------------------------------------------------
# Setup: the first dealer is drawn, then the deal passes left; 13 cards each
# --------------------------------------------------------------------------------------
new_game = T.new_game


@njit(cache=True)
def advance(s, pr, rng):
    """The deal, when it is due (phase ``SETUP``): gather and shuffle the 108 cards, deal 13
    to each player from the dealer's left (the first dealer is drawn, then the deal passes
    left); the rest is the talon, the discard pile is empty; the dealer's left plays first."""
    if s[PHASE] != SETUP:
        return
    T.deal(s, pr, rng, DECKS, JOKERS, HAND_SIZE, False)
    for p in range(MAX_PLAYERS):
        s[OPENED + p] = NOT_OPENED
        s[LAID + p] = 0
    s[HAND_FIRST_OPEN] = -1
    s[HAND_SWAPS] = 0
    start_turn(s, pr, (s[T.DEALER] + 1) % pr[P_PLAYERS])
    T.first_position(s, position_hash(s, pr))


@njit(cache=True)
def position_hash(s, pr):
    """The hash of the hand's full position: the family's (turn, cards, table), whether the
    first round of turns is over (A2), what the player owes this turn (the card taken, a
    joker taken back), his first lay-down in progress, and who has opened and laid."""
    h = T.position_hash(s, pr)
    for field in (MUST_CARD, MUST_WILD, PROV_POINTS, PROV_CLEAN, PROV_CARDS, TABLE_BEFORE):
        h = repetition.mix(h, s[field])
    players = pr[P_PLAYERS]
    h = repetition.mix(h, 1 if s[TURN] < players else 0)
    h = repetition.mix_span(h, s, OPENED, players)
    return repetition.mix_span(h, s, LAID, players)


@njit(cache=True)
def start_turn(s, pr, player):
    """Hand the turn to ``player``: he draws first."""
    T.start_turn(s, player)
    s[MUST_CARD] = -1
    s[MUST_WILD] = 0
    s[PROV_POINTS] = 0
    s[PROV_CLEAN] = 0
    s[PROV_CARDS] = 0
    s[TABLE_BEFORE] = s[MELDS_LEN] > 0


# --------------------------------------------------------------------------------------
# The first lay-down: 51 points with a clean run, laid meld by meld in one turn
# --------------------------------------------------------------------------------------
@njit(cache=True)
def opening_open(s, pr, player, hand, size, must):
    """Whether ``player`` (not opened) can still complete his first lay-down this turn from
    ``hand`` (``size`` cards), with the melds he laid this turn, laying ``must`` (-1:
    nothing) in it; in the rami-sec variant, by laying every card but one."""
    need, clean, exact = opening_left(s, pr)
    return rummy.can_complete(pr, hand, size, need, clean, must, exact)


@njit(cache=True)
def opening_left(s, pr):
    """What the first lay-down still needs this turn: (points, a clean run, the cards to
    keep exactly: 1 in the rami-sec variant, else 0 for any)."""
    need = pr[P_OPENING_MIN] - s[PROV_POINTS]
    clean = pr[P_CLEAN_RUN] != 0 and s[PROV_CLEAN] == 0
    return need, clean, 1 if pr[P_SEC_ONLY] else 0


@njit(cache=True)
def opening_met(s, pr, player):
    """The melds laid this turn make the first lay-down (and, in the rami-sec variant, the
    player holds only the card to discard)."""
    if s[PROV_POINTS] < pr[P_OPENING_MIN]:
        return False
    if pr[P_CLEAN_RUN] and not s[PROV_CLEAN]:
        return False
    return not pr[P_SEC_ONLY] or s[HAND_SIZE_AT + player] == 1


# --------------------------------------------------------------------------------------
# Taking the discard: only after the first round, only to lay it at once
# --------------------------------------------------------------------------------------
@njit(cache=True)
def can_lay_card(s, pr, player, hand, size, card, work):
    """Whether ``hand`` (``size`` cards, holding ``card``) can lay ``card`` this turn
    (``work``: room for the hand's melds)."""
    if s[OPENED + player] == NOT_OPENED:
        return opening_open(s, pr, player, hand, size, card)
    if not rummy.is_wild(pr, card):
        if rummy.holds_meld_with(pr, hand, rummy.held_cards(hand), size - 1, card):
            return True
    else:                                       # a joker: any meld with a wild lays it
        n = rummy.enumerate_melds(pr, hand, size - 1, work)
        for i in range(n):
            if rummy.meld_wilds(pr, work[i]) > 0:
                return True
    if size < 2 or not layoffs_allowed(s, pr, player):
        return False
    for k in range(s[MELDS_LEN]):
        for end in range(2):
            if rummy.layoff_fits(pr, table(s), k, card, end):
                return True
    return False


@njit(cache=True)
def can_take(s, pr, player, work):
    """"À partir du deuxième tour", and "à condition de poser aussitôt la carte"
    (``work``: room for the hand's melds)."""
    if s[TURN] < pr[P_PLAYERS] or s[DISCARD_LEN] == 0:
        return False
    card = s[DISCARD + s[DISCARD_LEN] - 1]
    hand = s[hand_at(player):hand_at(player) + CARD_KINDS]
    hand[card] += 1                             # the hand as if he took it, for the question
    able = can_lay_card(s, pr, player, hand, s[HAND_SIZE_AT + player] + 1, card, work)
    hand[card] -= 1
    return able


@njit(cache=True)
def layoffs_allowed(s, pr, player):
    """Lay-offs and swaps: once opened, on a later turn (A4: or, with the variant, in the
    opening turn)."""
    opened = s[OPENED + player]
    return opened == OPENED_BEFORE or (opened == OPENING_NOW and pr[P_LAYOFF_OPENING])


# --------------------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------------------
@njit(cache=True)
def draw_actions(s, pr, player, out):
    taken = can_take(s, pr, player, out)       # out: room for its question, then the codes
    out[0] = DRAW_STOCK
    if taken:
        out[1] = TAKE_DISCARD
        return 2
    return 1


@njit(cache=True)
def lays_card(pr, hand, code, must_card, must_wild):
    """Whether a meld code lays the card the player owes (any meld when he owes none)."""
    if must_card >= 0:
        return rummy.meld_holds(pr, hand, code, must_card)
    if must_wild:
        return rummy.meld_wilds(pr, code) > 0
    return True


@njit(cache=True)
def play_actions(s, pr, player, out):
    """Lay-downs in order: melds (the core's enumeration order), lay-offs (by table meld,
    card, end), joker swaps (by table meld, place), then discards (by card).  A player
    still owing a card (the discard taken, a joker taken back) may only lay it; a player
    laying his first lay-down may only lay melds that keep it completable, and discards
    once it is made (or, before he starts it, instead of it).  Should nothing else be
    legal, the discards are (a safeguard the search's limits could need)."""
    h = hand_at(player)
    hand = s[h:h + CARD_KINDS]
    size = s[HAND_SIZE_AT + player]
    must_card, must_wild = s[MUST_CARD], s[MUST_WILD]
    opened = s[OPENED + player]
    n = 0
    if opened == NOT_OPENED:
        need, clean, exact = opening_left(s, pr)
        if rummy.may_complete(pr, hand, size, need, clean, must_card):
            room = rummy.search_room()
            if rummy.completes(pr, hand, size, need, clean, must_card, exact, room):
                n = opening_melds(s, pr, hand, size, room, out)
        if (s[PROV_CARDS] == 0 and must_card < 0) or n == 0:
            n = T.discard_actions(s, player, -1, out, n)
        return n
    count = rummy.enumerate_melds(pr, hand, size - 1, out)     # the candidates, kept in place
    for i in range(count):
        code = out[i]
        if lays_card(pr, hand, code, must_card, must_wild):
            out[n] = LAY_ACTION + code
            n += 1
    if size >= 2 and layoffs_allowed(s, pr, player):
        only = must_card if must_card >= 0 else (-2 if must_wild else -1)
        n = T.layoff_actions(s, pr, hand, only, T.ALL_SEATS, out, n)
    if must_card < 0 and not must_wild and layoffs_allowed(s, pr, player):
        melds = table(s)
        for k in range(s[MELDS_LEN]):
            row = k * rummy.MELD_WIDTH
            for place in range(melds[row + rummy.M_LEN]):
                if rummy.is_wild(pr, melds[row + rummy.M_CARDS + place]) \
                        and swap_ok(s, pr, player, hand, size, k, place):
                    out[n] = SWAP_ACTION + (k * 16 + place) * 2
                    n += 1
    if (must_card < 0 and not must_wild) or n == 0:
        n = T.discard_actions(s, player, -1, out, n)
    return n


@njit(cache=True)
def opening_melds(s, pr, hand, size, room, out):
    """Write into ``out`` the melds of ``hand`` (``size`` cards, not opened) that keep the
    first lay-down completable this turn, as lay actions; their count.  ``room`` holds the
    melds of one completion the search found: a meld among them, or one that shares no card
    with them and leaves a card beside them, is kept without a search of its own."""
    need, clean, exact = opening_left(s, pr)
    must_card = s[MUST_CARD]
    _, _, _, chosen, _, _ = room
    found = stack_room(SEARCH_LEVELS, np.int64)
    copy_into(found, chosen)
    found_cards, found_wilds, found_length = np.int64(0), 0, 0
    for k in range(found.size):
        if found[k] == rummy.NO_MELD:
            break
        found_cards |= rummy.natural_cards(found[k])
        found_wilds += rummy.meld_wilds(pr, found[k])
        found_length += rummy.meld_length(found[k])
    count = rummy.enumerate_melds(pr, hand, size - 1, out)     # the candidates, kept in place
    places = stack_room(MAX_RUN)
    n = 0
    for i in range(count):
        code = out[i]
        if among(found, code) or (
                exact == 0 and rummy.natural_cards(code) & found_cards == 0
                and rummy.meld_wilds(pr, code) + found_wilds <= rummy.wild_count(pr, hand)
                and size - rummy.meld_length(code) - found_length >= 1):
            out[n] = LAY_ACTION + code
            n += 1
            continue
        owed = must_card
        if owed >= 0 and rummy.meld_holds(pr, hand, code, owed):
            owed = -1
        need_after = need - rummy.meld_points(code)
        clean_after = clean and not rummy.meld_is_clean(code)
        laid = rummy.remove_meld(pr, hand, code, places)     # the rest, in place
        left = size - laid
        if rummy.may_complete(pr, hand, left, need_after, clean_after, owed) \
                and rummy.completes(pr, hand, left, need_after, clean_after, owed, exact, room):
            out[n] = LAY_ACTION + code
            n += 1
        for j in range(laid):
            hand[places[j]] += 1
    return n


@njit(cache=True)
def among(melds, code):
    """Whether ``code`` is one of ``melds`` (up to ``NO_MELD``)."""
    for k in range(melds.size):
        if melds[k] == rummy.NO_MELD:
            return False
        if melds[k] == code:
            return True
    return False


@njit(cache=True)
def swap_ok(s, pr, player, hand, size, k, place):
    """Taking back the joker at ``place`` of table meld ``k``: a joker in a run (or, with
    the variant, a determined carré), the player holding the card it stands for, and able
    to lay the joker this turn (A6, unless ``joker_to_hand``)."""
    melds = table(s)
    if melds[k * rummy.MELD_WIDTH + rummy.M_KIND] == rummy.GROUP \
            and not pr[P_SWAP_FULL_CARRE]:
        return False
    target = rummy.wild_stands_for(pr, melds, k, place)
    if target < 0 or hand[target] == 0:
        return False
    if pr[P_JOKER_TO_HAND]:
        return True
    after = stack_room(TABLE_SIZE)
    copy_into(after, melds)
    wild = rummy.swap_wild(pr, after, k, place)
    rest = stack_room(CARD_KINDS)
    copy_into(rest, hand)
    rest[target] -= 1
    rest[wild] += 1
    melds = stack_room(MAX_CANDIDATES, np.int64)
    n = rummy.enumerate_melds(pr, rest, size - 1, melds)
    for i in range(n):
        if rummy.meld_wilds(pr, melds[i]) > 0:
            return True
    if size >= 2:
        for m in range(s[MELDS_LEN]):
            for end in range(2):
                if rummy.layoff_fits(pr, after, m, wild, end):
                    return True
    return False


@njit(cache=True)
def legal_actions(s, pr, out):
    """Write the current player's legal action codes into ``out``; return their count."""
    if s[PHASE] == DRAW:
        return draw_actions(s, pr, s[CURRENT], out)
    if s[PHASE] == PLAY:
        return play_actions(s, pr, s[CURRENT], out)
    return 0


# --------------------------------------------------------------------------------------
# Playing an action
# --------------------------------------------------------------------------------------
@njit(cache=True)
def draw_stock(s, pr, player, rng):
    """The top card of the talon; an empty talon is rebuilt from the discard pile (A7), or
    the hand ends void."""
    if s[T.STOCK_LEN] == 0 and pr[P_STOCK_VOID]:
        end_hand(s, pr, -1, False, VOID)
    elif not T.draw_stock(s, player, rng):
        end_hand(s, pr, -1, False, VOID)


@njit(cache=True)
def take_discard(s, player):
    """The card the previous player discarded, owed to the table this turn."""
    s[MUST_CARD] = T.take_discard(s, player)


@njit(cache=True)
def settle_owed(s, pr, card):
    """A card laid pays what the player owed: the discard taken, a joker taken back."""
    if card == s[MUST_CARD]:
        s[MUST_CARD] = -1
    if s[MUST_WILD] and rummy.is_wild(pr, card):
        s[MUST_WILD] = 0


@njit(cache=True)
def lay_meld(s, pr, player, code):
    """Lay a new meld; for a player who has not opened, a part of his first lay-down."""
    places = stack_room(MAX_RUN)
    n = T.lay_meld(s, pr, player, code, places)
    s[LAID + player] += n
    for i in range(n):
        settle_owed(s, pr, places[i])
    if s[OPENED + player] == NOT_OPENED:
        s[PROV_POINTS] += rummy.meld_points(code)
        if rummy.meld_is_clean(code):
            s[PROV_CLEAN] = 1
        s[PROV_CARDS] += n
        if opening_met(s, pr, player):
            s[OPENED + player] = OPENING_NOW
            s[OPENINGS + player] += 1
            if s[HAND_FIRST_OPEN] < 0:
                s[HAND_FIRST_OPEN] = s[TURN]


@njit(cache=True)
def lay_off_card(s, pr, player, k, card, end):
    T.lay_off(s, pr, player, k, card, end)
    s[LAID + player] += 1
    settle_owed(s, pr, card)


@njit(cache=True)
def swap_joker(s, pr, player, k, place):
    """"Récupérer sur la table un joker ... à condition de poser à sa place la carte qu'il
    remplaçait"."""
    target = rummy.wild_stands_for(pr, table(s), k, place)
    wild = rummy.swap_wild(pr, table(s), k, place)
    h = hand_at(player)
    s[h + target] -= 1
    s[h + wild] += 1
    s[LAID + player] += 1
    s[SWAPS + player] += 1
    s[HAND_SWAPS] += 1
    s[MUST_WILD] = 0 if pr[P_JOKER_TO_HAND] else 1


@njit(cache=True)
def discard(s, pr, player, card):
    """"Il est obligatoire de jeter une carte": the turn ends; the last card wins."""
    left = T.discard(s, player, card)
    opening_now = s[OPENED + player] == OPENING_NOW
    if opening_now:
        s[OPENED + player] = OPENED_BEFORE
    if left == 0:
        end_hand(s, pr, player, opening_now and not s[TABLE_BEFORE], FINISHED)
        return
    if s[TURN] + 1 >= pr[P_MAX_TURNS]:
        end_hand(s, pr, -1, False, CAPPED)
        return
    start_turn(s, pr, (player + 1) % pr[P_PLAYERS])


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """Play a legal action for the current player (legality is the caller's check); chance
    steps draw from ``rng``."""
    if action == DRAW_STOCK:
        player = T.count_decision(s)
        draw_stock(s, pr, player, rng)
        check_repetition(s, pr)
    else:
        apply_choice(s, pr, action)
    advance(s, pr, rng)


@njit(cache=True)
def apply_choice(s, pr, action):
    """Play a legal action that draws no chance (any but ``draw stock`` from an empty
    talon); a hand it ends leaves the next deal pending (phase ``SETUP``, see
    :func:`advance`), and a position the hand has been at ends the match (a cycle)."""
    player = T.count_decision(s)
    kind, a, b, c = T.decode(action)
    if kind == T.DRAWS_STOCK:
        T.draw_top(s, player)
    elif kind == T.TAKES_DISCARD:
        take_discard(s, player)
    elif kind == T.DISCARDS:
        discard(s, pr, player, a)
    elif kind == T.LAYS_OFF:
        lay_off_card(s, pr, player, a, b, c)
    elif kind == T.MOVES_WILD:
        swap_joker(s, pr, player, a, b)
    else:
        lay_meld(s, pr, player, a)
    check_repetition(s, pr)


@njit(cache=True)
def check_repetition(s, pr):
    """After a decision: a hand back at a position it has been at ends, and the match with
    it, as a cycle."""
    if T.repeated(s, position_hash(s, pr)):
        end_hand(s, pr, -1, False, CYCLE)


# --------------------------------------------------------------------------------------
# The end of a hand and the count; the match
# --------------------------------------------------------------------------------------
@njit(cache=True)
def end_hand(s, pr, winner, sec, ending):
    """Score the hand (none if void or capped), record it, then deal the next or end the
    match."""
    players = pr[P_PLAYERS]
    row = ROUNDS + s[T.ROUNDS_LEN] * ROUND_WIDTH
    values = stack_room(CARD_KINDS)
    penalty_values(pr, values)
    for p in range(players):
        score = 0
        if ending == FINISHED and p == winner:
            score = pr[P_SEC_BONUS] if sec else 0
        elif ending == FINISHED:
            h = hand_at(p)
            score = rummy.hand_penalty(s[h:h + CARD_KINDS], values)
            if s[LAID + p] == 0 and not (pr[P_SEC_ONLY] and pr[P_SEC_LOSER_CARDS]):
                score = pr[P_NEVER_LAID]
            if s[LAID + p] == 0:
                s[NEVER_LAID_HANDS + p] += 1
        s[TOTAL + p] += score
        s[row + ROUND_SCORE + p] = score
    if ending == FINISHED:
        s[SECS + winner] += sec
    s[row + ROUND_SEC] = sec
    s[row + ROUND_FIRST_OPEN] = s[HAND_FIRST_OPEN]
    s[row + ROUND_SWAPS] = s[HAND_SWAPS]
    T.record_hand(s, row, winner, ending)
    if T.stops_match(ending) or s[T.HAND_NO] >= pr[P_NUM_HANDS]:
        finish(s, pr, T.stops_match(ending))
        return
    s[T.DEALER] = (s[T.DEALER] + 1) % players
    s[PHASE] = SETUP


@njit(cache=True)
def finish(s, pr, capped):
    """"Le gagnant sera celui qui aura fait le moins de points": rank by total, equal totals
    sharing a rank."""
    players = pr[P_PLAYERS]
    for p in range(players):
        better = 0
        for q in range(players):
            better += s[TOTAL + q] < s[TOTAL + p]
        s[T.RANK + p] = better + 1
    T.end_match(s, capped)


# --------------------------------------------------------------------------------------
# Hidden information: the rummy views (engines.families.rummy.turns)
# --------------------------------------------------------------------------------------
observe = T.observe
determinize = T.determinize
