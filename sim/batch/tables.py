"""A chunk of games played, by the game's compiled kernel or through the Python API, and
its result tables (games, players, rounds)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

import agents
from sim.batch.seating import seating
from sim.batch.spec import RunSpec
from sim.kernels import has_kernel, kernel_for
from sim.runner import agent_params, play_python


class GameFailed(Exception):
    """A game raised: carries its index so that it can be replayed."""

    def __init__(self, index: int, error: Exception) -> None:
        super().__init__(index, error)
        self.index = index
        self.error = error


def uses_kernel(spec: RunSpec) -> bool:
    """Whether the compiled kernel plays the run's chunks."""
    return kernel_plays(spec.game, spec.agents)


def kernel_plays(game: str, agent_names: Sequence[str]) -> bool:
    """Whether the game has a compiled kernel with a compiled twin of every agent, with its
    parameters for a profile (``NAME@PROFILE``)."""
    return has_kernel(game) and all(kernel_for(game).plays(*seat)
                                    for seat in agent_params(game, agent_names))


def play_chunk(spec: RunSpec, start: int, count: int) -> dict[str, pa.Table]:
    """The result tables of games start..start+count-1."""
    spec.register_plugins()         # in a worker process, the run's plugins by import path
    game = spec.load_game()
    seats = seating(spec, start, count)
    if uses_kernel(spec):
        kernel = kernel_for(spec.game)
        ids, weights = kernel.lineup(agent_params(spec.game, spec.agents), spec.game)
        out = kernel.play(game, ids[seats], spec.seed, start, count, weights=weights)
        rows, rounds, round_counts = out.rows, out.rounds, out.round_counts
    else:
        bots = [agents.load(a, game=spec.game) for a in spec.agents]
        rows_list, rounds_list, counts = [], [], []
        for g in range(count):
            try:
                state = play_python(game, [bots[a] for a in seats[g]], spec.seed, start + g)
            except Exception as error:
                raise GameFailed(start + g, error) from error
            row, game_rounds = state.records()
            rows_list.append(row)
            rounds_list.append(game_rounds)
            counts.append(len(game_rounds))
        rows, rounds = np.stack(rows_list), np.concatenate(rounds_list)
        round_counts = np.array(counts)
    return build_tables(game, spec, start, count, seats, rows, rounds, round_counts)


def build_tables(game: Any, spec: RunSpec, start: int, count: int, seats: np.ndarray,
                 rows: np.ndarray, rounds: np.ndarray | None,
                 round_counts: np.ndarray) -> dict[str, pa.Table]:
    """The games, players and rounds tables of a chunk from its records."""
    summary = game.summary
    n = game.num_players
    game_id = np.arange(start, start + count, dtype=np.int64)
    players = summary.player_columns(game.params, rows)
    ranks = players["rank"]
    games = {"game_id": game_id, "seed": np.full(count, spec.seed, dtype=np.int64),
             "n_players": np.full(count, n, dtype=np.int8)}
    games |= summary.game_columns(game.params, rows)
    winners = ranks == 1
    offsets = np.concatenate([[0], np.cumsum(winners.sum(axis=1))]).astype(np.int32)
    seats_won = np.nonzero(winners)[1].astype(np.int8)
    games["winner_seats"] = pa.ListArray.from_arrays(arrow_array(offsets),
                                                     arrow_array(seats_won))
    games_table = arrow_table(games)
    agent_index = seats.reshape(-1).astype(np.int8)
    player_cols = {"game_id": np.repeat(game_id, n),
                   "seat": np.tile(np.arange(n, dtype=np.int8), count),
                   "agent": agent_column(spec.agents, agent_index),
                   "agent_index": agent_index}
    player_cols |= {k: v.reshape(-1) for k, v in players.items()}
    tables = {"games": games_table, "players": arrow_table(player_cols)}
    if rounds is not None:
        round_cols = {"game_id": np.repeat(game_id, round_counts)}
        round_cols |= summary.round_columns(game.params, rounds)
        tables["rounds"] = arrow_table(round_cols)
    return tables


def agent_column(names: Sequence[str], agent_index: np.ndarray) -> pa.DictionaryArray:
    """The agent name of each row, from the run's agent indices."""
    unique = list(dict.fromkeys(names))
    code_of = np.array([unique.index(n) for n in names], dtype=np.int8)
    return categorical(code_of[agent_index], unique)


def categorical(codes: np.ndarray, categories: Sequence[str]) -> pa.DictionaryArray:
    """A string column stored as codes into its categories (read back as text)."""
    return pa.DictionaryArray.from_arrays(arrow_array(codes), text_array(categories))


# pyarrow's generic conversion (pa.array) imports pandas, which would cost every batch
# process about 0.3 CPU s on its first chunk: the tables' columns are built on their memory.
def arrow_table(columns: dict[str, Any]) -> pa.Table:
    """A table of columns given as Arrow arrays, numpy arrays of numbers or bools, or
    ``(codes, categories)`` (a categorical column)."""
    return pa.table({name: column if isinstance(column, pa.Array)
                     else categorical(*column) if isinstance(column, tuple)
                     else arrow_array(column) for name, column in columns.items()})


def arrow_array(values: np.ndarray) -> pa.Array:
    """A numpy column of numbers, bools or text as an Arrow array, numbers on the same
    memory, bools packed to bits."""
    if values.dtype.kind == "U":
        return text_array(values.tolist())
    values = np.ascontiguousarray(values)
    if values.dtype.kind == "b":
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values),
                                 [None, pa.py_buffer(values)])


def text_array(texts: Sequence[str]) -> pa.Array:
    """Strings as an Arrow string array."""
    encoded = [text.encode() for text in texts]
    offsets = np.cumsum([0] + [len(e) for e in encoded], dtype=np.int32)
    return pa.Array.from_buffers(pa.string(), len(encoded), [None, pa.py_buffer(offsets),
                                                             pa.py_buffer(b"".join(encoded))])


# numpy's dtype of each Arrow type the tables hold as numbers or bools
NUMPY_DTYPES = {pa.from_numpy_dtype(np.dtype(name)): np.dtype(name)
                for name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                             "uint32", "uint64", "float32", "float64")}


def numpy_column(table: pa.Table, name: str) -> np.ndarray:
    """A column of numbers or bools, without nulls, as a numpy array (read-only; on the
    table's memory where the column is one chunk of numbers): :func:`arrow_array` undone
    without pyarrow's ``to_numpy``, which imports pandas."""
    arrays = [numpy_array(chunk) for chunk in table[name].chunks]
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def numpy_array(array: pa.Array) -> np.ndarray:
    """An Arrow array of numbers or bools without nulls as a numpy array (see
    :func:`numpy_column`)."""
    if array.null_count:
        raise ValueError(f"{array.null_count} nulls in a column of numbers")
    dtype = NUMPY_DTYPES[array.type]
    data, start, n = array.buffers()[1], array.offset, len(array)
    if dtype.kind == "b":
        bits = np.frombuffer(data, dtype=np.uint8)
        return np.unpackbits(bits, count=start + n, bitorder="little")[start:].view(bool)
    return np.frombuffer(data, dtype=dtype, count=n, offset=start * dtype.itemsize)
