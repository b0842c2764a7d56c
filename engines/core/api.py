"""The contract every engine keeps, so that every bot, runner and report works on every game.

A *game* (``engines.load(slug, **params)``, a :class:`Game`) is immutable: its parameters,
its action table, its summary (:class:`Summary`) and ``new_state(seed, index)``.  A *state*
(:class:`State`) is one game in progress::

    state.current_player      # the seat to decide (an int), -1 once the game is over
    state.legal_actions()     # list of Action, in a fixed, documented order
    state.apply(action)       # plays it (chance events that follow are resolved at once)
    state.is_terminal()
    state.result()            # Result: per-seat score, rank, win share, plus game statistics
    state.records()           # the finished game's summary row and round rows
    state.observation(p)      # exactly what seat p may know (an Observation)
    state.clone()             # an independent copy (same future chance events)
    state.determinize(p, rng) # a full state consistent with p's observation
    state.log                 # readable event log

An observation offers ``observation.determinize(rng)``: ``state.determinize(p, rng)`` for the
state and seat that made it (hidden cards re-dealt from ``rng``, a fresh chance stream drawn
from it), so that agents, which see only observations, can search; it raises ``ValueError``
once that state has moved on.  For a given ``rng`` the result depends only on what p may know.

The fast path of search bots: ``state.playout(rng)`` plays to the end as the ``random`` agent
would with decision stream ``rng`` (the same game as through ``apply``) in compiled code, and
returns the seats' win shares.

Every engine is compiled: its rules are a module of compiled functions over a flat ``int32``
state array and a flat parameter array (:class:`CompiledRules`); the Python side above wraps
them, and the batch kernels (``sim.kernels``) call them directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

import numpy as np


class IllegalActionError(ValueError):
    """An action that is not legal in the current state (the state is left unchanged)."""


@dataclass(frozen=True, slots=True)
class Action:
    """A small immutable action: an integer code within its game, and a readable text."""

    code: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Result:
    """Outcome of a finished game.

    ``scores``: the game's primary score per seat (higher is better);
    ``ranks``: 1 for the winner(s), equal ranks for players the rules cannot separate;
    ``win_shares``: 1 for a sole winner, 1/k for each of k players sharing a win, else 0
    (they sum to 1);
    ``stats``: game-level figures (``decisions``, ``rounds``, and the game's own);
    ``details``: per-seat figures of the game (e.g. suit scores), seat-indexed tuples.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    win_shares: tuple[float, ...]
    stats: dict[str, Any] = field(default_factory=dict)
    details: dict[str, tuple] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p for p, r in enumerate(self.ranks) if r == 1)


# --------------------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------------------
class GameParams(Protocol):
    """A game's parameters: a frozen, validated dataclass (:class:`engines.core.params.Params`).

    ``players`` is every game's seat count.  ``from_kwargs`` and ``from_strings`` raise
    ``ValueError`` naming the valid keys or values; ``to_strings`` round-trips through
    ``from_strings``."""

    game: ClassVar[str]

    @property
    def players(self) -> int: ...
    @classmethod
    def keys(cls) -> list[str]: ...
    @classmethod
    def from_kwargs(cls, **values: Any) -> Self: ...
    @classmethod
    def from_strings(cls, items: Iterable[str] | Mapping[str, str]) -> Self: ...
    @classmethod
    def describe(cls) -> list[Any]: ...
    def to_strings(self) -> list[str]: ...
    def changed(self) -> dict[str, Any]: ...


# --------------------------------------------------------------------------------------
# The game's summary: records of finished games, and the result tables built from them
# --------------------------------------------------------------------------------------
class Summary(Protocol):
    """A game's record keeping (its ``summary`` module, ``game.summary``): what a finished
    game leaves, identical whether the Python API or a batch kernel played it.

    A *summary row* is ``SIZE`` int32 values (one game); a *round row* is ``ROUND_WIDTH``
    int32 values (one round and seat, or one coup or turn: see the game's results page,
    ``docs/results-SLUG.md``; games without rounds record none).  ``sim.batch`` turns rows
    into the three result tables with the ``*_columns`` functions; their keys and types are
    the columns that page documents, less those ``sim.batch`` adds itself (games:
    ``game_id``, ``seed``, ``n_players``, ``winner_seats``; players: ``game_id``, ``seat``,
    ``agent``, ``agent_index``; rounds: ``game_id``).

    Optional: ``BET_COLUMNS``, the rounds table's bet column and the column saying whether
    the bet was met, for the bet accuracy of ``sim.batch``'s summary (default
    ``("bet", "bet_correct")``, used when the rounds table has them)."""

    SIZE: int
    ROUND_WIDTH: int

    def summarize(self, s: np.ndarray, out: np.ndarray) -> None:
        """Copy a finished game's figures from state array ``s`` into summary row ``out``
        (compiled: the kernels call it too)."""

    def result(self, params: Any, row: np.ndarray) -> Result:
        """The common Result of one summary row."""

    def game_columns(self, params: Any, rows: np.ndarray) -> dict[str, Any]:
        """The games table's columns of summary rows ``rows`` (games, SIZE): one array of
        length ``games`` per column; must hold ``decisions`` and ``rounds``."""

    def player_columns(self, params: Any, rows: np.ndarray) -> dict[str, np.ndarray]:
        """The players table's columns, shape (games, players) each; must hold ``score``,
        ``rank`` and ``win_share``."""

    def round_columns(self, params: Any, rounds: np.ndarray) -> dict[str, Any]:
        """The rounds table's columns of round rows (rows, ROUND_WIDTH): an array per column,
        or ``(codes, categories)`` for a categorical column."""


# --------------------------------------------------------------------------------------
# The Python API
# --------------------------------------------------------------------------------------
@runtime_checkable
class Observation(Protocol):
    """What one seat may know.  Games add readable fields; the compiled ones also offer
    ``array`` (the masked state array, read-only) for compiled bots, and those whose bots
    need it ``encoded_params`` (the game's, which is public)."""

    player: int
    params: Any

    def determinize(self, rng: np.random.Generator) -> State:
        """``state.determinize(player, rng)`` for the state that made this observation;
        ``ValueError`` once that state has moved on."""


@runtime_checkable
class State(Protocol):
    """One game in progress."""

    @property
    def current_player(self) -> int:
        """The seat to decide; -1 once the game is over."""

    def legal_actions(self) -> list[Action]:
        """The current seat's legal actions in the game's documented order; none once the
        game is over."""

    def apply(self, action: Action | int | str) -> None:
        """Play an action (an Action, its code or, in most games, its text) for the current
        seat, then resolve the chance events that follow; an illegal one raises
        :class:`IllegalActionError` and leaves the state unchanged."""

    def is_terminal(self) -> bool: ...

    def result(self) -> Result:
        """The finished game's Result (``ValueError`` before the end); the same as
        ``game.summary.result(params, records()[0])``."""

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row (``summary.SIZE`` values) and its round rows
        (rounds, ``summary.ROUND_WIDTH``), exactly as a batch kernel records them;
        ``ValueError`` before the end."""

    def observation(self, player: int) -> Any:
        """What ``player`` may know now (an :class:`Observation`): equal for two states that
        differ only in what ``player`` may not see.  A bad seat raises ``ValueError``."""

    def clone(self) -> State:
        """An independent copy with the same future: the same actions applied to both give
        the same game."""

    def determinize(self, player: int, rng: np.random.Generator) -> State:
        """A full state consistent with ``player``'s observation (its observation for
        ``player`` is the same): what ``player`` cannot see drawn again from ``rng``, and a
        fresh chance stream drawn from it.  For a given ``rng`` it depends only on what
        ``player`` may know."""

    @property
    def log(self) -> list[str]:
        """The game's events so far, readable; the same seed and actions give the same
        log."""

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play to the end as the ``random`` agent would with decision stream ``rng`` (the
        same game as through ``apply``), in one compiled call, and return the seats' win
        shares.  The log and round records are not extended."""


@runtime_checkable
class Game(Protocol):
    """A game with fixed parameters."""

    slug: ClassVar[str]             # the registry name, "paris-damis"
    title: ClassVar[str]            # the readable name, "Paris d'amis"
    Params: ClassVar[type[Any]]     # the parameter dataclass (a GameParams)
    summary: ClassVar[Any]          # the game's Summary (its ``summary`` module)
    params: Any                     # this game's parameters (a GameParams)
    # the parameters as the compiled rules read them (read-only; public information)
    encoded_params: np.ndarray

    def __init__(self, params: Any = None) -> None:
        """The game with ``params`` (an instance of ``Params``; None: the defaults)."""

    @property
    def num_players(self) -> int: ...

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> State:
        """Game ``index`` of a run with seed ``seed`` (the game a batch kernel plays for that
        seed and index), or, given a Generator, a game whose chance stream is seeded from
        it; up to its first decision (a :class:`State`)."""


# --------------------------------------------------------------------------------------
# The compiled side
# --------------------------------------------------------------------------------------
class CompiledRules(Protocol):
    """A game's rules module: compiled functions over a state array ``s`` (int32, laid out
    by ``STATE``) and the encoded parameters ``pr``.  Chance draws come from a numba
    generator ``rng``; decisions come only from the caller.

    Where the engines differ today:

    * ``apply_action(s, pr, action)`` in the games whose chance events all wait for
      ``advance`` (the trick games: rikiki, chasse-coeur, pétasse, vicaire, belote, tarot;
      paris-damis, ascenseur-atouts, betzanbloo); ``apply_action(s, pr, action, rng)`` in
      those whose decisions may draw (the shedding and rummy games, baccara, pharaon,
      pouilleux, the war games).
    * ``chance_pending(s)`` only where ``advance`` waits between decisions (the trick
      games, paris-damis, ascenseur-atouts).
    * ``encode_params(params)``: in the rules module of most games; the trick-game wrapper
      (:mod:`engines.families.tricks.game`) asks the game's own ``encode`` instead, and the war
      rules take the deck and options one by one.
    * The war rules (bataille, super-bataille) have no decisions: no ``legal_actions``,
      ``observe`` or ``DECISIONS``; their ``determinize(s, pr, rng, out)`` takes no seat
      (every pile is hidden from everyone alike).
    * ``legal_actions`` and ``apply_action`` may be left to the game's family: a rules
      module that does not define them names its family's rules module (``FAMILY``), whose
      steps of those names, specialised by the module's tag (``RULES``), serve it (the trick
      family's: rikiki, vicaire, the avoidance games, belote, the tarots, ascenseur-atouts
      for ``legal_actions``; the rummy family's: petite école, pinacle).  The code
      written once for every game (the core, the kernel factory) reaches an entry point
      through :func:`engines.core.specialise.entry_point` (compiled) or
      :mod:`engines.core.streams` (from Python), not as a module attribute.
    * The rummy games (rami, petite-école, pinacle) build their state on
      :data:`engines.families.rummy.turns.CORE_STATE`: the one-value fields (``PHASE``, ``CURRENT``,
      ``DECISIONS``, ``RANK``, ``OVER``), ``observe`` and ``determinize`` are those of
      :mod:`engines.families.rummy.turns`; their action codes are sparse (no ``N_ACTIONS``: at most
      ``rummy_turns.MAX_LEGAL`` legal at once), and their round rows live in the state
      (``ROUNDS``, ``ROUND_WIDTH``).
    """

    STATE: Any              # the layout (engines.core.layout.Layout) of the state array
    STATE_SIZE: int
    PHASE: int              # offsets of the one-value fields every engine has
    CURRENT: int
    DECISIONS: int
    RANK: int               # the final rank of each seat (1 = winner), once over
    OVER: int               # the phase of a finished game
    N_ACTIONS: int          # action codes are 0 .. N_ACTIONS - 1

    def encode_params(self, params: Any) -> np.ndarray:
        """The flat parameter array ``pr`` the compiled functions read."""

    def new_game(self, s: np.ndarray, pr: np.ndarray) -> None:
        """Set ``s`` to a game before its first chance step."""

    def legal_actions(self, s: np.ndarray, pr: np.ndarray, out: np.ndarray) -> int:
        """Write the current seat's legal action codes into ``out`` (in the documented
        order) and return their count."""

    def apply_action(self, s: np.ndarray, pr: np.ndarray, action: int,
                     *rng: Any) -> None:
        """Play a legal action (with the chance generator where the game's decisions
        draw: see above)."""

    def advance(self, s: np.ndarray, pr: np.ndarray, rng: Any) -> None:
        """Resolve the pending chance steps (deals, draws) up to the next decision or the
        end."""

    def observe(self, s: np.ndarray, pr: np.ndarray, player: int, out: np.ndarray) -> None:
        """Write into ``out`` a copy of ``s`` with what ``player`` may not know masked."""

    def determinize(self, s: np.ndarray, pr: np.ndarray, player: int, rng: Any,
                    out: np.ndarray) -> None:
        """Write into ``out`` a full state consistent with ``player``'s observation of
        ``s``, what ``player`` cannot see drawn again from ``rng``."""
