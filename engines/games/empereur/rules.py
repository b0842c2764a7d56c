"""L'empereur: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/empereur.md`` and the French source text (Florent
Peyrusse's rule).  The sections follow the rulebook: the cards and their order, the start of
a round (the dealer, the deal of 7 cards, the exchanges of the roles), a turn (play a set of
equal rank at least as high as the talon's top, or draw and then play or pass), the Deux,
the refill of the pioche, the draw penalty of equal-rank runs ("Règles de pioche"), the end
of a round (Emperor, Subjects, Élus, Exclu, the Joker finish), the points, the end of the
game.  The Python API (:mod:`engines.games.empereur.game`) calls these functions; the pioche and
its refill, turn order, the turn cap and the detection of a repeated state come from the
shedding core (:mod:`engines.families.shedding.rules`).

Mechanics: hands are card counts (card id ``suit * 13 + rank - 2``, the Jokers 52 and 53,
see :mod:`engines.core.cards`).  Suits play no part, so a play is named by its rank, its number of
natural cards and its number of Jokers (the natural cards taken are the lowest card ids of
that rank).  Ranks are indexed in the game's order 3 4 ... K A 2 (0..12).  The talon keeps
each card's effective rank (a Joker's declared one).  Every chance step (the dealer, the
shuffle, the refills) draws from the rng passed in, the game's chance stream.

Readings of the text (each coded where stated):

* The dealer of each round is drawn uniformly (the spec's allowance for the symmetric card
  draw, which makes the Joker's value in that draw, A2, irrelevant); the player on his
  left plays first.
* A set is natural cards of one rank and any Jokers declared that rank (A3); a Deux, or
  a Joker declared 2, is played alone.  In Normal only the last round decides the game
  (A13: the earlier ones have no exchange to carry over).
* "Si vous ne pouvez (ou ne voulez) pas jouer, vous piochez une carte" (A4): drawing is
  always allowed, even on an empty talon (``lead_must_play`` forbids it there); after the
  draw the player plays or passes.  Nothing to draw: he still chooses to play or pass.
* The penalty (A5, A6): after a play, ``k`` = the equal-rank cards on top of the talon (the
  cards just played and those below them since the last clearing); the next player in play
  draws ``k - 1`` at the start of his turn, then plays his turn (``penalty_skips_turn``: the
  turn is lost).  The source's three examples: a 5 on a 5 -> 1; two 4s on two 4s -> 3; two 7s
  on a 6 -> 1.
* The Deux: alone only ("Un Deux ne peut être joué que seul"), a Joker declared 2 as well;
  nobody may play on it: every other player in play draws one card (a forced pass), the
  talon is cleared and the Deux's player leads (or, if he has left the round, the next
  player in play on his left).
* Clearing: once every other player in play has passed since the last play, the talon goes
  face down under the pioche in play order (A7: the first card played is drawn first) and
  the last player leads; if he has left the round, once every player in play has passed, and
  the next player in play leads (A8).
* Refill ("on prend toutes les cartes du talon sauf celles ayant la plus haute valeur"): the
  talon but its top run of the highest rank becomes the pioche, shuffled (A7,
  ``shuffle_recycled_pile``); nothing to take: nothing is drawn.
* End of a round: Normal and Elite end when a player plays his last cards naturally (the Deux
  rule and the penalty applied first); the Miroir modes go on, the players out leaving the
  round (Élus, the first the Emperor) until one player holds cards (the Exclu), the Deux rule
  and the penalty applied to the last Élu's play.  A Joker finish loses: in Normal and Elite
  the player becomes a Subject with no cards and play goes on (if a single player is left,
  he is the Emperor and the round ends at once, without the play's effects); in the Miroir
  modes he is the Exclu, every other player an Élu, and the round ends at once.
* Exchanges of a new round (after the deal): the Emperor exchange (Elite, and Miroir Elite
  with ``miroir_elite_emperor_exchange``, A11) -- each Subject gives the Emperor one of his
  highest cards (automatic: Joker > 2 > A > ... > 3, lowest card id), then the Emperor
  chooses a card for each Subject in seat order from his left; then the Miroir exchange --
  the Exclu gives each Élu one of his highest cards, the Élus served in the order they went
  out, then each Élu, in that order, chooses a card for the Exclu (A12).  After a Joker finish
  in a Miroir mode, the Élus who never went out come after the others, in seat order from the
  Exclu's left; without an Emperor (nobody out before the Joker finish) the Emperor exchange
  is skipped.
* Points: Elite, the Emperor gains the Elite values of the Subjects' hands (a Joker finisher
  holds none, A9); Miroir Elite, the Exclu gains the values of every hand left (normally his
  own; after his Joker finish the others', or nothing with
  ``miroir_joker_finish_points = zero``, A10).
* End of the game and result: Normal, the last round's Emperor wins (rank 1, score 1), the
  others share rank 2; Miroir Normal, the last Exclu loses (rank n, score 0), the others share
  the win (score 1); Elite, the first to reach ``target_points`` wins, the others ranked by
  points; Miroir Elite, the first to reach it loses, the others share the win (score minus
  points).  A round reaching ``max_turns`` turns, or an elite game reaching ``max_rounds``
  rounds, ends the game as capped; a full round of passes by every player in play with no
  card moving ends it as a cycle (the position would repeat for ever).  An aborted game ranks
  the players by the fewest cards in hand (score minus the cards in hand).
* The position of a round can come back exactly: the cards go round from the hands to the
  talon, from the talon (cleared, or taken for a refill) to the pioche and from the pioche
  to the hands, and nothing in a round only grows but the players gone out and what the
  exchanges told (a count that only falls).  So a round ends the game as a cycle at the
  first repetition of its full position (see :func:`position_hash`;
  :mod:`engines.core.repetition`), with the cycle's length recorded.  Each round forgets the
  positions of the last: it is dealt afresh from a shuffled pack, and the rounds played and
  the points, which decide the end of the game, never come back.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core import repetition
from engines.core.cards import RANKS_PER_SUIT, STANDARD_CARDS
from engines.core.chance import shuffle, uniform_index_jit
from engines.core.compiled import count_decision
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import Tag
from engines.families.shedding import rules as shedding
from engines.games.empereur.params import JOKER_FINISH_POINTS, MAX_PLAYERS, MODES, EmpereurParams

# --------------------------------------------------------------------------------------
# Components: "3, 4, 5, 6, 7, 8, 9, 10, Valet, Dame, Roi, As, Deux" and the Jokers
# --------------------------------------------------------------------------------------
MAX_JOKERS = 2
CARDS = STANDARD_CARDS + MAX_JOKERS        # card ids 0..51, Jokers 52 and 53
SUITS = 4
RANKS = 13                                 # rank indices 0 (the 3) .. 12 (the Deux)
TWO = 12
JOKER_KIND = RANKS                         # the Joker as a kind of card (gifts, strength)
HAND_CARDS = 7                             # "distribue 7 cards"
MAX_NATURALS = SUITS
JOKER_VALUE = 20                           # Elite values: 3..10 face, J 11 ... 2 15, Joker 20
NORMAL, ELITE, MIROIR_NORMAL, MIROIR_ELITE = (MODES.index(m) for m in MODES)
RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")


@njit(cache=True)
def is_joker(card):
    return card >= STANDARD_CARDS


@njit(cache=True)
def kind_of(card):
    """The card's rank index (3 -> 0 ... A -> 11, 2 -> 12), or JOKER_KIND."""
    if card >= STANDARD_CARDS:
        return JOKER_KIND
    r = card % RANKS_PER_SUIT + 2
    return TWO if r == 2 else r - 3


@njit(cache=True)
def natural_card(rank, suit):
    """The card id of the natural card of rank index ``rank`` and ``suit``."""
    return suit * RANKS_PER_SUIT + (0 if rank == TWO else rank + 1)


@njit(cache=True)
def elite_value(card):
    """"Valet, Dame, Roi, As, Deux, Joker ... 11, 12, 13, 14, 15, 20"; 3..10 face value."""
    k = kind_of(card)
    return JOKER_VALUE if k == JOKER_KIND else k + 3


# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see EmpereurParams for their meaning)
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("mode", 1), ("num_rounds", 1), ("target_points", 1),
                ("num_jokers", 1), ("lead_must_play", 1), ("penalty_skips_turn", 1),
                ("shuffle_recycled", 1), ("miroir_emperor_exchange", 1),
                ("joker_finish_zero", 1), ("max_turns", 1), ("max_rounds", 1))
(P_PLAYERS, P_MODE, P_NUM_ROUNDS, P_TARGET, P_JOKERS, P_LEAD_MUST_PLAY,
 P_PENALTY_SKIPS, P_SHUFFLE, P_MIROIR_EMPEROR_EXCHANGE, P_JOKER_FINISH_ZERO,
 P_MAX_TURNS, P_MAX_ROUNDS) = PARAMS.offsets(
    "players", "mode", "num_rounds", "target_points", "num_jokers", "lead_must_play",
    "penalty_skips_turn", "shuffle_recycled", "miroir_emperor_exchange", "joker_finish_zero",
    "max_turns", "max_rounds")


def encode_params(params: EmpereurParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    return PARAMS.encode(
        players=params.players, mode=MODES.index(params.mode), num_rounds=params.num_rounds,
        target_points=params.target_points, num_jokers=params.num_jokers,
        lead_must_play=params.lead_must_play, penalty_skips_turn=params.penalty_skips_turn,
        shuffle_recycled=params.shuffle_recycled_pile,
        miroir_emperor_exchange=params.miroir_elite_emperor_exchange,
        joker_finish_zero=JOKER_FINISH_POINTS.index(params.miroir_joker_finish_points),
        max_turns=params.max_turns, max_rounds=params.max_rounds)


# --------------------------------------------------------------------------------------
# State layout
# --------------------------------------------------------------------------------------
# The figures of one round (per seat where sized MAX_PLAYERS); the game's totals use the
# same layout, summed round by round (``longest_penalty``: the maximum).
ROUND = Layout(
    ("round", 1), ("dealer", 1), ("complete", 1), ("turns", 1), ("refills", 1),
    ("clears", 1), ("twos", 1), ("penalties", 1), ("longest_penalty", 1),
    ("joker_finishes", 1),
    ("emperor", MAX_PLAYERS), ("exclu", MAX_PLAYERS), ("out_order", MAX_PLAYERS),
    ("joker_finish", MAX_PLAYERS), ("points", MAX_PLAYERS), ("cards_left", MAX_PLAYERS),
    ("cards_drawn", MAX_PLAYERS), ("penalty_cards", MAX_PLAYERS), ("two_cards", MAX_PLAYERS),
    ("plays", MAX_PLAYERS), ("dealt_jokers", MAX_PLAYERS), ("dealt_twos", MAX_PLAYERS),
)
MAX_EXCHANGE_STEPS = 4 * (MAX_PLAYERS - 1)
STATE = Layout(
    ("phase", 1), ("current", 1), ("decisions", 1), ("rounds_done", 1), ("ending", 1),
    ("unseen", 1),
    ("last_player", 1), ("since_play", 1),          # who played last, passes since then
    ("passes", 1), ("active", 1), ("finished", 1),  # no-move passes; players in play; out
    ("emperor", 1), ("exclu", 1), ("pending", 1),   # the penalty the next player draws
    ("turn_drawn", 1),                              # cards drawn in the current turn
    ("exchange", 3 * MAX_EXCHANGE_STEPS), ("exchange_len", 1), ("exchange_pos", 1),
    ("prev_emperor", 1), ("prev_exclu", 1), ("prev_order", MAX_PLAYERS),
    ("stock_len", 1), ("stock", CARDS), ("talon_len", 1), ("talon", CARDS),
    ("talon_rank", CARDS),
    ("hand", MAX_PLAYERS * CARDS), ("hand_size", MAX_PLAYERS), ("left", MAX_PLAYERS),
    ("known", MAX_PLAYERS * CARDS),     # per seat and card: 1 + the seat it gave it to
    *repetition.FIELDS,                 # the round's positions seen, a cycle's length
    ("points", MAX_PLAYERS), ("player_decisions", MAX_PLAYERS), ("drawn_total", MAX_PLAYERS),
    ("score", MAX_PLAYERS), ("rank", MAX_PLAYERS),
    ("round_block", ROUND.size), ("last_round", ROUND.size), ("totals", ROUND.size),
)
STATE_SIZE = STATE.size
(PHASE, CURRENT, DECISIONS, ROUNDS_DONE, ENDING, UNSEEN, LAST_PLAYER, SINCE_PLAY,
 PASSES, ACTIVE, FINISHED, EMPEROR, EXCLU, PENDING, TURN_DRAWN, EXCHANGE,
 EXCHANGE_LEN, EXCHANGE_POS, PREV_EMPEROR, PREV_EXCLU, PREV_ORDER, STOCK_LEN,
 STOCK, TALON_LEN, TALON, TALON_RANK, HAND, HAND_SIZE, LEFT, KNOWN, POINTS,
 PLAYER_DECISIONS, DRAWN_TOTAL, SCORE, RANK, ROUND_BLOCK, LAST_ROUND, TOTALS) = STATE.offsets(
    "phase", "current", "decisions", "rounds_done", "ending", "unseen", "last_player",
    "since_play", "passes", "active", "finished", "emperor", "exclu", "pending", "turn_drawn",
    "exchange", "exchange_len", "exchange_pos", "prev_emperor", "prev_exclu", "prev_order",
    "stock_len", "stock", "talon_len", "talon", "talon_rank", "hand", "hand_size", "left",
    "known", "points", "player_decisions", "drawn_total", "score", "rank", "round_block",
    "last_round", "totals")
POSITION_HASHES, POSITIONS_SEEN, CYCLE_LENGTH = STATE.offsets(
    "position_hashes", "positions_seen", "cycle_length")
RULES = Tag(__name__)                # the family's and the core's steps, for this game
# the state offsets of the round block's fields (the round in progress)
(RB_ROUND, RB_DEALER, RB_COMPLETE, RB_TURNS, RB_REFILLS, RB_CLEARS, RB_TWOS,
 RB_PENALTIES, RB_LONGEST, RB_JOKER_FINISHES, RB_EMPEROR, RB_EXCLU, RB_OUT_ORDER,
 RB_JOKER_FINISH, RB_POINTS, RB_CARDS_LEFT, RB_CARDS_DRAWN, RB_PENALTY_CARDS,
 RB_TWO_CARDS, RB_PLAYS, RB_DEALT_JOKERS, RB_DEALT_TWOS) = (
    ROUND_BLOCK + offset for offset in ROUND.offsets(
        "round", "dealer", "complete", "turns", "refills", "clears", "twos", "penalties",
        "longest_penalty", "joker_finishes", "emperor", "exclu", "out_order", "joker_finish",
        "points", "cards_left", "cards_drawn", "penalty_cards", "two_cards", "plays",
        "dealt_jokers", "dealt_twos"))
ROUND_SIZE = ROUND.size
LONGEST_AT = ROUND.offset("longest_penalty")

# Phases.  SETUP is before the first deal; TURN (play or draw), DRAWN (after the draw: play
# or pass) and GIVE (a chosen gift of the exchanges) wait for a decision.
SETUP, TURN, DRAWN, GIVE, OVER = 0, 1, 2, 3, 4

# Exchange steps: a forced gift of a highest card, or a gift the giver chooses.
AUTO_GIFT, CHOSEN_GIFT = 0, 1

# Actions: play(rank, naturals, jokers); draw; pass; give(kind).
PLAY_ACTION = 0                   # + (rank * (MAX_NATURALS + 1) + naturals) * 3 + jokers
N_PLAYS = RANKS * (MAX_NATURALS + 1) * (MAX_JOKERS + 1)
DRAW_ACTION = N_PLAYS
PASS_ACTION = DRAW_ACTION + 1
GIVE_ACTION = PASS_ACTION + 1     # + kind (0..12 a rank, 13 a Joker)
N_ACTIONS = GIVE_ACTION + RANKS + 1
APPLY_DRAWS = True      # apply_action(s, pr, action, rng) draws the chance after a decision
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def play_code(rank, naturals, jokers):
    return PLAY_ACTION + (rank * (MAX_NATURALS + 1) + naturals) * (MAX_JOKERS + 1) + jokers


def decode_play(code: int) -> tuple[int, int, int]:
    """(rank index, natural cards, Jokers) of a play action code."""
    rest, jokers = divmod(code - PLAY_ACTION, MAX_JOKERS + 1)
    rank, naturals = divmod(rest, MAX_NATURALS + 1)
    return rank, naturals, jokers


@njit(cache=True)
def is_miroir(pr):
    return pr[P_MODE] == MIROIR_NORMAL or pr[P_MODE] == MIROIR_ELITE


# --------------------------------------------------------------------------------------
# Start of the game and of each round: dealer, deal, exchanges
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """The state before the first round: no roles, nobody has played."""
    s[:] = 0
    for role in (PREV_EMPEROR, PREV_EXCLU, LAST_PLAYER, EMPEROR, EXCLU):
        s[role] = -1
    s[PHASE] = SETUP


@njit(cache=True)
def held(s, player, kind):
    """How many cards of ``kind`` (a rank index or JOKER_KIND) ``player`` holds."""
    h = shedding.hand_at(HAND, CARDS, player)
    if kind == JOKER_KIND:
        return s[h + STANDARD_CARDS] + s[h + STANDARD_CARDS + 1]
    n = 0
    for suit in range(SUITS):
        n += s[h + natural_card(kind, suit)]
    return n


@njit(cache=True)
def lowest_of(s, player, kind):
    """The lowest card id of ``kind`` in ``player``'s hand (-1 if none)."""
    h = shedding.hand_at(HAND, CARDS, player)
    if kind == JOKER_KIND:
        for card in range(STANDARD_CARDS, CARDS):
            if s[h + card] > 0:
                return card
        return -1
    for suit in range(SUITS):
        card = natural_card(kind, suit)
        if s[h + card] > 0:
            return card
    return -1


@njit(cache=True)
def start_round(s, pr, rng):
    """"Début d'une manche": a dealer, the shuffle, 7 cards each, the rest as the pioche;
    then the exchanges of the roles of the last round, then the first turn."""
    players = pr[P_PLAYERS]
    s[ROUND_BLOCK:ROUND_BLOCK + ROUND_SIZE] = 0
    s[RB_ROUND] = s[ROUNDS_DONE] + 1
    repetition.forget(s, POSITION_HASHES)
    dealer = uniform_index_jit(rng, players)
    s[RB_DEALER] = dealer
    s[HAND:HAND + MAX_PLAYERS * CARDS] = 0
    s[KNOWN:KNOWN + MAX_PLAYERS * CARDS] = 0
    for p in range(MAX_PLAYERS):
        s[HAND_SIZE + p] = 0
        s[LEFT + p] = p >= players
    s[TALON_LEN] = 0
    n = 0
    for card in range(STANDARD_CARDS + pr[P_JOKERS]):
        s[STOCK + n] = card
        n += 1
    shuffle(rng, s[STOCK:STOCK + n])
    for _ in range(HAND_CARDS):
        for step in range(1, players + 1):
            p = (dealer + step) % players
            n -= 1
            card = s[STOCK + n]
            s[shedding.hand_at(HAND, CARDS, p) + card] += 1
            s[HAND_SIZE + p] += 1
            s[RB_DEALT_JOKERS + p] += is_joker(card)
            s[RB_DEALT_TWOS + p] += kind_of(card) == TWO
    s[STOCK_LEN] = n
    s[ACTIVE] = players
    s[FINISHED] = 0
    s[EMPEROR] = -1
    s[EXCLU] = -1
    s[PENDING] = 0
    s[LAST_PLAYER] = -1
    s[SINCE_PLAY] = 0
    s[PASSES] = 0
    plan_exchanges(s, pr)
    run_exchanges(s, pr, rng)


@njit(cache=True)
def add_step(s, kind, giver, receiver):
    at = EXCHANGE + 3 * s[EXCHANGE_LEN]
    s[at] = kind
    s[at + 1] = giver
    s[at + 2] = receiver
    s[EXCHANGE_LEN] += 1


@njit(cache=True)
def plan_exchanges(s, pr):
    """The exchanges of a round after the first (§4.4): the Emperor exchange (Elite; Miroir
    Elite too, A11), then the Miroir exchange (Miroir modes)."""
    s[EXCHANGE_LEN] = 0
    s[EXCHANGE_POS] = 0
    players = pr[P_PLAYERS]
    mode = pr[P_MODE]
    emperor = s[PREV_EMPEROR]
    emperor_exchange = mode == ELITE or (mode == MIROIR_ELITE and pr[P_MIROIR_EMPEROR_EXCHANGE])
    if emperor_exchange and emperor >= 0:
        for step in range(1, players):
            add_step(s, AUTO_GIFT, (emperor + step) % players, emperor)
        for step in range(1, players):
            add_step(s, CHOSEN_GIFT, emperor, (emperor + step) % players)
    exclu = s[PREV_EXCLU]
    if is_miroir(pr) and exclu >= 0:
        for i in range(players - 1):
            add_step(s, AUTO_GIFT, exclu, s[PREV_ORDER + i])
        for i in range(players - 1):
            add_step(s, CHOSEN_GIFT, s[PREV_ORDER + i], exclu)


@njit(cache=True)
def highest_card(s, player):
    """One of the player's highest cards ("le Joker étant plus fort que toute autre carte"):
    the lowest card id of his strongest kind."""
    for kind in range(JOKER_KIND, -1, -1):
        card = lowest_of(s, player, kind)
        if card >= 0:
            return card
    return -1


@njit(cache=True)
def forget(s, card):
    """The card has left the hand it was given to: nobody knows where it is in a hand."""
    for p in range(MAX_PLAYERS):
        s[shedding.hand_at(KNOWN, CARDS, p) + card] = 0


@njit(cache=True)
def give_card(s, giver, receiver, card):
    """A gift of the exchanges, seen by the giver and the receiver only."""
    forget(s, card)
    s[shedding.hand_at(KNOWN, CARDS, giver) + card] = receiver + 1
    s[shedding.hand_at(HAND, CARDS, giver) + card] -= 1
    s[HAND_SIZE + giver] -= 1
    s[shedding.hand_at(HAND, CARDS, receiver) + card] += 1
    s[HAND_SIZE + receiver] += 1


@njit(cache=True)
def run_exchanges(s, pr, rng):
    """Make the forced gifts up to the next chosen one (phase GIVE); once every exchange is
    made, the player on the dealer's left takes the first turn."""
    while s[EXCHANGE_POS] < s[EXCHANGE_LEN]:
        at = EXCHANGE + 3 * s[EXCHANGE_POS]
        if s[at] == CHOSEN_GIFT:
            s[PHASE] = GIVE
            s[CURRENT] = s[at + 1]
            return
        give_card(s, s[at + 1], s[at + 2], highest_card(s, s[at + 1]))
        s[EXCHANGE_POS] += 1
    begin_turn(s, pr, (s[RB_DEALER] + 1) % pr[P_PLAYERS], rng)


@njit(cache=True)
def give(s, pr, kind, rng):
    """The chosen gift of the current exchange step: a card of ``kind``."""
    at = EXCHANGE + 3 * s[EXCHANGE_POS]
    give_card(s, s[at + 1], s[at + 2], lowest_of(s, s[at + 1], kind))
    s[EXCHANGE_POS] += 1
    run_exchanges(s, pr, rng)


# --------------------------------------------------------------------------------------
# The talon, the pioche and drawing
# --------------------------------------------------------------------------------------
@njit(cache=True)
def top_run(s):
    """The equal-rank cards on top of the talon (0 when it is empty)."""
    n = s[TALON_LEN]
    if n == 0:
        return 0
    top = s[TALON_RANK + n - 1]
    k = 0
    while k < n and s[TALON_RANK + n - 1 - k] == top:
        k += 1
    return k


@njit(cache=True)
def draw_cards(s, pr, player, count, rng):
    """Draw ``count`` cards; an empty pioche is refilled from the talon but its highest
    rank's cards (shuffled, A7), and when that gives nothing, nothing is drawn.  Returns the
    number of cards drawn."""
    keep = top_run(s)
    top = s[TALON_RANK + s[TALON_LEN] - 1] if keep > 0 else 0
    got, refills = shedding.draw(s, STOCK, STOCK_LEN, TALON, TALON_LEN,
                                 shedding.hand_at(HAND, CARDS, player), count, rng,
                                 stack_room(CARDS), keep, pr[P_SHUFFLE] != 0)
    if refills > 0:
        s[TALON_RANK:TALON_RANK + keep] = top
        s[RB_REFILLS] += refills
    s[HAND_SIZE + player] += got
    s[DRAWN_TOTAL + player] += got
    s[TURN_DRAWN] += got
    if got > 0:
        shedding.note_progress(s, PASSES)
    return got


@njit(cache=True)
def clear_talon(s, rng):
    """"on place l'ensemble des cartes en jeu face cachée au dessous de la pioche"."""
    moved = shedding.recycle(s, STOCK, STOCK_LEN, TALON, TALON_LEN, rng, 0, False)
    s[LAST_PLAYER] = -1
    s[SINCE_PLAY] = 0
    if moved > 0:
        s[RB_CLEARS] += 1
        shedding.note_progress(s, PASSES)


# --------------------------------------------------------------------------------------
# A turn
# --------------------------------------------------------------------------------------
@njit(cache=True)
def clearing_due(s):
    """Every other player in play has passed since the last play (every player in play, if
    the last player has left the round)."""
    last = s[LAST_PLAYER]
    if s[TALON_LEN] == 0 or last < 0:
        return False
    others = s[ACTIVE] - (1 if s[LEFT + last] == 0 else 0)
    return s[SINCE_PLAY] >= others


@njit(cache=True)
def begin_turn(s, pr, player, rng):
    """Before ``player`` acts: the clearing, then the penalty draw; with
    ``penalty_skips_turn`` the penalised player's turn is over and the next one begins."""
    while True:
        s[CURRENT] = player
        s[PHASE] = TURN
        s[TURN_DRAWN] = 0
        if clearing_due(s):
            clear_talon(s, rng)
        if s[PENDING] == 0:
            return
        got = draw_cards(s, pr, player, s[PENDING], rng)
        s[RB_PENALTY_CARDS + player] += got
        s[PENDING] = 0
        if not pr[P_PENALTY_SKIPS]:
            return
        s[RB_TURNS] += 1
        s[SINCE_PLAY] += 1
        player = shedding.next_seat(s, LEFT, pr[P_PLAYERS], player)


@njit(cache=True)
def add_plays(s, pr, player, out, n):
    """Every legal set: ranks from the talon's top up (any rank on an empty talon), for each
    rank the natural cards 0..held and the Jokers 0..held (at least one card); a Deux alone."""
    low = s[TALON_RANK + s[TALON_LEN] - 1] if s[TALON_LEN] > 0 else 0
    jokers = held(s, player, JOKER_KIND)
    for rank in range(low, RANKS):
        naturals = held(s, player, rank)
        if rank == TWO:
            if naturals > 0:
                out[n] = play_code(TWO, 1, 0)
                n += 1
            if jokers > 0:
                out[n] = play_code(TWO, 0, 1)
                n += 1
            continue
        for k in range(naturals + 1):
            for j in range(jokers + 1):
                if k + j > 0:
                    out[n] = play_code(rank, k, j)
                    n += 1
    return n


@njit(cache=True)
def play(s, pr, player, code, rng):
    """Put the set on the talon, then its effects (end of the player's round, the Deux, the
    penalty)."""
    rest = code - PLAY_ACTION
    jokers = rest % (MAX_JOKERS + 1)
    rest //= MAX_JOKERS + 1
    naturals = rest % (MAX_NATURALS + 1)
    rank = rest // (MAX_NATURALS + 1)
    h = shedding.hand_at(HAND, CARDS, player)
    for i in range(naturals + jokers):
        card = lowest_of(s, player, rank if i < naturals else JOKER_KIND)
        forget(s, card)
        s[h + card] -= 1
        s[TALON + s[TALON_LEN]] = card
        s[TALON_RANK + s[TALON_LEN]] = rank
        s[TALON_LEN] += 1
    s[HAND_SIZE + player] -= naturals + jokers
    s[RB_PLAYS + player] += 1
    s[RB_TURNS] += 1
    s[LAST_PLAYER] = player
    s[SINCE_PLAY] = 0
    shedding.note_progress(s, PASSES)
    run = top_run(s)
    if s[HAND_SIZE + player] > 0:
        continue_after(s, pr, player, rank, run, rng)
    elif jokers > 0:
        joker_finish(s, pr, player, rank, run, rng)
    else:
        goes_out(s, pr, player, rank, run, rng)


@njit(cache=True)
def leave(s, player):
    s[LEFT + player] = 1
    s[ACTIVE] -= 1


@njit(cache=True)
def goes_out(s, pr, player, rank, run, rng):
    """A natural finish: the Emperor (Normal, Elite), or an Élu leaving the round (Miroir,
    the first out is the Emperor) while two or more players hold cards."""
    leave(s, player)
    s[FINISHED] += 1
    s[RB_OUT_ORDER + player] = s[FINISHED]
    if s[EMPEROR] < 0:
        s[EMPEROR] = player
    if is_miroir(pr) and s[ACTIVE] > 1:
        continue_after(s, pr, player, rank, run, rng)
        return
    final_effects(s, pr, player, rank, run, rng)
    exclu = shedding.next_seat(s, LEFT, pr[P_PLAYERS], player) if is_miroir(pr) else -1
    end_round(s, pr, exclu, rng)


@njit(cache=True)
def joker_finish(s, pr, player, rank, run, rng):
    """"Si le joueur qui a terminé a joué un Joker pour cela, il perd": the Exclu at once
    (Miroir); else a Subject with no cards, and play goes on among the others."""
    s[RB_JOKER_FINISH + player] = 1
    s[RB_JOKER_FINISHES] += 1
    if is_miroir(pr):
        end_round(s, pr, player, rng)
        return
    leave(s, player)
    if s[ACTIVE] > 1:
        continue_after(s, pr, player, rank, run, rng)
        return
    s[EMPEROR] = shedding.next_seat(s, LEFT, pr[P_PLAYERS], player)
    end_round(s, pr, -1, rng)


@njit(cache=True)
def two_rule(s, pr, player, rng):
    """"chaque autre joueur pioche donc une carte": every other player in play draws one."""
    players = pr[P_PLAYERS]
    s[RB_TWOS] += 1
    for step in range(1, players):
        p = (player + step) % players
        if s[LEFT + p] == 0:
            s[RB_TWO_CARDS + p] += draw_cards(s, pr, p, 1, rng)
            s[RB_TURNS] += 1


@njit(cache=True)
def penalty(s, run):
    """"le joueur suivant pioche autant de cartes qu'il y a de cartes de cette valeur avant
    la dernière": ``run - 1`` cards for the next player in play."""
    if run >= 2:
        s[PENDING] = run - 1
        s[RB_PENALTIES] += 1
        s[RB_LONGEST] = max(s[RB_LONGEST], run - 1)


@njit(cache=True)
def final_effects(s, pr, player, rank, run, rng):
    """The Deux rule and the penalty of a round's last play, applied before it ends."""
    if rank == TWO:
        two_rule(s, pr, player, rng)
        return
    penalty(s, run)
    if s[PENDING] > 0:
        p = shedding.next_seat(s, LEFT, pr[P_PLAYERS], player)
        s[RB_PENALTY_CARDS + p] += draw_cards(s, pr, p, s[PENDING], rng)
        s[PENDING] = 0


@njit(cache=True)
def continue_after(s, pr, player, rank, run, rng):
    """After a play the round goes on: a Deux makes every other player draw one, clears the
    talon and its player leads again (the next player in play if he has left); else the
    penalty is set for the next player in play, whose turn begins."""
    players = pr[P_PLAYERS]
    if rank == TWO:
        two_rule(s, pr, player, rng)
        clear_talon(s, rng)
        lead = player if s[LEFT + player] == 0 else shedding.next_seat(s, LEFT, players, player)
        begin_turn(s, pr, lead, rng)
        return
    penalty(s, run)
    begin_turn(s, pr, shedding.next_seat(s, LEFT, players, player), rng)


@njit(cache=True)
def draw_action(s, pr, player, rng):
    """"vous piochez une carte": then play or pass."""
    s[RB_CARDS_DRAWN + player] += draw_cards(s, pr, player, 1, rng)
    s[PHASE] = DRAWN


@njit(cache=True)
def pass_turn(s, pr, player, rng):
    """"vous passez votre tour"; a full round of passes with no card moving is a cycle."""
    s[RB_TURNS] += 1
    s[SINCE_PLAY] += 1
    if s[TURN_DRAWN] == 0 and shedding.note_pass(s, PASSES, s[ACTIVE]):
        finish(s, pr, shedding.CYCLE)
        return
    begin_turn(s, pr, shedding.next_seat(s, LEFT, pr[P_PLAYERS], player), rng)


# --------------------------------------------------------------------------------------
# End of a round: roles, points, the next round or the end of the game
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hand_points(s, player):
    h = shedding.hand_at(HAND, CARDS, player)
    total = 0
    for card in range(CARDS):
        total += s[h + card] * elite_value(card)
    return total


@njit(cache=True)
def end_round(s, pr, exclu, rng):
    """"Classement" and "Comptage des points", then the next round or the end of the game."""
    players = pr[P_PLAYERS]
    mode = pr[P_MODE]
    emperor = s[EMPEROR]
    s[EXCLU] = exclu
    if emperor >= 0:
        s[RB_EMPEROR + emperor] = 1
    if exclu >= 0:
        s[RB_EXCLU + exclu] = 1
    gained = 0
    if mode == ELITE:
        for p in range(players):
            if p != emperor:
                gained += hand_points(s, p)
        s[POINTS + emperor] += gained
        s[RB_POINTS + emperor] = gained
    elif mode == MIROIR_ELITE:
        if not (pr[P_JOKER_FINISH_ZERO] and s[HAND_SIZE + exclu] == 0):
            for p in range(players):
                gained += hand_points(s, p)
        s[POINTS + exclu] += gained
        s[RB_POINTS + exclu] = gained
    s[PREV_EMPEROR] = emperor
    s[PREV_EXCLU] = exclu
    if exclu >= 0:
        order_elus(s, pr, exclu)
    close_round(s, pr, 1)
    rounds = s[ROUNDS_DONE]
    if mode == NORMAL or mode == MIROIR_NORMAL:
        over = rounds >= pr[P_NUM_ROUNDS]
    elif mode == ELITE:
        over = s[POINTS + emperor] >= pr[P_TARGET]
    else:
        over = s[POINTS + exclu] >= pr[P_TARGET]
    if over:
        finish(s, pr, shedding.FINISHED)
    elif rounds >= pr[P_MAX_ROUNDS]:
        finish(s, pr, shedding.CAPPED)
    else:
        start_round(s, pr, rng)


@njit(cache=True)
def order_elus(s, pr, exclu):
    """The Élus in the order they went out, then (after a Joker finish) those still holding
    cards in seat order from the Exclu's left: the order of the Miroir exchange."""
    players = pr[P_PLAYERS]
    n = 0
    for k in range(1, players + 1):
        for p in range(players):
            if s[RB_OUT_ORDER + p] == k:
                s[PREV_ORDER + n] = p
                n += 1
    for step in range(1, players):
        p = (exclu + step) % players
        if s[RB_OUT_ORDER + p] == 0:
            s[PREV_ORDER + n] = p
            n += 1


@njit(cache=True)
def close_round(s, pr, complete):
    """The round's figures: cards left, added to the game's totals, kept as the last
    round."""
    s[RB_COMPLETE] = complete
    for p in range(pr[P_PLAYERS]):
        s[RB_CARDS_LEFT + p] = s[HAND_SIZE + p]
    for i in range(ROUND_SIZE):
        if i == LONGEST_AT:
            s[TOTALS + i] = max(s[TOTALS + i], s[ROUND_BLOCK + i])
        else:
            s[TOTALS + i] += s[ROUND_BLOCK + i]
    copy_into(s[LAST_ROUND:LAST_ROUND + ROUND_SIZE], s[ROUND_BLOCK:ROUND_BLOCK + ROUND_SIZE])
    s[ROUNDS_DONE] += 1


@njit(cache=True)
def finish(s, pr, ending):
    """Scores and ranks ("Fin de partie"); an aborted game (capped, cycle) closes its round
    and ranks by the fewest cards in hand."""
    players = pr[P_PLAYERS]
    mode = pr[P_MODE]
    if ending != shedding.FINISHED:
        if s[RB_ROUND] > s[ROUNDS_DONE]:
            close_round(s, pr, 0)
        shedding.rank_players(s, players, LEFT, FINISHED, HAND_SIZE, SCORE, RANK, ending)
    elif mode == NORMAL:
        for p in range(players):
            s[SCORE + p] = p == s[EMPEROR]
            s[RANK + p] = 1 if p == s[EMPEROR] else 2
    elif mode == MIROIR_NORMAL:
        for p in range(players):
            s[SCORE + p] = p != s[EXCLU]
            s[RANK + p] = players if p == s[EXCLU] else 1
    elif mode == ELITE:
        for p in range(players):
            s[SCORE + p] = s[POINTS + p]
        for p in range(players):
            better = 0
            for q in range(players):
                better += q == s[EMPEROR] or (p != s[EMPEROR] and s[POINTS + q] > s[POINTS + p])
            s[RANK + p] = 1 if p == s[EMPEROR] else better + 1
    else:
        for p in range(players):
            s[SCORE + p] = -s[POINTS + p]
            s[RANK + p] = players if p == s[EXCLU] else 1
    shedding.end_game(RULES, s, ending)


# --------------------------------------------------------------------------------------
# The game loop's entry points
# --------------------------------------------------------------------------------------
@njit(cache=True)
def legal_actions(s, pr, out):
    """Write the current player's legal action codes into ``out``; return their count.
    TURN: the sets by rank, naturals, Jokers, then ``draw`` (not on an empty talon with
    ``lead_must_play``); DRAWN: the sets, then ``pass``; GIVE: a card of each kind held, from
    the 3 up to the Joker."""
    phase = s[PHASE]
    player = s[CURRENT]
    if phase == TURN or phase == DRAWN:
        n = add_plays(s, pr, player, out, 0)
        if phase == DRAWN:
            out[n] = PASS_ACTION
            n += 1
        elif not (pr[P_LEAD_MUST_PLAY] and s[TALON_LEN] == 0):
            out[n] = DRAW_ACTION
            n += 1
        return n
    if phase == GIVE:
        n = 0
        for kind in range(JOKER_KIND + 1):
            if held(s, player, kind) > 0:
                out[n] = GIVE_ACTION + kind
                n += 1
        return n
    return 0


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """Play a legal action for the current player (legality is the caller's check); chance
    steps draw from ``rng``.  A round whose position repeats one of its own ends the game as
    a cycle; a round reaching ``max_turns`` turns ends it, capped."""
    player = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    if s[PHASE] == GIVE:
        give(s, pr, action - GIVE_ACTION, rng)
    elif action == DRAW_ACTION:
        draw_action(s, pr, player, rng)
    elif action == PASS_ACTION:
        pass_turn(s, pr, player, rng)
    else:
        play(s, pr, player, action, rng)
    if s[PHASE] == OVER:
        return
    if repetition.repeats(s, POSITION_HASHES, position_hash(s, pr)):
        finish(s, pr, shedding.CYCLE)
    elif shedding.capped(s, RB_TURNS, pr[P_MAX_TURNS]):
        finish(s, pr, shedding.CAPPED)


@njit(cache=True)
def position_hash(s, pr):
    """The hash of the round's full position: whose turn in which phase, the exchange step,
    the last player and the passes since his play (while the talon holds his cards), the
    penalty due, the roles and who has gone out (in order), every hand, the pioche and the
    talon in order with the talon's ranks, and how many exchanged cards are still known to
    their giver (within a round that number only falls, so it stands for which).  Not the
    counters and figures, nor the no-move passes (the round of passes has its own rule)."""
    h = repetition.START
    for field in (PHASE, CURRENT, EXCHANGE_POS, LAST_PLAYER, ACTIVE, FINISHED, EMPEROR, EXCLU,
                  PENDING):
        h = repetition.mix(h, s[field])
    h = repetition.mix(h, s[SINCE_PLAY] if s[LAST_PLAYER] >= 0 and s[TALON_LEN] > 0 else -1)
    players = pr[P_PLAYERS]
    known = 0
    for i in range(players * CARDS):
        known += s[KNOWN + i] != 0
    h = repetition.mix(h, known)
    h = repetition.mix_span(h, s, STOCK, s[STOCK_LEN])
    h = repetition.mix_span(h, s, TALON, s[TALON_LEN])
    h = repetition.mix_span(h, s, TALON_RANK, s[TALON_LEN])
    h = repetition.mix_span(h, s, RB_OUT_ORDER, players)
    return shedding.hash_seats(h, s, LEFT, HAND, CARDS, players)


@njit(cache=True)
def advance(s, pr, rng):
    """Resolve the pending chance step (the first round's deal), if any, and record the
    first position."""
    if s[PHASE] == SETUP:
        start_round(s, pr, rng)
        repetition.repeats(s, POSITION_HASHES, position_hash(s, pr))


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: his own hand, the talon, hand sizes, the
    pioche's size, roles, points and every figure.  The other hands are emptied (their sizes
    stay), but for the cards he gave in the exchanges that are still in the hand he gave them
    to; the cards ``player`` cannot see (pioche and other hands) are listed, sorted, at the
    start of the pioche field, ``unseen`` of them.  (The order of cleared cards within the
    pioche, and what a forced gift tells of the giver's other cards, are not kept: a
    simplification that hides a little more than the rules do.)"""
    counts = stack_room(CARDS)
    shedding.observe_hands(s, out, pr[P_PLAYERS], player, HAND, CARDS, STOCK, STOCK_LEN, counts)
    for p in range(MAX_PLAYERS):
        if p != player:
            k = shedding.hand_at(KNOWN, CARDS, p)
            out[k:k + CARDS] = 0
    for card in range(CARDS):
        holder = s[shedding.hand_at(KNOWN, CARDS, player) + card] - 1
        if holder >= 0:
            shedding.show(s, out, shedding.hand_at(HAND, CARDS, holder), card, counts)
    out[UNSEEN] = shedding.list_unseen(out, counts, STOCK, CARDS)
    repetition.forget(out, POSITION_HASHES)


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """A full state, into ``out``, that ``player``'s observation allows: the pioche and the
    other hands dealt again from the cards he has not seen, his gifts of the exchanges left
    where he gave them.  For a given ``rng`` it depends only on what ``player`` may know."""
    observe(s, pr, player, out)
    shedding.redeal_stock(out, pr[P_PLAYERS], player, HAND, CARDS, HAND_SIZE, STOCK, STOCK_LEN,
                          UNSEEN, rng)
