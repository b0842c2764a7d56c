"""Trick-taking building blocks shared by engines: seats in turn, the dealer of a tour, which
cards may be played to a trick, and who wins it.

Everything a game decides is passed in as data, so one set of compiled functions serves
every trick-taking game:

* ``card_suit[card]``: the suit a card follows by (``NO_SUIT`` for a card that may always be
  played, such as the tarot Excuse);
* the *played* suit and strength of each card of a trick, which the game sets when the card
  is played (a card whose strength its owner declares, such as an Excuse played high or low,
  gets the declared strength);
* the trump suit (``NO_SUIT`` when a game has none) and the legality rule (``FOLLOW``,
  ``MUST_TRUMP``, ``MUST_OVERTRUMP`` or ``MAY_TRUMP_BUT_OVER``: see :func:`legal_in_trick`),
  lifted when a partner holds the trick (:func:`with_partner_exemption`);
* card-point tables (``points[card]``) for games that count the cards taken.

Around the trick: dealing a hand to the seats from the dealer's left (:func:`deal_hands`),
the dealer of each round, and the bidding helpers (the bids a player may announce,
:func:`list_bids`, and the "hook" that forbids the last bidder of an exact-bid game one
bid, :func:`hook_forbidden`).

The course of a deal is written here once too (the last section): who deals, the deals
until a decision is due, a bid announced, a card played and the trick it completes, the
next deal or the end of the game.  Those steps take the game's :class:`Tag`
(``RULES = Tag(__name__)`` in its rules module) and read there, by the family's names, the
fields of its state and the game's own steps they lead to (see
:mod:`engines.core.specialise`).

A trick is kept as parallel arrays over its positions (0 = the lead): the seat, the card,
its played suit and its strength.  Every trick game's state layout names these fields alike
(:func:`trick_fields`), so laying a card (:func:`lay_card`), taking a complete trick
(:func:`take_trick`) and clearing the table for a deal (:func:`clear_tricks`) are written
here once.
"""

from __future__ import annotations

from numba import njit

from engines.core.chance import shuffle, uniform_index_jit
from engines.core.compiled import count_decision, new_state
from engines.core.layout import Layout, copy_into, stack_room
from engines.core.specialise import by_tag, module_of

NO_SUIT = -1


# --------------------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------------------
@njit(cache=True)
def next_seat(seat, players):
    """The seat to the left of ``seat`` (the next index)."""
    return (seat + 1) % players


@njit(cache=True)
def dealer_of_tour(first_dealer, tour, players):
    """The dealer of tour ``tour`` (0-based) when the deal passes left after each tour."""
    return (first_dealer + tour) % players


# --------------------------------------------------------------------------------------
# Legal cards
# --------------------------------------------------------------------------------------
@njit(cache=True)
def led_suit(suits, count):
    """The suit to follow in a trick of ``count`` cards: the played suit of its first card
    that has one (``NO_SUIT`` if none, e.g. an empty trick)."""
    for i in range(count):
        if suits[i] != NO_SUIT:
            return suits[i]
    return NO_SUIT


# Legality rules: what a player who cannot follow the led suit must do.
FOLLOW = 0              # follow suit if able; otherwise any card
MUST_TRUMP = 1          # ... otherwise trump if able
MUST_OVERTRUMP = 2      # ... otherwise trump if able, beating the trumps already played if able
MAY_TRUMP_BUT_OVER = 3  # trumping is free, but a trump must beat earlier trumps if able


@njit(cache=True)
def legal_cards(hand, n, card_suit, led, trump, must_trump, out):
    """Write into ``out`` the cards of ``hand[:n]`` (in that order) that may be played to a
    trick whose led suit is ``led``; return their count.

    With nothing to follow every card is legal.  Otherwise a player holding the led suit
    must follow it; one who does not, and holds a trump when ``must_trump`` is set, must
    trump; anyone else plays any card.  A card of suit ``NO_SUIT`` may always be played.
    ``out`` may be ``hand`` itself: the legal cards are then kept in place."""
    required = NO_SUIT
    if led != NO_SUIT:
        holds_led = False
        holds_trump = False
        for i in range(n):
            suit = card_suit[hand[i]]
            holds_led |= suit == led
            holds_trump |= suit == trump and trump != NO_SUIT
        if holds_led:
            required = led
        elif must_trump and holds_trump:
            required = trump
    count = 0
    for i in range(n):
        suit = card_suit[hand[i]]
        if required == NO_SUIT or suit == required or suit == NO_SUIT:
            out[count] = hand[i]
            count += 1
    return count


# --------------------------------------------------------------------------------------
# The winner of a trick
# --------------------------------------------------------------------------------------
@njit(cache=True)
def trick_winner(suits, strengths, count, trump):
    """The position (0 = the lead) of the card that wins a trick of ``count`` cards: the
    strongest trump if any was played, else the strongest card of the led suit.  Cards of
    any other suit (and ``NO_SUIT`` cards) never win unless nothing else could."""
    led = led_suit(suits, count)
    best = -1
    best_trump = False
    for i in range(count):
        is_trump = trump != NO_SUIT and suits[i] == trump
        follows = suits[i] == led and led != NO_SUIT
        if not (is_trump or follows):
            continue
        if best < 0 or (is_trump and not best_trump) or (
                is_trump == best_trump and strengths[i] > strengths[best]):
            best = i
            best_trump = is_trump
    return best if best >= 0 else 0


@njit(cache=True)
def highest_trump(suits, strengths, count, trump):
    """The strength of the strongest trump among the first ``count`` cards of a trick (-1 if
    none)."""
    best = -1
    if trump == NO_SUIT:
        return best
    for i in range(count):
        if suits[i] == trump and strengths[i] > best:
            best = strengths[i]
    return best


@njit(cache=True)
def legal_in_trick(hand, n, card_suit, card_strength, suits, strengths, count, trump, rule,
                   out):
    """Write into ``out`` the cards of ``hand[:n]`` (in that order) that may be played to the
    trick of ``count`` cards so far (played suits and strengths); return their count.

    Following the led suit comes first (:func:`legal_cards`, with ``MUST_TRUMP`` and
    ``MUST_OVERTRUMP`` making a player out of the led suit trump if able).  Then, under
    ``MUST_OVERTRUMP`` and ``MAY_TRUMP_BUT_OVER``, a trump played to a trick that holds a
    trump (trump led included) must beat the strongest one if the player holds such a trump.
    ``out`` may be ``hand`` itself (see :func:`legal_cards`)."""
    led = led_suit(suits, count)
    k = legal_cards(hand, n, card_suit, led, trump, rule == MUST_TRUMP or
                    rule == MUST_OVERTRUMP, out)
    if rule != MUST_OVERTRUMP and rule != MAY_TRUMP_BUT_OVER:
        return k
    top = highest_trump(suits, strengths, count, trump)
    if top < 0:
        return k
    can_beat = False
    for i in range(k):
        card = out[i]
        can_beat |= card_suit[card] == trump and card_strength[card] > top
    if not can_beat:
        return k
    kept = 0
    for i in range(k):
        card = out[i]
        if card_suit[card] != trump or card_strength[card] > top:
            out[kept] = card
            kept += 1
    return kept


@njit(cache=True)
def with_partner_exemption(seats, suits, strengths, count, trump, partner, rule):
    """The legality rule for a player whose ``partner`` (a seat, -1 for none) may be winning
    the trick so far: when the partner holds it, the player is exempt from trumping and
    over-trumping (``FOLLOW``: follow suit if able, otherwise any card); otherwise
    ``rule``."""
    if partner < 0 or count == 0:
        return rule
    if seats[trick_winner(suits, strengths, count, trump)] == partner:
        return FOLLOW
    return rule


# --------------------------------------------------------------------------------------
# Card points
# --------------------------------------------------------------------------------------
@njit(cache=True)
def trick_points(cards, count, points):
    """The points of the first ``count`` cards of a trick by the table ``points[card]``."""
    total = 0
    for i in range(count):
        total += points[cards[i]]
    return total


# --------------------------------------------------------------------------------------
# The trick in a state array
# --------------------------------------------------------------------------------------
TRICK_FIELD_NAMES = ("location", "hand_size", "tricks", "trick", "played", "trick_winner",
                     "trick_seat", "trick_card", "trick_suit", "trick_strength")


def trick_table(seats: int) -> tuple[tuple[str, int], ...]:
    """The state fields of the trick in progress (or the last one, until the next lead), by
    position, for a table of ``seats``, and the seat that won the last completed trick: for
    a game's state :class:`Layout`."""
    return (("trick_seat", seats), ("trick_card", seats), ("trick_suit", seats),
            ("trick_strength", seats), ("trick_winner", 1))


def trick_fields(state: Layout) -> tuple[int, ...]:
    """The offsets of a game's trick fields (``TRICK_FIELD_NAMES``, in that order) in its
    state layout, then the room of a per-seat field: the ``fields`` argument of
    :func:`lay_card`, :func:`take_trick` and :func:`clear_tricks`."""
    return (*state.offsets(*TRICK_FIELD_NAMES), state.size_of("trick_seat"))


@njit(cache=True)
def lay_card(s, fields, player, card, suit, strength, loc_trick):
    """``player`` lays ``card`` from their hand in the trick (its location ``loc_trick``),
    with the suit and strength it plays as; return how many cards the trick holds."""
    location, hand_size, _, _, played, _, seats, cards, suits, strengths, _ = fields
    position = s[played]
    s[location + card] = loc_trick
    s[hand_size + player] -= 1
    s[seats + position] = player
    s[cards + position] = card
    s[suits + position] = suit
    s[strengths + position] = strength
    s[played] = position + 1
    return position + 1


@njit(cache=True)
def take_trick(s, fields, players, trump, loc_taken, to_winner):
    """The complete trick of ``players`` cards goes to its winner (:func:`trick_winner`),
    who counts one more trick: its cards to ``loc_taken`` (``+`` the winner's seat when
    ``to_winner``), and the next trick starts empty.  Return the winner's seat."""
    location, _, tricks_won, trick, played, last_winner, seats, cards, suits, strengths, _ = \
        fields
    position = trick_winner(s[suits:suits + players], s[strengths:strengths + players],
                            players, trump)
    winner = s[seats + position]
    s[tricks_won + winner] += 1
    s[last_winner] = winner
    taken = loc_taken + winner if to_winner else loc_taken
    for i in range(players):
        s[location + s[cards + i]] = taken
    s[trick] += 1
    s[played] = 0
    return winner


@njit(cache=True)
def clear_tricks(s, fields):
    """Before a deal: empty hands, no trick won, an empty first trick and no last winner."""
    _, hand_size, tricks_won, trick, played, last_winner, seats, cards, _, _, room = fields
    for p in range(room):
        s[hand_size + p] = 0
        s[tricks_won + p] = 0
        s[seats + p] = -1
        s[cards + p] = -1
    s[trick] = 0
    s[played] = 0
    s[last_winner] = -1


# --------------------------------------------------------------------------------------
# The deal and the bids
# --------------------------------------------------------------------------------------
@njit(cache=True)
def deal_hands(deck, dealer, players, per_player, location, loc_hand, hand_size):
    """Deal ``per_player`` cards of ``deck`` (in its order) one at a time to each seat from
    the dealer's left: ``location[card] = loc_hand + seat`` and ``hand_size[seat]`` grows.
    Return how many cards were dealt (the next card of ``deck`` is the top of the stock)."""
    i = 0
    for _ in range(per_player):
        seat = next_seat(dealer, players)
        for _ in range(players):
            location[deck[i]] = loc_hand + seat
            hand_size[seat] += 1
            i += 1
            seat = next_seat(seat, players)
    return i


@njit(cache=True)
def hook_forbidden(bids_made, players, tricks_in_hand, bid_total):
    """The one bid the "hook" forbids the last bidder (the bids may not add up to the tricks
    of the hand), or -1 for any earlier bidder or when no bid could make that total."""
    if bids_made != players - 1 or bid_total > tricks_in_hand:
        return -1
    return tricks_in_hand - bid_total


# --------------------------------------------------------------------------------------
# The end of a game and hidden cards
# --------------------------------------------------------------------------------------
@njit(cache=True)
def redeal_hidden(hidden, n, held, loc_hand, loc_rest, rng, location):
    """Shuffle the hidden cards ``hidden[:n]`` and deal them back: ``held[p]`` to seat p in
    seat order (``location[card] = loc_hand + p``), the rest to ``loc_rest``.  The caller
    gathers them in card id order, so the result depends only on what an observer knows."""
    shuffle(rng, hidden[:n])
    i = 0
    for p in range(held.shape[0]):
        for _ in range(held[p]):
            location[hidden[i]] = loc_hand + p
            i += 1
    while i < n:
        location[hidden[i]] = loc_rest
        i += 1


# --------------------------------------------------------------------------------------
# The game loop's entry points: what every trick game does the same way, given its layout
# --------------------------------------------------------------------------------------
@njit(cache=True)
def hidden_in_hands(s, player, card, location, loc_rest, loc_hand, loc_trick):
    """Whether ``player`` cannot see where ``card`` is (``s[location + card]``): face down
    in ``loc_rest`` (the stock, the écart) or in another seat's hand."""
    where = s[location + card]
    if where == loc_rest:
        return True
    return loc_hand <= where < loc_trick and where != loc_hand + player


@njit(cache=True)
def observe_hands(s, player, out, location, cards, loc_rest, loc_hand, loc_trick,
                  loc_unknown):
    """Copy into ``out`` what ``player`` may know when only the cards face down in
    ``loc_rest`` and the other hands are hidden (:func:`hidden_in_hands`): their locations
    are ``loc_unknown``."""
    copy_into(out, s)
    for card in range(cards):
        if hidden_in_hands(s, player, card, location, loc_rest, loc_hand, loc_trick):
            out[location + card] = loc_unknown


@njit(cache=True)
def redeal_unseen(s, out, location, cards, loc_unknown, loc_hand, loc_rest, rng, hidden, held):
    """Complete an observation ``out`` of ``s`` into a full state consistent with it: the
    cards it hides (location ``loc_unknown``) dealt again at random, as many to each hand as
    it held in ``s`` and the rest to ``loc_rest`` (:func:`redeal_hidden`).  Into ``hidden``
    (``cards`` long) the hidden cards (in their new order: each seat's first, then the
    rest), into ``held`` (a place per seat) how many each seat holds; returns their count.

    The hidden cards are gathered in id order before they are shuffled, so for a given
    ``rng`` the result depends only on the observation."""
    held[:] = 0
    n = 0
    for card in range(cards):
        if out[location + card] == loc_unknown:
            hidden[n] = card
            n += 1
            where = s[location + card]
            if where != loc_rest:
                held[where - loc_hand] += 1
    redeal_hidden(hidden, n, held, loc_hand, loc_rest, rng, out[location:location + cards])
    return n


@njit(cache=True)
def list_bids(out, n, first_code, lowest, highest, forbidden):
    """Write into ``out[n:]`` the codes ``first_code + b`` of the bids b = ``lowest`` ..
    ``highest`` (ascending) but the ``forbidden`` one (-1: none); return the count of codes
    in ``out``, the first ``n`` included."""
    for b in range(lowest, highest + 1):
        if b != forbidden:
            out[n] = first_code + b
            n += 1
    return n


# --------------------------------------------------------------------------------------
# The course of a deal, specialised per game by its Tag
# --------------------------------------------------------------------------------------
# A game's rules module names, as the family does (engines.families.tricks.game): the fields
# PHASE, CURRENT, DECISIONS, PLAYER_DECISIONS, FIRST_DEALER, DEALER, ROUND (the deal's
# 0-based index), ROUNDS_PLAYED, CARDS (cards per hand), TRICK, LOCATION and, where it keeps
# them, LEADER and the bids (BID, BID_POSITION, BIDS_MADE, BID_TOTAL); its TRICK_FIELDS; the
# phases DEAL, PLAYING and OVER; the locations LOC_HAND, LOC_TRICK and LOC_PLAYED;
# DECK_CARDS; the action codes PLAY (+ card) and N_ACTIONS; its seats (P_PLAYERS in the
# parameters, or PLAYERS for a fixed table); and the steps each one leads to:
# chance_pending(s), deal(s, pr, rng), play_actions(s, pr, player, out), play(s, pr,
# player, card), final_ranking(s, pr) and, where the game has them, the bids (the phase
# BIDDING, bid_actions(s, pr, out), the codes BID_ACTION + b and bid(s, pr, player, b)) or
# the passing of cards (PASSING, pass_actions(s, pr, out), PASS + card and
# pass_card(s, pr, player, card)).
#
# The steps of every decision (legal_actions, legal_plays, apply_action, bid_made,
# play_card) are copied into their callers (inline="always"): as calls, rikiki's kernel
# lost a third of its speed (3,400 games/s against 5,000 with random seats, paired).
def _seats(rules):
    """Where a game's number of seats is: ``(offset in the parameters, -1)``, or ``(0,
    PLAYERS)`` for a fixed table (:func:`seat_count`)."""
    if hasattr(rules, "P_PLAYERS"):
        return rules.P_PLAYERS, -1
    return 0, rules.PLAYERS


@njit(cache=True)
def seat_count(pr, at, fixed):
    """The number of seats: ``fixed``, or where it is -1, the parameter at ``at``."""
    return pr[at] if fixed < 0 else fixed


def new_game(rules, s, pr):
    """A game before its first deal (:func:`~engines.core.compiled.new_state`, in ``DEAL``):
    the table empty (:func:`clear_tricks`) and, where the game draws it, the first dealer as
    the parameters set it (``FIRST_DEALER``, maybe ``RANDOM_DEALER``)."""


@by_tag(new_game)
def _new_game(rules, s, pr):
    R = module_of(rules)
    DEAL, fields = R.DEAL, R.TRICK_FIELDS
    FIRST_DEALER, P_FIRST_DEALER = (R.FIRST_DEALER, R.P_FIRST_DEALER) \
        if hasattr(R, "FIRST_DEALER") else (-1, -1)

    def impl(rules, s, pr):
        new_state(rules, s, DEAL)
        if FIRST_DEALER >= 0:
            s[FIRST_DEALER] = pr[P_FIRST_DEALER]
        clear_tricks(s, fields)
    return impl


def round_dealer(rules, s, pr, rng):
    """The dealer of this deal, set in ``DEALER`` and returned: the first dealer
    (``FIRST_DEALER``, drawn at random when it is ``RANDOM_DEALER``), then the deal passes
    left after each deal (``ROUND``)."""


@by_tag(round_dealer)
def _round_dealer(rules, s, pr, rng):
    R = module_of(rules)
    at, fixed = _seats(R)
    FIRST_DEALER, DEALER, ROUND, RANDOM_DEALER = R.FIRST_DEALER, R.DEALER, R.ROUND, \
        R.RANDOM_DEALER

    def impl(rules, s, pr, rng):
        players = seat_count(pr, at, fixed)
        if s[FIRST_DEALER] == RANDOM_DEALER:
            s[FIRST_DEALER] = uniform_index_jit(rng, players)
        s[DEALER] = dealer_of_tour(s[FIRST_DEALER], s[ROUND], players)
        return s[DEALER]
    return impl


def deal_round(rules, s, pr, deck, per_player, loc_rest):
    """The deal of the shuffled ``deck``: hands, tricks and the table emptied, then
    ``per_player`` cards (``CARDS``) to each seat one at a time from the dealer's left
    (:func:`deal_hands`), the rest face down in ``loc_rest``.  Return how many were dealt."""


@by_tag(deal_round)
def _deal_round(rules, s, pr, deck, per_player, loc_rest):
    R = module_of(rules)
    at, fixed = _seats(R)
    fields, LOCATION, HAND_SIZE, DEALER, CARDS, LOC_HAND = R.TRICK_FIELDS, R.LOCATION, \
        R.HAND_SIZE, R.DEALER, R.CARDS, R.LOC_HAND
    cards, room = R.DECK_CARDS, fields[-1]

    def impl(rules, s, pr, deck, per_player, loc_rest):
        for i in range(deck.size):
            s[LOCATION + deck[i]] = loc_rest
        clear_tricks(s, fields)
        s[CARDS] = per_player
        return deal_hands(deck, s[DEALER], seat_count(pr, at, fixed), per_player,
                          s[LOCATION:LOCATION + cards],
                          LOC_HAND, s[HAND_SIZE:HAND_SIZE + room])
    return impl


def deal_until_decision(rules, s, pr, rng):
    """The game's ``deal`` while a deal is due (``chance_pending``): the ``advance`` of a
    game whose only chance step is the deal."""


@by_tag(deal_until_decision)
def _deal_until_decision(rules, s, pr, rng):
    R = module_of(rules)
    chance_pending, deal = R.chance_pending, R.deal

    def impl(rules, s, pr, rng):
        while chance_pending(s):
            deal(s, pr, rng)
    return impl


def clear_bids(rules, s):
    """No bid announced yet (``BID`` -1 for every seat, ``BID_POSITION`` 0), none made and
    their total 0 (``BIDS_MADE``, ``BID_TOTAL``)."""


@by_tag(clear_bids)
def _clear_bids(rules, s):
    R = module_of(rules)
    BID, BID_POSITION, BIDS_MADE, BID_TOTAL = R.BID, R.BID_POSITION, R.BIDS_MADE, R.BID_TOTAL
    room = R.STATE.size_of("bid")

    def impl(rules, s):
        for p in range(room):
            s[BID + p] = -1
            s[BID_POSITION + p] = 0
        s[BIDS_MADE] = 0
        s[BID_TOTAL] = 0
    return impl


def open_bidding(rules, s, pr):
    """The bidding opens (``BIDDING``), no bid announced yet (:func:`clear_bids`): the
    player left of the dealer bids first."""


@by_tag(open_bidding)
def _open_bidding(rules, s, pr):
    R = module_of(rules)
    at, fixed = _seats(R)
    PHASE, BIDDING, CURRENT, DEALER = R.PHASE, R.BIDDING, R.CURRENT, R.DEALER

    def impl(rules, s, pr):
        clear_bids(rules, s)
        s[CURRENT] = next_seat(s[DEALER], seat_count(pr, at, fixed))
        s[PHASE] = BIDDING
    return impl


def bid_made(rules, s, pr, player, b):
    """``player`` announces ``b`` (``BID``), with their place in the bidding
    (``BID_POSITION``) and the bids' count and total; the next seat bids, or after the last
    bid the first trick is led from the dealer's left (``PLAYING``)."""


@by_tag(bid_made, inline="always")
def _bid_made(rules, s, pr, player, b):
    R = module_of(rules)
    at, fixed = _seats(R)
    BID, BID_POSITION, BIDS_MADE, BID_TOTAL, PHASE, PLAYING, LEADER, CURRENT, DEALER = \
        R.BID, R.BID_POSITION, R.BIDS_MADE, R.BID_TOTAL, R.PHASE, R.PLAYING, R.LEADER, \
        R.CURRENT, R.DEALER

    def impl(rules, s, pr, player, b):
        players = seat_count(pr, at, fixed)
        s[BID + player] = b
        s[BID_POSITION + player] = s[BIDS_MADE]
        s[BIDS_MADE] += 1
        s[BID_TOTAL] += b
        if s[BIDS_MADE] == players:
            s[PHASE] = PLAYING
            s[LEADER] = next_seat(s[DEALER], players)
            s[CURRENT] = s[LEADER]
        else:
            s[CURRENT] = next_seat(player, players)
    return impl


def legal_plays(rules, s, player, card_suit, card_strength, trump, rule, out):
    """Write into ``out`` the code (``PLAY + card``) of each card of ``player``'s hand that
    may be played to the trick (:func:`legal_in_trick`, by the tables ``card_suit`` and
    ``card_strength``), in card id order; return their count.  The hand is gathered in
    ``out`` and its legal cards kept there, in place: no other work room."""


@by_tag(legal_plays, inline="always")
def _legal_plays(rules, s, player, card_suit, card_strength, trump, rule, out):
    R = module_of(rules)
    LOCATION, LOC_HAND, PLAY, cards = R.LOCATION, R.LOC_HAND, R.PLAY, R.DECK_CARDS
    _, _, _, _, PLAYED, _, _, _, SUITS, STRENGTHS, room = R.TRICK_FIELDS

    def impl(rules, s, player, card_suit, card_strength, trump, rule, out):
        n = 0
        for card in range(cards):
            if s[LOCATION + card] == LOC_HAND + player:
                out[n] = card
                n += 1
        k = legal_in_trick(out, n, card_suit, card_strength, s[SUITS:SUITS + room],
                           s[STRENGTHS:STRENGTHS + room], s[PLAYED], trump, rule, out)
        if PLAY != 0:               # a constant: compiled away where codes are card ids
            for i in range(k):
                out[i] += PLAY
        return k
    return impl


def play_card(rules, s, pr, player, card, suit, strength, trump):
    """``player`` lays ``card`` in the trick, played as ``suit`` and ``strength``; the next
    seat follows, or the complete trick goes to its winner (the strongest ``trump``, else
    the strongest card of the led suit; its cards to ``LOC_PLAYED``), who leads the next
    one (``LEADER``, where the game keeps it).  Return whether that was the deal's last
    trick: the game then scores the deal."""


@by_tag(play_card, inline="always")
def _play_card(rules, s, pr, player, card, suit, strength, trump):
    R = module_of(rules)
    at, fixed = _seats(R)
    fields, LOC_TRICK, LOC_PLAYED, TRICK, CARDS, CURRENT = R.TRICK_FIELDS, R.LOC_TRICK, \
        R.LOC_PLAYED, R.TRICK, R.CARDS, R.CURRENT
    LEADER = getattr(R, "LEADER", -1)

    def impl(rules, s, pr, player, card, suit, strength, trump):
        players = seat_count(pr, at, fixed)
        if lay_card(s, fields, player, card, suit, strength, LOC_TRICK) < players:
            s[CURRENT] = next_seat(player, players)
            return False
        winner = take_trick(s, fields, players, trump, LOC_PLAYED, False)
        if s[TRICK] == s[CARDS]:
            return True
        if LEADER >= 0:
            s[LEADER] = winner
        s[CURRENT] = winner
        return False
    return impl


def next_deal(rules, s, pr, finished):
    """The deal just scored is counted (``ROUNDS_PLAYED``); the game ends when ``finished``
    (the game's ``final_ranking``), otherwise the next deal is due."""


@by_tag(next_deal)
def _next_deal(rules, s, pr, finished):
    R = module_of(rules)
    final_ranking, ROUNDS_PLAYED, ROUND, PHASE, DEAL, CURRENT = R.final_ranking, \
        R.ROUNDS_PLAYED, R.ROUND, R.PHASE, R.DEAL, R.CURRENT

    def impl(rules, s, pr, finished):
        s[ROUNDS_PLAYED] += 1
        if finished:
            final_ranking(s, pr)
        else:
            s[ROUND] += 1
            s[PHASE] = DEAL
            s[CURRENT] = -1
    return impl


def legal_actions(rules, s, pr, out):
    """Write the current player's legal action codes into ``out``; return their count: the
    cards they may play while ``PLAYING`` (the game's ``play_actions``); before play, where
    the game has one, the bids (``BIDDING``: ``bid_actions``) or the cards they may pass
    (``PASSING``: ``pass_actions``); in any other phase, the game's ``other_actions`` where
    it has other decisions (none otherwise)."""


@njit(cache=True, inline="always")
def nothing_listed(s, pr, out):
    """No decision: no legal code."""
    return 0


@by_tag(legal_actions, inline="always")
def _legal_actions(rules, s, pr, out):
    R = module_of(rules)
    PHASE, CURRENT, PLAYING, play_actions = R.PHASE, R.CURRENT, R.PLAYING, R.play_actions
    if hasattr(R, "bid_actions"):
        BEFORE_PLAY, before_play = R.BIDDING, R.bid_actions
    elif hasattr(R, "pass_actions"):
        BEFORE_PLAY, before_play = R.PASSING, R.pass_actions
    else:
        BEFORE_PLAY, before_play = -1, nothing_listed           # no such phase
    other_actions = getattr(R, "other_actions", nothing_listed)

    def impl(rules, s, pr, out):
        phase = s[PHASE]
        if phase == PLAYING:
            return play_actions(s, pr, s[CURRENT], out)
        if phase == BEFORE_PLAY:
            return before_play(s, pr, out)
        return other_actions(s, pr, out)
    return impl


def apply_action(rules, s, pr, action):
    """The current player's decision ``action`` (legality is the caller's check), counted
    (:func:`~engines.core.compiled.count_decision`) and played: a card (the game's
    ``play``, codes from ``PLAY``) or, where the game has them, a bid (``bid``, from
    ``BID_ACTION``), a card passed (``pass_card``, from ``PASS``) or, for a game with other
    decisions, any code from ``OTHER_DECISIONS`` on (``other_decision``, given the code)."""


@by_tag(apply_action, inline="always")
def _apply_action(rules, s, pr, action):
    R = module_of(rules)
    CURRENT, DECISIONS, PLAYER_DECISIONS, PLAY, play = R.CURRENT, R.DECISIONS, \
        R.PLAYER_DECISIONS, R.PLAY, R.play
    if hasattr(R, "other_decision"):
        OTHER, other, BASE = R.OTHER_DECISIONS, R.other_decision, 0
    elif hasattr(R, "bid"):
        OTHER, other, BASE = R.BID_ACTION, R.bid, R.BID_ACTION
    elif hasattr(R, "pass_card"):
        OTHER, other, BASE = R.PASS, R.pass_card, R.PASS
    else:                                   # cards only: no code reaches N_ACTIONS
        OTHER, other, BASE = R.N_ACTIONS, play, R.N_ACTIONS

    def impl(rules, s, pr, action):
        player = count_decision(s, CURRENT, DECISIONS, PLAYER_DECISIONS)
        if action < OTHER:
            play(s, pr, player, action - PLAY)
        else:
            other(s, pr, player, action - BASE)
    return impl


def observe(rules, s, pr, player, out):
    """Copy into ``out`` what ``player`` may know: where the cards face down (the game's
    ``FACE_DOWN`` location: the stock, the écart) and those in the other hands are is
    unknown (:func:`observe_hands`)."""


@by_tag(observe)
def _observe(rules, s, pr, player, out):
    R = module_of(rules)
    LOCATION, DECK_CARDS, FACE_DOWN, LOC_HAND, LOC_TRICK, LOC_UNKNOWN = \
        R.LOCATION, R.DECK_CARDS, R.FACE_DOWN, R.LOC_HAND, R.LOC_TRICK, R.LOC_UNKNOWN

    def impl(rules, s, pr, player, out):
        observe_hands(s, player, out, LOCATION, DECK_CARDS, FACE_DOWN, LOC_HAND, LOC_TRICK,
                      LOC_UNKNOWN)
    return impl


def determinize(rules, s, pr, player, rng, out):
    """Write into ``out`` a full state consistent with ``player``'s observation: the cards
    hidden from them dealt again at random among the hands they cannot see (as many as each
    holds) and the cards face down (:func:`redeal_unseen`)."""


@by_tag(determinize)
def _determinize(rules, s, pr, player, rng, out):
    R = module_of(rules)
    LOCATION, DECK_CARDS, FACE_DOWN, LOC_HAND, LOC_UNKNOWN, MAX_PLAYERS = \
        R.LOCATION, R.DECK_CARDS, R.FACE_DOWN, R.LOC_HAND, R.LOC_UNKNOWN, R.MAX_PLAYERS

    def impl(rules, s, pr, player, rng, out):
        observe(rules, s, pr, player, out)
        redeal_unseen(s, out, LOCATION, DECK_CARDS, LOC_UNKNOWN, LOC_HAND, FACE_DOWN, rng,
                      stack_room(DECK_CARDS), stack_room(MAX_PLAYERS))
    return impl
