"""The schemas of the TOML files people write for the commands: experiment files
(``python -m sim.experiment``, docs/experiments.md) and design files (``python -m sim.design``,
docs/design.md); and of the settings the searches save for ``--resume`` (sim.design's,
sim.metagame's), which may have been edited since.

A file is read once, here, into typed settings: a wrong type, a missing field, a list where a
table belongs, a fraction where a whole number belongs (``games = 1e9`` is refused like
``--games 1e3``), an unknown key, game or analysis, a seed outside 0 .. 2**63 - 1, or a name
that cannot be a folder is one :class:`~sim.cli.UsageError` line naming the file and the
field.  What depends on the game's rules and bots (variant values, agents, player counts) is
checked afterwards by the same code as the command line's.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)

import engines
from sim.cli import MAX_SEED, UsageError, safe_name

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Count = Annotated[int, Field(ge=1)]
Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]


def folder_name(name: str) -> str:
    """``name`` when it can name a folder (ValueError saying what may, otherwise)."""
    try:
        return safe_name(name, "the name")
    except UsageError as error:
        raise ValueError(str(error)) from None


FolderName = Annotated[str, AfterValidator(folder_name)]
Finite = Annotated[float, Field(allow_inf_nan=False)]
Scalar = bool | int | float | str
Value = Scalar | list[Scalar]


class Strict(BaseModel):
    """Every field typed exactly as written (no text read as a number, no fraction as a
    whole number) and no unknown key."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def known_game(slug: str) -> str:
    """``slug`` when it names a game (ValueError naming the games otherwise)."""
    if slug not in engines.available():
        raise ValueError(f"unknown game {slug!r}; available games: "
                         f"{', '.join(engines.available())}")
    return slug


# --------------------------------------------------------------------------------------
# Experiment files
# --------------------------------------------------------------------------------------
class VariantEntry(Strict):
    """A ``[[variants]]`` table: a name (it names the cells' folders) and rule values."""

    name: FolderName
    params: dict[Text, Value] = {}


class TournamentEntry(Strict):
    """The ``[tournament]`` table: the bots rated and the games per lineup."""

    agents: list[Text] = Field(min_length=2)
    games: Count | None = None


class ExperimentFile(Strict):
    """An experiment file (docs/experiments.md)."""

    title: Text
    question: Text
    game: Text
    games: Count = 10_000
    seed: Seed = 0
    players: list[Count] | None = Field(default=None, min_length=1)
    lineups: list[Text] = Field(default=["random"], min_length=1)
    variants: list[VariantEntry] = Field(default=[VariantEntry(name="base")], min_length=1)
    tournament: TournamentEntry | None = None
    analyses: list[Text] = []

    _game = field_validator("game")(known_game)

    @field_validator("variants")
    @classmethod
    def _different_names(cls, variants: list[VariantEntry]) -> list[VariantEntry]:
        names = [v.name for v in variants]
        if len(set(names)) != len(names):
            raise ValueError(f"variant names must differ, got {', '.join(names)}")
        return variants

    @field_validator("analyses")
    @classmethod
    def _known_analyses(cls, names: list[str]) -> list[str]:
        from sim.analysis.questions import ANALYSES

        for name in names:
            if name not in ANALYSES:
                raise ValueError(f"unknown analysis {name!r}; available: "
                                 f"{', '.join(ANALYSES)}")
        return names


# --------------------------------------------------------------------------------------
# Design files
# --------------------------------------------------------------------------------------
class Range(Strict):
    """A searched range: ``{min, max}`` or, for a list parameter, ``{min, max, length}``."""

    min: int | Finite
    max: int | Finite
    length: Count | None = None


SpaceEntry = Literal[True] | Annotated[list[Scalar], Field(min_length=1)] | Range


class DesignFile(Strict):
    """A design file (docs/design.md), or the settings a search saved for ``--resume``."""

    game: Text
    players: Count | list[Count] | None = None
    space: dict[Text, SpaceEntry] | Text | list[Text] | None = None
    objectives: Text | list[Text] | None = None
    agents: Text | list[Text] | None = None
    variant: list[Text] | None = None
    trials: Count | None = None
    games_per_trial: Count | None = None
    final_games: Count | None = None
    sampler: Literal["nsga2", "tpe"] | None = None
    seed: Seed | None = None
    storage: Text | None = None
    study: Text | None = None

    _game = field_validator("game")(known_game)

    def settings(self) -> dict[str, Any]:
        """The settings given, as the command line's (unset ones left out)."""
        given = self.model_dump(exclude_none=True)
        if isinstance(given.get("players"), int):
            given["players"] = [given["players"]]
        if isinstance(given.get("space"), dict):
            given["space"] = {k: v.model_dump(exclude_none=True) if isinstance(v, Range)
                              else v for k, v in self.space.items()}  # type: ignore[union-attr]
        return given


class MetagameSettings(Strict):
    """The settings ``python -m sim.metagame`` saves in its directory for ``--resume``."""

    game: Text
    players: Count | None
    agents: list[Text]
    games: Count
    seed: Seed
    variant: list[Text]

    _game = field_validator("game")(known_game)


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------
def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file's tables (UsageError for a file that cannot be read or parsed)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"{path} is not valid TOML: {error}") from None
    except ValueError as error:             # a null character in the path
        raise UsageError(f"cannot read {str(path)!r}: {error}") from None


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], data: Any, source: str) -> M:
    """``data`` checked against ``model`` (UsageError naming ``source`` and the first
    field that is wrong, and how many others are)."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise UsageError(f"{source}: {problem(error, model)}") from None


# What a field taking several forms takes (its union's own errors say one form each).
FORMS = {
    "players": "a player count or a list of them",
    "space": "a table (KEY = a list of values, {min, max}, {min, max, length} or true), or "
             "text KEY=SPEC;...",
    "space.*": "a list of values, {min, max}, {min, max, length} or true",
    "objectives": "text or a list of texts",
    "agents": "text or a list of texts",
}


def problem(error: ValidationError, model: type[BaseModel] | None = None) -> str:
    """A validation error as one line: the first wrong field, what is wrong, what was
    given."""
    errors = error.errors(include_url=False)
    first = errors[0]
    where = field_path(first["loc"])
    form = where if where in FORMS else where.split(".")[0] + ".*"
    given = first.get("input")
    if len(errors) > 1 and form in FORMS and first["type"] != "missing":
        return f"{where} takes {FORMS[form]}, got {given!r}"
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] == "missing":
        message = "is required"
    if first["type"] == "extra_forbidden":
        known = f"; valid keys: {', '.join(model.model_fields)}" \
            if model is not None and len(first["loc"]) == 1 else ""
        return f"unknown key {where!r}{known}"
    shown = "" if first["type"] in ("missing", "value_error") or isinstance(given, dict) \
        else f", got {given!r}"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    if first["type"] == "missing":
        return f"{where} {message}{more}"
    return f"{where}: {message}{shown}{more}" if where else f"{message}{shown}{more}"


def field_path(loc: tuple[int | str, ...]) -> str:
    """A field's place as people write it: ``variants[2].name`` (the names pydantic gives
    the alternatives of a union left out)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "int", "float", "bool", "list[...]", "dict[...]") or \
                (isinstance(part, str) and ("[" in part or part.startswith(
                    ("constrained-", "function-", "literal[", "Range", "list", "dict",
                     "json-or-python"))) and part not in ("min", "max")):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out


def read_experiment(path: Path) -> ExperimentFile:
    """An experiment file, checked (UsageError naming the file and the field)."""
    return validated(ExperimentFile, read_toml(path), path.name)


def read_design(path: Path) -> dict[str, Any]:
    """A design file's settings, checked (UsageError naming the file and the field)."""
    return validated(DesignFile, read_toml(path), path.name).settings()
