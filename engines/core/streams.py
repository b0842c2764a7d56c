"""The compiled calls of a game's rules that the Python API makes, written once for every game.

Each takes first the :class:`~engines.core.specialise.Tag` of the game's rules module
(``Tag(rules.__name__)``, built once per game class) and is compiled, and cached, once per
rules module: numba overloads look the rules' functions up by the tag's name (see
:mod:`engines.core.specialise`), and choose there, from the rules module, what differs between
games.

The ``..._with_stream`` calls draw from a state's own chance stream (its SFC64 state words,
``stream``): they load it into the process-wide scratch generator ``rngs[0]``, whose state
is ``alias`` (:class:`engines.core.seeding.ScratchStream`), run the rules, and store it back.

What they read of a rules module:

* ``APPLY_DRAWS``, which every rules module declares: whether ``apply_action`` draws the
  chance that follows a decision itself (``apply_action(s, pr, action, rng)``); if not,
  ``apply_action(s, pr, action)`` draws nothing and that chance waits for
  ``advance(s, pr, rng)``, due when ``chance_pending(s)``;
* ``advance`` (the chance steps due: the setup, a deal), ``legal_actions(s, pr, out)``
  (the legal codes into ``out``; their count), ``PHASE`` and ``OVER``;
* where a game has them: ``resume(s, pr, rng)`` (baccara: the next coup, due in phase
  ``COUP_END``),
  ``play_out(s, pr, rng)`` (a game without decisions played to its end, see
  :func:`playout_with_stream`), ``apply_choice`` (rummy) or ``TRICK`` and ``ROUNDS_PLAYED``
  (trick games), see :func:`decide`; ``ROUNDS_PLAYED`` and ``final_ranking(s, pr)`` (the
  trick games but vicaire, paris-damis), for simulations cut short at a round's end, see
  :func:`play_rounds`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from numba import njit, types

from engines.core.chance import uniform_index_jit
from engines.core.specialise import by_tag, entry_point, module_of

# What :func:`decide` returns: the next decision's legal code count, and whether the decision
# ended a trick, or a round (then nothing is counted: the round's records and the next deal
# come first).
LEGAL_COUNT = (1 << 20) - 1
TRICK_ENDED = 1 << 20
ROUND_ENDED = 1 << 21


# --- The calls --------------------------------------------------------------------------
@njit(cache=True)
def advance_with_stream(tag, s, pr, rngs, alias, stream):
    """The rules' ``advance``: the chance steps due (the setup, a deal)."""
    alias[:] = stream
    _advance(tag, s, pr, rngs[0])
    stream[:] = alias


@njit(cache=True)
def resume_with_stream(tag, s, pr, rngs, alias, stream):
    """The rules' ``resume``: the next coup, after one ended (baccara)."""
    alias[:] = stream
    _resume(tag, s, pr, rngs[0])
    stream[:] = alias


@njit(cache=True)
def apply_with_stream(tag, s, pr, rngs, alias, stream, code):
    """The decision ``code`` and the chance that follows it."""
    alias[:] = stream
    _play(tag, s, pr, code, rngs[0])
    stream[:] = alias


@njit(cache=True)
def list_legal(tag, s, pr, out):
    """The legal codes of the decision at hand into ``out``; their count."""
    return _listed(tag, s, pr, out)


@njit(cache=True)
def observe(tag, s, pr, player, out):
    """What ``player`` may know of ``s``, into ``out`` (the rules' ``observe``)."""
    _observed(tag, s, pr, player, out)


@njit(cache=True)
def determinize(tag, s, pr, player, rng, out):
    """A full state consistent with ``player``'s observation, into ``out``, drawn from
    ``rng`` (the rules' ``determinize``)."""
    _determinized(tag, s, pr, player, rng, out)


@njit(cache=True)
def play_decision(tag, s, pr, code, rng):
    """The decision ``code`` as the Python API plays it: the chance that follows, drawn
    from ``rng``, and, where the rules pause between coups (``resume``), the next coup."""
    _decision(tag, s, pr, code, rng)


@njit(cache=True)
def play_to_end(tag, s, pr, rng, decisions, actions):
    """The game played to its end as :func:`playout_with_stream` plays it, its chance drawn
    from ``rng``."""
    _play_out(tag, s, pr, rng, decisions, actions)


@njit(cache=True)
def play_rounds(tag, s, pr, rng, decisions, actions, limit):
    """The game played as :func:`play_to_end` plays it until ``limit`` rounds have been
    played (the rules' ``ROUNDS_PLAYED``), then, if it has not ended, ranked as if it ended
    there (the rules' ``final_ranking`` of the standings); played to its end if ``limit``
    is 0 or the rules have no rounds (see :func:`has_rounds`)."""
    _play_rounds(tag, s, pr, rng, decisions, actions, limit)


@njit(cache=True)
def step_with_stream(tag, s, pr, rngs, alias, stream, code, setup, out):
    """The first deal (``setup``) or the decision ``code``, with the chance that follows;
    then, given an array ``out`` (not None), the next decision's legal codes into it.
    Returns their count (0 without ``out``)."""
    alias[:] = stream
    if setup:
        _advance(tag, s, pr, rngs[0])
    else:
        _play(tag, s, pr, code, rngs[0])
    stream[:] = alias
    return _listed(tag, s, pr, out)


@njit(cache=True)
def playout_with_stream(tag, s, pr, rngs, alias, stream, decisions, actions):
    """The game played to its end, each decision taking ``actions[uniform_index(decisions,
    n)]`` among the ``n`` legal codes the rules write into ``actions`` (the ``random``
    agent's draw), with the chance that follows each; rules with ``play_out`` (no decisions)
    play it instead."""
    alias[:] = stream
    _play_out(tag, s, pr, rngs[0], decisions, actions)
    stream[:] = alias


@njit(cache=True)
def decide(tag, s, pr, code, out):
    """A decision that draws no chance, then the next decision's legal codes into ``out``:
    the Python API's fast path, one call per decision, without the stream.  Returns their
    count (the ``LEGAL_COUNT`` bits), with ``TRICK_ENDED`` if the decision ended a trick; or
    ``ROUND_ENDED``, nothing counted, if it ended a round.

    Rules with ``apply_choice(s, pr, code)`` play the decision with it (rummy: any decision
    but a draw from an empty stock), and a round has ended when the next deal is due (phase
    ``SETUP``).  Otherwise the rules' ``apply_action`` plays it (trick games: they draw
    nothing as they play); a trick has ended when the state's ``TRICK`` changed, a round
    when ``ROUNDS_PLAYED`` did."""
    return _decide(tag, s, pr, code, out)


def has_rounds(rules: Any) -> bool:
    """Whether a game's rules count its rounds (``ROUNDS_PLAYED``) and can rank the seats by
    their standing at any time (``final_ranking(s, pr)``): what a search's horizon needs."""
    return hasattr(rules, "ROUNDS_PLAYED") and hasattr(rules, "final_ranking")


class RulesCalls(NamedTuple):
    """A rules module's entry points as the Python API calls them (see :func:`rules_calls`)."""

    legal_actions: Callable[..., Any]       # (s, pr, out) -> count
    observe: Callable[..., Any]             # (s, pr, player, out)
    determinize: Callable[..., Any]         # (s, pr, player, rng, out)


def rules_calls(rules: Any, tag: Any) -> RulesCalls:
    """The entry points of ``rules`` (whose tag is ``tag``) for Python callers: the module's
    own compiled functions, called directly (a tag among the arguments costs numba's
    dispatcher about 0.4 µs a call), or, where the module leaves one to its family, the
    compiled call of this module that reaches it by tag (:func:`list_legal`,
    :func:`observe`, :func:`determinize`)."""
    def call(name: str, by_tag: Callable[..., Any]) -> Callable[..., Any]:
        own = vars(rules).get(name)
        return own if own is not None else functools.partial(by_tag, tag)
    return RulesCalls(call("legal_actions", list_legal), call("observe", observe),
                      call("determinize", determinize))


# --- What differs between games: overloads, chosen by the rules module -------------------
def _advance(tag, s, pr, rng):
    """The rules' ``advance``."""


def _resume(tag, s, pr, rng):
    """The rules' ``resume``."""


def _play(tag, s, pr, code, rng):
    """A decision and the chance that follows it."""


def _decision(tag, s, pr, code, rng):
    """See :func:`play_decision`."""


def _listed(tag, s, pr, out):
    """The legal codes into ``out`` (none if ``out`` is None); their count."""


def _observed(tag, s, pr, player, out):
    """The rules' ``observe``."""


def _determinized(tag, s, pr, player, rng, out):
    """The rules' ``determinize``."""


def _play_out(tag, s, pr, rng, decisions, actions):
    """Random play to the end."""


def _decide(tag, s, pr, code, out):
    """See :func:`decide`."""


def _play_rounds(tag, s, pr, rng, decisions, actions, limit):
    """See :func:`play_rounds`."""


def _chance_step(name):
    """The overload of a stub that calls the rules' chance step ``name(s, pr, rng)``."""
    def overload_for(tag, s, pr, rng):
        step = getattr(module_of(tag), name)

        def impl(tag, s, pr, rng):
            step(s, pr, rng)
        return impl
    return overload_for


_advance_rules = by_tag(_advance)(_chance_step("advance"))
_resume_rules = by_tag(_resume)(_chance_step("resume"))


@by_tag(_play)
def _play_rules(tag, s, pr, code, rng):
    rules = module_of(tag)
    apply_action = entry_point(rules, "apply_action")
    if rules.APPLY_DRAWS:
        def impl_drawing(tag, s, pr, code, rng):
            apply_action(s, pr, code, rng)
        return impl_drawing
    chance_pending, advance = rules.chance_pending, rules.advance

    def impl(tag, s, pr, code, rng):
        apply_action(s, pr, code)
        if chance_pending(s):
            advance(s, pr, rng)
    return impl


@by_tag(_decision)
def _decision_rules(tag, s, pr, code, rng):
    rules = module_of(tag)
    if not hasattr(rules, "resume"):
        def impl_playing(tag, s, pr, code, rng):
            _play(tag, s, pr, code, rng)
        return impl_playing
    phase, resume, paused = rules.PHASE, rules.resume, rules.COUP_END

    def impl(tag, s, pr, code, rng):
        _play(tag, s, pr, code, rng)
        while s[phase] == paused:
            resume(s, pr, rng)
    return impl


@by_tag(_listed)
def _listed_rules(tag, s, pr, out):
    if isinstance(out, types.NoneType):
        def impl_none(tag, s, pr, out):
            return 0
        return impl_none
    legal_actions = entry_point(module_of(tag), "legal_actions")

    def impl(tag, s, pr, out):
        return legal_actions(s, pr, out)
    return impl


@by_tag(_observed)
def _observed_rules(tag, s, pr, player, out):
    rules_observe = entry_point(module_of(tag), "observe")

    def impl(tag, s, pr, player, out):
        rules_observe(s, pr, player, out)
    return impl


@by_tag(_determinized)
def _determinized_rules(tag, s, pr, player, rng, out):
    rules_determinize = entry_point(module_of(tag), "determinize")

    def impl(tag, s, pr, player, rng, out):
        rules_determinize(s, pr, player, rng, out)
    return impl


@by_tag(_play_out)
def _play_out_rules(tag, s, pr, rng, decisions, actions):
    rules = module_of(tag)
    if hasattr(rules, "play_out"):
        play_out = rules.play_out

        def impl_without_decisions(tag, s, pr, rng, decisions, actions):
            play_out(s, pr, rng)
        return impl_without_decisions
    phase, over = rules.PHASE, rules.OVER
    legal_actions = entry_point(rules, "legal_actions")
    if hasattr(rules, "resume"):
        resume, paused = rules.resume, rules.COUP_END

        def impl_resuming(tag, s, pr, rng, decisions, actions):
            while s[phase] != over:
                if s[phase] == paused:
                    resume(s, pr, rng)
                    continue
                n = legal_actions(s, pr, actions)
                _play(tag, s, pr, actions[uniform_index_jit(decisions, n)], rng)
        return impl_resuming

    def impl(tag, s, pr, rng, decisions, actions):
        while s[phase] != over:
            n = legal_actions(s, pr, actions)
            _play(tag, s, pr, actions[uniform_index_jit(decisions, n)], rng)
    return impl


@by_tag(_decide)
def _decide_rules(tag, s, pr, code, out):
    rules = module_of(tag)
    legal_actions = entry_point(rules, "legal_actions")
    if hasattr(rules, "apply_choice"):
        apply_choice, phase, setup = rules.apply_choice, rules.PHASE, rules.SETUP

        def impl_choice(tag, s, pr, code, out):
            apply_choice(s, pr, code)
            if s[phase] == setup:
                return ROUND_ENDED
            return legal_actions(s, pr, out)
        return impl_choice
    apply_action = entry_point(rules, "apply_action")
    trick, rounds_played = rules.TRICK, rules.ROUNDS_PLAYED

    def impl_trick(tag, s, pr, code, out):
        tricks_before, rounds_before = s[trick], s[rounds_played]
        apply_action(s, pr, code)
        outcome = TRICK_ENDED if s[trick] != tricks_before else 0
        if s[rounds_played] != rounds_before:
            return outcome | ROUND_ENDED
        return outcome | legal_actions(s, pr, out)
    return impl_trick


def horizon_cut(rules: Any) -> Callable[..., Any]:
    """``cut(s, pr, limit)``, inlined into compiled callers: whether a simulation stops
    here, ``limit`` rounds played (the seats then ranked on their standing by the rules'
    ``final_ranking``); never in a game without rounds (see :func:`has_rounds`) or with
    ``limit`` 0."""
    if not has_rounds(rules):
        @njit(inline="always")
        def never(s, pr, limit):
            return False
        return never
    played, final_ranking = rules.ROUNDS_PLAYED, rules.final_ranking

    @njit(inline="always")
    def cut(s, pr, limit):
        if limit > 0 and s[played] >= limit:
            final_ranking(s, pr)
            return True
        return False
    return cut


@by_tag(_play_rounds)
def _play_rounds_rules(tag, s, pr, rng, decisions, actions, limit):
    rules = module_of(tag)
    if not has_rounds(rules):
        def impl_to_end(tag, s, pr, rng, decisions, actions, limit):
            _play_out(tag, s, pr, rng, decisions, actions)
        return impl_to_end
    phase, over, cut = rules.PHASE, rules.OVER, horizon_cut(rules)
    legal_actions = entry_point(rules, "legal_actions")

    def impl(tag, s, pr, rng, decisions, actions, limit):
        if limit <= 0:
            _play_out(tag, s, pr, rng, decisions, actions)
            return
        while s[phase] != over and not cut(s, pr, limit):
            n = legal_actions(s, pr, actions)
            _play(tag, s, pr, actions[uniform_index_jit(decisions, n)], rng)
    return impl
