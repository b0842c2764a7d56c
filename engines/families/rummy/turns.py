"""The turn machinery the rummy games share: a common prefix of their state layouts, and the
compiled steps of a turn over it (the deal, drawing from the talon or taking the discard,
laying a meld, laying off, discarding, the record of a hand), the action codes and the
hidden-card views.  Each game (``engines.games.rami``, ``engines.games.petite_ecole``,
``engines.games.pinacle``) declares its state as ``Layout(*CORE_STATE, <its own fields>)`` and
keeps its own rules: what may be laid when, the count, the match.

Action codes (texts in :mod:`engines.families.rummy.game`): ``DRAW_STOCK``, ``TAKE_DISCARD``,
``DISCARD_ACTION + card``, ``LAYOFF_ACTION + (meld * 53 + card) * 2 + end``,
``SWAP_ACTION + (meld * 16 + place) * 2 + end`` (a game's own wild move: rami's joker swap,
end 0; pinacle's move to a run's low or high end), ``LAY_ACTION + meld code``.
"""

from __future__ import annotations

from numba import njit

from engines.core import compiled, repetition
from engines.core.chance import shuffle, uniform_index_jit
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import by_tag, for_tag, module_of
from engines.families.rummy import rules as rummy
from engines.families.rummy.rules import (
    CARD_KINDS,
    JOKER,
    MAX_CANDIDATES,
    MAX_RUN,
    MELD_WIDTH,
    P_PLAYERS,
)
from engines.families.shedding import rules as shedding

MAX_PLAYERS = 8
MAX_CARDS = 3 * 52 + 4                  # three decks, or two with four jokers
MAX_MELDS = MAX_CARDS // 3
TABLE_SIZE = MAX_MELDS * MELD_WIDTH     # the table melds' rows

# The fields every rummy state starts with.
CORE_STATE = (
    ("phase", 1), ("current", 1), ("dealer", 1), ("hand_no", 1), ("decisions", 1),
    ("turn", 1), ("taken", 1), ("ending", 1), ("unseen", 1),
    ("stock_len", 1), ("stock", MAX_CARDS), ("discard_len", 1), ("discard", MAX_CARDS),
    ("hand", MAX_PLAYERS * CARD_KINDS), ("hand_size", MAX_PLAYERS),
    ("melds_len", 1), ("melds", TABLE_SIZE),
    ("total", MAX_PLAYERS), ("rank", MAX_PLAYERS),
    ("player_decisions", MAX_PLAYERS), ("wins", MAX_PLAYERS), ("takes", MAX_PLAYERS),
    ("layoffs", MAX_PLAYERS), ("melds_laid", MAX_PLAYERS),
    ("hand_reshuffles", 1), ("hand_takes", 1), ("turns", 1), ("reshuffles", 1),
    ("void_hands", 1), ("rounds_len", 1),
    *repetition.FIELDS,                 # the hand's positions seen, a cycle's length
)
_CORE = Layout(*CORE_STATE)
(PHASE, CURRENT, DEALER, HAND_NO, DECISIONS, TURN, TAKEN, ENDING, UNSEEN, STOCK_LEN, STOCK,
 DISCARD_LEN, DISCARD, HAND, _, MELDS_LEN, MELDS, TOTAL, RANK, PLAYER_DECISIONS, WINS, TAKES,
 LAYOFFS, MELDS_LAID, HAND_RESHUFFLES, HAND_TAKES, TURNS, RESHUFFLES, VOID_HANDS,
 ROUNDS_LEN, POSITION_HASHES, POSITIONS_SEEN, _, _, _, CYCLE_LENGTH) = _CORE.offsets()
HAND_SIZE_AT = _CORE.offset("hand_size")

# Phases.  SETUP is the deal; DRAW and PLAY wait for a decision.
SETUP, DRAW, PLAY, OVER = 0, 1, 2, 3
PHASE_NAMES = {SETUP: "setup", DRAW: "draw", PLAY: "play", OVER: "over"}
# How a hand ended (capped and cycle end the match too).
FINISHED, VOID, CAPPED, CYCLE = 0, 1, 2, 3
HAND_ENDINGS = ("finished", "void", "capped", "cycle")
# The first fields of every round row (one row per hand); games append their own.
ROUND_CORE = ("hand", "dealer", "winner", "turns", "reshuffles", "takes", "ending")
(ROUND_HAND, ROUND_DEALER, ROUND_WINNER, ROUND_TURNS, ROUND_RESHUFFLES, ROUND_TAKES,
 ROUND_ENDING) = Layout(*ROUND_CORE).offsets(
    "hand", "dealer", "winner", "turns", "reshuffles", "takes", "ending")

DRAW_STOCK = 0
TAKE_DISCARD = 1
DISCARD_ACTION = 2
LAYOFF_ACTION = 64
SWAP_ACTION = 8192
LAY_ACTION = 16384
# What an action does: the kind :func:`decode` reads off its code, with its operands.
DRAWS_STOCK, TAKES_DISCARD, DISCARDS, LAYS_OFF, MOVES_WILD, LAYS = range(6)
MAX_LEGAL = MAX_CANDIDATES + MAX_MELDS * 2 * (CARD_KINDS + MAX_RUN) + CARD_KINDS + 2
ALL_SEATS = (1 << MAX_PLAYERS) - 1

# The compiled contract's names (engines.core.api) that every rummy game takes from here: the
# seat to decide and the phase are the turn core's, and a decision's legal codes fit in its
# buffer.
N_ACTIONS = MAX_LEGAL


@njit(cache=True)
def hand_at(player):
    return HAND + player * CARD_KINDS


@njit(cache=True, inline="always")
def table(s):
    """The table melds' rows (a view; inlined by numba, as a compiled function returns no
    view without reference counting)."""
    return s[MELDS:MELDS + TABLE_SIZE]


# --------------------------------------------------------------------------------------
# The deal
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """The state before the first deal."""
    s[:] = 0
    s[DEALER] = -1
    s[PHASE] = SETUP


@njit(cache=True)
def deal(s, pr, rng, decks, jokers, hand_size, turn_up):
    """Gather and shuffle ``decks`` packs and ``jokers`` jokers, deal ``hand_size`` cards
    one at a time from the dealer's left (the first dealer is drawn), turn the next card up
    as the discard pile if ``turn_up`` (else it starts empty); the rest is the talon."""
    players = pr[P_PLAYERS]
    if s[DEALER] < 0:
        s[DEALER] = uniform_index_jit(rng, players)
    n = 0
    for _ in range(decks):
        for card in range(JOKER):
            s[STOCK + n] = card
            n += 1
    for _ in range(jokers):
        s[STOCK + n] = JOKER
        n += 1
    s[STOCK_LEN] = n
    s[DISCARD_LEN] = 0
    s[HAND:HAND + MAX_PLAYERS * CARD_KINDS] = 0
    s[HAND_SIZE_AT:HAND_SIZE_AT + MAX_PLAYERS] = 0
    s[MELDS_LEN] = 0
    shuffle(rng, s[STOCK:STOCK + n])
    for _ in range(hand_size):
        for i in range(1, players + 1):
            p = (s[DEALER] + i) % players
            s[STOCK_LEN] -= 1
            s[hand_at(p) + s[STOCK + s[STOCK_LEN]]] += 1
            s[HAND_SIZE_AT + p] += 1
    if turn_up:
        s[STOCK_LEN] -= 1
        s[DISCARD] = s[STOCK + s[STOCK_LEN]]
        s[DISCARD_LEN] = 1
    s[TURN] = -1
    s[HAND_RESHUFFLES] = 0
    s[HAND_TAKES] = 0


# --------------------------------------------------------------------------------------
# Repeated positions: cards go round (the talon, the hands, the discard pile rebuilt into a
# talon), so a hand's position can come back; the hand, and the match, end at the first
# repetition (engines.core.repetition)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def position_hash(s, pr):
    """The hash of the position every rummy game shares: whose turn in which phase, the
    card taken from the discard pile this turn, every hand, the talon and the discard pile in
    order, and the table's melds.  A game mixes its own fields in (its ``position_hash``);
    not the counters and figures, nor the scores (a hand's positions are compared only with
    the same hand's)."""
    h = repetition.START
    for field in (PHASE, CURRENT, TAKEN):
        h = repetition.mix(h, s[field])
    h = repetition.mix_span(h, s, STOCK, s[STOCK_LEN])
    h = repetition.mix_span(h, s, DISCARD, s[DISCARD_LEN])
    h = repetition.mix_span(h, s, MELDS, s[MELDS_LEN] * MELD_WIDTH)
    return repetition.mix_span(h, s, HAND, pr[P_PLAYERS] * CARD_KINDS)


@njit(cache=True)
def first_position(s, h):
    """A new hand is dealt: its positions start afresh from this one (hashed ``h``)."""
    repetition.forget(s, POSITION_HASHES)
    repetition.repeats(s, POSITION_HASHES, h)


@njit(cache=True)
def stops_match(ending):
    """A hand capped, or stopped by a repeated position, ends the match."""
    return ending == CAPPED or ending == CYCLE


@njit(cache=True)
def repeated(s, h):
    """After a decision: whether the hand, still in play, is at a position (hashed ``h``)
    it has been at before (its cycle's length is then recorded)."""
    if s[PHASE] != DRAW and s[PHASE] != PLAY:
        return False
    return repetition.repeats(s, POSITION_HASHES, h)


@njit(cache=True)
def start_turn(s, player):
    """Hand the turn to ``player``: he draws first."""
    s[CURRENT] = player
    s[PHASE] = DRAW
    s[TURN] += 1
    s[TURNS] += 1
    s[TAKEN] = -1


# --------------------------------------------------------------------------------------
# A turn's steps
# --------------------------------------------------------------------------------------
@njit(cache=True)
def draw_actions(s, out):
    """The draws: ``draw stock``, then ``take discard`` if the discard pile has a card;
    their count."""
    out[0] = DRAW_STOCK
    if s[DISCARD_LEN] > 0:
        out[1] = TAKE_DISCARD
        return 2
    return 1


@njit(cache=True)
def count_decision(s):
    """A decision of the seat to play, counted; returns that seat."""
    return compiled.count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)


@njit(cache=True)
def draw_stock(s, player, rng):
    """The top card of the talon, the discard pile but its top card shuffled into a new
    talon when it is empty; False if there is nothing to draw."""
    if s[STOCK_LEN] > 0:
        draw_top(s, player)
        return True
    drawn = stack_room(1)
    got, reshuffles = shedding.draw(s, STOCK, STOCK_LEN, DISCARD, DISCARD_LEN,
                                    hand_at(player), 1, rng, drawn)
    s[RESHUFFLES] += reshuffles
    s[HAND_RESHUFFLES] += reshuffles
    if got == 0:
        return False
    s[HAND_SIZE_AT + player] += 1
    s[PHASE] = PLAY
    return True


@njit(cache=True)
def draw_top(s, player):
    """The top card of a talon that is not empty into the hand: :func:`draw_stock` when it
    draws no chance (no reshuffle)."""
    s[STOCK_LEN] -= 1
    s[hand_at(player) + s[STOCK + s[STOCK_LEN]]] += 1
    s[HAND_SIZE_AT + player] += 1
    s[PHASE] = PLAY


@njit(cache=True)
def take_discard(s, player):
    """The top card of the discard pile into the hand (noted as ``taken``)."""
    s[DISCARD_LEN] -= 1
    card = s[DISCARD + s[DISCARD_LEN]]
    s[hand_at(player) + card] += 1
    s[HAND_SIZE_AT + player] += 1
    s[TAKEN] = card
    s[TAKES + player] += 1
    s[HAND_TAKES] += 1
    s[PHASE] = PLAY
    return card


@njit(cache=True)
def lay_meld(s, pr, player, code, places):
    """Lay a meld code from the hand as a new table meld (its cards into ``places``);
    returns how many cards it took."""
    h = hand_at(player)
    n = rummy.remove_meld(pr, s[h:h + CARD_KINDS], code, places)
    rummy.put_meld(pr, table(s), s[MELDS_LEN], player, code, places)
    s[MELDS_LEN] += 1
    s[HAND_SIZE_AT + player] -= n
    s[MELDS_LAID + player] += 1
    return n


@njit(cache=True)
def lay_off(s, pr, player, k, card, end):
    """Add a card of the hand to table meld ``k``."""
    rummy.lay_off(pr, table(s), k, card, end)
    s[hand_at(player) + card] -= 1
    s[HAND_SIZE_AT + player] -= 1
    s[LAYOFFS + player] += 1


@njit(cache=True)
def discard(s, player, card):
    """Put a card of the hand on the discard pile; returns the cards left in hand."""
    s[hand_at(player) + card] -= 1
    s[HAND_SIZE_AT + player] -= 1
    s[DISCARD + s[DISCARD_LEN]] = card
    s[DISCARD_LEN] += 1
    return s[HAND_SIZE_AT + player]


@njit(cache=True)
def layoff_actions(s, pr, hand, only, owners, out, n):
    """The lay-offs of ``hand`` on the table melds of the seats in the bit mask ``owners``,
    by meld, card and end (only the card ``only`` if it is >= 0; only wilds if it is -2)."""
    melds = table(s)
    held = rummy.held_cards(hand)
    wilds = rummy.wild_cards(pr)
    if only >= 0:
        held &= 1 << only
    elif only == -2:
        held &= wilds
    for k in range(s[MELDS_LEN]):
        if not (owners >> melds[k * MELD_WIDTH + rummy.M_OWNER]) & 1:
            continue
        low_end = rummy.layoff_cards(pr, melds, k, 0, held, wilds)
        high_end = rummy.layoff_cards(pr, melds, k, 1, held, wilds)
        either = low_end | high_end
        while either:
            card = rummy.first_card(either)
            either &= either - 1
            code = LAYOFF_ACTION + (k * CARD_KINDS + card) * 2
            if (low_end >> card) & 1:
                out[n] = code
                n += 1
            if (high_end >> card) & 1:
                out[n] = code + 1
                n += 1
    return n


@njit(cache=True)
def discard_actions(s, player, barred, out, n):
    """The discards of the hand by card, but not the card ``barred`` (its last copy),
    unless nothing else is left."""
    h = hand_at(player)
    first = n
    held = rummy.held_cards(s[h:h + CARD_KINDS])
    if barred >= 0 and s[h + barred] == 1:
        held &= ~(1 << barred)
    while held:
        card = rummy.first_card(held)
        held &= held - 1
        out[n] = DISCARD_ACTION + card
        n += 1
    if n == first and barred >= 0 and s[h + barred] > 0:
        out[n] = DISCARD_ACTION + barred
        n += 1
    return n


@njit(cache=True)
def decode(action):
    """(kind, a, b, c) of an action code: ``DRAWS_STOCK``, ``TAKES_DISCARD``, ``DISCARDS``
    (card), ``LAYS_OFF`` (meld, card, end), ``MOVES_WILD`` (meld, place, end) or ``LAYS``
    (meld code)."""
    if action == DRAW_STOCK:
        return DRAWS_STOCK, 0, 0, 0
    if action == TAKE_DISCARD:
        return TAKES_DISCARD, 0, 0, 0
    if action < LAYOFF_ACTION:
        return DISCARDS, action - DISCARD_ACTION, 0, 0
    if action < SWAP_ACTION:
        k, rest = divmod(action - LAYOFF_ACTION, CARD_KINDS * 2)
        return LAYS_OFF, k, rest // 2, rest % 2
    if action < LAY_ACTION:
        k, rest = divmod(action - SWAP_ACTION, 32)
        return MOVES_WILD, k, rest // 2, rest % 2
    return LAYS, action - LAY_ACTION, 0, 0


# --------------------------------------------------------------------------------------
# A decision, specialised per game by its Tag
# --------------------------------------------------------------------------------------
def legal_actions(rules, s, pr, out):
    """Write the current player's legal action codes into ``out``; return their count: the
    draw (:func:`draw_actions`), then the game's ``play_actions(s, pr, player, out)``."""


@by_tag(legal_actions, inline="always")
def _legal_actions(rules, s, pr, out):
    play_actions = module_of(rules).play_actions

    def impl(rules, s, pr, out):
        if s[PHASE] == DRAW:
            return draw_actions(s, out)
        if s[PHASE] == PLAY:
            return play_actions(s, pr, s[CURRENT], out)
        return 0
    return impl


def apply_action(rules, s, pr, action, rng):
    """The current player's decision ``action`` (legality is the caller's check), counted
    and played by the game's step for its kind: ``draw_stock(s, pr, player, rng)``,
    ``take_discard(s, player)``, ``discard(s, pr, player, card)`` (each the family's,
    :func:`draw_or_void`, :func:`take_discard` and :func:`discard_and_pass`, unless the
    game has its own), ``lay_off_card(s, pr, player, k, card, end)``,
    ``move_wild(s, pr, player, k, place, end)`` where the game moves wilds on the table,
    ``lay_meld(s, pr, player, code)``; a hand back at a position it has been at ends as a
    cycle (the game's ``end_hand(s, pr, -1, CYCLE)``, which ends the match); then the chance
    steps due (the game's ``advance``)."""


@njit(cache=True, inline="always")
def no_wild_moved(s, pr, player, k, place, end):
    """A game whose wilds stay where they are laid: no such decision."""


@by_tag(apply_action, inline="always")
def _apply_action(rules, s, pr, action, rng):
    R = module_of(rules)
    lay_off_card, lay_meld, advance = R.lay_off_card, R.lay_meld, R.advance
    take = getattr(R, "take_discard", take_discard)
    move_wild = getattr(R, "move_wild", no_wild_moved)
    draw = getattr(R, "draw_stock", None) or for_tag(draw_or_void, R.RULES)
    throw = getattr(R, "discard", None) or for_tag(discard_and_pass, R.RULES)
    end_hand, game_hash = R.end_hand, R.position_hash

    def impl(rules, s, pr, action, rng):
        player = count_decision(s)
        kind, a, b, c = decode(action)
        if kind == DRAWS_STOCK:
            draw(s, pr, player, rng)
        elif kind == TAKES_DISCARD:
            take(s, player)
        elif kind == DISCARDS:
            throw(s, pr, player, a)
        elif kind == LAYS_OFF:
            lay_off_card(s, pr, player, a, b, c)
        elif kind == MOVES_WILD:
            move_wild(s, pr, player, a, b, c)
        else:
            lay_meld(s, pr, player, a)
        if repeated(s, game_hash(s, pr)):
            end_hand(s, pr, -1, CYCLE)
        advance(s, pr, rng)
    return impl


def draw_or_void(rules, s, pr, player, rng):
    """The top card of the talon, rebuilt from the discard pile when empty
    (:func:`draw_stock`); nothing to draw at all ends the hand void (the game's
    ``end_hand(s, pr, winner, ending)``)."""


@by_tag(draw_or_void, inline="always")
def _draw_or_void(rules, s, pr, player, rng):
    end_hand = module_of(rules).end_hand

    def impl(rules, s, pr, player, rng):
        if not draw_stock(s, player, rng):
            end_hand(s, pr, -1, VOID)
    return impl


def discard_and_pass(rules, s, pr, player, card):
    """The turn ends with ``card`` discarded: the last card out ends the hand, won; the
    game's turn limit (``P_MAX_TURNS``) ends it capped; otherwise the next player's turn
    (the game's ``start_turn(s, player)``, or the family's)."""


@by_tag(discard_and_pass, inline="always")
def _discard_and_pass(rules, s, pr, player, card):
    R = module_of(rules)
    end_hand, P_MAX_TURNS = R.end_hand, R.P_MAX_TURNS
    next_turn = getattr(R, "start_turn", start_turn)

    def impl(rules, s, pr, player, card):
        if discard(s, player, card) == 0:
            end_hand(s, pr, player, FINISHED)
            return
        if s[TURN] + 1 >= pr[P_MAX_TURNS]:
            end_hand(s, pr, -1, CAPPED)
            return
        next_turn(s, (player + 1) % pr[P_PLAYERS])
    return impl


# --------------------------------------------------------------------------------------
# The record of a hand
# --------------------------------------------------------------------------------------
@njit(cache=True)
def record_hand(s, row, winner, ending):
    """Write the common fields of the hand just ended into the round row at ``row``."""
    s[row + ROUND_HAND] = s[HAND_NO]
    s[row + ROUND_DEALER] = s[DEALER]
    s[row + ROUND_WINNER] = winner
    s[row + ROUND_TURNS] = s[TURN] + 1
    s[row + ROUND_RESHUFFLES] = s[HAND_RESHUFFLES]
    s[row + ROUND_TAKES] = s[HAND_TAKES]
    s[row + ROUND_ENDING] = ending
    if ending == FINISHED:
        s[WINS + winner] += 1
    s[VOID_HANDS] += ending == VOID
    s[ROUNDS_LEN] += 1
    s[HAND_NO] += 1


@njit(cache=True)
def end_match(s, capped):
    """The match is over: stopped by a repeated position (a cycle), capped, or finished."""
    if s[CYCLE_LENGTH] > 0:
        s[ENDING] = shedding.CYCLE
    else:
        s[ENDING] = shedding.CAPPED if capped else shedding.FINISHED
    s[PHASE] = OVER
    s[CURRENT] = -1


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: his own hand, the discard pile, the
    table, hand sizes and every public figure.  The other hands are emptied (their sizes
    stay) and the cards he cannot see (the talon and the other hands) are listed, sorted,
    at the start of the stock field, ``unseen`` of them.  (That a player still holds a
    discard he took is not kept: a simplification that hides a little more than the rules
    do, in pinacle and petite école where a taken card may stay in hand; in rami it is
    laid the same turn.)"""
    copy_into(out, s)
    counts = stack_room(CARD_KINDS)
    shedding.hide_hands(s, out, pr[P_PLAYERS], player, HAND, CARD_KINDS, STOCK, STOCK_LEN,
                        counts)
    out[UNSEEN] = shedding.list_unseen(out, counts, STOCK, MAX_CARDS)
    repetition.forget(out, POSITION_HASHES)


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the unseen
    cards shuffled, each other hand filled up to its size, the rest as the talon."""
    observe(s, pr, player, out)
    out[STOCK_LEN] = shedding.redeal_unseen(out, pr[P_PLAYERS], player, HAND, CARD_KINDS,
                                            HAND_SIZE_AT, STOCK, UNSEEN, rng)
