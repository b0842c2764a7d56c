"""What a run is: the game and its parameters, the agents and their seating rule, the seed,
the number of games and how they are split into chunks."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import engines

if TYPE_CHECKING:
    from engines import GameParams


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's tables (and nothing that does not)."""

    game: str
    params: GameParams               # the game's validated parameters
    agents: tuple[str, ...]          # agent i of the seating rule
    seating: str
    seed: int
    games: int
    chunk_size: int

    def __post_init__(self) -> None:
        if not isinstance(self.params, engines.params_class(self.game)):
            raise TypeError(f"RunSpec.params must be {self.game}'s parameters "
                            f"(engines.params_class({self.game!r})), got {self.params!r}")

    def load_game(self) -> Any:
        """The game with the run's parameters."""
        return engines.game_class(self.game)(self.params)

    def chunks(self) -> list[tuple[int, int]]:
        """(first game index, number of games) of every chunk, in order."""
        return [(start, min(self.chunk_size, self.games - start))
                for start in range(0, self.games, self.chunk_size)]

    def to_json(self) -> dict[str, Any]:
        """The manifest's ``spec``: every parameter as text, defaults included."""
        return {f.name: getattr(self, f.name) for f in fields(self)} | {
            "params": dict(item.split("=", 1) for item in self.params.to_strings())}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunSpec:
        """The spec a manifest's ``spec`` describes (its parameters validated again)."""
        params = engines.params_class(data["game"]).from_strings(
            {k: str(v) for k, v in data["params"].items()})
        return cls(game=data["game"], params=params,
                   agents=tuple(data["agents"]), seating=data["seating"],
                   seed=int(data["seed"]), games=int(data["games"]),
                   chunk_size=int(data["chunk_size"]))


def default_chunk_size(games: int, jobs: int, compiled: bool = True) -> int:
    """About 8 chunks per worker: 500 to 20,000 games when the compiled kernel plays (a
    chunk must outweigh its Parquet files), 1 to 500 through the Python API (slow bots must
    still spread over every worker)."""
    low, high = (500, 20_000) if compiled else (1, 500)
    return int(min(high, max(low, math.ceil(games / (8 * jobs)))))
