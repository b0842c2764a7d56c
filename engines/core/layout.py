"""Flat array layouts: named fields of a one-dimensional int32 array.

Compiled engines keep a game state (and their parameters) in one flat ``int32`` array, cheap
to pass to compiled functions, to copy and to store; their records (a row per round and seat)
are flat rows too.  A :class:`Layout` names the fields, like a C struct, and gives each its
offset; engines bind the offsets to module constants that compiled code reads (``s[PHASE]``,
``s[HAND_SIZE + p]``, ``r[ROUND_BET_CORRECT]``) and Python code decodes by name.

A constant is the field's name upper-cased, after a prefix that says which layout it belongs
to when a module has several (``ROUND_`` for a round row), bound explicitly so that readers and
linters see every name, either field by field or all in declaration order (``_`` and ``*_``
pass over fields a module does not name)::

    ROUND_ROW = Layout("round", "seat", "bet", ("score", MAX_PLAYERS))
    ROUND_SEAT, ROUND_SCORE = ROUND_ROW.offsets("seat", "score")
    (ROUND_ROUND, ROUND_SEAT, ROUND_BET, ROUND_SCORE) = ROUND_ROW.offsets()

Numba freezes a module's integer globals when it compiles a function, so ``r[ROUND_BET]`` is
a compile-time constant, as ``r[2]`` was.  :meth:`Layout.constants` lists the names a layout's
constants should have (``tests/engines/test_layout.py`` checks the engines' bindings against
it, and that every unpacking of ``offsets()`` names the fields in their order).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import lower_builtin, type_callable
from numba.np.arrayobj import make_array, populate_array
from numpy.typing import ArrayLike


class Layout:
    """Fields in declaration order, each ``(name, size)`` or a bare name for a one-value
    field; see :meth:`offset`."""

    def __init__(self, *fields: str | tuple[str, int]) -> None:
        self._offsets: dict[str, tuple[int, int]] = {}
        offset = 0
        for field in fields:
            name, size = (field, 1) if isinstance(field, str) else field
            if name in self._offsets:
                raise ValueError(f"field {name!r} declared twice")
            self._offsets[name] = (offset, size)
            offset += size
        self.size = offset

    def offset(self, name: str) -> int:
        return self._offsets[name][0]

    def offsets(self, *names: str) -> tuple[int, ...]:
        """The offsets of the fields ``names``, in that order (every field in declaration
        order when none is named), to bind to module constants:
        ``ROUND_BET, ROUND_SEAT = ROUND_ROW.offsets("bet", "seat")``, or
        ``(PHASE, TURN, *_, RANK) = STATE.offsets()``."""
        return tuple(self.offset(name) for name in (names or self._offsets))

    def constants(self, prefix: str = "") -> dict[str, int]:
        """Each field's offset under its constant's name, ``prefix`` + the field's name
        upper-cased: ``{"ROUND_BET": 3, ...}``."""
        return {prefix + name.upper(): start for name, (start, _) in self._offsets.items()}

    def encode(self, **values: ArrayLike) -> np.ndarray:
        """A new array holding each field's value from ``values``, given by field name (a
        field of several values takes a sequence, the rest of it left 0); every field must
        be given, so that none is forgotten at 0."""
        missing = [name for name in self._offsets if name not in values]
        unknown = [name for name in values if name not in self._offsets]
        if missing or unknown:
            raise ValueError(f"layout fields missing {missing}, unknown {unknown}")
        out = self.new()
        for name, value in values.items():
            start, size = self._offsets[name]
            flat = np.ravel(np.asarray(value, dtype=np.int64))
            if flat.size > size:
                raise ValueError(f"field {name!r} holds {size} values, given {flat.size}")
            out[start:start + flat.size] = flat
        return out

    def size_of(self, name: str) -> int:
        return self._offsets[name][1]

    def names(self) -> list[str]:
        return list(self._offsets)

    def get(self, array: np.ndarray, name: str) -> np.ndarray:
        """A view of field ``name`` in ``array``."""
        start, size = self._offsets[name]
        return array[start:start + size]

    def new(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.int32)


@njit(cache=True, inline="always")
def copy_into(out, s):
    """Copy the flat array ``s`` into ``out`` (same size), element by element: ``out[:] = s``
    would allocate a temporary, which compiled loops without reference counting cannot
    (see :mod:`sim.kernels.factory`)."""
    for i in range(s.shape[0]):
        out[i] = s[i]


def stack_room(shape: int | tuple[int, ...], dtype: type = np.int32) -> np.ndarray:
    """A work array, as ``np.empty(shape, dtype)`` (``shape`` a constant size or a tuple of
    them, ``dtype`` a numpy scalar type: ``stack_room(MAX_RUN)``,
    ``stack_room((LEVELS, MAX_CANDIDATES), np.int64)``), its values undefined.

    Called from Python, that is what it returns.  In compiled code, the array is in the
    stack frame of the compiled function that asks for it, for the time of its call:
    nothing is allocated, so compiled loops without reference counting may use it (see
    :func:`copy_into`).  It must not outlive that call (not returned, not kept), except
    through a function that numba inlines into its caller (``inline="always"``), whose
    body is the caller's."""
    return np.empty(shape, dtype=dtype)


def _literal_shape(shape: Any) -> tuple[int, ...] | None:
    """The constant sizes of a shape's numba type (a literal integer, or a tuple of them)."""
    sizes = (shape.dtype,) * shape.count if isinstance(shape, types.UniTuple) \
        else shape.types if isinstance(shape, types.Tuple) else (shape,)
    if not all(isinstance(size, types.IntegerLiteral) for size in sizes):
        return None
    return tuple(size.literal_value for size in sizes)


@type_callable(stack_room)
def _type_stack_room(context):
    def typer(shape, dtype=None):
        sizes = _literal_shape(shape)
        if sizes is None or not (dtype is None or isinstance(dtype, types.NumberClass)):
            return None
        item_type = types.int32 if dtype is None else dtype.instance_type
        return types.Array(item_type, len(sizes), "C")
    return typer


@lower_builtin(stack_room, types.VarArg(types.Any))
def _lower_stack_room(context, builder, signature, args):
    sizes = _literal_shape(signature.args[0])
    room = signature.return_type
    item = context.get_data_type(room.dtype)
    itemsize = context.get_abi_sizeof(item)
    strides = [itemsize * math.prod(sizes[axis + 1:]) for axis in range(len(sizes))]
    array = make_array(room)(context, builder)
    populate_array(array, data=cgutils.alloca_once(builder, item, size=math.prod(sizes)),
                   shape=[cgutils.intp_t(size) for size in sizes],
                   strides=[cgutils.intp_t(stride) for stride in strides],
                   itemsize=itemsize, meminfo=None)
    return array._getvalue()


@njit(cache=True, inline="always")
def sort_field(a):
    """Sort a few elements of a state field in place, ascending (an insertion sort: numba's
    ``a.sort()`` needs reference counting, see :func:`copy_into`)."""
    for i in range(1, a.shape[0]):
        value = a[i]
        j = i - 1
        while j >= 0 and a[j] > value:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = value
