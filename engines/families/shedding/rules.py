"""The shedding core: compiled mechanisms that shedding games share, over a flat state array.

A shedding game keeps, in its own state layout, a *stock* (face-down cards, the top at the end
of the field), a *discard pile* (the top card at the end) and every hand as card counts (one
counter per card id and seat, so two-deck games hold two copies).  The functions here take the
field offsets, so each game configures them with its own layout:

* :func:`draw` takes cards from the stock, turning the discard pile under its top card into a
  new shuffled stock when the stock runs out (the standard reshuffle; a game may keep more
  top cards, or recycle them unshuffled), and draws what exists when even that is not enough;
* :func:`recycle` puts the discard pile but its top cards under the stock, shuffled or in
  play order (a reshuffle, or a cleared pile buried face down);
* :func:`hand_at` is where a seat's hand starts (its card counters);
* :func:`next_seat` is turn order to the left, skipping players who are out;
* hidden information (:func:`observe_hands`, :func:`hide_hands`, :func:`show`,
  :func:`list_unseen`, :func:`redeal_stock`, :func:`redeal_unseen`): an observation empties
  the other hands but for the cards the seat has seen there and lists the unseen cards in
  the stock field; a determinization re-deals them;
* the end (:func:`go_out`, :func:`end_game`, :func:`rank_players`): players leave the table
  in the order they go out, and the game ends at the first out or plays on to the last;
* the turn cap and repeated-state detection (:func:`note_pass`, :func:`note_progress`): a game
  is *capped* once it reaches its decision cap, and ends as a *cycle* once every seat still in
  play has passed in a row with no card moving (the state after that round equals the state
  before it, so it would repeat for ever).  Either way the game ends and is recorded as such;
  no game can run for ever.
"""

from __future__ import annotations

from numba import njit

from engines.core import repetition
from engines.core.chance import shuffle
from engines.core.compiled import end_game as core_end_game
from engines.core.layout import copy_into
from engines.core.specialise import by_tag, module_of

# How a game ended.
FINISHED, CAPPED, CYCLE = 0, 1, 2
ENDINGS = ("finished", "capped", "cycle")


@njit(cache=True)
def hand_at(hand, cards, player):
    """Where ``player``'s counters start in a per-seat field of ``cards`` card counters at
    ``hand`` (his hand)."""
    return hand + player * cards


@njit(cache=True)
def recycle(s, stock, stock_len, discard, discard_len, rng, keep, shuffled):
    """Put the discard pile, except its top ``keep`` cards, face down under the stock:
    shuffled, or else in play order (the first card played is drawn first).  The kept cards
    stay as the discard pile.  Returns the number of cards turned over."""
    moved = s[discard_len] - keep
    if moved <= 0:
        return 0
    base = s[stock_len]
    for i in range(base - 1, -1, -1):           # make room: the old stock stays on top
        s[stock + i + moved] = s[stock + i]
    if shuffled:
        for i in range(moved):
            s[stock + i] = s[discard + i]
        shuffle(rng, s[stock:stock + moved])
    else:
        for i in range(moved):
            s[stock + i] = s[discard + moved - 1 - i]
    for i in range(keep):
        s[discard + i] = s[discard + moved + i]
    s[discard_len] = keep
    s[stock_len] = base + moved
    return moved


@njit(cache=True)
def draw(s, stock, stock_len, discard, discard_len, hand, n, rng, drawn, keep=1,
         shuffled=True):
    """Draw up to ``n`` cards from the stock into the counts at ``hand``, turning the discard
    pile but its top ``keep`` cards into a new stock (shuffled, or in play order) when the
    stock runs out; the cards drawn go into ``drawn`` in order.  Returns (cards drawn,
    reshuffles made)."""
    got = 0
    reshuffles = 0
    while got < n:
        if s[stock_len] == 0:
            if recycle(s, stock, stock_len, discard, discard_len, rng, keep, shuffled) == 0:
                break
            reshuffles += 1
        s[stock_len] -= 1
        card = s[stock + s[stock_len]]
        s[hand + card] += 1
        drawn[got] = card
        got += 1
    return got, reshuffles


@njit(cache=True)
def next_seat(s, out, players, seat):
    """The next seat to the left of ``seat`` that is still in play (``s[out + p]`` is 0)."""
    for step in range(1, players + 1):
        p = (seat + step) % players
        if s[out + p] == 0:
            return p
    return seat


@njit(cache=True)
def note_progress(s, passes):
    """A card moved: the run of passes is broken."""
    s[passes] = 0


@njit(cache=True)
def note_pass(s, passes, active):
    """A seat passed with no card moving; True once every seat in play has passed in a row
    (the state then repeats: a cycle)."""
    s[passes] += 1
    return s[passes] >= active


@njit(cache=True)
def hash_seats(h, s, out, hand, cards, players):
    """The position hash ``h`` (:mod:`engines.core.repetition`) extended by each seat's
    place (in play or out, ``players`` values at ``out``) and every hand (``cards``
    counters per seat from ``hand``)."""
    h = repetition.mix_span(h, s, out, players)
    return repetition.mix_span(h, s, hand, players * cards)


@njit(cache=True)
def hide_hands(s, out, players, player, hand, cards, stock, stock_len, counts):
    """What ``player`` cannot see: in ``out`` (a copy of ``s``) every other hand (``cards``
    counters per seat from ``hand``) is emptied, and ``counts`` gets the copies of each card
    hidden from him (the stock and those hands)."""
    counts[:] = 0
    for i in range(s[stock_len]):
        counts[s[stock + i]] += 1
    for p in range(players):
        if p == player:
            continue
        h = hand_at(hand, cards, p)
        for card in range(cards):
            counts[card] += s[h + card]
            out[h + card] = 0


@njit(cache=True)
def observe_hands(s, out, players, player, hand, cards, stock, stock_len, counts):
    """``out``: a copy of ``s`` with every hand but ``player``'s emptied
    (:func:`hide_hands`); ``counts`` (``cards`` long): the copies of each card hidden from
    him."""
    copy_into(out, s)
    hide_hands(s, out, players, player, hand, cards, stock, stock_len, counts)


@njit(cache=True)
def show(s, out, h, card, counts):
    """A card the observer has seen in another hand (at ``h``): one copy stays in the
    observation ``out`` (up to the copies that hand holds), and is not unseen (``counts``)."""
    if out[h + card] < s[h + card]:
        out[h + card] += 1
        counts[card] -= 1


@njit(cache=True)
def list_unseen(out, counts, stock, capacity):
    """List the cards of ``counts``, sorted, at the start of the stock field (``capacity``
    long, the rest zeroed); returns how many."""
    unseen = 0
    for card in range(counts.size):
        for _ in range(counts[card]):
            out[stock + unseen] = card
            unseen += 1
    for i in range(unseen, capacity):
        out[stock + i] = 0
    return unseen


@njit(cache=True)
def redeal_unseen(out, players, player, hand, cards, hand_size, stock, unseen_at, rng):
    """A determinization of an observation: shuffle the unseen cards listed at ``stock``
    (``out[unseen_at]`` of them, a count then cleared) and fill every other hand up to its
    size (``s[hand_size + p]``; cards it is known to hold stay).  Returns how many are left,
    at the start of the list (the new stock)."""
    unseen = out[unseen_at]
    out[unseen_at] = 0
    shuffle(rng, out[stock:stock + unseen])
    for p in range(players):
        if p == player:
            continue
        h = hand_at(hand, cards, p)
        known = 0
        for card in range(cards):
            known += out[h + card]
        for _ in range(out[hand_size + p] - known):
            unseen -= 1
            out[h + out[stock + unseen]] += 1
    return unseen


@njit(cache=True)
def redeal_stock(out, players, player, hand, cards, hand_size, stock, stock_len, unseen_at, rng):
    """A determinization of an observation whose unseen cards are listed in the stock field:
    they are dealt again (:func:`redeal_unseen`), the rest as the stock."""
    out[stock_len] = redeal_unseen(out, players, player, hand, cards, hand_size, stock,
                                   unseen_at, rng)


@njit(cache=True)
def capped(s, decisions, cap):
    """Whether the game has reached its decision cap."""
    return s[decisions] >= cap


@njit(cache=True)
def go_out(s, out, finished, active, player, play_on):
    """``player`` has no card left and leaves the table, ranked in the order of going out
    (``s[out + player]``).  Returns whether the game is over: at the first out, or, when the
    others ``play_on``, once a single player is left."""
    s[finished] += 1
    s[out + player] = s[finished]
    s[active] -= 1
    return not play_on or s[active] <= 1


def end_game(rules, s, ending):
    """The game is over, ``ending`` (finished, capped or cycle) in the rules' ``ENDING``:
    nobody is to play (:func:`engines.core.compiled.end_game`)."""


@by_tag(end_game)
def _end_game(rules, s, ending):
    ENDING = module_of(rules).ENDING

    def impl(rules, s, ending):
        s[ENDING] = ending
        core_end_game(rules, s)
    return impl


@njit(cache=True)
def rank_players(s, players, out, finished, hand_size, score, rank, ending):
    """Scores and ranks at the end: the score is minus the cards left in hand; a finished
    game ranks the players in the order they went out (``s[out + p]``, the others sharing
    the next rank), a capped or cycle one by the fewest cards in hand (equal counts share)."""
    for p in range(players):
        s[score + p] = -s[hand_size + p]
    for p in range(players):
        if ending == FINISHED:
            s[rank + p] = s[out + p] if s[out + p] > 0 else s[finished] + 1
        else:
            better = 0
            for q in range(players):
                better += s[hand_size + q] < s[hand_size + p]
            s[rank + p] = better + 1
