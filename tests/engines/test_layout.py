"""The flat-array layout and its compiled helpers (they replace numpy forms that compiled
loops without reference counting cannot use)."""

import ast
import importlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

import engines
from engines.core.layout import Layout, copy_into, sort_field, stack_room

values = st.lists(st.integers(-(2**31), 2**31 - 1), max_size=40)


@given(values)
def test_sort_field_sorts_a_slice_in_place_and_leaves_the_rest(items):
    a = np.array([7, *items, -7], dtype=np.int32)
    sort_field(a[1:-1])
    assert a[1:-1].tolist() == sorted(items)
    assert (a[0], a[-1]) == (7, -7)


@given(values)
def test_copy_into_copies_every_element(items):
    s = np.array(items, dtype=np.int32)
    out = np.full(len(items), 99, dtype=np.int32)
    copy_into(out, s)
    assert out.tolist() == items


ROOM = 9


# without reference counting, as the kernels that use it (numba's option, absent from its stubs)
@njit(_nrt=False)  # type: ignore[call-overload]
def _reversed_through_room(items):
    room = stack_room(ROOM)
    for i in range(ROOM):
        room[ROOM - 1 - i] = items[i]
    copy_into(items, room)
    return room.size


def test_stack_room_is_a_work_array_of_the_size_asked_in_a_loop_without_reference_counting():
    items = np.arange(ROOM, dtype=np.int32)
    assert _reversed_through_room(items) == ROOM
    assert items.tolist() == list(range(ROOM))[::-1]


ROWS, COLUMNS = 3, 4


@njit(_nrt=False)  # type: ignore[call-overload]
def _table_through_room(base):
    room = stack_room((ROWS, COLUMNS), np.int64)
    for r in range(ROWS):
        for c in range(COLUMNS):
            room[r, c] = base + r * COLUMNS + c     # beyond int32
    return room[ROWS - 1, COLUMNS - 1] - room[0, 0], room.shape[0], room.shape[1]


def test_stack_room_takes_a_dtype_and_a_shape_of_constants():
    assert _table_through_room(2**40) == (ROWS * COLUMNS - 1, ROWS, COLUMNS)


@njit(_nrt=False)  # type: ignore[call-overload]
def _square_room():
    return stack_room((ROWS, ROWS)).shape       # a tuple of equal sizes, int32


def test_stack_room_takes_a_square_shape():
    assert _square_room() == (ROWS, ROWS)


def test_layout_rejects_a_field_declared_twice():
    with pytest.raises(ValueError, match="declared twice"):
        Layout(("phase", 1), ("phase", 2))


def test_a_bare_name_is_a_one_value_field():
    row = Layout("round", ("score", 4), "seat")
    assert row.offsets("seat", "round", "score") == (5, 0, 1)
    assert (row.size_of("round"), row.size) == (1, 6)


def test_constants_name_each_offset_after_its_field():
    assert Layout("bet", ("score", 4), "bet_correct").constants("ROUND_") == {
        "ROUND_BET": 0, "ROUND_SCORE": 1, "ROUND_BET_CORRECT": 5}


ENGINES = Path(engines.__file__).parent
ROUND_ROWS = sorted("engines." + ".".join(path.relative_to(ENGINES).with_suffix("").parts)
                    for path in ENGINES.rglob("*.py")
                    if "\nROUND_ROW = Layout(" in path.read_text())


def test_round_rows_are_found():
    assert {"engines.games.paris_damis.summary", "engines.games.rami.rules"} <= set(ROUND_ROWS)


@pytest.mark.parametrize("module", ROUND_ROWS)
def test_round_row_constants_are_bound_by_name(module):
    """A module's ``ROUND_<FIELD>`` constants are the offsets of its round row's fields (the
    rows the records write and the tables read), and its ``ROUND_WIDTH`` the row's size."""
    records = importlib.import_module(module)
    expected = records.ROUND_ROW.constants("ROUND_")
    bound = {name: value for name, value in vars(records).items() if name in expected}
    assert bound == {name: expected[name] for name in bound}
    assert records.ROUND_WIDTH == records.ROUND_ROW.size


def _unpackings(module: str):
    """Each ``(A, B, *_, C) = LAYOUT.offsets()`` of ``module``: the layout's source text and
    the target names (``*_`` as ``"*"``)."""
    path = ENGINES.joinpath(*module.split(".")[1:]).with_suffix(".py")
    for node in ast.walk(ast.parse(path.read_text())):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute)
                and node.value.func.attr == "offsets" and not node.value.args
                and isinstance(node.targets[0], ast.Tuple)):
            names = ["*" if isinstance(t, ast.Starred) else t.id for t in node.targets[0].elts]
            yield ast.unparse(node.value.func.value), names


UNPACKING = sorted("engines." + ".".join(path.relative_to(ENGINES).with_suffix("").parts)
                   for path in ENGINES.rglob("*.py") if ".offsets()" in path.read_text())


def test_offsets_with_no_names_are_every_field_in_order():
    assert Layout("a", ("b", 3), "c").offsets() == (0, 1, 4)


def test_unpackings_are_found():
    assert {"engines.games.paris_damis.rules", "engines.families.war.rules"} <= set(UNPACKING)


@pytest.mark.parametrize("module", UNPACKING)
def test_every_unpacking_of_a_layout_names_its_fields_in_order(module):
    """``(PHASE, TURN, *_, RANK) = STATE.offsets()`` binds each name to the field it spells
    (one prefix, such as ``P_``, for the whole layout): a field added, removed or moved in
    the layout without the names following fails here, not as a wrong offset."""
    found = importlib.import_module(module)
    for source, names in _unpackings(module):
        fields = eval(source, vars(found)).names()
        if "*" in names:
            star = names.index("*")
            after = len(names) - star - 1
            names = names[:star] + ["_"] * (len(fields) - star - after) + names[star + 1:]
        assert len(names) == len(fields), (source, names, fields)
        pairs = list(zip(names, fields, strict=True))
        named = [(name, field) for name, field in pairs if name != "_"]
        prefix = named[0][0][:-len(named[0][1])]
        assert [name for name, _ in named] == [prefix + field.upper() for _, field in named], \
            source


def test_encode_sets_every_field_by_name_and_pads_a_short_sequence():
    layout = Layout("players", ("deck", 4), "flag")
    assert layout.encode(players=3, deck=[7, 8], flag=True).tolist() == [3, 7, 8, 0, 0, 1]


@pytest.mark.parametrize("values, message", [
    ({"players": 3, "deck": [1]}, r"missing \['flag'\]"),
    ({"players": 3, "deck": [1], "flag": 0, "extra": 1}, r"unknown \['extra'\]"),
    ({"players": 3, "deck": [1] * 5, "flag": 0}, "'deck' holds 4 values, given 5"),
])
def test_encode_refuses_a_field_missing_unknown_or_too_long(values, message):
    with pytest.raises(ValueError, match=message):
        Layout("players", ("deck", 4), "flag").encode(**values)
