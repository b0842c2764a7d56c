"""The Python side of every game, written once: a game with fixed parameters over its compiled
rules (:class:`RulesGame`), a game in progress (:class:`RulesState`) and what one seat may
know (:class:`RulesObservation`).

A game, or its family's core, subclasses the three and supplies only what is its own:

* on the game: ``title``, ``Params`` (its ``game`` is the game's ``slug``), ``rules`` and
  ``summary`` modules, ``actions`` (or ``action_of(code)`` when the codes are too many to
  list), ``examples`` of action texts, ``phase_names``, ``state_class``; ``encode(params)``
  when the rules module has no ``encode_params``.  Most are found rather than declared,
  where the class does not set them:

  - beside the module that defines the game class (the game's, or its family's):
    ``Params``, the one parameter class that ``params.py`` defines; ``rules`` and
    ``summary``, the modules ``rules.py`` and ``summary.py`` (a family names those it
    shares);
  - in that module itself: ``state_class``, the one :class:`RulesState` subclass it
    defines, whose ``observation_class`` is the one :class:`RulesObservation` subclass it
    defines; ``actions``, one per code below the rules' ``N_ACTIONS``, read by the module's
    ``action_text(code)``; ``phase_names``, the module's ``PHASE_NAMES``; ``encode``, the
    module's ``encode(params)``.

  ``noun`` (the game in "not a … action") is the title without its article.  A game class
  without a docstring is documented as "<title> with fixed parameters";
* on the state, as hooks: :meth:`RulesState._start` (the setup after ``new_game``),
  :meth:`RulesState._play` (a decision and what follows it, with the events it logs),
  :meth:`RulesState._describe` (how a logged event reads), and where the game keeps them
  elsewhere, :meth:`RulesState._round_rows`; ``observation_class``; and where the rules
  module does not name them, ``fields`` (the module that names the state's fields) and
  ``legal_room``/``legal_dtype`` (the legal-code buffer).

The rules module offers ``STATE``, ``CURRENT``, ``PHASE``, ``OVER``, ``RANK``, ``N_ACTIONS``
(or the state's ``legal_room``), ``new_game``, ``legal_actions``, ``observe`` and
``determinize`` (see :class:`engines.core.api.CompiledRules`); the summary module offers
``SIZE``, ``ROUND_WIDTH``, ``summarize`` and ``result``.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable, Sequence
from operator import itemgetter
from types import ModuleType
from typing import Any, ClassVar, TypeVar

import numpy as np

from engines.core.api import Action, GameParams, IllegalActionError, Result
from engines.core.compiled import chance_stream, check_seat, fresh_stream, parse_action, with_stream
from engines.core.params import Params
from engines.core.specialise import Tag
from engines.core.streams import (
    RulesCalls,
    advance_with_stream,
    apply_with_stream,
    playout_with_stream,
    rules_calls,
)

T = TypeVar("T")

SHOWN_LEGAL = 12        # legal actions an error message lists before "(+n more)"


class RulesGame:
    """A game with fixed parameters over its compiled rules (``engines.load(slug, ...)``)."""

    slug: ClassVar[str] = ""         # the Params' ``game``
    title: ClassVar[str] = ""
    Params: ClassVar[type[Any]]          # the game's frozen parameter dataclass
    rules: ClassVar[ModuleType]
    summary: ClassVar[ModuleType]
    actions: ClassVar[Sequence[Action]] = ()
    noun: ClassVar[str] = ""        # the game in "not a … action" (default: the title
                                    # without its article: "Le pouilleux" -> "pouilleux")
    examples: ClassVar[str] = ""    # action texts shown when one is not understood
    phase_names: ClassVar[dict[int, str]] = {}
    state_class: ClassVar[type[RulesState]]
    tag: ClassVar[Tag]          # the rules' tag, for the calls of engines.core.streams
    calls: ClassVar[RulesCalls]  # the rules' entry points as this API calls them

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        beside = vars(sys.modules[cls.__module__])      # what the class's module defines
        if "Params" not in cls.__dict__ and (params := _sibling(cls, "params")):
            found = [v for v in _classes(vars(params), Params, params.__name__)
                     if "game" in vars(v)]      # a game's own, not a shared base
            if len(found) == 1:
                cls.Params = found[0]
        if "state_class" not in cls.__dict__:
            states = _classes(beside, RulesState, cls.__module__)
            if len(states) == 1:
                cls.state_class = state = states[0]
                seen = _classes(beside, RulesObservation, cls.__module__)
                if len(seen) == 1 and "observation_class" not in vars(state):
                    state.observation_class = seen[0]
        if "title" in cls.__dict__ and "noun" not in cls.__dict__:
            cls.noun = _noun(cls.title)
        if "Params" in cls.__dict__:
            cls.slug = cls.Params.game
            for name in ("rules", "summary"):
                if name not in cls.__dict__ and (module := _sibling(cls, name)):
                    setattr(cls, name, module)
            if cls.__doc__ is None:
                cls.__doc__ = (f"{cls.title} with fixed parameters "
                               f"(``engines.load({cls.slug!r}, ...)``).")
        if "rules" in cls.__dict__:
            cls.tag = Tag(cls.rules.__name__)
            cls.calls = rules_calls(cls.rules, cls.tag)
        if not cls.actions and "action_text" in beside:
            text = beside["action_text"]
            cls.actions = tuple(Action(c, text(c)) for c in range(cls.rules.N_ACTIONS))
        if not cls.phase_names and "PHASE_NAMES" in beside:
            cls.phase_names = beside["PHASE_NAMES"]
        if "encode" in beside and "encode" not in cls.__dict__:
            cls.encode = staticmethod(beside["encode"])     # type: ignore[method-assign]

    def __init__(self, params: GameParams | None = None) -> None:
        self.params: Any = params or self.Params()
        self.encoded_params = self.encode(self.params)
        self.encoded_params.setflags(write=False)
        self._by_text = {a.text: a for a in self.actions}

    def encode(self, params: Any) -> np.ndarray:
        """The flat parameter array the compiled rules read."""
        return self.rules.encode_params(params)

    @property
    def num_players(self) -> int:
        return self.params.players

    def new_state(self, seed: int | np.random.Generator = 0, index: int = 0) -> RulesState:
        """A new game, up to its first decision: game ``index`` of a run with seed ``seed``
        (the game the batch kernel plays for that seed and index), or, given a Generator, a
        game whose chance stream is seeded from it."""
        s = self.rules.STATE.new()
        self.rules.new_game(s, self.encoded_params)
        state = self.state_class(self, s, chance_stream(seed, index))
        state._start()
        return state

    def action(self, value: Action | int | str) -> Action:
        """The Action for an Action, a code or its readable text."""
        return parse_action(value, self.actions, self._by_text, self.noun, self.examples)

    def action_of(self, code: int) -> Action:
        """The Action of a legal code the rules wrote."""
        return self.actions[code]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params})"


def _noun(title: str) -> str:
    """A game's title without its French article: "pouilleux" for "Le pouilleux"."""
    return re.sub(r"^(Le |La |Les |L')", "", title)


def _sibling(cls: type, name: str) -> ModuleType | None:
    """The module ``name`` beside the one that defines ``cls``, if there is one (none
    beside a top-level module, such as a plugin game's lone file)."""
    package = cls.__module__.rpartition(".")[0]
    if not package:
        return None
    module = f"{package}.{name}"
    return importlib.import_module(module) if importlib.util.find_spec(module) else None


def _classes(namespace: dict[str, Any], base: type[T], module: str) -> list[type[T]]:
    """The subclasses of ``base`` in a module's namespace that ``module`` defines."""
    return [v for v in namespace.values()
            if isinstance(v, type) and issubclass(v, base) and v.__module__ == module]


class RulesState:
    """One game in progress (see :class:`engines.core.api.State`) over a compiled state array
    ``s`` and the game's own chance stream.

    ``_log`` holds decisions as ``(player, code)`` and the game's events as tuples whose first
    item is a name (formatted only when :attr:`log` is read); ``_rounds`` holds round rows."""

    observation_class: ClassVar[type[RulesObservation]]
    # where the rules module does not name them: the module that names the state's fields
    # (CURRENT, PHASE, OVER, RANK, DECISIONS), and the legal-code buffer's room and dtype
    # (else the rules' N_ACTIONS, and int32)
    fields: ClassVar[ModuleType | None] = None
    legal_room: ClassVar[int | None] = None
    legal_dtype: ClassVar[type[np.integer] | None] = None

    def __init__(self, game: RulesGame, s: np.ndarray, stream: np.ndarray,
                 log: list[tuple] | None = None, rounds: list[np.ndarray] | None = None
                 ) -> None:
        self.game = game
        self.s = s
        self._stream = stream               # this game's chance stream (SFC64 state words)
        self._pr = game.encoded_params
        self._R = R = game.rules
        self._tag = game.tag
        self._players = game.params.players
        self._F = F = self.fields or R
        self._at_current, self._at_phase, self._over = F.CURRENT, F.PHASE, F.OVER
        self._buffer = np.empty(self.legal_room or R.N_ACTIONS,
                                dtype=self.legal_dtype or np.int32)
        # the legal codes of the decision at hand and their actions; None: to be read from
        # the rules (a step that lists the next ones sets them)
        self._codes: list[int] | None = None
        self._legal: list[Action] = []
        self._log: list[tuple] = log if log is not None else []
        self._rounds: list[np.ndarray] = rounds if rounds is not None else []

    # -- the common API ----------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.s.item(self._at_current)

    def is_terminal(self) -> bool:
        return self.s.item(self._at_phase) == self._over

    def legal_actions(self) -> list[Action]:
        if self._codes is None:
            self._list_legal()
        return list(self._legal)

    def apply(self, action: Action | int | str) -> None:
        """Play ``action`` for the current player; an illegal one raises
        :class:`IllegalActionError` and leaves the state unchanged."""
        codes = self._codes
        if codes is None:
            codes = self._list_legal()
        if type(action) is Action and action.code in codes \
                and self._legal[codes.index(action.code)] is action:
            code = action.code      # one of the legal actions themselves (what agents return)
        else:
            code = self._legal_code(action)
        self._log_decision(self.s.item(self._at_current), code)
        self._codes = None
        self._play(code)

    def result(self) -> Result:
        if not self.is_terminal():
            raise ValueError("the game is not over: no result yet")
        return self.game.summary.result(self.game.params, self._summary_row())

    def observation(self, player: int) -> RulesObservation:
        """What ``player`` may know now (a masked copy of the state)."""
        check_seat(player, self._players)
        seen = np.empty_like(self.s)
        self.game.calls.observe(self.s, self._pr, player, seen)
        return self.observation_class(self, player, seen)

    def clone(self) -> RulesState:
        twin = self._copy(self.s.copy(), self._stream.copy())
        twin._codes, twin._legal = self._codes, self._legal
        return twin

    def determinize(self, player: int, rng: np.random.Generator) -> RulesState:
        """A full state consistent with ``player``'s observation: what the seat cannot see
        drawn again from ``rng`` (the rules' ``determinize``), and a fresh chance stream drawn
        from it, so the real future stays hidden."""
        check_seat(player, self._players)
        out = np.empty_like(self.s)
        self.game.calls.determinize(self.s, self._pr, player, rng, out)
        return self._copy(out, fresh_stream(rng))

    def playout(self, rng: np.random.Generator) -> tuple[float, ...]:
        """Play the game to its end in one compiled call, every seat choosing as the
        ``random`` agent would with ``rng`` as the decision stream (the same game as through
        :meth:`apply`), and return the seats' win shares (``result().win_shares``).  For
        search rollouts: the log and the round records are not extended."""
        with_stream(playout_with_stream, self._tag, self.s, self._pr, self._stream, rng,
                    self._buffer)
        self._codes = None
        return self.ranked_shares()

    def ranked_shares(self) -> tuple[float, ...]:
        """The seats' win shares as the state's ranks stand (``result().win_shares`` once
        the game is over; a search cut short ranks the seats first, see
        :func:`agents.search.ranked_now`)."""
        ranks = self.standing()
        winners = ranks.count(1)                # plain Python: numpy costs more here
        return tuple(1.0 / winners if rank == 1 else 0.0 for rank in ranks)

    def standing(self) -> list[int]:
        """The seats' ranks as the state's rank fields stand (``result().ranks`` once the
        game is over)."""
        return self.s[self._F.RANK:self._F.RANK + self._players].tolist()

    def records(self) -> tuple[np.ndarray, np.ndarray]:
        """The finished game's summary row and its round rows, exactly as the batch kernel
        records them (see the game's ``summary`` module)."""
        if not self.is_terminal():
            raise ValueError("the game is not over: no records yet")
        return self._summary_row(), self._round_rows()

    @property
    def log(self) -> list[str]:
        """The game's events, readable: ``P1 <action>`` for a decision, the game's own text
        for each of its events."""
        action_of = self.game.action_of
        return [f"P{entry[0]} {action_of(entry[1]).text}" if isinstance(entry[0], int)
                else self._describe(entry) for entry in self._log]

    def refresh(self) -> None:
        """Forget what was read from the state array: for tools and tests that set up a
        position by writing ``s`` directly."""
        self._codes = None

    # -- convenience -------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.game.phase_names[self.s.item(self._at_phase)]

    def __repr__(self) -> str:
        if self.is_terminal():
            return f"<{self.game.slug} over>"
        return f"<{self.game.slug} {self._progress()}, P{self.current_player} to play>"

    # -- hooks -------------------------------------------------------------------------
    def _start(self) -> None:
        """After ``new_game``: the setup's chance steps (the first deal), and its events."""
        with_stream(advance_with_stream, self._tag, self.s, self._pr, self._stream)

    def _play(self, code: int) -> None:
        """The legal decision ``code`` and what follows it up to the next decision, with the
        events it logs (by default: the rules' decision and the chance after it)."""
        with_stream(apply_with_stream, self._tag, self.s, self._pr, self._stream, code)

    def _log_decision(self, player: int, code: int) -> None:
        """Log a decision before it is played (as ``P1 <action>``; a game that tells the
        decision with its outcome logs it in :meth:`_play` instead)."""
        self._log.append((player, code))

    def _describe(self, entry: tuple) -> str:
        """The readable text of one of the game's events in the log."""
        raise ValueError(f"unknown log entry {entry!r}")

    def _context(self) -> str:
        """Where the game stands, for messages."""
        return f"phase {self.phase}"

    def _progress(self) -> str:
        """Where the game stands, as its repr says it (by default the context)."""
        return self._context()

    def _where(self) -> str:
        """Where the game stands, as a message refusing an action says it (by default the
        context in brackets: ``(phase bidding)``)."""
        return f"({self._context()})"

    def _round_rows(self) -> np.ndarray:
        """The finished game's round rows (by default those recorded as it was played)."""
        width = self.game.summary.ROUND_WIDTH
        return (np.concatenate(self._rounds) if self._rounds
                else np.empty((0, width), dtype=np.int32))

    # -- helpers for the hooks ---------------------------------------------------------
    def _record_round(self) -> np.ndarray:
        """Record the round that just ended (the summary's ``record_round``): its rows."""
        summary = self.game.summary
        rows = np.empty((self._players, summary.ROUND_WIDTH), dtype=np.int32)
        summary.record_round(self.s, self._pr, rows, 0)
        self._rounds.append(rows)
        return rows

    def _read_legal(self, count: int) -> list[int]:
        """Take the ``count`` legal codes the rules wrote into the buffer (returned)."""
        self._codes = codes = self._buffer[:count].tolist()
        actions = self.game.actions
        if actions and count > 1:
            self._legal = list(itemgetter(*codes)(actions))
        else:
            self._legal = list(map(self.game.action_of, codes))
        return codes

    # -- internals ---------------------------------------------------------------------
    def _list_legal(self) -> list[int]:
        if self.is_terminal():
            return self._read_legal(0)
        return self._read_legal(self.game.calls.legal_actions(self.s, self._pr, self._buffer))

    def _summary_row(self) -> np.ndarray:
        row = np.empty(self.game.summary.SIZE, dtype=np.int32)
        self.game.summary.summarize(self.s, row)
        return row

    def _copy(self, s: np.ndarray, stream: np.ndarray) -> RulesState:
        return type(self)(self.game, s, stream, list(self._log), list(self._rounds))

    def _legal_code(self, value: Action | int | str) -> int:
        """The code of ``value`` (an Action, a code or a text) if it is legal now, else
        :class:`IllegalActionError`."""
        codes = self._codes
        assert codes is not None
        if type(value) is int and value in codes:
            return value
        if type(value) is Action and value.code in codes:
            legal = self._legal[codes.index(value.code)]   # one comparison, not one a code
            if legal is value or legal == value:
                return value.code
        if isinstance(value, str):
            text = " ".join(value.split())
            for legal in self._legal:           # texts the game cannot parse alone (rummy)
                if legal.text == text:
                    return legal.code
            if not self.game.actions:           # nor read otherwise: refused as written
                raise IllegalActionError(self._illegal_message(Action(-1, repr(text))))
        chosen = self.game.action(value)
        if chosen not in self._legal:
            raise IllegalActionError(self._illegal_message(chosen))
        return chosen.code

    def _illegal_message(self, action: Action) -> str:
        if self.is_terminal():
            return f"{action.text} is not legal: the game is over"
        legal = self._legal
        shown = ", ".join(a.text for a in legal[:SHOWN_LEGAL])
        more = f" (+{len(legal) - SHOWN_LEGAL} more)" if len(legal) > SHOWN_LEGAL else ""
        return (f"{action.text} is not legal for P{self.current_player} {self._where()}; "
                f"legal: {shown}{more}")


def observed(at: int | str, doc: str | None = None, *,
             kind: Callable[[int], Any] = int) -> property:
    """An observation's property that reads one field of the masked state: at offset ``at``,
    or at the offset the rules module names ``at`` (a family's observation: each game's
    own), read as ``kind`` (``int``, ``bool``, or :func:`or_none`)."""
    if isinstance(at, str):
        def read(self: RulesObservation) -> Any:
            return kind(self._s.item(getattr(self._R, at)))
    else:
        def read(self: RulesObservation) -> Any:
            return kind(self._s.item(at))
    return property(read, doc=doc)


def observed_seats(at: int | str, doc: str | None = None) -> property:
    """An observation's property that reads one field per seat, seat 0 first, from ``at``
    (as :func:`observed`): a tuple of ints."""
    def read(self: RulesObservation) -> tuple[int, ...]:
        return self._per_player(at if isinstance(at, int) else getattr(self._R, at))
    return property(read, doc=doc)


def or_none(value: int) -> int | None:
    """A field's value, or None where it is negative (not yet known, or none)."""
    return value if value >= 0 else None


class RulesObservation:
    """What one seat may know: a masked copy of the state array (``array``, for compiled
    bots), read through properties the game adds in its subclass (a single field's by
    :func:`observed` and :func:`observed_seats`)."""

    # the rules' counters that tell whether the game has moved on since the observation
    progress: ClassVar[tuple[str, ...]] = ("DECISIONS",)

    def __init__(self, state: RulesState, player: int, seen: np.ndarray) -> None:
        self.player = player
        self.params = state.game.params
        self._state = state         # for determinize(), while the game has not moved on
        self._s = seen
        self._R = state._R
        self._F = state._F
        self.encoded_params = state._pr

    def determinize(self, rng: np.random.Generator) -> RulesState:
        """``state.determinize(player, rng)``, while the game is where it was when this
        observation was made."""
        self.check_current()
        return self._state.determinize(self.player, rng)

    def check_current(self) -> None:
        """Refuse (``ValueError``) an observation made before the game moved on."""
        now, then, F = self._state.s, self._s, self._F
        if any(now[getattr(F, name)] != then[getattr(F, name)] for name in self.progress):
            raise ValueError("stale observation: the game has moved on since it was made")

    @property
    def array(self) -> np.ndarray:
        """The masked state array (a read-only view), for compiled bots."""
        view = self._s.view()
        view.setflags(write=False)
        return view

    @property
    def phase(self) -> str:
        return self._state.game.phase_names[self._s.item(self._F.PHASE)]

    @property
    def current_player(self) -> int:
        return self._s.item(self._F.CURRENT)

    def _per_player(self, offset: int) -> tuple[int, ...]:
        return tuple(self._s[offset:offset + self.params.players].tolist())
