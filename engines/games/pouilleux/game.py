"""Le pouilleux through the common game API: a thin wrapper over the compiled rules.

Every rule lives in :mod:`engines.games.pouilleux.rules`; this module turns its flat arrays into the
objects bots, runners and people use (actions with readable names, observations, results, an
event log) and checks that an action is legal before handing it to the rules.
"""

from __future__ import annotations

from engines.core.api import Action
from engines.core.base import RulesGame, RulesObservation, RulesState, observed, observed_seats
from engines.core.cards import card_name
from engines.games.pouilleux import rules as R

PHASE_NAMES = {R.SETUP: "setup", R.PLACE: "place", R.DRAW: "draw", R.OVER: "over"}


def action_text(code: int) -> str:
    """``draw 3`` (a position in the neighbour's hand), ``place 0`` (where the holder puts
    the pouilleux)."""
    if code < R.PLACE_ACTION:
        return f"draw {code}"
    return f"place {code - R.PLACE_ACTION}"


class PouilleuxState(RulesState):
    """One game of Le pouilleux in progress (see :mod:`engines.core.api`): the legal actions
    are ``draw k`` for each position k of the neighbour's (shuffled) hand, and ``place k``
    for each position of the holder's hand (``holder_arranges``)."""

    def _log_decision(self, player: int, code: int) -> None:
        """Logged with its outcome, by :meth:`_play`."""

    def _play(self, code: int) -> None:
        player = self.current_player
        neighbour = int(self.s[R.NEIGHBOUR])
        placing = self.s[R.PHASE] == R.PLACE
        super()._play(code)
        if placing:
            self._log.append(("place", player, code - R.PLACE_ACTION))
        else:
            self._log.append(("draw", player, neighbour, int(self.s[R.LAST_DRAWN]),
                              bool(self.s[R.LAST_PAIRED])))

    def _describe(self, entry: tuple) -> str:
        if entry[0] == "place":
            return f"P{entry[1]} places the pouilleux at {entry[2]}"
        _, drawer, source, card, paired = entry
        return (f"P{drawer} draws {card_name(card)} from P{source}"
                + (" and lays a pair" if paired else ""))

    @property
    def log(self) -> list[str]:
        """``P1 draws K♥ from P2 and lays a pair``, ``P2 places the pouilleux at 3``."""
        lines = [f"deal: dealer P{int(self.s[R.DEALER])}, hands after pairing "
                 f"{' '.join(str(n) for n in self._initial_sizes())}"] + super().log
        if self.is_terminal():
            loser = int(self.s[R.LOSER])
            lines.append("stopped at max_turns" if loser < 0 else
                         f"end: P{loser} keeps the pouilleux "
                         f"({card_name(int(self.s[R.POUILLEUX]))})")
        return lines

    # -- convenience -------------------------------------------------------------------
    def hand(self, player: int) -> tuple[int, ...]:
        n = int(self.s[R.HAND_SIZE + player])
        base = R.HAND + player * R.MAX_HAND
        return tuple(int(c) for c in self.s[base:base + n])

    def __repr__(self) -> str:
        sizes = "/".join(str(int(self.s[R.HAND_SIZE + p]))
                         for p in range(self.game.params.players))
        return f"<pouilleux draw {int(self.s[R.TURN]) + 1}, hands {sizes}>"

    def _initial_sizes(self) -> list[int]:
        return [int(self.s[R.INITIAL_CARDS + p]) - 2 * int(self.s[R.INITIAL_PAIRS + p])
                for p in range(self.game.params.players)]

    def _illegal_message(self, action: Action) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the game is over"
        legal = self._legal
        return (f"{action.text} is not legal for P{self.current_player}; legal: "
                f"{legal[0].text} .. {legal[-1].text}")


class PouilleuxObservation(RulesObservation):
    """What one seat may know: its own hand, every hand's size, the laid pairs."""

    @property
    def hand(self) -> tuple[int, ...]:
        n = int(self._s[R.HAND_SIZE + self.player])
        base = R.HAND + self.player * R.MAX_HAND
        return tuple(int(c) for c in self._s[base:base + n])

    hand_sizes = observed_seats(R.HAND_SIZE)
    pouilleux = observed(R.POUILLEUX,
                         "The pouilleux's card id (-1 in the mystérieux until the end).")

    def __repr__(self) -> str:
        return f"<P{self.player} sees hand sizes {list(self.hand_sizes)}>"


class Pouilleux(RulesGame):
    title = "Le pouilleux"
    examples = "'draw 3', 'place 0'"
