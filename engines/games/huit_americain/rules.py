"""Le huit américain: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/huit-americain.md`` and the French source text.  The
sections follow the rulebook: components, setup (the deal and the first card turned up), a
turn (play a matching card or draw), the special cards (8 changes the suit, 10 plays again,
7 skips the next player, the Ace and the K♥ attacks), the "Carte!" call, the end.  The Python
API (:mod:`engines.games.huit_americain.game`) and the batch kernel call these functions; no rule
exists anywhere else.  Stock, reshuffle, turn order, the turn cap and the detection of a
repeated state come from the shedding core (:mod:`engines.families.shedding.rules`).

Mechanics: hands are card counts (card id ``suit * 13 + rank - 2``, see
:mod:`engines.core.cards`; two copies of each card with two decks).  Every chance step (the deal,
the draws and their reshuffles, a forgotten "Carte!") draws from the rng passed to
:func:`apply_action`, the game's chance stream.

Readings of the text (each coded where stated):

* The dealer is the last seat; seat 0, on his left, plays first, and play goes left
  ("c'est à mon voisin de gauche de jouer").
* A drawn card that is playable is played at once ("S'il peut jouer la carte qu'il pioche,
  il la joue"): that play is automatic unless the player has a choice to make (the suit an
  8 announces, or the variants ``drawn_card_optional``/``counter_optional``); that choice is
  the phase DRAWN, during which the drawn card is treated as already shown to the table.
* A player who empties his hand on a 10 must replay, so he draws ("il faut ensuite que je
  pioche une carte"); a drawn ♠ (or any playable card) is played and wins.
* The turn after an attack (A8): the last attacker (A1: or the first, ``kh_resume``) plays a
  normal turn on the top Ace / K♥.  Penalty cards drawn that include a counter: the counter
  is played at once and its player becomes the attacker (the text: "il le pose donc").
* Winning on an Ace or a K♥ ends the game at once (A9); with ``rank_all`` the player leaves
  the table, his attack is void and the next player takes a normal turn; a 7 still skips.
* The 7 skips the next player when three or more players are still in play, or with
  ``seven_skip_two_players``.
* The first card turned up: special cards (8, 10, 7, Ace, K♥) go under the stock; if the
  whole stock is special, the last card turned up stays (a case the text does not meet).
* A player who must draw from an empty stock with nothing to reshuffle draws nothing and his
  turn ends (a pass).  A game where every player still in play passes in a row ends as a
  cycle (nothing can change any more), and so does a game whose full position (see
  :func:`position_hash`) repeats one already reached (:mod:`engines.core.repetition`: it
  ends at the first repetition); a game reaching ``max_turns`` decisions is capped.  All end
  with the players ranked by the fewest cards in hand (equal counts share the rank).
* A K♥ attack is countered at most once (A7: two decks hold two K♥).  The text ("à moins
  de pouvoir poser dessus l'autre roi de coeur") does not say whether a K♥ of the same
  attack, shuffled back into the stock and drawn, is "the other" one again; by default it
  is not (it is kept like any drawn card), and with ``kh_counter_again`` it counters again,
  which lets an attack on an empty stock feed on itself.
* Result: the winner (first out) ranks 1 and the others share rank 2 (``rank_all``: the order
  of going out); the score is minus the cards left in hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core import repetition
from engines.core.cards import HEARTS, KING, RANKS_PER_SUIT, STANDARD_CARDS
from engines.core.chance import shuffle
from engines.core.compiled import count_decision, two_actions
from engines.core.layout import Layout, stack_room
from engines.core.specialise import Tag
from engines.families.shedding import rules as shedding
from engines.games.huit_americain.params import MAX_PLAYERS, HuitAmericainParams

# --------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------
CARDS = STANDARD_CARDS                  # card ids 0..51
SUITS = 4
MAX_DECKS = 2
MAX_CARDS = MAX_DECKS * CARDS
EIGHT, TEN, SEVEN, ACE = 8, 10, 7, 14
KING_OF_HEARTS = HEARTS * RANKS_PER_SUIT + KING - 2
ACE_PENALTY, KH_PENALTY = 2, 4          # "ils piochent deux cartes", "piocher quatre cartes"
CARTE_PENALTY = 2                       # "il doit piocher deux cartes"
DRAWN_ROOM = SUITS * SUITS + 1          # the most actions of the DRAWN phase (four drawn
                                        # eights, a suit each, and keep)
NO_ATTACK, ACE_ATTACK, KH_ATTACK = 0, 1, 2
FROM_TURN, FROM_PENALTY = 0, 1          # what the cards of the DRAWN phase were drawn for
PROBABILITY_SCALE = 1 << 30             # carte_forget as an integer share of this


@njit(cache=True)
def rank_of(card):
    return card % RANKS_PER_SUIT + 2


@njit(cache=True)
def suit_of(card):
    return card // RANKS_PER_SUIT


@njit(cache=True)
def is_special(card):
    """8, 10, 7, Ace and the K♥ have an effect; every other card is ordinary."""
    r = rank_of(card)
    return r == EIGHT or r == TEN or r == SEVEN or r == ACE or card == KING_OF_HEARTS


# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code (see HuitAmericainParams for their meaning)
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("decks", 1), ("hand_size", 1), ("eight_must_match", 1),
                ("voluntary_draw", 1), ("drawn_optional", 1), ("counter_optional", 1),
                ("seven_two", 1), ("kh_first", 1), ("carte_call", 1),
                ("carte_forget", 1), ("rank_all", 1), ("max_turns", 1), ("kh_again", 1))
(P_PLAYERS, P_DECKS, P_HAND_SIZE, P_EIGHT_MUST_MATCH, P_VOLUNTARY_DRAW, P_DRAWN_OPTIONAL,
 P_COUNTER_OPTIONAL, P_SEVEN_TWO, P_KH_FIRST, P_CARTE_CALL, P_CARTE_FORGET, P_RANK_ALL,
 P_MAX_TURNS, P_KH_AGAIN) = PARAMS.offsets()


def encode_params(params: HuitAmericainParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    return PARAMS.encode(players=params.players, decks=params.num_decks, hand_size=params.hand_size,
                         eight_must_match=params.eight_must_match,
                         voluntary_draw=params.voluntary_draw,
                         drawn_optional=params.drawn_card_optional,
                         counter_optional=params.counter_optional,
                         seven_two=params.seven_skip_two_players,
                         kh_first=params.kh_resume == "first_attacker",
                         carte_call=params.carte_call,
                         carte_forget=round(params.carte_forget * PROBABILITY_SCALE),
                         rank_all=params.rank_all, max_turns=params.max_turns,
                         kh_again=params.kh_counter_again)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("current", 1), ("decisions", 1), ("turns", 1),
    ("top", 1), ("suit", 1),                        # top discard, the suit to follow
    ("attack", 1), ("attacker", 1), ("chain_first", 1), ("chain_length", 1),
    ("drawn_for", 1), ("drawn_count", 1), ("drawn_cards", KH_PENALTY),
    ("resume_phase", 1), ("resume_current", 1), ("carte_player", 1),
    ("passes", 1), ("active", 1), ("finished", 1), ("ending", 1),
    ("unseen", 1),                                  # observations: unknown cards listed
    ("stock_len", 1), ("stock", MAX_CARDS), ("discard_len", 1), ("discard", MAX_CARDS),
    ("hand", MAX_PLAYERS * CARDS), ("hand_size", MAX_PLAYERS), ("out", MAX_PLAYERS),
    *repetition.FIELDS,                             # the positions seen, a cycle's length
    # figures for results
    ("reshuffles", 1), ("ace_chains", 1), ("kh_chains", 1), ("longest_chain", 1),
    ("eights", 1), ("tens", 1), ("skips", 1),
    ("player_decisions", MAX_PLAYERS), ("cards_drawn", MAX_PLAYERS),
    ("penalty_cards", MAX_PLAYERS), ("cards_played", MAX_PLAYERS),
    ("carte_penalties", MAX_PLAYERS), ("dealt_aces", MAX_PLAYERS),
    ("dealt_eights", MAX_PLAYERS), ("dealt_tens", MAX_PLAYERS),
    ("score", MAX_PLAYERS), ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
(PHASE, CURRENT, DECISIONS, TURNS, TOP, SUIT, ATTACK, ATTACKER, CHAIN_FIRST, CHAIN_LENGTH,
 DRAWN_FOR, DRAWN_COUNT, DRAWN_CARDS, RESUME_PHASE, RESUME_CURRENT, CARTE_PLAYER, PASSES, ACTIVE,
 FINISHED, ENDING, UNSEEN, STOCK_LEN, STOCK, DISCARD_LEN, DISCARD, HAND, HAND_SIZE, OUT,
 POSITION_HASHES, POSITIONS_SEEN, BRENT_HASH, BRENT_STEPS, BRENT_POWER, CYCLE_LENGTH, RESHUFFLES,
 ACE_CHAINS, KH_CHAINS, LONGEST_CHAIN, EIGHTS, TENS, SKIPS, PLAYER_DECISIONS, CARDS_DRAWN,
 PENALTY_CARDS, CARDS_PLAYED, CARTE_PENALTIES, DEALT_ACES, DEALT_EIGHTS, DEALT_TENS, SCORE,
 RANK) = STATE.offsets()
RULES = Tag(__name__)                # the family's and the core's steps, for this game

# Phases.  SETUP is the deal; TURN, RESPOND, DRAWN and CARTE wait for a decision.
SETUP, TURN, RESPOND, DRAWN, CARTE, OVER = 0, 1, 2, 3, 4, 5

# Actions: play(card) for a card other than an 8; play an 8 of suit s announcing suit t;
# draw; keep the drawn card; call "Carte!"; let it pass.
PLAY_ACTION = 0                         # + card
EIGHT_ACTION = CARDS                    # + 4 * suit of the 8 + announced suit
DRAW_ACTION = EIGHT_ACTION + SUITS * SUITS
KEEP_ACTION = DRAW_ACTION + 1
CALL_ACTION = KEEP_ACTION + 1
NO_CALL_ACTION = CALL_ACTION + 1
N_ACTIONS = NO_CALL_ACTION + 1
APPLY_DRAWS = True      # apply_action(s, pr, action, rng) draws the chance after a decision
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def eight_card(suit):
    return suit * RANKS_PER_SUIT + EIGHT - 2


# --------------------------------------------------------------------------------------
# Setup: shuffle, deal 8 cards each, turn up an ordinary card
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    """The state before the deal: every deck in order in the stock."""
    s[:] = 0
    n = 0
    for _ in range(pr[P_DECKS]):
        for card in range(CARDS):
            s[STOCK + n] = card
            n += 1
    s[STOCK_LEN] = n
    s[ACTIVE] = pr[P_PLAYERS]
    s[ATTACKER] = -1
    s[CHAIN_FIRST] = -1
    s[CARTE_PLAYER] = -1
    s[PHASE] = SETUP
    repetition.forget(s, POSITION_HASHES)


@njit(cache=True)
def advance(s, pr, rng):
    """The deal, when it is due (phase ``SETUP``): shuffle, deal ``hand_size`` cards one at a
    time from seat 0 (the dealer's left), then turn up the first card: a special card goes
    under the stock and the next is turned."""
    if s[PHASE] != SETUP:
        return
    shuffle(rng, s[STOCK:STOCK + s[STOCK_LEN]])
    players = pr[P_PLAYERS]
    for _ in range(pr[P_HAND_SIZE]):
        for p in range(players):
            s[STOCK_LEN] -= 1
            card = s[STOCK + s[STOCK_LEN]]
            s[shedding.hand_at(HAND, CARDS, p) + card] += 1
            s[HAND_SIZE + p] += 1
            r = rank_of(card)
            s[DEALT_ACES + p] += r == ACE
            s[DEALT_EIGHTS + p] += r == EIGHT
            s[DEALT_TENS + p] += r == TEN
    for _ in range(s[STOCK_LEN] - 1):
        card = s[STOCK + s[STOCK_LEN] - 1]
        if not is_special(card):
            break
        for i in range(s[STOCK_LEN] - 1, 0, -1):       # under the stock
            s[STOCK + i] = s[STOCK + i - 1]
        s[STOCK] = card
    s[STOCK_LEN] -= 1
    card = s[STOCK + s[STOCK_LEN]]
    s[DISCARD] = card
    s[DISCARD_LEN] = 1
    s[TOP] = card
    s[SUIT] = suit_of(card)
    start_turn(s, 0, TURN)
    repetition.repeats(s, POSITION_HASHES, position_hash(s, pr))   # the first position


@njit(cache=True)
def start_turn(s, player, phase):
    """Hand the turn to ``player`` in ``phase`` (TURN, or RESPOND to an attack)."""
    s[CURRENT] = player
    s[PHASE] = phase
    s[TURNS] += 1


# --------------------------------------------------------------------------------------
# A turn: play a matching card, or draw
# --------------------------------------------------------------------------------------
@njit(cache=True)
def playable(s, pr, card):
    """Same suit (the announced one after an 8) or same rank; an 8 is wild (A2) but never
    on another 8 ("il ne doit jamais y avoir deux huit de suite"), where only the announced
    suit may be played."""
    r = rank_of(card)
    same_suit = suit_of(card) == s[SUIT]
    top_rank = rank_of(s[TOP])
    if top_rank == EIGHT:
        return same_suit and r != EIGHT
    if r == EIGHT and not pr[P_EIGHT_MUST_MATCH]:
        return True
    return same_suit or r == top_rank


@njit(cache=True)
def add_play(card, out, n):
    """Write the play of ``card`` (one action per announced suit for an 8) into ``out``."""
    if rank_of(card) == EIGHT:
        for t in range(SUITS):
            out[n] = EIGHT_ACTION + SUITS * suit_of(card) + t
            n += 1
        return n
    out[n] = PLAY_ACTION + card
    return n + 1


@njit(cache=True)
def can_draw(s):
    return s[STOCK_LEN] > 0 or s[DISCARD_LEN] > 1


@njit(cache=True)
def turn_actions(s, pr, player, out):
    """Every playable card (cards other than 8s by id, then the 8s with each announced
    suit), then ``draw`` when nothing is playable (A3: or with ``voluntary_draw``, when there
    is something to draw)."""
    h = shedding.hand_at(HAND, CARDS, player)
    n = 0
    for card in range(CARDS):
        if s[h + card] > 0 and rank_of(card) != EIGHT and playable(s, pr, card):
            n = add_play(card, out, n)
    for suit in range(SUITS):
        card = eight_card(suit)
        if s[h + card] > 0 and playable(s, pr, card):
            n = add_play(card, out, n)
    if n == 0 or (pr[P_VOLUNTARY_DRAW] and can_draw(s)):
        out[n] = DRAW_ACTION
        n += 1
    return n


@njit(cache=True)
def is_counter(s, pr, card):
    """An Ace counters an Ace attack; the other K♥ counters a K♥ attack not yet countered
    (A7; with ``kh_counter_again``, any K♥ counters: see the module docstring)."""
    if s[ATTACK] == ACE_ATTACK:
        return rank_of(card) == ACE
    return card == KING_OF_HEARTS and (s[CHAIN_LENGTH] < 2 or pr[P_KH_AGAIN] != 0)


@njit(cache=True)
def respond_actions(s, pr, player, out):
    """The counters held (A4: they must be played), else ``draw`` the penalty."""
    h = shedding.hand_at(HAND, CARDS, player)
    n = 0
    for card in range(CARDS):
        if s[h + card] > 0 and is_counter(s, pr, card):
            out[n] = PLAY_ACTION + card
            n += 1
    if n == 0 or pr[P_COUNTER_OPTIONAL]:
        out[n] = DRAW_ACTION
        n += 1
    return n


@njit(cache=True)
def drawn_wanted(s, pr, card):
    """Whether a drawn card must (or, in a variant, may) be played at once."""
    if s[DRAWN_FOR] == FROM_PENALTY:
        return is_counter(s, pr, card)
    return playable(s, pr, card)


@njit(cache=True)
def drawn_actions(s, pr, player, out):
    """The plays of the drawn cards that must be played (each distinct card once), then
    ``keep`` when the variant makes playing them optional."""
    n = 0
    h = shedding.hand_at(HAND, CARDS, player)
    for i in range(s[DRAWN_COUNT]):
        card = s[DRAWN_CARDS + i]
        seen = False
        for j in range(i):
            seen = seen or s[DRAWN_CARDS + j] == card
        if not seen and s[h + card] > 0 and drawn_wanted(s, pr, card):
            n = add_play(card, out, n)
    optional = pr[P_COUNTER_OPTIONAL] if s[DRAWN_FOR] == FROM_PENALTY \
        else pr[P_DRAWN_OPTIONAL]
    if optional or n == 0:
        out[n] = KEEP_ACTION
        n += 1
    return n


@njit(cache=True)
def draw_into(s, player, count, rng):
    """Draw ``count`` cards (fewer if the stock and discard pile run out) into the DRAWN
    buffer and the player's hand; return how many were drawn."""
    drawn = s[DRAWN_CARDS:DRAWN_CARDS + KH_PENALTY]
    got, reshuffles = shedding.draw(s, STOCK, STOCK_LEN, DISCARD, DISCARD_LEN,
                                    shedding.hand_at(HAND, CARDS, player), count, rng, drawn)
    s[RESHUFFLES] += reshuffles
    s[DRAWN_COUNT] = got
    s[HAND_SIZE + player] += got
    s[CARDS_DRAWN + player] += got
    if got > 0:
        shedding.note_progress(s, PASSES)
    return got


@njit(cache=True)
def pending_drawn(s, pr, player, rng):
    """After a draw: the drawn cards that must be played.  One card and no choice: played
    at once; a choice (an 8's suit, two counters, an optional play): the DRAWN phase; none:
    the turn (or the response) is over."""
    buffer = stack_room(DRAWN_ROOM)
    n = drawn_actions(s, pr, player, buffer)
    if n == 1 and buffer[0] == KEEP_ACTION:
        drawn_done(s, pr, player)
    elif n == 1:
        play_code(s, pr, player, buffer[0], rng)
    else:
        s[PHASE] = DRAWN


@njit(cache=True)
def drawn_done(s, pr, player):
    """Nothing (more) to play from the draw: the response passes on, or the turn ends."""
    s[DRAWN_COUNT] = 0
    if s[DRAWN_FOR] == FROM_PENALTY:
        next_responder(s, pr, player)
    else:
        start_turn(s, shedding.next_seat(s, OUT, pr[P_PLAYERS], player), TURN)


@njit(cache=True)
def draw_one(s, pr, player, rng):
    """"Si un joueur ne peut pas jouer, il pioche une carte" (also after a 10 with nothing
    to play).  Nothing to draw: a pass, and a cycle once everyone has passed."""
    s[DRAWN_FOR] = FROM_TURN
    if draw_into(s, player, 1, rng) == 0:
        if shedding.note_pass(s, PASSES, s[ACTIVE]):
            finish(s, pr, shedding.CYCLE)
        else:
            drawn_done(s, pr, player)
        return
    pending_drawn(s, pr, player, rng)


# --------------------------------------------------------------------------------------
# Playing a card and its effect
# --------------------------------------------------------------------------------------
@njit(cache=True)
def play_code(s, pr, player, code, rng):
    """Play the card an action code names (announcing a suit for an 8)."""
    if code >= EIGHT_ACTION:
        k = code - EIGHT_ACTION
        play(s, pr, player, eight_card(k // SUITS), k % SUITS, rng)
    else:
        card = code - PLAY_ACTION
        play(s, pr, player, card, suit_of(card), rng)


@njit(cache=True)
def play(s, pr, player, card, suit, rng):
    """Put ``card`` on the discard pile (``suit`` is the suit to follow: the card's, or the
    one an 8 announces), then its effect; then the "Carte!" window if it applies."""
    s[shedding.hand_at(HAND, CARDS, player) + card] -= 1
    s[HAND_SIZE + player] -= 1
    s[DISCARD + s[DISCARD_LEN]] = card
    s[DISCARD_LEN] += 1
    s[TOP] = card
    s[SUIT] = suit
    s[CARDS_PLAYED + player] += 1
    s[DRAWN_COUNT] = 0
    shedding.note_progress(s, PASSES)
    forgot = False
    if pr[P_CARTE_CALL] != 0 and s[HAND_SIZE + player] == 1:
        forgot = rng.random() * PROBABILITY_SCALE < pr[P_CARTE_FORGET]
    effect(s, pr, player, card, rng)
    if forgot and s[PHASE] != OVER:
        open_carte_window(s, pr, player)


@njit(cache=True)
def effect(s, pr, player, card, rng):
    """What the card does: a player out of cards wins (not on a 10, which must be followed);
    10 replays, 7 skips the next player, an Ace or the K♥ attacks, 8 changed the suit."""
    players = pr[P_PLAYERS]
    r = rank_of(card)
    s[EIGHTS] += r == EIGHT
    if r == TEN:
        s[TENS] += 1
        s[PHASE] = TURN                     # "Rejouer après un 10 est obligatoire"
        return
    if s[HAND_SIZE + player] == 0:
        if shedding.go_out(s, OUT, FINISHED, ACTIVE, player, pr[P_RANK_ALL]):
            finish(s, pr, shedding.FINISHED)
            return
        if s[ATTACK] != NO_ATTACK:
            end_attack(s)                   # A9: the attack is void
        after = shedding.next_seat(s, OUT, players, player)
        if r == SEVEN and seven_applies(s, pr):
            s[SKIPS] += 1
            after = shedding.next_seat(s, OUT, players, after)
        start_turn(s, after, TURN)
        return
    if r == ACE or card == KING_OF_HEARTS:
        attack(s, pr, player, ACE_ATTACK if r == ACE else KH_ATTACK)
        return
    after = shedding.next_seat(s, OUT, players, player)
    if r == SEVEN and seven_applies(s, pr):
        s[SKIPS] += 1                       # "Poser un 7 fait passer le tour du joueur suivant"
        after = shedding.next_seat(s, OUT, players, after)
    start_turn(s, after, TURN)


@njit(cache=True)
def seven_applies(s, pr):
    """A5: the 7 skips with three or more players in play, or with the variant."""
    return s[ACTIVE] > 2 or pr[P_SEVEN_TWO]


# --------------------------------------------------------------------------------------
# Attacks: "les joueurs suivants doivent poser dessus un autre as ... ils piochent deux"
# --------------------------------------------------------------------------------------
@njit(cache=True)
def attack(s, pr, player, kind):
    """An Ace (K♥) played: a new attack, or a counter that makes its player the attacker;
    every other player, from his left, responds in turn."""
    if s[ATTACK] == NO_ATTACK:
        s[ATTACK] = kind
        s[CHAIN_FIRST] = player
        s[CHAIN_LENGTH] = 0
        if kind == ACE_ATTACK:
            s[ACE_CHAINS] += 1
        else:
            s[KH_CHAINS] += 1
    s[CHAIN_LENGTH] += 1
    s[ATTACKER] = player
    start_turn(s, shedding.next_seat(s, OUT, pr[P_PLAYERS], player), RESPOND)


@njit(cache=True)
def penalty(s, pr, player, rng):
    """No counter played: draw 2 (Ace) or 4 (K♥); a counter among them is played at once."""
    count = ACE_PENALTY if s[ATTACK] == ACE_ATTACK else KH_PENALTY
    s[DRAWN_FOR] = FROM_PENALTY
    got = draw_into(s, player, count, rng)
    s[PENALTY_CARDS + player] += got
    pending_drawn(s, pr, player, rng)


@njit(cache=True)
def next_responder(s, pr, player):
    """The next player responds; once it is back to the attacker, everyone has drawn and
    the attacker (A1: or the first K♥ player, ``kh_resume``) takes a normal turn."""
    after = shedding.next_seat(s, OUT, pr[P_PLAYERS], player)
    if after != s[ATTACKER]:
        start_turn(s, after, RESPOND)
        return
    resume = s[ATTACKER]
    if s[ATTACK] == KH_ATTACK and pr[P_KH_FIRST] and s[OUT + s[CHAIN_FIRST]] == 0:
        resume = s[CHAIN_FIRST]
    end_attack(s)
    start_turn(s, resume, TURN)


@njit(cache=True)
def end_attack(s):
    s[LONGEST_CHAIN] = max(s[LONGEST_CHAIN], s[CHAIN_LENGTH])
    s[ATTACK] = NO_ATTACK
    s[ATTACKER] = -1
    s[CHAIN_FIRST] = -1
    s[CHAIN_LENGTH] = 0


# --------------------------------------------------------------------------------------
# "Carte!" (A10, variant carte_call)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def open_carte_window(s, pr, player):
    """The player left with one card forgot to say "Carte!": each opponent in turn order may
    say it before the next action."""
    s[RESUME_PHASE] = s[PHASE]
    s[RESUME_CURRENT] = s[CURRENT]
    s[CARTE_PLAYER] = player
    s[PHASE] = CARTE
    s[CURRENT] = shedding.next_seat(s, OUT, pr[P_PLAYERS], player)


@njit(cache=True)
def carte_answer(s, pr, player, call, rng):
    """The first opponent who says "Carte!" makes the forgetful player draw 2; then play
    resumes where it was."""
    forgetful = s[CARTE_PLAYER]
    after = shedding.next_seat(s, OUT, pr[P_PLAYERS], player)
    if not call and after != forgetful:
        s[CURRENT] = after
        return
    if call:
        got, reshuffles = shedding.draw(s, STOCK, STOCK_LEN, DISCARD, DISCARD_LEN,
                                        shedding.hand_at(HAND, CARDS, forgetful), CARTE_PENALTY,
                                        rng, stack_room(CARTE_PENALTY))
        s[RESHUFFLES] += reshuffles
        s[HAND_SIZE + forgetful] += got
        s[CARDS_DRAWN + forgetful] += got
        s[CARTE_PENALTIES + forgetful] += 1
        if got > 0:
            shedding.note_progress(s, PASSES)
    s[PHASE] = s[RESUME_PHASE]
    s[CURRENT] = s[RESUME_CURRENT]
    s[CARTE_PLAYER] = -1


# --------------------------------------------------------------------------------------
# The end: "Le gagnant est celui qui se débarrasse le premier de toutes ses cartes"
# --------------------------------------------------------------------------------------
@njit(cache=True)
def finish(s, pr, ending):
    """Ranks and scores (see :func:`engines.families.shedding.rules.rank_players`); a pending
    attack is void."""
    if s[ATTACK] != NO_ATTACK:
        end_attack(s)
    shedding.rank_players(s, pr[P_PLAYERS], OUT, FINISHED, HAND_SIZE, SCORE, RANK, ending)
    shedding.end_game(RULES, s, ending)


# --------------------------------------------------------------------------------------
# The game loop's entry points
# --------------------------------------------------------------------------------------
@njit(cache=True)
def legal_actions(s, pr, out):
    """The current player's legal action codes, written into ``out`` (their count returned):
    in a turn, the playable cards or ``draw``; answering an attack, the counters or ``draw``;
    after a draw, the drawn cards to play or ``keep``; in the "Carte!" window, ``call`` or
    not."""
    phase = s[PHASE]
    player = s[CURRENT]
    if phase == TURN:
        return turn_actions(s, pr, player, out)
    if phase == RESPOND:
        return respond_actions(s, pr, player, out)
    if phase == DRAWN:
        return drawn_actions(s, pr, player, out)
    if phase == CARTE:
        return two_actions(out, CALL_ACTION, NO_CALL_ACTION)
    return 0


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """Play a legal action for the current player (legality is the caller's check); chance
    steps draw from ``rng``.  The game ends as capped at ``max_turns`` decisions."""
    player = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    phase = s[PHASE]
    if phase == CARTE:
        carte_answer(s, pr, player, action == CALL_ACTION, rng)
    elif action == KEEP_ACTION:
        drawn_done(s, pr, player)
    elif action != DRAW_ACTION:
        play_code(s, pr, player, action, rng)
    elif phase == RESPOND:
        penalty(s, pr, player, rng)
    else:
        draw_one(s, pr, player, rng)
    if s[PHASE] == OVER:
        return
    if repetition.repeats(s, POSITION_HASHES, position_hash(s, pr)):
        finish(s, pr, shedding.CYCLE)
    elif shedding.capped(s, DECISIONS, pr[P_MAX_TURNS]):
        finish(s, pr, shedding.CAPPED)


@njit(cache=True)
def position_hash(s, pr):
    """The hash of the full position: what decides the rest of the game (whose turn in which
    phase, the suit to follow, the attack, the drawn cards, the "Carte!" window, who is out,
    every hand, the stock and the discard pile in order); not the counters and figures.  An
    attack's length counts only as countered or not, all that the rules read of it."""
    h = repetition.START
    for field in (PHASE, CURRENT, TOP, SUIT, ATTACK, ATTACKER, CHAIN_FIRST, DRAWN_FOR,
                  RESUME_PHASE, RESUME_CURRENT, CARTE_PLAYER, ACTIVE, FINISHED):
        h = repetition.mix(h, s[field])
    h = repetition.mix(h, min(s[CHAIN_LENGTH], 2))
    h = repetition.mix_span(h, s, DRAWN_CARDS, s[DRAWN_COUNT])
    h = repetition.mix_span(h, s, STOCK, s[STOCK_LEN])
    h = repetition.mix_span(h, s, DISCARD, s[DISCARD_LEN])
    return shedding.hash_seats(h, s, OUT, HAND, CARDS, pr[P_PLAYERS])


# --------------------------------------------------------------------------------------
# Hidden information
# --------------------------------------------------------------------------------------
@njit(cache=True)
def observe(s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: his own hand, the discard pile, hand
    sizes and every public figure.  The other hands are emptied (their sizes stay) and the
    cards ``player`` cannot see (stock and other hands) are listed, sorted, at the start of
    the stock field, ``unseen`` of them.  In the DRAWN phase the drawn cards are shown."""
    counts = stack_room(CARDS)
    shedding.observe_hands(s, out, pr[P_PLAYERS], player, HAND, CARDS, STOCK, STOCK_LEN, counts)
    if s[PHASE] == DRAWN and s[CURRENT] != player:
        h = shedding.hand_at(HAND, CARDS, s[CURRENT])
        for i in range(s[DRAWN_COUNT]):
            shedding.show(s, out, h, s[DRAWN_CARDS + i], counts)
    elif s[PHASE] != DRAWN:
        out[DRAWN_COUNT] = 0
        out[DRAWN_CARDS:DRAWN_CARDS + KH_PENALTY] = 0
    out[UNSEEN] = shedding.list_unseen(out, counts, STOCK, MAX_CARDS)
    repetition.forget(out, POSITION_HASHES)


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the cards he
    cannot see (the stock, the other hands but for drawn cards shown) dealt again, every hand
    its size.  For a given ``rng`` the result depends only on what ``player`` may know."""
    observe(s, pr, player, out)
    shedding.redeal_stock(out, pr[P_PLAYERS], player, HAND, CARDS, HAND_SIZE, STOCK, STOCK_LEN,
                          UNSEEN, rng)
