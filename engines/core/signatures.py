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
``numba.literally``, which no rule does.  numba's own implementations (``str``,
``hasattr`` and the like, compiled as dispatchers too) keep numba's typing: some need a
constant's value, and one that fails to type is compiled again at every call.  It changes
how numba resolves a call to a dispatcher (``numba.core.types.Dispatcher.get_call_type``,
which the Python-to-compiled entry does not use), once per process, when
:mod:`engines.core` is imported, before anything is compiled.

:func:`plain_shape_errors`, applied at the same time, keeps numba's string formatting out
of the compiled rules (below).

:func:`allocation_free_without_nrt`, also applied then, compiles the rules of a game that
allocates nothing (its rules module's ``ALLOCATES = False``) without numba's reference
counting whoever calls them first (below).
"""

from __future__ import annotations

import sys
from typing import Any

from numba.core import dispatcher, errors, types
from numba.extending import overload
from numba.np import arrayobj

from engines.core.specialise import TagType

NARROW = (types.int8, types.int16, types.int32)    # the signed integers passed as int64
NUMBA = "numba."                                    # whose compiled functions keep their types
NEEDS_NRT = "NRT required but not enabled"          # numba's error for code that needs NRT


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
        if self.dispatcher.py_func.__module__.startswith(NUMBA):
            return resolve(self, context, args, kws)
        return resolve(self, context, tuple(plain(a) for a in args),
                       {name: plain(a) for name, a in kws.items()})
    get_call_type.plain_arguments = True        # type: ignore[attr-defined]
    types.Dispatcher.get_call_type = get_call_type  # type: ignore[method-assign,assignment]


def shape_error(src_shapes: Any, index_shape: Any) -> None:
    """Raise the error of a slice assignment from an array of another size (compiled)."""
    raise NotImplementedError("compiled code only")


@overload(shape_error)
def _shape_error(src_shapes: Any, index_shape: Any) -> Any:
    def impl(src_shapes: Any, index_shape: Any) -> None:
        raise ValueError("cannot assign slice from input of different size")
    return impl


def plain_shape_errors() -> None:
    """Give every slice assignment from an array (``out[:] = s``) numba's plain error
    message instead of its formatted one (once per process).

    numba raises the error through ``raise_with_shape_context``, whose CPU implementation
    formats both shapes: the string formatting it needs was compiled into every function
    holding such an assignment (a fifth of a small game's compile time, a tenth of all).
    Only the message changes: "cannot assign slice from input of different size"."""
    arrayobj.raise_with_shape_context = shape_error


def allocation_free(module: str) -> bool:
    """Whether the module named ``module`` is a loaded rules module that allocates nothing
    (``ALLOCATES = False``)."""
    return getattr(sys.modules.get(module), "ALLOCATES", True) is False


def without_nrt(py_func: Any, args: tuple) -> bool:
    """Whether a compile of ``py_func`` for ``args`` drops numba's reference counting: a
    function of an allocation-free rules module, or one specialised by such a module's tag
    (:class:`~engines.core.specialise.Tag`), unless an argument is a typed list (whose
    items need the counting)."""
    if any(isinstance(arg, types.ListType) for arg in args):
        return False
    return allocation_free(getattr(py_func, "__module__", "")) or any(
        isinstance(arg, TagType) and allocation_free(arg.tag) for arg in args)


def allocation_free_without_nrt() -> None:
    """Compile the rules of the games that allocate nothing, and the calls specialised by
    their tag, without numba's reference counting, whatever calls them first (once per
    process).

    numba keeps one compiled copy of a function per argument types, made under the flags of
    its first caller, a callee inheriting the caller's ``nrt`` unless its own options set it.
    The batch kernel of these games runs without the counting (``sim.kernels.factory``), the
    Python API with it; so whichever compiled a rule first decided for every later caller,
    and a cache where the Python path came first ran the compiled searches about half as fast
    (Paris d'amis: 200 decisions/s against 395, docs/bench.md).  With the counting set off
    in the compile's own options, every caller gets the same copy.  Only the counting goes:
    these rules neither allocate nor hand a new array back to their caller.  A function that
    cannot be compiled without the counting (a helper of the Python API that copies an array
    with ``out[:] = s``, which the compiled calls do not reach) is compiled with it."""
    compiler = dispatcher._FunctionCompiler     # type: ignore[attr-defined]
    compile_core = compiler._compile_core
    if getattr(compile_core, "allocation_free_without_nrt", False):
        return

    def _compile_core(self: Any, args: tuple, return_type: Any) -> Any:
        if not without_nrt(self.py_func, args) or self.targetoptions.get("_nrt") is False:
            return compile_core(self, args, return_type)
        options = self.targetoptions
        self.targetoptions = dict(options, _nrt=False)
        try:
            return compile_core(self, args, return_type)
        except errors.NumbaError as error:
            if NEEDS_NRT not in str(error):
                raise
        finally:
            self.targetoptions = options
        return compile_core(self, args, return_type)    # a function that needs the counting
    _compile_core.allocation_free_without_nrt = True     # type: ignore[attr-defined]
    compiler._compile_core = _compile_core
