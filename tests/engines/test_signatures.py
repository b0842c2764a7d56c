"""engines.core.signatures: one compiled copy of a function per kind of argument, and the rules
that allocate nothing compiled without reference counting whoever calls them first."""
import sys
from types import ModuleType

import numpy as np
import pytest
from numba import njit, types
from numba.core.compiler import Flags
from numba.typed import List

import engines.core  # noqa: F401  (applies plain_arguments, allocation_free_without_nrt)
from engines.core.signatures import plain
from engines.core.specialise import Tag


@njit
def _card_at(cards, k):
    return cards[k] * 10 + k


@njit
def _three_calls(cards):
    # a constant, a value read from the int32 array, an int64
    return _card_at(cards, 0) + _card_at(cards, cards[1]) + _card_at(cards, np.int64(2))


def test_constants_and_narrow_integers_share_one_compiled_copy():
    cards = np.array([3, 1, 4, 1], dtype=np.int32)
    assert _three_calls(cards) == (30 + 0) + (10 + 1) + (40 + 2)
    assert [sig[1] for sig in _card_at.signatures] == [types.int64]


def test_plain_keeps_what_it_cannot_widen():
    assert plain(types.literal(7)) == types.int64
    assert plain(types.literal(True)) == types.boolean
    assert plain(types.int32) == types.int64
    assert plain(types.uint64) == types.uint64
    assert plain(types.float32) == types.float32
    array = types.Array(types.int32, 1, "C", readonly=True)
    assert plain(array) == array


@njit
def _as_text(n):
    return str(n)


def test_numba_own_implementations_keep_their_constant_arguments():
    # str() asks hasattr(x, "__str__"), whose name must stay a constant
    assert _as_text(42) == "42"


@njit
def _copy_into(out, s):
    out[:] = s


def test_a_slice_assignment_of_another_size_raises_the_plain_message():
    out = np.zeros(3, dtype=np.int32)
    _copy_into(out, np.arange(3, dtype=np.int32))
    assert list(out) == [0, 1, 2]
    code = "".join(_copy_into.inspect_llvm().values())
    assert "of shape" not in code      # numba's formatted message (and its string code)
    with pytest.raises(ValueError, match="cannot assign slice from input of different size"):
        _copy_into(out, np.arange(4, dtype=np.int32))


# --- allocation_free_without_nrt --------------------------------------------------------
FREE_SOURCE = '''
def double(s, out):
    for i in range(s.size):
        out[i] = 2 * s[i]
    return out.size

def copy_whole(s, out):
    out[:] = s
'''


@pytest.fixture
def make_module(monkeypatch):
    """Make a module holding FREE_SOURCE's functions, registered under ``name`` for the
    test only, declaring ``ALLOCATES`` unless ``allocates`` is None."""
    def make(name: str, allocates: bool | None) -> ModuleType:
        module = ModuleType(name)
        if allocates is not None:
            module.ALLOCATES = allocates
        exec(FREE_SOURCE, module.__dict__)
        monkeypatch.setitem(sys.modules, name, module)
        return module
    return make


def _counted(dispatcher) -> list[bool]:
    """For each compiled copy of ``dispatcher``: whether it keeps numba's reference counting."""
    return ["nrt=True" in Flags.demangle(c.fndesc.abi_tags[0])
            for c in dispatcher.overloads.values()]


@njit
def _tagged(tag, s):
    return s[0]


@pytest.mark.parametrize("allocates, counted", [(False, False), (True, True), (None, True)])
def test_an_allocation_free_rules_module_compiles_without_reference_counting(allocates,
                                                                            counted,
                                                                            make_module):
    module = make_module(f"tests_rules_allocates_{allocates}", allocates)
    double = njit(module.double)
    s, out = np.arange(4, dtype=np.int32), np.zeros(4, dtype=np.int32)
    assert double(s, out) == 4 and list(out) == [0, 2, 4, 6]   # called first from Python
    assert _counted(double) == [counted]


def test_a_call_specialised_by_its_tag_compiles_without_reference_counting(make_module):
    make_module("tests_rules_tagged_free", False)
    make_module("tests_rules_tagged_counted", True)
    s = np.arange(3, dtype=np.int64)
    assert _tagged(Tag("tests_rules_tagged_free"), s) == 0
    assert _tagged(Tag("tests_rules_tagged_counted"), s) == 0
    assert sorted(_counted(_tagged)) == [False, True]


def test_a_helper_that_needs_reference_counting_keeps_it(make_module):
    module = make_module("tests_rules_copy", False)
    copy_whole = njit(module.copy_whole)
    s, out = np.arange(5, dtype=np.int32), np.zeros(5, dtype=np.int32)
    copy_whole(s, out)
    assert list(out) == list(s) and _counted(copy_whole) == [True]


def test_a_typed_list_argument_keeps_reference_counting(make_module):
    make_module("tests_rules_listed", False)
    items = List([np.int64(3)])
    first = njit(lambda tag, items: items[0])
    assert first(Tag("tests_rules_listed"), items) == 3 and _counted(first) == [True]
