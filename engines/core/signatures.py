"""One compiled copy of a rule per kind of argument, not per constant or integer width.

numba compiles a function once for each combination of argument types it is called with,
and types an argument in compiled code as precisely as it can: a constant as its value
(``Literal[int](0)``), a value read from the int32 state array as ``int32``, a loop index
or a Python int as ``int64``.  A rule called ``move(s, card, 0)`` in one place,
``move(s, card, seat)`` in another and ``move(s, s[TURN], seat)`` in a third was compiled
three times, each copy with everything it calls, and the kernel's int32 action codes
compiled the whole ``apply_action`` tree again beside the Python API's int64 ones: about a
quarter of every game's compile time (empereur and rami: 205 CPU s, 152 with this).

:func:`plain_arguments` makes a call from compiled code to a compiled function type its
arguments plainly: a constant as its type (``Literal[int](0)`` as ``int64``,
``Literal[bool]`` as ``bool``) and a signed integer narrower than 64 bits as ``int64``.
The values are the same (every such integer fits), so the rules compute the same; a callee
that needs a constant's value to type itself would have to ask for it with
``numba.literally``, which no rule does.  It changes how numba resolves a call to a
dispatcher (``numba.core.types.Dispatcher.get_call_type``, which the Python-to-compiled
entry does not use), once per process, when :mod:`engines.core` is imported, before anything
is compiled.
"""

from __future__ import annotations

from typing import Any

from numba.core import types

NARROW = (types.int8, types.int16, types.int32)    # the signed integers passed as int64


def plain(arg: Any) -> Any:
    """The numba type a compiled call passes an argument of type ``arg`` as: without its
    constant value, and a signed integer as int64."""
    arg = types.unliteral(arg)
    if arg in NARROW:
        return types.int64
    return arg


def plain_arguments() -> None:
    """Type the arguments of every call from compiled code to a compiled function with
    :func:`plain` (once per process)."""
    resolve = types.Dispatcher.get_call_type
    if getattr(resolve, "plain_arguments", False):
        return

    def get_call_type(self: Any, context: Any, args: tuple, kws: dict) -> Any:
        return resolve(self, context, tuple(plain(a) for a in args),
                       {name: plain(a) for name, a in kws.items()})
    get_call_type.plain_arguments = True        # type: ignore[attr-defined]
    types.Dispatcher.get_call_type = get_call_type  # type: ignore[method-assign,assignment]
