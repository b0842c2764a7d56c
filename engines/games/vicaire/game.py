"""Le vicaire through the common game API: the shared trick-game wrapper
(:mod:`engines.families.tricks.game`) over the compiled rules of :mod:`engines.games.vicaire.rules`.

Actions, in the order ``legal_actions()`` lists them: ``play 7♥`` .. ``play A♣`` in card id
order (suits ♥ ♦ ♠ ♣, ranks 7 .. A); suits also by letter (``play Qs``).
"""

from __future__ import annotations

import numpy as np

from engines.core.base import observed_seats
from engines.core.cards import card_name
from engines.families.tricks.game import TrickGame, TrickObservation, TrickState
from engines.games.vicaire import rules as R

PHASE_NAMES = {R.DEAL: "deal", R.PLAYING: "tricks", R.OVER: "over"}


def action_text(code: int) -> str:
    """Readable form of an action code: ``play Q♠``."""
    return f"play {card_name(code)}"


class VicaireObservation(TrickObservation):
    """What one seat of a Vicaire match may know."""

    @property
    def played(self) -> tuple[int, ...]:
        """Cards played to the earlier tricks of this deal."""
        return self._located(R.LOC_PLAYED)

    totals = observed_seats(R.TOTAL, "Each seat's tricks in this game so far (the text's points).")


class VicaireState(TrickState):
    """One Vicaire match in progress."""


class Vicaire(TrickGame):
    title = "Vicaire"
    verbs = {"play": R.PLAY}
    examples = "'play Q♠', 'play 10h'"

    def describe_deal(self, s: np.ndarray) -> str:
        """``deal 1 (game 1): P0 deals, P1 leads``."""
        return (f"deal {int(s[R.ROUND]) + 1} (game {int(s[R.GAME]) + 1}): "
                f"P{int(s[R.DEALER])} deals, P{int(s[R.FIRST_LEADER])} leads")

    def describe_round_end(self, s: np.ndarray) -> str:
        """``deal 3 ends: P0 4 (total 15), ...; P1 wins the game with 10 (+50)``."""
        parts = [f"P{p} {int(s[R.TRICKS + p])} (total {int(s[R.TOTAL + p])})"
                 for p in range(R.PLAYERS)]
        text = f"deal {int(s[R.ROUNDS_PLAYED])} ends: " + ", ".join(parts)
        winner = int(s[R.GAME_WINNER])
        if winner >= 0:
            how = "by capot" if s[R.CAPOT] else f"with {int(s[R.TOTAL + winner])}"
            text += f"; P{winner} wins the game {how} (+{int(s[R.GAME_PAYOUT])})"
        return text
