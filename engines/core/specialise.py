"""Compiled code written once and specialised per game, through numba's cache.

A compiled function shared by every game (a game loop, a wrapper that runs a rule with a
state's own chance stream) must call each game's own compiled rules.  Passing those rules as
arguments does not survive numba's cache across processes (a compiled function passed as a
value is lowered as a process address), and neither does closing over them (the cache key of
a closure hashes its cells, and a compiled function pickles with a per-process id), so every
process would compile again.

Instead, the shared function takes a :class:`Tag`: an argument that carries nothing at run
time, whose numba *type* names what to specialise for (a rules module, a kernel).  Numba
overloads (:func:`numba.extending.overload`) look the game's functions up by that name when
the shared function is compiled for it, as if it had been written for that game; the
compiled code is cached once per name, since the type is part of the signature, and loaded
again in a fresh process.

A rules module may hold its own tag as a global (``RULES = Tag(__name__)``) and pass it to
a family's shared steps, which call back the game's own functions by name.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from collections.abc import Callable
from typing import Any

import numba
from numba import types
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, overload, register_model, unbox


class TagType(types.Type):
    """The numba type of a :class:`Tag`: it carries the tag's name."""

    def __init__(self, name: str) -> None:
        self.tag = name
        super().__init__(name=f"Tag({name})")


@register_model(TagType)
class _TagModel(models.OpaqueModel):
    pass


class Tag:
    """A name that compiled code is specialised for, passed as an argument."""

    def __init__(self, name: str) -> None:
        self.name = name
        # the argument's numba type, which numba's dispatcher reads from this attribute at
        # each call (a fraction of a microsecond, where typing the value afresh costs 20)
        self._numba_type_ = TagType(name)

    def __repr__(self) -> str:
        return f"Tag({self.name!r})"


@unbox(TagType)
def _unbox_tag(typ: TagType, obj: Any, c: Any) -> NativeValue:
    return NativeValue(c.context.get_dummy_value())


@lower_constant(TagType)
def _constant_tag(context: Any, builder: Any, typ: TagType, value: Tag) -> Any:
    # a module's own tag read as a global by its compiled code (``RULES = Tag(__name__)``)
    return context.get_dummy_value()


def by_tag(stub: Callable[..., Any],
           **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``@overload(stub, **options)`` for an overload chosen by its first argument, a
    :class:`Tag`: the decorated function receives the arguments' types and returns the
    implementation (``inline="always"``: copied into each caller, see
    docs/architecture.md's "Compile time").  With
    numba's JIT disabled (``NUMBA_DISABLE_JIT=1``, the rules as plain Python), the stub's
    name in its module is bound to a Python function that builds that implementation once
    per tag and argument kinds, and calls it."""
    def register(factory: Callable[..., Any]) -> Callable[..., Any]:
        overload(stub, **options)(factory)
        if numba.config.DISABLE_JIT:        # type: ignore[attr-defined]  # set at import
            made: dict[tuple, Callable[..., Any]] = {}

            @functools.wraps(stub)
            def run(tag: Tag, *args: Any) -> Any:
                key = (tag.name, *(type(a) for a in args))
                impl = made.get(key)
                if impl is None:
                    impl = made[key] = factory(tag._numba_type_,
                                               *(numba.typeof(a) for a in args))
                return impl(tag, *args)
            setattr(sys.modules[stub.__module__], stub.__name__, run)
        return factory
    return register


def module_of(tag: TagType) -> Any:
    """The module a tag names (``Tag("engines.games.baccara.rules")``), imported."""
    return importlib.import_module(tag.tag)


# Entry points a rules module may leave to its family (``FAMILY``): the family's step
# ``name(rules, s, pr, ...)`` serves every game of the family, specialised by the game's tag.
FAMILY_ENTRY_POINTS = ("legal_actions", "apply_action", "observe", "determinize")


def entry_point(rules: Any, name: str) -> Callable[..., Any]:
    """The rules module's entry point ``name`` (``legal_actions(s, pr, out)``, ...), for
    compiled callers: the module's own compiled function, or, for one of
    :data:`FAMILY_ENTRY_POINTS` the module leaves to its family (the family's rules module,
    named by ``FAMILY``), the family's step for the module's tag (``RULES``), compiled into
    its caller."""
    own = vars(rules).get(name)
    if own is not None:
        return own
    if name not in FAMILY_ENTRY_POINTS or not hasattr(rules, "FAMILY"):
        raise AttributeError(f"{rules.__name__} has no entry point {name!r}")
    return for_tag(getattr(rules.FAMILY, name), rules.RULES)


def for_tag(step: Callable[..., Any], tag: Tag) -> Callable[..., Any]:
    """``step(tag, s, pr, ...)``, a step specialised by tag, as a function of its other
    arguments (three to five), inlined into its callers (numba's inliner takes no
    ``*args``)."""
    arguments = len(inspect.signature(inspect.unwrap(step)).parameters) - 1
    if arguments == 3:
        @numba.njit(inline="always")
        def three(s, pr, a):
            return step(tag, s, pr, a)
        return three
    if arguments == 4:
        @numba.njit(inline="always")
        def four(s, pr, a, b):
            return step(tag, s, pr, a, b)
        return four
    if arguments == 5:
        @numba.njit(inline="always")
        def five(s, pr, a, b, c):
            return step(tag, s, pr, a, b, c)
        return five
    raise TypeError(f"{step.__name__} takes {arguments} arguments after the tag, not 3 to 5")
