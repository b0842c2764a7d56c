"""The one batch kernel: a game loop written once, specialised for each game by numba.

A game declares its :class:`Kernel`: its rules and summary modules, its compiled policies by
agent name, and, where the standard ones do not fit, its own compiled *hooks*::

    choose(policy, s, pr, actions, n, decisions, weights, seen, table)   # a seat's move
    legal_actions(s, pr, out)                    # the legal action codes; their count
    start(s, pr, chance)                         # new_game, then the chance that follows
    step(s, pr, action, chance, rounds, row)     # one decision and what follows it;
                                                 # returns the round-row count so far
    finish(s, pr, rounds, row)                   # round rows kept in the state, after it

Everything else (seeding each game's two streams, the loop over games and decisions, round
rows, final states, policy names, the Python entry point) is here, once.  The loop reads the
rules' ``PHASE``, ``OVER``, ``CURRENT`` and ``STATE_SIZE`` and the summary's ``SIZE``,
``ROUND_WIDTH`` and ``summarize(s, row)``.

How the loop reaches a game's hooks: the kernel's name is passed to the compiled loop as a
:class:`~engines.core.specialise.Tag`, and :func:`play_game` is a numba overload that looks the
kernel's hooks up by it: its implementation, the decision loop, is written once and compiled
for each game with that game's hooks.  numba caches one compiled loop per game and loads it
again in a fresh process (see :mod:`engines.core.specialise`).

Inlining: the hooks this module makes for a kernel (closures) and the kernels' small
``choose`` dispatchers are declared ``inline="always"``, so they are compiled into the
cached loop, and so are the rules' entry points the loop calls on every decision
(``legal_actions``, ``apply_action``, ``chance_pending``: the same functions, inlined here
only; paris-damis with random seats runs a fifth faster, betzanbloo about a tenth), and so
is the ``random`` policy (a generator passed through a call on every decision cost about a
fifth of a random betzanbloo game), and so are Paris d'amis's strategy bots (without, their
kernel compiled after the Python path ran about 10% slower); the rules and the other bots
are plain ``@njit(cache=True)`` functions, which LLVM inlines where it pays. numba's own
inlining (``inline="always"``) copies the callee's IR at every call site before typing: on
the rules and bots it made up about three quarters of the compile time (paris-damis's
kernel: 206 CPU s with it, 118 without).

A kernel's rules allocate nothing and say so (their rules module's ``ALLOCATES = False``;
:class:`Kernel` refuses rules that do not), and the loop runs without numba's reference
counting (NRT).  With it, every array a compiled function passes on, or binds inside an
inlined helper, costs an atomic increment and decrement of the array's counter, and each
such call is opaque to the optimiser, which must then reload the state: a paris-damis game
with strategy bots made about 21,000 such calls (70 per decision), about a third of the
kernel's time.  Without it the random kernels ran, paired on one core, before and after
their rules stopped allocating: vicaire's and the tarots' about twice as fast, rami's 1.75
times, petite école's and pinacle's 2.4, the huit américain's 1.7 (with ``shedder`` too;
one ismcts seat 1.8), rikiki's 2.6 (``counter`` 2.1, one ismcts seat 2.8), ascenseur aux
atouts' 3.6 (``estimator`` 3.3, one ismcts seat 3.7), chasse-coeur's 1.8 (one ismcts seat
2.4), the belote à trois' 2.3 and the belote comptoir's 2.9, the menteur's 1.5, the nain
jaune's 1.3, the pouilleux's 1.7, l'empereur's 1.7, baccara's 2.4, pharaon's 2.5, the
bataille's 1.3 and the super bataille's 1.2.  Without NRT nothing in the loop may allocate:
the caller passes its work arrays, and the rules it calls use fixed arrays
(:func:`engines.core.layout.copy_into`, :func:`engines.core.layout.sort_field`) or work
room in their own stack frame (:func:`engines.core.layout.stack_room`).  numba keeps one
compiled copy of a function per argument types, made under the flags of its first caller;
so that a rule the Python API compiled first is not linked into the loop with NRT (a fifth
slower for paris-damis with random seats), such rules are compiled without it whoever calls
them (:func:`engines.core.signatures.allocation_free_without_nrt`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import njit, types

import agents
from agents import profiles
from agents.compiled_search import (
    RANDOM_ROLLOUT,
    ROLLOUT_POLICIES,
    SEARCHES,
    SETTING_ITERATIONS,
    search_room,
    searched,
    settings_row,
)
from agents.random_agent import explores, random_choice
from agents.search import FlatMCParams, ISMCTSParams
from engines.core.layout import copy_into
from engines.core.seeding import ReseedableStream, reseed, seed_words
from engines.core.specialise import Tag, TagType, by_tag, entry_point

# The searches' parameters at their defaults, in the order of SEARCHES.
DEFAULT_SEARCHES = (FlatMCParams(), ISMCTSParams())

# name -> Kernel, filled as kernels are declared (a kernel is compiled only through its play)
_KERNELS: dict[str, Kernel] = {}


def _kernel(tag: TagType) -> Kernel:
    return _KERNELS[tag.tag]


@njit(cache=True, inline="always")
def has_room(rounds, row, count):
    """Whether ``count`` more round rows fit in ``rounds`` after the first ``row``: a step
    hook records a round only then, and counts it either way (see :meth:`Kernel.play`)."""
    return row + count <= rounds.shape[0]


@njit(cache=True, inline="always")
def keep_final(finals, g, s):
    """Copy the final state ``s`` of game ``g`` into ``finals[g]`` when ``finals`` has
    rows."""
    if finals.shape[0] > 0:
        copy_into(finals[g], s)


# --- The game: one overload, its implementation the decision loop -------------------------
def play_game(tag, s, pr, seat_policy, weights, chance, decisions, rounds, seen, actions,
              table, worlds, worlds_alias, search):
    """Play one game into ``s``, seat p with policy ``seat_policy[p]``, its round rows into
    ``rounds``; return their count (all of them, even those that did not fit)."""


@by_tag(play_game)
def _play_game(tag, s, pr, seat_policy, weights, chance, decisions, rounds, seen, actions,
               table, worlds, worlds_alias, search):
    kernel = _kernel(tag)
    rules = kernel.rules
    phase, over, current = rules.PHASE, rules.OVER, rules.CURRENT
    begin, legal = _start_hook(kernel), \
        kernel.legal_actions or _inlined(entry_point(rules, "legal_actions"))
    decide = _seat_hook(kernel, searches=not isinstance(search, types.NoneType))
    play_step, end = kernel.step or _standard_step(kernel), kernel.finish or _no_rows_kept

    def impl(tag, s, pr, seat_policy, weights, chance, decisions, rounds, seen, actions,
             table, worlds, worlds_alias, search):
        begin(s, pr, chance)
        row = 0
        while s[phase] != over:
            n = legal(s, pr, actions)
            policy = seat_policy[s[current]]
            if explores(weights[policy, weights.shape[1] - 2], n, decisions):
                action = random_choice(actions, n, decisions)       # agents.base.Exploring
            else:
                action = decide(tag, policy, s, pr, actions, n, decisions, weights, seen,
                                table, worlds, worlds_alias, search)
            row = play_step(s, pr, action, chance, rounds, row)
        return end(s, pr, rounds, row)
    return impl


def _seat_hook(kernel: Kernel, searches: bool) -> Any:
    """A seat's move: its policy's ``choose`` (see :func:`_choose_hook`), inlined; or, in a
    loop compiled with a search room (``searches``), the search its row names when it names
    one (its last column, see :meth:`Kernel.lineup`), else ``choose`` called as the rollouts
    call it (their compiled twin: a searched game's loop does not compile its bots a second
    time, and beside a search the call costs nothing that shows).  A loop without a room is
    compiled without the searches (about two thirds of a kernel's compile), for seats that
    never search."""
    choose = _choose_hook(kernel)
    if not searches:
        @njit(inline="always")
        def chosen(tag, policy, s, pr, actions, n, decisions, weights, seen, table, worlds,
                   worlds_alias, search):
            return choose(policy, s, pr, actions, n, decisions, weights, seen, table)
        return chosen
    rules_tag, current = Tag(kernel.rules.__name__), kernel.rules.CURRENT
    choose = ROLLOUT_POLICIES[kernel.name]     # the rollouts' twin, not inlined again

    @njit(inline="always")
    def chosen_or_searched(tag, policy, s, pr, actions, n, decisions, weights, seen, table,
                           worlds, worlds_alias, search):
        kind = np.int64(weights[policy, weights.shape[1] - 1])      # see Kernel.lineup
        if kind == 0:
            return choose(policy, s, pr, actions, n, decisions, weights, seen, table)
        return searched(rules_tag, tag, kind - 1, s, pr, s[current], actions, n, decisions,
                        weights[policy], (weights, seen, table), worlds, worlds_alias,
                        search)
    return chosen_or_searched


def summarize(tag, s, out):
    """The finished game's summary row."""


@by_tag(summarize)
def _summarize(tag, s, out):
    hook = _kernel(tag).summary.summarize

    def impl(tag, s, out):
        hook(s, out)
    return impl


@njit(cache=True, inline="always")
def _random_policy(policy, s, pr, actions, n, decisions, weights, seen, table):
    """Every seat ``random``."""
    return random_choice(actions, n, decisions)


def _choose_hook(kernel: Kernel) -> Any:
    """The kernel's ``choose``; or, for a game with one ``bot``, policy 0 ``random`` and
    policy 1 the bot deciding on the seat's observation (the rules' ``observe``, written into
    ``seen``); else every seat ``random``."""
    if kernel.choose is not None:
        return kernel.choose
    if kernel.bot is None:
        return _random_policy
    bot, current = kernel.bot, kernel.rules.CURRENT
    observe = entry_point(kernel.rules, "observe")

    @njit(inline="always")
    def bot_or_random(policy, s, pr, actions, n, decisions, weights, seen, table):
        if policy == 0:
            return random_choice(actions, n, decisions)
        observe(s, pr, s[current], seen)
        return actions[bot(seen, pr, actions, n, weights[policy])]
    return bot_or_random


@njit(cache=True, inline="always")
def _no_rows_kept(s, pr, rounds, row):
    """The rules keep no round rows in the state."""
    return row


def _start_hook(kernel: Kernel) -> Any:
    """The kernel's ``start``, or ``new_game`` then ``advance``."""
    if kernel.start is not None:
        return kernel.start
    new_game, advance = kernel.rules.new_game, kernel.rules.advance

    @njit(inline="always")
    def start(s, pr, chance):
        new_game(s, pr)
        advance(s, pr, chance)
    return start


def _standard_step(kernel: Kernel) -> Any:
    """``apply_action``, the round's rows when ``round_counter`` changed, the chance that
    follows (see :class:`Kernel`)."""
    play, settle, resolve = _play_hook(kernel), _settle_hook(kernel), _chance_hook(kernel)
    counter = kernel.round_counter

    @njit(inline="always")
    def step(s, pr, action, chance, rounds, row):
        before = s[counter]
        play(s, pr, action, chance)
        row = settle(s, pr, before != s[counter], rounds, row)
        resolve(s, pr, chance)
        return row
    return step


def _called(hook: Any) -> Any:
    """A compiled hook declared ``inline="always"`` as a plain compiled function (its twin:
    the same Python function), for callers it need not be copied into."""
    return njit(getattr(hook, "py_func", hook))   # (plain without numba)


def _inlined(rule: Any) -> Any:
    """A rules entry point the loop calls on every decision, compiled into the loop: the
    same Python function, inlined into the loop only (see the module's docstring)."""
    return njit(inline="always")(getattr(rule, "py_func", rule))   # (plain without numba)


def _play_hook(kernel: Kernel) -> Any:
    """The rules' ``apply_action``, with the chance generator if it draws."""
    apply_action = _inlined(entry_point(kernel.rules, "apply_action"))
    if kernel.rules.APPLY_DRAWS:
        @njit(inline="always")
        def play_drawing(s, pr, action, chance):
            apply_action(s, pr, action, chance)
        return play_drawing

    @njit(inline="always")
    def play(s, pr, action, chance):
        apply_action(s, pr, action)
    return play


def _chance_hook(kernel: Kernel) -> Any:
    """After a decision and its round rows: ``advance`` when ``chance_pending`` (nothing for
    rules that draw as they play)."""
    if kernel.rules.APPLY_DRAWS:
        @njit(inline="always")
        def drawn(s, pr, chance):
            pass
        return drawn
    chance_pending, advance = _inlined(kernel.rules.chance_pending), kernel.rules.advance

    @njit(inline="always")
    def resolve(s, pr, chance):
        if chance_pending(s):      # passing a Generator to a call costs; only when needed
            advance(s, pr, chance)
    return resolve


def _settle_hook(kernel: Kernel) -> Any:
    """Once a round ended (``ended``), its rows (``summary.record_round``, one per seat)."""
    if kernel.round_counter < 0:
        @njit(inline="always")
        def no_rounds(s, pr, ended, rounds, row):
            return row
        return no_rounds
    record_round = kernel.record_round or kernel.summary.record_round
    rows = _rows_per_round(kernel)

    @njit(inline="always")
    def settle(s, pr, ended, rounds, row):
        if not ended:
            return row
        if has_room(rounds, row, rows(pr)):
            return record_round(s, pr, rounds, row)
        return row + rows(pr)
    return settle


def _rows_per_round(kernel: Kernel) -> Any:
    """The rows a round writes: ``kernel.rows_per_round``, or one per seat."""
    if kernel.rows_per_round > 0:
        fixed = kernel.rows_per_round

        @njit(inline="always")
        def rows(pr):
            return fixed
        return rows
    return _seats(kernel.rules)


def _seats(rules: Any) -> Any:
    """The number of seats, from the parameters (``P_PLAYERS``) or the rules (``PLAYERS``,
    games for a fixed number)."""
    if hasattr(rules, "P_PLAYERS"):
        at = rules.P_PLAYERS

        @njit(inline="always")
        def seats_of(pr):
            return pr[at]
        return seats_of
    fixed = rules.PLAYERS

    @njit(inline="always")
    def seats(pr):
        return fixed
    return seats


# --- The loop ---------------------------------------------------------------------------------
def _play_games(tag, pr, seat_policies, weights, words, chance, chance_alias, decisions,
                decisions_alias, rows, rounds, round_counts, finals, s, seen, actions, table,
                worlds, worlds_alias, search):
    """Play ``len(words)`` games, seat p of game g with policy ``seat_policies[g, p]`` (policy
    q playing with parameters ``weights[q]``): game g's summary goes to ``rows[g]``, its round
    rows to ``rounds[g]`` (``round_counts[g]`` of them; a game with more than fit counts them
    all but writes only those that fit), its final state to ``finals[g]`` when ``finals`` has
    rows.  ``s``, ``seen``, ``actions`` and ``table`` are work arrays; the search policies
    use ``search`` (a :class:`agents.compiled_search.SearchRoom`; None where no seat
    searches, and the loop is compiled without the searches) and draw their worlds' chance
    from ``worlds[0]`` (its state ``worlds_alias``)."""
    for g in range(words.shape[0]):
        reseed(chance, chance_alias, words[g, 0])
        reseed(decisions, decisions_alias, words[g, 1])
        round_counts[g] = play_game(tag, s, pr, seat_policies[g], weights, chance, decisions,
                                    rounds[g], seen, actions, table, worlds, worlds_alias,
                                    search)
        summarize(tag, s, rows[g])
        keep_final(finals, g, s)


# The same loop under two sets of flags (each game uses one; its tag keeps the cache entries
# apart): with numba's reference counting, and without it for rules that never allocate.
# The loop, compiled without numba's reference counting: a kernel's rules allocate nothing
# (their ``ALLOCATES = False``, which :class:`Kernel` requires).  (numba's type stubs omit its
# _nrt option.)
_LOOP = njit(cache=True, nogil=True, _nrt=False)(_play_games)  # type: ignore[call-overload]


# --- What a game declares, and the Python entry point -----------------------------------------
class KernelOutput(NamedTuple):
    """Per game summary rows; all round rows (game after game); round rows per game; final
    states (empty unless asked)."""

    rows: np.ndarray
    rounds: np.ndarray
    round_counts: np.ndarray
    finals: np.ndarray


def no_round_rows(params: Any) -> int:
    """For games that record no round rows."""
    return 0


@dataclass(frozen=True)
class Kernel:
    """A game's batch kernel: what the loop needs to know of the game.

    ``name``: the kernel's name (one per rules module); ``rules`` and ``summary``: the
    game's compiled rules and summary modules; ``policies``: agent name -> policy id, ids
    0, 1, ... (``random`` is 0 in every game); ``weights``: row q, the parameters policy q
    reads (float64; by default none); ``table``: a function of the game giving the float64
    work array the policies share; ``max_round_rows``: a function of the game's parameters
    giving the round rows to make room for per game (a game that records more is played
    again with room for them all); ``action_dtype``: the type of the action codes the
    rules write; ``encode``: ``encode(name, params)``, the weights row of the named policy
    playing with other parameters (its bot's ``Params``), for the policies that read their
    parameters from their row (None: every policy plays at its defaults only; see
    :meth:`lineup`).  The rules must allocate nothing (their ``ALLOCATES = False``): the loop
    runs without numba's reference counting.

    The hooks, compiled functions (see the module docstring), each optional: ``choose``
    (default: ``random`` only; for a game whose one bot, policy 1, decides on the seat's
    observation, ``bot``: its ``decide(seen, pr, actions, n, weights)``), ``legal_actions``
    (default: the rules' own), ``start`` (default: ``new_game`` then ``advance``), ``step``
    and ``finish(s, pr, rounds, row)`` (after the game, for round rows the rules keep in the
    state; default: none).  The default step is the rules' ``apply_action(s, pr, action)``
    (where the rules' ``APPLY_DRAWS`` is true, ``apply_action(s, pr, action, chance)``: they
    draw as they play), then the round's rows when the state field at ``round_counter``
    changed (``-1``: no round rows), then ``advance`` if ``chance_pending`` (the next deal;
    not where the rules draw).  A round's rows are written by ``record_round(s, pr, rounds,
    row) -> next row`` (default: the summary's), ``rows_per_round`` of them (``0``: one per
    seat)."""

    name: str
    rules: Any
    summary: Any
    policies: dict[str, int]
    choose: Any = None
    bot: Any = None
    legal_actions: Any = None
    start: Any = None
    step: Any = None
    finish: Any = None
    record_round: Any = None
    rows_per_round: int = 0
    weights: np.ndarray | None = None
    table: Callable[[Any], np.ndarray] = lambda game: np.zeros((0, 0))
    max_round_rows: Callable[[Any], int] = no_round_rows
    round_counter: int = -1
    action_dtype: type = np.int32
    encode: Callable[[str, Any], np.ndarray] | None = None

    def __post_init__(self) -> None:
        if getattr(self.rules, "ALLOCATES", True) is not False:
            raise ValueError(f"{self.name}: a kernel's rules allocate nothing and say so "
                             f"(ALLOCATES = False in {self.rules.__name__}): its loop runs "
                             f"without numba's reference counting")
        if self.weights is None:        # no policy reads any parameter
            object.__setattr__(self, "weights", np.zeros((len(self.policies), 0)))
        if _KERNELS.setdefault(self.name, self) is not self:
            raise ValueError(f"a kernel named {self.name!r} exists already")
        if self.policies.get("random") != RANDOM_ROLLOUT:
            raise ValueError(f"{self.name}: policy {RANDOM_ROLLOUT} must be random")
        # the seats' policies, which the searches' rollouts play too: called there, not
        # inlined (the same Python function, compiled once more as a function of its own), so
        # that bots inlined into the loop are not inlined again into the rollouts
        ROLLOUT_POLICIES[self.name] = _called(_choose_hook(self))

    @property
    def POLICIES(self) -> dict[str, int]:      # noqa: N802 (the kernel modules' old name)
        """Every compiled agent: the game's own policies, then the searches."""
        first = len(self.policies)
        return {**self.policies, **{name: first + i for i, name in enumerate(SEARCHES)}}

    def bots(self, game: str) -> list[str]:
        """The compiled bots of ``game`` here: the policies other than ``random`` that are
        agents of that game (a kernel shared by several games may hold bots of some only,
        as the tarots' ``prudent`` and ``ducker``)."""
        return [name for name in self.policies
                if name != "random" and name in agents.available(game)]

    def policy_ids(self, names: Sequence[str]) -> np.ndarray:
        """Policy ids of agent names; a name without a compiled twin names those that have
        one."""
        policies = self.POLICIES
        unknown = [n for n in names if n not in policies]
        if unknown:
            raise ValueError(f"no compiled policy for {', '.join(unknown)} in {self.name}; "
                             f"compiled agents: {', '.join(sorted(policies))}")
        return np.array([policies[n] for n in names], dtype=np.int32)

    @property
    def default_weights(self) -> np.ndarray:
        """The named policies' parameter rows at their defaults (see :meth:`lineup`)."""
        return self.lineup([])[1]

    def plays(self, name: str, params: Any = None, explore: float = 0.0) -> bool:
        """Whether the named policy can play here with ``params`` (None: its defaults);
        every policy can explore."""
        if name in SEARCHES:
            if params is None:
                return True
            rollout, profile = profiles.split(params.rollout)
            return params.seconds is None and rollout in self.policies \
                and (profile is None or self.encode is not None)
        return name in self.policies and (params is None or self.encode is not None)

    def lineup(self, seats: Sequence[tuple[Any, ...]], game: str | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        """Policy ids and the table of the policies' parameter rows for agents given as
        (policy name, parameters or None for its defaults[, explore]).  The table's rows:
        the game's own policies' (:attr:`weights`), the searches' at their defaults
        (:func:`agents.compiled_search.settings_row`), then one for each agent with
        parameters or exploring (so one table may hold a bot at its defaults and with other
        parameters), and one for each search's rollout policy with a profile
        (``NAME@PROFILE``, read for ``game``); its second last column is the row's chance of
        exploring (see :class:`agents.base.Exploring`), its last tells which search a row
        is (0: none, else 1 + its index in ``SEARCHES``).  A name without a compiled twin,
        or parameters this kernel cannot encode, names the compiled agents."""
        ids = self.policy_ids([seat[0] for seat in seats])
        assert self.weights is not None         # set by __post_init__
        rows: list[tuple[np.ndarray, int, float]] = [(row, -1, 0.0) for row in self.weights]
        rows += [(self._settings(params, rows, game), k, 0.0)
                 for k, params in enumerate(DEFAULT_SEARCHES)]
        for i, (name, params, *explored) in enumerate(seats):
            explore = explored[0] if explored else 0.0
            if params is None and not explore:
                continue
            if params is None:
                row, kind, _ = rows[ids[i]]
            elif name in SEARCHES:
                row, kind = self._settings(params, rows, game), SEARCHES.index(name)
            else:
                row, kind = self._row(name, params), -1
            ids[i] = len(rows)
            rows.append((row, kind, explore))
        table = np.zeros((len(rows), max(len(row) for row, _, _ in rows) + 2))
        for j, (row, kind, explore) in enumerate(rows):
            table[j, :len(row)] = row
            table[j, -2] = explore
            table[j, -1] = kind + 1
        return ids, table

    def _default_row(self, name: str) -> np.ndarray:
        """The parameter row of the game's own policy ``name`` at its defaults."""
        assert self.weights is not None         # set by __post_init__
        return self.weights[self.policies[name]]

    def _row(self, name: str, params: Any) -> np.ndarray:
        """The parameter row of the game's own policy ``name`` playing with ``params``."""
        if self.encode is None:
            raise ValueError(f"{self.name}'s compiled policies play at their defaults "
                             f"only; compiled agents: {', '.join(sorted(self.policies))}")
        return self.encode(name, params)

    def _settings(self, params: Any, rows: list[tuple[np.ndarray, int, float]],
                  game: str | None) -> np.ndarray:
        """A search's row of settings, its rollouts played by one of this kernel's own
        policies: the row of a plain name, or one added to ``rows`` for a profile of it (a
        rollout without a compiled twin here names those that have one)."""
        base, profile = profiles.split(params.rollout)
        if base not in self.policies:
            raise ValueError(f"no compiled rollout policy {base!r} in {self.name}; "
                             f"rollout policies: {', '.join(sorted(self.policies))}")
        if profile is None:
            return settings_row(params, self.policies[base], game)
        if game is None:
            raise ValueError(f"rollout={params.rollout}: a profile needs the game it is for")
        own = agents.params_for(params.rollout, game)
        row = self._default_row(base) if own is None else self._row(base, own)
        rows.append((row, -1, agents.exploration(params.rollout, game)))
        return settings_row(params, len(rows) - 1, game)

    def play(self, game: Any, seat_policies: np.ndarray, seed: int, start: int, count: int,
             keep_states: bool = False, weights: np.ndarray | None = None) -> KernelOutput:
        """Games ``start .. start+count-1`` of a run with ``seed``; ``seat_policies`` is
        ``(count, players)`` policy ids, rows of ``weights`` (default: the named policies'
        own, see :meth:`lineup`)."""
        seat_policies = np.ascontiguousarray(seat_policies, dtype=np.int32)
        weights = self.default_weights if weights is None else weights
        room = self.max_round_rows(game.params)
        rows, rounds, counts, finals = self._play(game, seat_policies,
                                                  seed_words(seed, start, count), room,
                                                  keep_states, weights)
        kept = [rounds[g, :counts[g]] for g in range(count)]
        for g in np.flatnonzero(counts > room).tolist():
            # more round rows than room was made for: play the game again with room for them
            again = self._play(game, seat_policies[g:g + 1], seed_words(seed, start + g, 1),
                               int(counts[g]), False, weights)
            kept[g] = again[1][0]
        width = self.summary.ROUND_WIDTH
        all_rounds = (rounds.reshape(count * room, width) if (counts == room).all()
                      else np.concatenate(kept) if kept
                      else np.empty((0, width), dtype=np.int32))
        return KernelOutput(rows, all_rounds, counts, finals)

    def _play(self, game: Any, seat_policies: np.ndarray, words: np.ndarray, room: int,
              keep_states: bool, weights: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The loop's arrays: summary rows, round rows per game ``(count, room, width)``,
        round-row counts, final states (``weights``: every policy's parameter row)."""
        count = words.shape[0]
        rules, summary = self.rules, self.summary
        chance, decisions = ReseedableStream(), ReseedableStream()
        chance.check()
        rows = np.zeros((count, summary.SIZE), dtype=np.int32)
        rounds = np.empty((count, room, summary.ROUND_WIDTH), dtype=np.int32)
        round_counts = np.zeros(count, dtype=np.int64)
        finals = np.zeros((count if keep_states else 0, rules.STATE_SIZE), dtype=np.int32)
        loop = _LOOP
        worlds = ReseedableStream()
        used = np.unique(seat_policies)
        searching = used[weights[used, -1] > 0]
        # no seat searches: the loop compiled without the searches (see _seat_hook)
        search = (search_room(game, rules.N_ACTIONS, self.action_dtype,
                              int(weights[searching, SETTING_ITERATIONS].max()))
                  if searching.size else None)
        loop(Tag(self.name), game.encoded_params, seat_policies, weights, words,
             chance.generator, chance.alias, decisions.generator, decisions.alias, rows,
             rounds, round_counts, finals, np.empty(rules.STATE_SIZE, dtype=np.int32),
             np.empty(rules.STATE_SIZE, dtype=np.int32),
             np.empty(rules.N_ACTIONS, dtype=self.action_dtype), self.table(game),
             (worlds.generator,), worlds.alias, search)
        return rows, rounds, round_counts, finals
