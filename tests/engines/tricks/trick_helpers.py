"""Helpers shared by the trick games' tests (rikiki, chasse-coeur, pétasse, vicaire):
scripted play, legal action texts, and the columns a results page documents."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa

DOCS = Path(__file__).resolve().parents[3] / "docs"
TYPES = {"int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
         "float32": pa.float32(), "bool": pa.bool_(), "list<int8>": pa.list_(pa.int8()),
         "category": pa.dictionary(pa.int8(), pa.string())}


def play(state, *actions: str):
    """Apply ``actions`` (texts) in order; return the state."""
    for a in actions:
        state.apply(a)
    return state


def texts(state) -> list[str]:
    return [a.text for a in state.legal_actions()]


def documented_columns(slug: str) -> dict[str, list[tuple[str, pa.DataType]]]:
    """(name, type) of every column in each table section of ``docs/results-SLUG.md``."""
    tables: dict[str, list[tuple[str, pa.DataType]]] = {}
    current = None
    for line in (DOCS / f"results-{slug}.md").read_text().splitlines():
        heading = re.match(r"## (\w+) — ", line)
        if heading:
            current = tables.setdefault(heading.group(1), [])
        elif current is not None and line.startswith("| `"):
            name, kind = re.match(r"\| `(\w+)` \| ([^ |]+) \|", line).groups()
            current.append((name, TYPES[kind]))
    return tables
