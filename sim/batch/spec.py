"""What a run is: the game and its parameters, the agents and their seating rule, the seed,
the number of games and how they are split into chunks."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field, fields
from importlib import util
from pathlib import Path
from typing import TYPE_CHECKING, Any

import agents
import engines
from agents import profiles
from engines.core import plugins

if TYPE_CHECKING:
    from engines import GameParams


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's tables (and nothing that does not).

    Plugins (a game or bots that are not built in) are recorded by import path, set when the
    spec is made: ``game_source``, and ``agent_sources`` for each bot named by a registered
    or installed name (one named ``module:Class`` is its own path).  Worker processes
    and replays register them again (:meth:`register_plugins`), and ``python_path`` holds
    the folders on ``sys.path`` their modules were found in."""

    game: str
    params: GameParams               # the game's validated parameters
    agents: tuple[str, ...]          # agent i of the seating rule
    seating: str
    seed: int
    games: int
    chunk_size: int
    game_source: str | None = field(init=False, default=None)
    agent_sources: tuple[tuple[str, str], ...] = field(init=False, default=())
    python_path: tuple[str, ...] = field(init=False, default=(), compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.params, engines.params_class(self.game)):
            raise TypeError(f"RunSpec.params must be {self.game}'s parameters "
                            f"(engines.params_class({self.game!r})), got {self.params!r}")
        game_source = None if engines.builtin(self.game) else engines.source(self.game)
        bases = dict.fromkeys(profiles.split(a)[0] for a in self.agents)
        sources = tuple((b, agents.source(b)) for b in bases
                        if b in agents.available() and not agents.builtin(b))
        paths = [p for p in [game_source, *(s for _, s in sources)] if p] \
            + [b for b in bases if plugins.is_path(b)]
        object.__setattr__(self, "game_source", game_source)
        object.__setattr__(self, "agent_sources", sources)
        object.__setattr__(self, "python_path", python_path(paths))

    def register_plugins(self) -> None:
        """Make the run's plugins known in this process (a worker, a replay): their folders
        on ``sys.path``, the game and the named bots registered by their paths."""
        for folder in self.python_path:
            if folder not in sys.path:
                sys.path.append(folder)
        if self.game_source:
            engines.register(self.game, self.game_source)
        for name, path in self.agent_sources:
            agents.register(name, path)

    def load_game(self) -> Any:
        """The game with the run's parameters."""
        return engines.game_class(self.game)(self.params)

    def chunks(self) -> list[tuple[int, int]]:
        """(first game index, number of games) of every chunk, in order."""
        return [(start, min(self.chunk_size, self.games - start))
                for start in range(0, self.games, self.chunk_size)]

    def to_json(self) -> dict[str, Any]:
        """The manifest's ``spec``: every parameter as text, defaults included; plugins by
        import path (``game_source``, ``agent_sources``: name -> path)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init} | {
            "params": dict(item.split("=", 1) for item in self.params.to_strings()),
            "game_source": self.game_source, "agent_sources": dict(self.agent_sources)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunSpec:
        """The spec a manifest's ``spec`` describes (its plugins registered again by import
        path, its parameters validated again)."""
        if data.get("game_source"):
            engines.register(data["game"], data["game_source"])
        for name, path in (data.get("agent_sources") or {}).items():
            agents.register(name, path)
        params = engines.params_class(data["game"]).from_strings(
            {k: str(v) for k, v in data["params"].items()})
        return cls(game=data["game"], params=params,
                   agents=tuple(data["agents"]), seating=data["seating"],
                   seed=int(data["seed"]), games=int(data["games"]),
                   chunk_size=int(data["chunk_size"]))


def python_path(paths: list[str]) -> tuple[str, ...]:
    """The folders on ``sys.path`` the modules of these import paths are found in."""
    folders = []
    for path in paths:
        module = path.partition(":")[0]
        try:
            found = util.find_spec(module)
        except (ImportError, ValueError):
            continue
        if found is None or not found.origin:
            continue
        origin = Path(found.origin)
        depth = module.count(".") + (2 if origin.name == "__init__.py" else 1)
        folders.append(str(origin.parents[depth - 1]))
    return tuple(dict.fromkeys(folders))


def default_chunk_size(games: int, jobs: int, compiled: bool = True) -> int:
    """About 8 chunks per worker: 500 to 20,000 games when the compiled kernel plays (a
    chunk must outweigh its Parquet files), 1 to 500 through the Python API (slow bots must
    still spread over every worker)."""
    low, high = (500, 20_000) if compiled else (1, 500)
    return int(min(high, max(low, math.ceil(games / (8 * jobs)))))
