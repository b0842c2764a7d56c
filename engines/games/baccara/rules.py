"""Le baccara: the rules, once, as compiled functions over a flat state array.

Read alongside ``docs/rules/baccara.md`` and the French source.  Sections follow the
rulebook: components, the staking ("Le banquier avance sur le tapis une certaine mise ... Le
joueur suivant (à sa droite) décide de suivre ... un des joueurs peut choisir de miser la moitié
au moins de la somme, les autres pouvant compléter"), the deal (ponte, banker, ponte, banker),
the ponte's and the banker's draw ("S'il a 5 points, il choisit de demander ou non une
troisième carte"; the banker "se conforme aux mêmes règles"), the showdown, the rotation of
the bank, the end of the session.

Mechanics: the state is one flat int32 array (``STATE`` names its fields); cards are the ids
of :mod:`engines.core.cards` (``num_decks`` copies).  The deal and the draws come from the game's
chance stream through :mod:`engines.core.chance`.  Seats go "to the right": ``right(i) = i - 1``.

Readings the spec leaves open (each documented where it is coded):

* The first banker is seat 0.  A player with no chips makes no decision: he is skipped in the
  staking rounds and the bank passes over him.  A player who cannot cover the whole stake is
  not asked for a banco.  In the partial round a player is asked only while the stake is not
  yet fully covered.
* The ponte's natural ends the coup at once (both hands shown).  Otherwise the ponte acts
  without knowing the banker's hand, and a banker's natural just stands.
* A continuous shoe (``reshuffle_each_coup = false``) is reshuffled before a coup that starts
  with fewer than 6 cards left (the most a coup uses).
* ``tie_rule = all_stakes_stay``: the same ponte and contributors deal again without staking.
* ``void_rule = banker_reduces``: the banker chooses a lower stake and the staking restarts;
  with a stake of 1 nobody could cover, the bank passes.
* Session length: ``num_rotations * players`` passes of the bank (a void coup passes the bank
  and counts; passing over a player with no chips does not), or one player holding every
  chip, or ``max_coups`` coups.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engines.core.chance import shuffle
from engines.core.compiled import count_decision, count_positive, rank_seats, two_actions
from engines.core.layout import Layout, copy_into, stack_room
from engines.games.baccara.params import MAX_CHIPS, MAX_DECKS, MAX_PLAYERS, BaccaraParams

# --------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------
DECK = 52
MAX_SHOE = MAX_DECKS * DECK
POOL_ROOM = MAX_SHOE + 6        # the cards a determinization may deal again: the shoe, two hands
COUP_CARDS = 6                      # the most cards a coup deals
NATURALS = (8, 9)
ROLE_PONTE, ROLE_BANKER = 0, 1
# Coup outcomes.
BANKER_WINS, PONTE_WINS, TIE, VOID = 0, 1, 2, 3
OUTCOME_NAMES = ("banker", "ponte", "tie", "void")
# A decision at 5 (for the record): none asked, drew, stood.
NOT_ASKED, DREW, STOOD = -1, 1, 0


@njit(cache=True)
def card_value(card):
    """A = 1, 2..9 face value, 10 J Q K = 0."""
    rank = card % 13 + 2
    if rank == 14:
        return 1
    return rank if rank < 10 else 0


# --------------------------------------------------------------------------------------
# Parameters, as a flat array for compiled code
# --------------------------------------------------------------------------------------
PARAMS = Layout(("players", 1), ("shoe_size", 1), ("reshuffle", 1), ("face_up", 1),
                ("banker_reduces", 1), ("all_stakes_stay", 1), ("rotate_on_loss", 1),
                ("start_chips", 1), ("passes", 1), ("max_coups", 1))
# P_PASSES: passes of the bank in a session
(P_PLAYERS, P_SHOE_SIZE, P_RESHUFFLE, P_FACE_UP, P_BANKER_REDUCES, P_ALL_STAKES_STAY,
 P_ROTATE_ON_LOSS, P_START_CHIPS, P_PASSES, P_MAX_COUPS) = PARAMS.offsets()


def encode_params(params: BaccaraParams) -> np.ndarray:
    """The flat parameter array compiled code reads."""
    return PARAMS.encode(players=params.players, shoe_size=params.num_decks * DECK,
                         reshuffle=params.reshuffle_each_coup, face_up=params.third_card_face_up,
                         banker_reduces=params.void_rule == "banker_reduces",
                         all_stakes_stay=params.tie_rule == "all_stakes_stay",
                         rotate_on_loss=params.rotate_on == "banker_loss",
                         start_chips=params.start_chips,
                         passes=params.num_rotations * params.players, max_coups=params.max_coups)


# --------------------------------------------------------------------------------------
# State: one flat int32 array
# --------------------------------------------------------------------------------------
STATE = Layout(
    ("phase", 1), ("current", 1), ("decisions", 1), ("coup", 1), ("passes", 1),
    ("banker", 1), ("ponte", 1), ("stake", 1), ("stake_cap", 1), ("total", 1),
    ("contribution", MAX_PLAYERS), ("asked", 1),    # the staking round: players asked so far
    ("round_kind", 1), ("carry", 1),    # FULL_COVER or PARTIAL_COVER; a stake kept by a tie
    ("shoe", MAX_SHOE), ("dealt", 1),
    ("hand", 2 * 3), ("hand_size", 2), ("third_public", 2), ("shown", 1),
    ("chips", MAX_PLAYERS),
    # the last coup, for its round row
    ("outcome", 1), ("five", 2), ("natural", 2), ("value", 2), ("coup_banker_net", 1),
    ("coup_staked", 1), ("coup_banker", 1), ("coup_ponte", 1), ("coup_stake", 1),
    # figures for results
    ("decided", 1), ("ties", 1), ("voids", 1), ("banker_wins", 1), ("staked_total", 1),
    ("banker_net_total", 1), ("min_chips", MAX_PLAYERS), ("coups_banked", MAX_PLAYERS),
    ("coups_ponte", MAX_PLAYERS), ("contributed", MAX_PLAYERS),
    ("player_decisions", MAX_PLAYERS), ("rank", MAX_PLAYERS),
)
STATE_SIZE = STATE.size
# COUP: coups played, ties and void coups included
# STAKE: S, the banker's stake
# STAKE_CAP: the highest stake he may set now
# TOTAL: contributions so far (T once covered)
# HAND: role * 3 + card
# SHOWN: the hands are shown (showdown)
# FIVE: each role's decision at 5 this coup
(PHASE, CURRENT, DECISIONS, COUP, PASSES, BANKER, PONTE, STAKE, STAKE_CAP, TOTAL, CONTRIBUTION,
 ASKED, ROUND_KIND, CARRY, SHOE, DEALT, HAND, HAND_SIZE, THIRD_PUBLIC, SHOWN, CHIPS, OUTCOME, FIVE,
 NATURAL, VALUE, COUP_BANKER_NET, COUP_STAKED, COUP_BANKER, COUP_PONTE, COUP_STAKE, DECIDED, TIES,
 VOIDS, _, STAKED_TOTAL, BANKER_NET_TOTAL, MIN_CHIPS, COUPS_BANKED, COUPS_PONTE, CONTRIBUTED,
 PLAYER_DECISIONS, RANK) = STATE.offsets()
BANKER_WINS_TOTAL = STATE.offset("banker_wins")

# Phases.  SET_STAKE .. BANKER_FIVE wait for the current player; COUP_END pauses after each
# coup (for its record) until :func:`resume`; the others are steps :func:`run` resolves.
(SETUP, SET_STAKE, FULL_COVER, PARTIAL_COVER, PONTE_FIVE, BANKER_FIVE, OVER, COUP_END,
 START_COUP, SPEAKER, CLOSE, DEAL, BANKER_TURN, SHOWDOWN) = range(14)
DECISION_PHASES = (SET_STAKE, FULL_COVER, PARTIAL_COVER, PONTE_FIVE, BANKER_FIVE)

# Actions.
STAKE_ACTION = 0                    # + S - 1: SET_STAKE(S), S = 1 .. MAX_CHIPS
BANCO = MAX_CHIPS
DECLINE = BANCO + 1
CONTRIBUTE = DECLINE + 1            # + c: CONTRIBUTE(c), c = 0 .. MAX_CHIPS
DRAW = CONTRIBUTE + MAX_CHIPS + 1
STAND = DRAW + 1
N_ACTIONS = STAND + 1
APPLY_DRAWS = True      # apply_action(s, pr, action, rng) draws the chance after a decision
ALLOCATES = False       # no rule allocates: compiled without NRT (engines.core.signatures)


@njit(cache=True)
def right(pr, seat):
    """The player on ``seat``'s right: the next to speak, the next banker."""
    return (seat - 1) % pr[P_PLAYERS]


@njit(cache=True)
def hand_value(s, role):
    """The hand's points: the units of the sum of its cards."""
    total = 0
    for i in range(s[HAND_SIZE + role]):
        total += card_value(s[HAND + 3 * role + i])
    return total % 10


# --------------------------------------------------------------------------------------
# Setup and the session
# --------------------------------------------------------------------------------------
@njit(cache=True)
def new_game(s, pr):
    s[:] = 0
    for p in range(pr[P_PLAYERS]):
        s[CHIPS + p] = pr[P_START_CHIPS]
        s[MIN_CHIPS + p] = pr[P_START_CHIPS]
    s[PONTE] = -1
    s[PHASE] = SETUP


@njit(cache=True)
def new_shoe(s, pr, rng):
    size = pr[P_SHOE_SIZE]
    for i in range(size):
        s[SHOE + i] = i % DECK
    shuffle(rng, s[SHOE:SHOE + size])
    s[DEALT] = 0


@njit(cache=True)
def advance(s, pr, rng):
    """The first shuffle and the first banker's stake."""
    if s[PHASE] == SETUP:
        new_shoe(s, pr, rng)
        s[PHASE] = START_COUP
        run(s, pr, rng)


@njit(cache=True)
def run(s, pr, rng):
    """Resolve every step that needs no decision, up to a decision, the end of a coup or
    the end of the session."""
    while True:
        phase = s[PHASE]
        if phase == START_COUP:
            start_coup(s, pr)
        elif phase == SPEAKER:
            next_speaker(s, pr)
        elif phase == CLOSE:
            close_partial_round(s, pr)
        elif phase == DEAL:
            deal(s, pr, rng)
        elif phase == BANKER_TURN:
            speaks(s, pr, rng, ROLE_BANKER)
        elif phase == SHOWDOWN:
            showdown(s, pr)
        else:
            return


@njit(cache=True)
def resume(s, pr, rng):
    """After a coup: the next one (after a tie with ``all_stakes_stay``, the same players
    are dealt again), up to the next decision."""
    if session_over(s, pr):
        finish(s, pr)
        return
    if s[OUTCOME] == TIE and pr[P_ALL_STAKES_STAY]:
        s[PHASE] = DEAL
    else:
        s[PHASE] = START_COUP
    run(s, pr, rng)


@njit(cache=True)
def session_over(s, pr):
    return (s[PASSES] >= pr[P_PASSES] or s[COUP] >= pr[P_MAX_COUPS]
            or count_positive(s[CHIPS:CHIPS + pr[P_PLAYERS]]) <= 1)


@njit(cache=True)
def start_coup(s, pr):
    """A new coup: the bank passes over players without chips; the banker stakes (or keeps
    his stake after a tie)."""
    if session_over(s, pr):
        finish(s, pr)
        return
    while s[CHIPS + s[BANKER]] <= 0:
        s[BANKER] = right(pr, s[BANKER])
    s[SHOWN] = 0
    s[HAND_SIZE] = 0
    s[HAND_SIZE + 1] = 0
    s[FIVE] = NOT_ASKED
    s[FIVE + 1] = NOT_ASKED
    if s[CARRY] > 0:
        start_staking(s, pr, min(s[CARRY], s[CHIPS + s[BANKER]]))
        s[CARRY] = 0
    else:
        s[STAKE_CAP] = s[CHIPS + s[BANKER]]
        s[PHASE] = SET_STAKE
        s[CURRENT] = s[BANKER]


# --------------------------------------------------------------------------------------
# The staking: the banker's stake, the full cover (banco), the partial cover
# --------------------------------------------------------------------------------------
@njit(cache=True)
def start_staking(s, pr, stake):
    """The banker's stake is on the table: the full cover round begins."""
    s[STAKE] = stake
    s[TOTAL] = 0
    s[PONTE] = -1
    s[CONTRIBUTION:CONTRIBUTION + MAX_PLAYERS] = 0
    s[ASKED] = 0
    s[ROUND_KIND] = FULL_COVER
    s[PHASE] = SPEAKER


@njit(cache=True)
def can_speak(s, pr, p):
    """Whether ``p`` is asked in the current round."""
    if s[ROUND_KIND] == FULL_COVER:
        return s[CHIPS + p] >= s[STAKE]
    return s[CHIPS + p] > 0 and s[TOTAL] < s[STAKE]


@njit(cache=True)
def next_speaker(s, pr):
    """The next player on the right who is asked; at the end of a round, the partial round
    or the close of the staking."""
    n = pr[P_PLAYERS]
    b = s[BANKER]
    while s[ASKED] < n - 1:
        s[ASKED] += 1
        p = (b - s[ASKED]) % n
        if can_speak(s, pr, p):
            s[CURRENT] = p
            s[PHASE] = s[ROUND_KIND]
            return
    if s[ROUND_KIND] == FULL_COVER:
        s[ROUND_KIND] = PARTIAL_COVER
        s[ASKED] = 0
    else:
        s[PHASE] = CLOSE


@njit(cache=True)
def close_partial_round(s, pr):
    """The coup takes place if one contribution is at least half the stake: the largest
    contributor (the nearest on the banker's right on a tie) is the ponte and both sides stake
    the total.  Otherwise the coup is void."""
    n = pr[P_PLAYERS]
    b = s[BANKER]
    best, ponte = 0, -1
    for i in range(1, n):
        p = (b - i) % n
        if s[CONTRIBUTION + p] > best:
            best, ponte = s[CONTRIBUTION + p], p
    if 2 * best >= s[STAKE]:
        s[PONTE] = ponte
        s[PHASE] = DEAL
        return
    s[CONTRIBUTION:CONTRIBUTION + MAX_PLAYERS] = 0
    s[TOTAL] = 0
    if pr[P_BANKER_REDUCES] and s[STAKE] > 1:
        s[STAKE_CAP] = s[STAKE] - 1
        s[PHASE] = SET_STAKE
        s[CURRENT] = b
        return
    s[VOIDS] += 1
    end_coup(s, pr, VOID, 0)


@njit(cache=True)
def staking_actions(s, pr, out):
    p = s[CURRENT]
    n = 0
    if s[PHASE] == SET_STAKE:
        for a in range(1, s[STAKE_CAP] + 1):
            out[n] = STAKE_ACTION + a - 1
            n += 1
    elif s[PHASE] == FULL_COVER:
        n = two_actions(out, BANCO, DECLINE)
    else:
        for c in range(0, min(s[CHIPS + p], s[STAKE] - s[TOTAL]) + 1):
            out[n] = CONTRIBUTE + c
            n += 1
    return n


# --------------------------------------------------------------------------------------
# The deal and the draws
# --------------------------------------------------------------------------------------
@njit(cache=True)
def give(s, pr, rng, role):
    """The next card of the shoe to ``role``."""
    s[HAND + 3 * role + s[HAND_SIZE + role]] = s[SHOE + s[DEALT]]
    s[HAND_SIZE + role] += 1
    s[DEALT] += 1


@njit(cache=True)
def deal(s, pr, rng):
    """The banker deals the ponte, himself, the ponte, himself; the ponte speaks."""
    if pr[P_RESHUFFLE] or pr[P_SHOE_SIZE] - s[DEALT] < COUP_CARDS:
        new_shoe(s, pr, rng)
    s[HAND_SIZE] = 0
    s[HAND_SIZE + 1] = 0
    s[THIRD_PUBLIC] = 0
    s[THIRD_PUBLIC + 1] = 0
    for _ in range(2):
        give(s, pr, rng, ROLE_PONTE)
        give(s, pr, rng, ROLE_BANKER)
    s[NATURAL] = hand_value(s, ROLE_PONTE) >= NATURALS[0]
    s[NATURAL + 1] = hand_value(s, ROLE_BANKER) >= NATURALS[0]
    s[FIVE] = NOT_ASKED
    s[FIVE + 1] = NOT_ASKED
    s[SHOWN] = 0
    if s[NATURAL]:
        s[PHASE] = SHOWDOWN                 # "il l'abat, et le banquier en fait autant"
        return
    speaks(s, pr, rng, ROLE_PONTE)


@njit(cache=True)
def third_card(s, pr, rng, role):
    give(s, pr, rng, role)
    s[THIRD_PUBLIC + role] = pr[P_FACE_UP]


@njit(cache=True)
def speaks(s, pr, rng, role):
    """The ponte's hand speaks, then the banker's, by the same rules: 8-9 and 6-7 stand, 5
    chooses (a decision of the hand's player), 0-4 draws."""
    value = hand_value(s, role)
    if value == 5:
        s[PHASE] = PONTE_FIVE if role == ROLE_PONTE else BANKER_FIVE
        s[CURRENT] = s[PONTE] if role == ROLE_PONTE else s[BANKER]
        return
    if value < 5:
        third_card(s, pr, rng, role)
    spoken(s, role)


@njit(cache=True)
def spoken(s, role):
    """After the ponte's hand the banker's speaks; after the banker's, the showdown."""
    s[PHASE] = BANKER_TURN if role == ROLE_PONTE else SHOWDOWN


# --------------------------------------------------------------------------------------
# Decisions
# --------------------------------------------------------------------------------------
@njit(cache=True)
def legal_actions(s, pr, out):
    """SET_STAKE(1 .. cap); BANCO, DECLINE; CONTRIBUTE(0 .. what is left to cover);
    DRAW, STAND at 5."""
    if s[PHASE] == PONTE_FIVE or s[PHASE] == BANKER_FIVE:
        return two_actions(out, DRAW, STAND)
    return staking_actions(s, pr, out)


@njit(cache=True)
def apply_action(s, pr, action, rng):
    """The current player's decision, then whatever follows it."""
    p = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
    phase = s[PHASE]
    if phase == SET_STAKE:
        start_staking(s, pr, action - STAKE_ACTION + 1)
    elif phase == FULL_COVER:
        if action == BANCO:
            s[CONTRIBUTION + p] = s[STAKE]
            s[TOTAL] = s[STAKE]
            s[PONTE] = p
            s[PHASE] = DEAL
        else:
            s[PHASE] = SPEAKER
    elif phase == PARTIAL_COVER:
        c = action - CONTRIBUTE
        s[CONTRIBUTION + p] = c
        s[TOTAL] += c
        s[PHASE] = SPEAKER
    else:                                   # at 5, the ponte's or the banker's choice
        role = ROLE_PONTE if phase == PONTE_FIVE else ROLE_BANKER
        s[FIVE + role] = DREW if action == DRAW else STOOD
        if action == DRAW:
            third_card(s, pr, rng, role)
        spoken(s, role)
    run(s, pr, rng)


# --------------------------------------------------------------------------------------
# The showdown, the rotation of the bank
# --------------------------------------------------------------------------------------
@njit(cache=True)
def showdown(s, pr):
    """The closer to 9 wins: the banker takes each contribution, or pays each contributor
    as much; a tie moves no chips."""
    s[SHOWN] = 1
    ponte = hand_value(s, ROLE_PONTE)
    banker = hand_value(s, ROLE_BANKER)
    s[VALUE] = ponte
    s[VALUE + 1] = banker
    b = s[BANKER]
    net = 0
    if ponte != banker:
        sign = 1 if banker > ponte else -1
        for p in range(pr[P_PLAYERS]):
            c = s[CONTRIBUTION + p]
            s[CHIPS + p] -= sign * c
            net += sign * c
        s[CHIPS + b] += net
    s[STAKED_TOTAL] += s[TOTAL]
    s[BANKER_NET_TOTAL] += net
    s[COUPS_PONTE + s[PONTE]] += 1
    for p in range(pr[P_PLAYERS]):
        s[CONTRIBUTED + p] += s[CONTRIBUTION + p]
    if ponte == banker:
        s[TIES] += 1
        end_coup(s, pr, TIE, net)
    else:
        s[DECIDED] += 1
        s[BANKER_WINS_TOTAL] += banker > ponte
        end_coup(s, pr, BANKER_WINS if banker > ponte else PONTE_WINS, net)


@njit(cache=True)
def end_coup(s, pr, outcome, net):
    """Record the coup; pass the bank (a void coup, a decided one, or with ``rotate_on =
    banker_loss`` a lost one); after a tie the stake is carried to the next coup.  The game
    pauses in COUP_END until :func:`resume`."""
    b = s[BANKER]
    s[OUTCOME] = outcome
    s[COUP_BANKER_NET] = net
    s[COUP_STAKED] = s[TOTAL] if outcome != VOID else 0
    s[COUP_BANKER] = b
    s[COUP_PONTE] = s[PONTE] if outcome != VOID else -1
    s[COUP_STAKE] = s[STAKE]
    s[COUPS_BANKED + b] += 1
    s[COUP] += 1
    for p in range(pr[P_PLAYERS]):
        s[MIN_CHIPS + p] = min(s[MIN_CHIPS + p], s[CHIPS + p])
    passes = (outcome == VOID or outcome == PONTE_WINS
              or (outcome == BANKER_WINS and not pr[P_ROTATE_ON_LOSS]))
    if passes:
        s[PASSES] += 1
        s[BANKER] = right(pr, b)
    s[CARRY] = s[STAKE] if outcome == TIE else 0
    s[PHASE] = COUP_END
    s[CURRENT] = -1


@njit(cache=True)
def finish(s, pr):
    """The most chips wins; equal chips rank equal."""
    s[PHASE] = OVER
    s[CURRENT] = -1
    n = pr[P_PLAYERS]
    rank_seats(s[CHIPS:CHIPS + n], n, False, s[RANK:RANK + n])


# --------------------------------------------------------------------------------------
# Hidden information: the shoe, the other hands' hole cards (and face-down third cards)
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hidden_from(s, pr, player, role, i):
    """Whether card ``i`` of ``role``'s hand is hidden from ``player``."""
    if s[SHOWN]:
        return False
    owner = s[PONTE] if role == ROLE_PONTE else s[BANKER]
    if owner == player:
        return False
    return not (i == 2 and s[THIRD_PUBLIC + role])


@njit(cache=True)
def observe(s, pr, player, out):
    """``s`` as ``player`` sees it: the undealt shoe and the hidden cards are -1."""
    copy_into(out, s)
    out[SHOE + s[DEALT]:SHOE + MAX_SHOE] = -1
    for role in range(2):
        for i in range(s[HAND_SIZE + role]):
            if hidden_from(s, pr, player, role, i):
                out[HAND + 3 * role + i] = -1


@njit(cache=True)
def determinize(s, pr, player, rng, out):
    """``s`` with the cards ``player`` cannot see (the undealt shoe and the hidden hand
    cards) dealt again at random among their places."""
    copy_into(out, s)
    pool = stack_room(POOL_ROOM)
    n = 0
    for role in range(2):
        for i in range(s[HAND_SIZE + role]):
            if hidden_from(s, pr, player, role, i):
                pool[n] = s[HAND + 3 * role + i]
                n += 1
    for i in range(s[DEALT], pr[P_SHOE_SIZE]):
        pool[n] = s[SHOE + i]
        n += 1
    shuffle(rng, pool[:n])
    n = 0
    for role in range(2):
        for i in range(s[HAND_SIZE + role]):
            if hidden_from(s, pr, player, role, i):
                out[HAND + 3 * role + i] = pool[n]
                n += 1
    for i in range(s[DEALT], pr[P_SHOE_SIZE]):
        out[SHOE + i] = pool[n]
        n += 1
