"""Helpers shared by the trick games' tests (rikiki, chasse-coeur, pétasse, vicaire, tarot,
belote, ascenseur-atouts): scripted play and legal action texts."""

from __future__ import annotations


def play(state, *actions: str):
    """Apply ``actions`` (texts) in order; return the state."""
    for a in actions:
        state.apply(a)
    return state


def texts(state) -> list[str]:
    return [a.text for a in state.legal_actions()]

