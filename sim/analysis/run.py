"""A finished batch run opened for analysis: its manifest and its result tables."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sim import results


@dataclass(frozen=True, eq=False)
class Run:
    """One complete run directory: manifest, ``games`` and ``players`` tables, and the
    ``rounds`` table when the game is played in rounds (else None)."""

    path: Path
    manifest: dict[str, Any] = field(repr=False)
    games: pd.DataFrame = field(repr=False)
    players: pd.DataFrame = field(repr=False)
    rounds: pd.DataFrame | None = field(repr=False)
    label: str

    def rounds_table(self) -> pd.DataFrame:
        """The ``rounds`` table, for code that only runs on games played in rounds (after
        :meth:`has`, or in a question asked of such a game); a clear error otherwise."""
        if self.rounds is None:
            raise ValueError(f"{self.path} has no rounds table (the game is not played in "
                             "rounds)")
        return self.rounds

    @classmethod
    def open(cls, path: str | os.PathLike, label: str | None = None) -> Run:
        """The run in ``path``, labelled ``label`` (default: the directory's name).

        Raises ValueError when ``path`` is not a run directory, its manifest does not fit
        (:class:`~sim.manifest.ManifestError`), the run is incomplete or a chunk is damaged
        (:class:`~sim.results.DamagedRun`)."""
        path = Path(path)
        manifest = results.read_manifest(path)
        status = manifest.get("status")
        if status != "complete":
            raise ValueError(f"{path} is an incomplete run (status {status!r}); finish it "
                             f"with python -m sim.batch --resume {path}")
        tables = results.load(path)
        if tables["games"].empty:
            raise ValueError(f"{path} holds no games table although its manifest says "
                             f"complete")
        rounds = tables["rounds"]
        return cls(path=path, manifest=manifest, games=tables["games"],
                   players=tables["players"], rounds=None if rounds.empty else rounds,
                   label=label or path.name)

    @property
    def game(self) -> str:
        """The game's slug."""
        return self.manifest["spec"]["game"]

    @property
    def params(self) -> dict[str, str]:
        """Every rule parameter of the run, defaults included, as text."""
        return {key: str(value) for key, value in self.manifest["spec"]["params"].items()}

    @property
    def agents(self) -> list[str]:
        """Agent i of the seating rule, for each i."""
        return list(self.manifest["spec"]["agents"])

    @property
    def seed(self) -> int:
        """The run's seed."""
        return int(self.manifest["spec"]["seed"])

    @property
    def n_players(self) -> int:
        """Players per game."""
        return len(self.agents)

    @property
    def first_seat(self) -> int:
        """The seat that starts the game (the ``first_player`` parameter, else 0)."""
        return int(self.params.get("first_player", 0))

    def has(self, table: str, *columns: str) -> bool:
        """Whether the run has ``table`` ("games", "players" or "rounds") with ``columns``."""
        frame = getattr(self, table)
        return frame is not None and set(columns) <= set(frame.columns)
