"""Helpers shared by the trick games' tests (rikiki, chasse-coeur, pétasse, vicaire, tarot,
belote, ascenseur-atouts): scripted play, legal action texts and the trick's invariants."""

from __future__ import annotations


def play(state, *actions: str):
    """Apply ``actions`` (texts) in order; return the state."""
    for a in actions:
        state.apply(a)
    return state


def texts(state) -> list[str]:
    return [a.text for a in state.legal_actions()]



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


def check_out_of_play(state, R):
    """The cards out of play (the rules module ``R``'s ``P_IN_PLAY`` parameter) are exactly
    those at ``LOC_OUT``; return each card's location and whether it is in play."""
    where = state.s[R.LOCATION:R.LOCATION + R.DECK_CARDS]
    pr = state.game.encoded_params
    in_play = pr[R.P_IN_PLAY:R.P_IN_PLAY + R.DECK_CARDS]
    assert ((where == R.LOC_OUT) == (in_play == 0)).all()
    return where, in_play
