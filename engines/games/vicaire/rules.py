"""Le vicaire: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/vicaire.md`` and the French source ("Le vicaire").  The
sections below follow the rulebook: components, the deal, the tricks, the end of a deal
(totals, capot, the winner of a game), the match.  The Python API
(:mod:`engines.games.vicaire.game`) calls these functions.  Seats, the deal, legal cards and the
winner of a trick come from the shared trick core :mod:`engines.families.tricks.rules` (hearts
are trumps).

Readings of the text (each coded where it applies):

* "Coupe: à coeur, non obligatoire": hearts are permanent trumps; a void player plays any
  card (trumping and overtrumping optional, A3).  "Un pli à coeur ne peut pas être coupé."
* "Distribution: 10 cartes par joueur + écart de 2 cartes": the écart is face down, unused.
* "Le joueur à droite du donneur a d'abord la main": play runs to the right; seats are
  numbered in playing order, so the first leader is the seat after the dealer, and the deal
  passes to that seat (A2).
* "être le premier à obtenir au terme d'un jeu un total exact de 10 points ou d'un nombre
  supérieur multiple de 5": at the end of a deal, a player whose total is a winning total,
  and who took a trick in this deal (A1: he "obtains" it now), qualifies; one qualifier wins;
  several: the lowest total wins; tied lowest: nobody, play goes on.
* "Si un joueur a remporté tous les plis, il obtient 10 points et la partie est d'ores et
  déjà gagnée": a capot wins the game at once (payout ``capot_payout``, A5).
* Payouts 50 (total 10) and 20 (15 or 20; 25 and more: A4); games are repeated, totals
  restarting at 0, until a player's payouts reach ``match_target`` or ``num_games`` are
  played (A6); the highest payouts win the match, equal ones share.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.cards import HEARTS, RANKS_PER_SUIT
from engines.core.chance import shuffle
from engines.core.compiled import rank_and_end
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import Tag
from engines.families.tricks import rules as tricks
from engines.games.vicaire.params import PLAYERS, VicaireParams

# --------------------------------------------------------------------------------------
# Components: 32 cards (7 .. A) with the ids of engines.core.cards; hearts are trumps
# --------------------------------------------------------------------------------------
DECK_CARDS = 52
LOWEST_RANK = 7
CARD_SUIT = (np.arange(DECK_CARDS) // RANKS_PER_SUIT).astype(np.int64)
STRENGTH = (np.arange(DECK_CARDS) % RANKS_PER_SUIT).astype(np.int64)
IN_PACK = (np.arange(DECK_CARDS) % RANKS_PER_SUIT + 2 >= LOWEST_RANK)
PACK = np.flatnonzero(IN_PACK).astype(np.int32)
PACK_CARDS = PACK.size
TRUMP = HEARTS
HAND_CARDS = 10
MAX_PLAYERS = PLAYERS

PARAMS = Layout(("first_target", 1), ("target_step", 1), ("require_trick", 1),
                ("legality", 1), ("payout_10", 1), ("payout_15_20", 1), ("payout_25_plus", 1),
                ("capot_payout", 1), ("match_target", 1), ("num_games", 1), ("max_deals", 1),
                ("first_dealer", 1))
(P_FIRST_TARGET, P_TARGET_STEP, P_REQUIRE_TRICK, P_LEGALITY, P_PAYOUT_10, P_PAYOUT_15_20,
 P_PAYOUT_25_PLUS, P_CAPOT_PAYOUT, P_MATCH_TARGET, P_NUM_GAMES, P_MAX_DEALS,
 P_FIRST_DEALER) = PARAMS.offsets()
RANDOM_DEALER = -1


def encode_params(params: VicaireParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    return PARAMS.encode(first_target=params.first_target, target_step=params.target_step,
                         require_trick=params.require_trick_this_deal,
                         legality=tricks.MUST_TRUMP if params.must_trump else tricks.FOLLOW,
                         payout_10=params.payout_10, payout_15_20=params.payout_15_20,
                         payout_25_plus=params.payout_25_plus, capot_payout=params.capot_payout,
                         match_target=params.match_target,
                         num_games=0 if params.num_games is None else params.num_games,
                         max_deals=params.max_deals,
                         first_dealer=(RANDOM_DEALER if params.first_dealer is None
                                       else params.first_dealer))


STATE = Layout(
    ("phase", 1), ("round", 1), ("game", 1), ("deals_in_game", 1), ("first_dealer", 1),
    ("dealer", 1), ("cards", 1), ("current", 1), ("first_leader", 1), ("trick", 1),
    ("played", 1), ("decisions", 1), ("rounds_played", 1), ("games_played", 1),
    ("game_winner", 1), ("game_payout", 1), ("capot", 1),
    ("location", DECK_CARDS),
    ("hand_size", MAX_PLAYERS),
    ("tricks", MAX_PLAYERS),            # tricks won this deal
    ("total", MAX_PLAYERS),             # tricks won this game (the text's points)
    ("qualified", MAX_PLAYERS),         # qualified at the end of the last deal
    ("score", MAX_PLAYERS),             # payouts won in the match
    *tricks.trick_table(MAX_PLAYERS),
    ("player_decisions", MAX_PLAYERS), ("games_won", MAX_PLAYERS), ("capots", MAX_PLAYERS),
    ("tricks_total", MAX_PLAYERS), ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
(PHASE, ROUND, GAME, DEALS_IN_GAME, FIRST_DEALER, DEALER, CARDS, CURRENT, FIRST_LEADER, TRICK,
 PLAYED, DECISIONS, ROUNDS_PLAYED, GAMES_PLAYED, GAME_WINNER, GAME_PAYOUT, CAPOT, LOCATION,
 HAND_SIZE, TRICKS, TOTAL, QUALIFIED, SCORE, TRICK_SEAT, TRICK_CARD, TRICK_SUIT, TRICK_STRENGTH,
 TRICK_WINNER, PLAYER_DECISIONS, GAMES_WON, CAPOTS, TRICKS_TOTAL, RANK) = STATE.offsets()
TRICK_FIELDS = tricks.trick_fields(STATE)
RULES = Tag(__name__)                # the family's steps, specialised for this game
FAMILY = tricks      # legal_actions, apply_action, observe, determinize: the family's

DEAL, PLAYING, OVER = 0, 1, 2


@njit(cache=True)
def chance_pending(s):
    """Whether a deal is due (the game's only chance step)."""
    return s[PHASE] == DEAL

LOC_OUT = 0                          # not in the 32-card pack
LOC_ECART = LOC_OUT + 1              # the face-down écart
LOC_HAND = LOC_ECART + 1             # + player
LOC_TRICK = LOC_HAND + MAX_PLAYERS
LOC_PLAYED = LOC_TRICK + 1
LOC_UNKNOWN = LOC_PLAYED + 1
FACE_DOWN = LOC_ECART                # hidden from every seat (the family's observe)

PLAY = 0                             # + card id
N_ACTIONS = DECK_CARDS
# apply_action(s, pr, action) draws nothing: the chance that follows a decision waits
# for advance (see engines.core.streams)
APPLY_DRAWS = False
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def new_game(s, pr):
    """A match before its first deal."""
    tricks.new_game(RULES, s, pr)
    s[GAME_WINNER] = -1


@njit(cache=True)
def deal(s, pr, rng):
    """Shuffle the 32 cards, deal 10 to each player one at a time from the dealer's
    neighbour; the last 2 are the écart.  The first dealer is drawn at random unless set;
    the deal passes to the next seat."""
    dealer = tricks.round_dealer(RULES, s, pr, rng)
    s[GAME] = s[GAMES_PLAYED]
    if s[DEALS_IN_GAME] == 0:                 # a new game: totals restart at 0
        for p in range(PLAYERS):
            s[TOTAL + p] = 0
            s[QUALIFIED + p] = 0
    deck = stack_room(PACK_CARDS)
    copy_into(deck, PACK)
    shuffle(rng, deck)
    tricks.deal_round(RULES, s, pr, deck, HAND_CARDS, LOC_ECART)
    s[FIRST_LEADER] = tricks.next_seat(dealer, PLAYERS)
    s[CURRENT] = s[FIRST_LEADER]
    s[PHASE] = PLAYING


@njit(cache=True)
def advance(s, pr, rng):
    """Deal until a decision is due or the game is over."""
    tricks.deal_until_decision(RULES, s, pr, rng)


@njit(cache=True)
def play_actions(s, pr, player, out):
    """``play`` each legal card, in card id order: follow suit if able; otherwise any card
    (a trump under ``must_trump``)."""
    return tricks.legal_plays(RULES, s, player, CARD_SUIT, STRENGTH, TRUMP, pr[P_LEGALITY], out)


@njit(cache=True)
def play(s, pr, player, card):
    """Put ``card`` in the trick; the next player follows, or the highest heart, else the
    highest card of the led suit, wins the trick and leads next.  After the last trick the
    deal ends."""
    if tricks.play_card(RULES, s, pr, player, card, CARD_SUIT[card], STRENGTH[card], TRUMP):
        end_of_deal(s, pr)


@njit(cache=True)
def is_winning_total(pr, total):
    """10, or any higher multiple of 5 (``first_target``, ``target_step``)."""
    return total == pr[P_FIRST_TARGET] or (total > pr[P_FIRST_TARGET]
                                           and total % pr[P_TARGET_STEP] == 0)


@njit(cache=True)
def payout(pr, total):
    if total <= pr[P_FIRST_TARGET]:
        return pr[P_PAYOUT_10]
    if total <= 2 * pr[P_FIRST_TARGET]:
        return pr[P_PAYOUT_15_20]
    return pr[P_PAYOUT_25_PLUS]


@njit(cache=True)
def game_winner(s, pr):
    """The seat that wins the game at the end of this deal (-1: none): a capot wins at
    once; else the qualifier, or the lowest of several (none if tied)."""
    for p in range(PLAYERS):
        if s[TRICKS + p] == s[CARDS]:
            s[CAPOT] = 1
            return p
    best = -1
    tied = False
    for p in range(PLAYERS):
        if not s[QUALIFIED + p]:
            continue
        if best < 0 or s[TOTAL + p] < s[TOTAL + best]:
            best, tied = p, False
        elif s[TOTAL + p] == s[TOTAL + best]:
            tied = True
    return -1 if tied else best


@njit(cache=True)
def end_of_deal(s, pr):
    """Add each player's tricks to their total; decide whether the game is won; at the end
    of a game start the next one or end the match."""
    s[CAPOT] = 0
    for p in range(PLAYERS):
        s[TOTAL + p] += s[TRICKS + p]
        s[TRICKS_TOTAL + p] += s[TRICKS + p]
        took = s[TRICKS + p] > 0 or not pr[P_REQUIRE_TRICK]
        s[QUALIFIED + p] = 1 if took and is_winning_total(pr, s[TOTAL + p]) else 0
    s[ROUNDS_PLAYED] += 1
    s[DEALS_IN_GAME] += 1
    winner = game_winner(s, pr)
    s[GAME_WINNER] = winner
    s[GAME_PAYOUT] = 0
    if winner >= 0:
        s[GAME_PAYOUT] = pr[P_CAPOT_PAYOUT] if s[CAPOT] else payout(pr, s[TOTAL + winner])
        s[SCORE + winner] += s[GAME_PAYOUT]
        s[GAMES_WON + winner] += 1
        s[CAPOTS + winner] += s[CAPOT]
    s[ROUND] += 1
    s[PHASE] = DEAL
    s[CURRENT] = -1
    if winner >= 0 or s[DEALS_IN_GAME] == pr[P_MAX_DEALS]:
        end_of_game(s, pr)


@njit(cache=True)
def end_of_game(s, pr):
    """The next deal starts a new game (totals at 0), unless the match is over:
    ``num_games`` played, or a player's payouts reach ``match_target``."""
    s[GAMES_PLAYED] += 1
    over = False
    if pr[P_NUM_GAMES] > 0:
        over = s[GAMES_PLAYED] == pr[P_NUM_GAMES]
    else:
        for p in range(PLAYERS):
            over |= s[SCORE + p] >= pr[P_MATCH_TARGET]
    if over:
        rank_and_end(RULES, s, s[SCORE:SCORE + MAX_PLAYERS], PLAYERS, False)
        return
    s[DEALS_IN_GAME] = 0
