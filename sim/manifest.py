"""A run's ``manifest.json`` read through a schema (pydantic): what was run, its status and,
for every chunk written, its files' row counts, sizes and checksums.

A manifest that does not fit, a wrong type, a missing field, a list instead of an object, an
unknown game or agent, a bad seed or rule parameter, raises :class:`ManifestError`, one line
naming the field.  Every key is documented in docs/results.md.

``format`` 2 manifests record every chunk's files (``chunks``); a manifest without
``format`` was written before checksums (format 1): its runs still load, unverified.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

import agents
import engines
from agents import profiles
from engines.core import plugins
from sim.batch.spec import RunSpec

MANIFEST = "manifest.json"
FORMAT = 2                  # chunks recorded with their checksums


class RunError(ValueError):
    """A run directory that cannot be read as it is (one line naming the problem)."""


class ManifestError(RunError):
    """A manifest.json that is missing, not JSON or does not fit the schema."""


class TableFile(BaseModel):
    """One Parquet file of a chunk: its rows, bytes and checksum."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rows: int = Field(ge=0)
    bytes: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class ChunkRecord(BaseModel):
    """A chunk as written: its number of games and the file of each of its tables."""

    model_config = ConfigDict(extra="forbid", strict=True)
    games: int = Field(ge=1)
    files: dict[Literal["games", "players", "rounds"], TableFile]

    @model_validator(mode="after")
    def _games_file(self) -> ChunkRecord:
        if "games" not in self.files:
            raise ValueError("a chunk needs its games file")
        if self.files["games"].rows != self.games:
            raise ValueError(f"its games file has {self.files['games'].rows} rows for "
                             f"{self.games} games")
        return self


class SpecModel(BaseModel):
    """The manifest's ``spec``: everything that determines the run's tables."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    params: dict[str, str | int | float | bool]
    agents: list[str] = Field(min_length=1)
    seating: Literal["rotate", "fixed", "random"]
    seed: int = Field(ge=0)
    games: int = Field(ge=1)
    chunk_size: int = Field(ge=1)
    game_source: str | None = None          # a plugin game's import path
    agent_sources: dict[str, str] = {}      # a registered plugin bot's name -> import path

    @model_validator(mode="after")
    def _game_agents_and_params(self) -> SpecModel:
        # imported here: sim.runner brings in every batch kernel
        from sim.runner import HUMAN

        for field, register, items in (
                ("game_source", engines.register,
                 [(self.game, self.game_source)] if self.game_source else []),
                ("agent_sources", agents.register, list(self.agent_sources.items()))):
            for name, path in items:
                try:
                    register(name, path)
                except ValueError as error:
                    raise ValueError(f"{field}: {error}") from None
        if self.game not in engines.available():
            raise ValueError(f"game: unknown game {self.game!r}; games: "
                             f"{', '.join(engines.available())}")
        choices = agents.available(self.game)
        for name in self.agents:                # profiles: read from agent_params, not here
            base = profiles.split(name)[0]
            if name != HUMAN and base not in choices and not plugins.is_path(base):
                raise ValueError(f"agents: unknown agent {name!r} for {self.game}; agents: "
                                 f"{', '.join(choices)}, or package.module:Class")
        try:
            players = self.run_spec().params.players
        except ValueError as error:
            raise ValueError(f"params: {error}") from None
        if players != len(self.agents):
            raise ValueError(f"agents: {len(self.agents)} agents for {players} players")
        return self

    def run_spec(self) -> RunSpec:
        """The run's spec (its rule parameters validated)."""
        return RunSpec.from_json(self.model_dump())


class HumanRecord(BaseModel):
    """A person's game (``sim.play --save``): their seat and moves."""

    model_config = ConfigDict(strict=True)
    seat: int = Field(ge=0)
    moves: list[int]


class Manifest(BaseModel):
    """manifest.json (keys the schema does not name are kept as they are)."""

    model_config = ConfigDict(extra="allow")
    format: int = Field(default=1, ge=1, le=FORMAT, strict=True)
    spec: SpecModel
    status: Literal["running", "complete"]
    chunks: dict[str, ChunkRecord] | None = None
    agent_params: dict[str, dict[str, str]] = {}
    human: HumanRecord | None = None
    started: str | None = None
    finished: str | None = None
    wall_seconds: float | None = Field(default=None, ge=0)
    games_played: int | None = Field(default=None, ge=0)
    games_per_second: float | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _chunks_fit_the_spec(self) -> Manifest:
        if self.chunks is None:
            if self.format >= 2:
                raise ValueError("chunks: required from format 2 on")
            return self
        sizes = dict(self.spec.run_spec().chunks())
        for key, record in self.chunks.items():
            if not re.fullmatch(r"\d+", key) or int(key) not in sizes:
                raise ValueError(f"chunks.{key}: not the first game of a chunk of the run "
                                 f"(chunks of {self.spec.chunk_size} from game 0)")
            if record.games != sizes[int(key)]:
                raise ValueError(f"chunks.{key}.games: {record.games}, but the chunk has "
                                 f"{sizes[int(key)]} games")
        return self

    def records(self) -> dict[int, ChunkRecord] | None:
        """The recorded chunks by first game index (None: a format 1 run, not recorded)."""
        return None if self.chunks is None else {int(k): v for k, v in self.chunks.items()}


def validate(data: Any, where: str | os.PathLike) -> Manifest:
    """The manifest ``data`` (a parsed JSON value read from ``where``) checked against the
    schema; raises :class:`ManifestError` naming the first field that does not fit."""
    if not isinstance(data, dict):
        raise ManifestError(f"{where}: the manifest must be a JSON object, got "
                            f"{json_kind(data)}")
    try:
        return Manifest.model_validate(data)
    except ValidationError as error:
        raise ManifestError(f"{where}: {first_error(error)}") from None


def read(run_dir: str | os.PathLike) -> tuple[dict[str, Any], Manifest]:
    """The manifest of ``run_dir`` as its JSON object and checked (:func:`validate`);
    raises :class:`ManifestError` when there is none, it is not JSON or does not fit."""
    path = Path(run_dir) / MANIFEST
    if not Path(run_dir).exists():
        raise ManifestError(f"{run_dir}: no such run directory")
    if not Path(run_dir).is_dir():
        raise ManifestError(f"{run_dir}: not a run directory (a file)")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ManifestError(f"{run_dir}: not a run directory (no {MANIFEST})") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ManifestError(f"{path}: cannot be read ({error})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ManifestError(f"{path}: not valid JSON ({error.msg}, line {error.lineno})") \
            from None
    return data, validate(data, path)


def first_error(error: ValidationError) -> str:
    """The first problem pydantic found, as ``field: what is wrong``."""
    problem = error.errors(include_url=False)[0]
    field = ".".join(str(part) for part in problem["loc"])
    message = problem["msg"].removeprefix("Value error, ")
    if problem["type"] == "missing":
        return f"{field}: missing"
    if problem["type"] in ("dict_type", "model_type", "list_type"):
        message = f"{message}, got {json_kind(problem['input'])}"
    elif problem["type"].endswith("_type") or problem["type"].endswith("_parsing"):
        message = f"{message}, got {problem['input']!r}"
    inner = re.match(r"([a-z_]+): ", message)       # a field a model's own check names
    if field and inner:
        return f"{field}.{message}"
    return f"{field}: {message}" if field else message


def json_kind(value: Any) -> str:
    """What a parsed JSON value is, in words."""
    kinds = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
             int: "a number", float: "a number", type(None): "null"}
    return kinds.get(type(value), type(value).__name__)
