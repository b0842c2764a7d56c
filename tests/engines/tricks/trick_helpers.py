"""Helpers shared by the trick games' tests (rikiki, chasse-coeur, pétasse, vicaire, tarot,
belote, ascenseur-atouts): scripted play, legal action texts, hands placed for a position and
the trick's invariants."""

from __future__ import annotations


def play(state, *actions: str):
    """Apply ``actions`` (texts) in order; return the state."""
    for a in actions:
        state.apply(a)
    return state


def texts(state) -> list[str]:
    return [a.text for a in state.legal_actions()]


def place_hands(state, R, hands: dict, rest: int, cards: int) -> int:
    """Put exactly ``hands`` (seat -> card ids, all of one size, no card twice) in the seats'
    hands of ``state`` and every other of the first ``cards`` cards at ``rest`` (locations
    in the rules module ``R``'s terms); return the hand size."""
    s = state.s
    sizes = {len(hand) for hand in hands.values()}
    assert len(sizes) == 1, "give every seat a hand of one size"
    used = [c for hand in hands.values() for c in hand]
    assert len(used) == len(set(used)), "a card is used twice"
    s[R.LOCATION:R.LOCATION + cards] = rest
    for p, hand in hands.items():
        for c in hand:
            s[R.LOCATION + c] = R.LOC_HAND + p
        s[R.HAND_SIZE + p] = len(hand)
    return sizes.pop()


def check_trick(state, R, where, dealt: int) -> int:
    """The cards in the trick and the tricks won agree with the trick count, and each hand
    holds the ``dealt`` cards less those it has played (``where``: each card's location in
    the rules module ``R``'s terms); return the tricks completed."""
    s = state.s
    n = state.game.params.players
    completed = int(s[R.TRICK])
    in_trick = int(s[R.PLAYED])
    assert (where == R.LOC_TRICK).sum() == in_trick
    assert sum(int(s[R.TRICKS + p]) for p in range(n)) == completed
    trick_seats = [int(s[R.TRICK_SEAT + i]) for i in range(in_trick)]
    for p in range(n):
        held = int((where == R.LOC_HAND + p).sum())
        assert held == s[R.HAND_SIZE + p] == dealt - completed - (p in trick_seats)
    return completed


def check_played_pile(state, R, where, elsewhere: set[int]) -> int | None:
    """In a game whose completed tricks go to one pile (``LOC_PLAYED``): every card is in a
    hand, the trick, the pile or one of the places ``elsewhere`` (``where``: each card's
    location in the rules module ``R``'s terms); while the game is on, the trick and the
    hands agree with the trick count (:func:`check_trick`) and the pile holds the completed
    tricks' cards.  Returns the hand size dealt, None once the game is over."""
    n = state.game.params.players
    hands = {R.LOC_HAND + p for p in range(n)}
    assert set(where.tolist()) <= elsewhere | {R.LOC_TRICK, R.LOC_PLAYED} | hands
    if state.is_terminal():
        return None
    dealt = int(state.s[R.CARDS])
    completed = check_trick(state, R, where, dealt)
    assert (where == R.LOC_PLAYED).sum() == completed * n
    return dealt


def check_out_of_play(state, R):
    """The cards out of play (the rules module ``R``'s ``P_IN_PLAY`` parameter) are exactly
    those at ``LOC_OUT``; return each card's location and whether it is in play."""
    where = state.s[R.LOCATION:R.LOCATION + R.DECK_CARDS]
    pr = state.game.encoded_params
    in_play = pr[R.P_IN_PLAY:R.P_IN_PLAY + R.DECK_CARDS]
    assert ((where == R.LOC_OUT) == (in_play == 0)).all()
    return where, in_play
