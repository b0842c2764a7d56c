"""L'empereur through the common game API: a thin wrapper over the compiled rules
(:mod:`engines.games.empereur.rules`) on the common base (:mod:`engines.core.base`) and
the shedding games' core (:mod:`engines.families.shedding.game`)."""

from __future__ import annotations

import numpy as np

from engines.core.base import RulesGame, observed, observed_seats
from engines.core.cards import card_name
from engines.families.shedding.game import ShedObservation, ShedState
from engines.games.empereur import rules as R

PHASE_NAMES = {R.SETUP: "setup", R.TURN: "turn", R.DRAWN: "drawn", R.GIVE: "give",
               R.OVER: "over"}
KIND_NAMES = R.RANK_NAMES + ("Joker",)


def action_text(code: int) -> str:
    """Readable form of an action code: ``play 5 5``, ``play 5 Joker as 5``,
    ``play Joker as 2``, ``draw``, ``pass``, ``give K``, ``give Joker``."""
    if code == R.DRAW_ACTION:
        return "draw"
    if code == R.PASS_ACTION:
        return "pass"
    if code >= R.GIVE_ACTION:
        return f"give {KIND_NAMES[code - R.GIVE_ACTION]}"
    rank, naturals, jokers = R.decode_play(code)
    cards = [R.RANK_NAMES[rank]] * naturals + ["Joker"] * jokers
    declared = f" as {R.RANK_NAMES[rank]}" if jokers else ""
    return f"play {' '.join(cards)}{declared}" if cards else f"play nothing as {R.RANK_NAMES[rank]}"


def talon_of(s: np.ndarray) -> list[tuple[str, str]]:
    """The talon, bottom to top: (card, effective rank) pairs."""
    n = int(s[R.TALON_LEN])
    return [(card_name(int(s[R.TALON + i])), R.RANK_NAMES[int(s[R.TALON_RANK + i])])
            for i in range(n)]


class EmpereurObservation(ShedObservation):
    """What one seat may know: its hand, the talon with its declared ranks, hand sizes, the
    pioche's size, who played last, the roles and the points."""

    @property
    def talon(self) -> list[tuple[str, str]]:
        return talon_of(self._s)

    @property
    def top_rank(self) -> int:
        """The rank index (0 = the 3 ... 12 = the Deux) of the talon's top, -1 if empty."""
        n = int(self._s[R.TALON_LEN])
        return int(self._s[R.TALON_RANK + n - 1]) if n else -1

    stock_size = observed(R.STOCK_LEN)
    points = observed_seats(R.POINTS)

    def __repr__(self) -> str:
        return f"<P{self.player} sees {self.phase}, talon {self.talon}, hand {self.hand}>"


class EmpereurState(ShedState):
    """One game of l'empereur in progress.  Legal actions, in order: in a turn, every legal
    set by rank (from the talon's top up), then number of natural cards, then number of
    Jokers, then ``draw`` (``pass`` after the draw); in an exchange, ``give`` one card of
    each kind held, from the 3 up to the Joker.  The log shows ``round 1: P2 deals``,
    ``P3 play 5 5``, ``P0 draws 3``, ``round 1 over: Emperor P3``."""


    def _snapshot(self) -> tuple[int, np.ndarray]:
        n = self.game.params.players
        return int(self.s[R.ROUNDS_DONE]), self.s[R.DRAWN_TOTAL:R.DRAWN_TOTAL + n].copy()

    def _after(self, before: tuple[int, np.ndarray]) -> None:
        s = self.s
        n = self.game.params.players
        rounds, drawn = before
        now = s[R.DRAWN_TOTAL:R.DRAWN_TOTAL + n]
        for p in np.nonzero(now != drawn)[0].tolist():
            self._log.append(("draws", p, int(now[p] - drawn[p])))
        if s[R.ROUNDS_DONE] != rounds:
            rows = self._record_round()
            last = R.LAST_ROUND
            emperor = s[last + R.ROUND.offset("emperor"):][:n].tolist()
            exclu = s[last + R.ROUND.offset("exclu"):][:n].tolist()
            self._log.append(("round over", int(rows[0, 0]), emperor.index(1) if 1 in emperor
                              else -1, exclu.index(1) if 1 in exclu else -1))
        if s[R.PHASE] != R.OVER and s[R.RB_ROUND] != s[R.ROUNDS_DONE] and (
                s[R.ROUNDS_DONE] != rounds or s[R.DECISIONS] == 0):
            self._log.append(("round", int(s[R.RB_ROUND]), int(s[R.RB_DEALER])))

    def _describe(self, entry: tuple) -> str:
        if entry[0] == "draws":
            return f"P{entry[1]} draws {entry[2]}"
        if entry[0] == "round":
            return f"round {entry[1]}: P{entry[2]} deals"
        if entry[0] != "round over":
            return super()._describe(entry)
        roles = [f"Emperor P{entry[2]}" if entry[2] >= 0 else "no Emperor"]
        if entry[3] >= 0:
            roles.append(f"Exclu P{entry[3]}")
        return f"round {entry[1]} over: {', '.join(roles)}"

    def _context(self) -> str:
        top = talon_of(self.s)[-1][1] if self.s[R.TALON_LEN] else "empty"
        return f"phase {self.phase}, talon top {top}"

    @property
    def talon(self) -> list[tuple[str, str]]:
        """The talon, bottom to top: (card, effective rank) pairs."""
        return talon_of(self.s)

    def _progress(self) -> str:
        return f"round {int(self.s[R.RB_ROUND])}, {self._context()}"


class Empereur(RulesGame):
    title = "empereur"
    examples = "'play 5 5', 'play 5 Joker as 5', 'play Joker as 2', 'draw', 'pass', 'give K'"
